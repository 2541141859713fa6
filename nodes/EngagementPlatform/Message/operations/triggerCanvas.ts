import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Input } from '../../shared/fields/inputs';
import { jsonObject } from '../../shared/fields/inputs';
import { dispatchOperation, dispatchPiece, dispatchShape, RECIPIENTS_PER_REQUEST } from '../shared/dispatchOperation';
import { AUDIENCE, recipientInput } from '../shared/recipientFields';
import { canvasIdInput } from '../shared/canvasIdField';

export const option: INodePropertyOptions = {
	name: 'Trigger Canvas',
	value: 'triggerCanvas',
	action: 'Trigger an API-triggered canvas',
	description: 'Enter each item’s user into a canvas, or broadcast it',
	builderHint: {
		propertyHint:
			"Pick to enter each item's user into an API-triggered canvas set up in the platform, or to broadcast it.",
	},
};

const MAX_ENTRY_PROPERTIES_BYTES = 50_000;

const CANVAS = canvasIdInput(
	'The API identifier of a canvas set up as API-triggered in the platform. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
);

const RECIPIENT = recipientInput('Canvas Entry Properties', 'canvas_entry_properties');

const SHARED_PROPERTIES = jsonObject({
	displayName: 'Shared Canvas Entry Properties (JSON)',
	name: 'canvasEntryProperties',
	type: 'json',
	default: '{}',
	description: 'For every recipient of the request, at most 50 KB; per-recipient properties win on conflicts',
});

export const description: INodeProperties[] = [
	...CANVAS.properties,
	...RECIPIENT.properties,
	...SHARED_PROPERTIES.properties,
	...AUDIENCE.properties,
];

export const operation = dispatchOperation(
	{
		method: 'POST',
		path: '/canvas/trigger/send',
		permission: 'canvas.trigger.send',
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	},
	dispatchShape({ recipients: { form: 'list', field: 'recipients', max: RECIPIENTS_PER_REQUEST } }),
	(item) => {
		const request: IDataObject = { canvas_id: CANVAS.read(item) };
		const shared = SHARED_PROPERTIES.read(item);
		if (shared && Object.keys(shared).length > 0)
			request.canvas_entry_properties = withinLimit(shared, SHARED_PROPERTIES);
		const audience = AUDIENCE.read(item);
		if (audience) request.audience = audience;
		const { recipient, subject } = RECIPIENT.read(item);
		if (recipient?.canvas_entry_properties)
			withinLimit(recipient.canvas_entry_properties as IDataObject, RECIPIENT.recipientProperties);
		return [
			dispatchPiece(item.itemIndex, request, recipient && { slot: 'recipients', value: recipient }, {
				canvas_id: request.canvas_id,
				...subject,
			}),
		];
	},
);

/** The spec limits canvas entry properties to 50 KB (read as 50,000 bytes, the stricter reading). */
function withinLimit(properties: IDataObject, input: Input<unknown>): IDataObject {
	const bytes = Buffer.byteLength(JSON.stringify(properties));
	if (bytes > MAX_ENTRY_PROPERTIES_BYTES) {
		throw input.problem(
			`is ${bytes.toLocaleString('en-US')} bytes; the limit is 50 KB`,
			'Send fewer or smaller properties.',
		);
	}
	return properties;
}
