import { requiredText } from '../../shared/fields/inputs';

/** Canvas ID, as Trigger Canvas and the scheduled-canvas operations declare it; the hint says which canvas each means. */
export const canvasIdInput = (propertyHint: string) =>
	requiredText({
		displayName: 'Canvas ID',
		name: 'canvasId',
		type: 'string',
		default: '',
		required: true,
		builderHint: { propertyHint },
	});
