import type { INodeProperties } from 'n8n-workflow';

/** Canvas ID, as Trigger Canvas and the scheduled-canvas operations declare it; the hint says which canvas each means. */
export const canvasIdField = (propertyHint: string): INodeProperties => ({
	displayName: 'Canvas ID',
	name: 'canvasId',
	type: 'string',
	default: '',
	required: true,
	builderHint: { propertyHint },
});
