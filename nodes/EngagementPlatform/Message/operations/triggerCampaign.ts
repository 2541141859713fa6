import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine';
import { dispatchOperation, dispatchPiece, dispatchShape, RECIPIENTS_PER_REQUEST } from '../shared/dispatchOperation';
import { AUDIENCE, recipientInput } from '../shared/recipientFields';
import { additionalFieldsCollection } from '../../shared/descriptions/additionalFields';
import { jsonObjectValue } from '../../shared/schemas/textValues';
import { labelOf } from '../../shared/descriptions/labels';
import { collection, collectionOption, requiredText } from '../../shared/fields/inputs';

export const option: INodePropertyOptions = {
	name: 'Trigger Campaign',
	value: 'triggerCampaign',
	action: 'Trigger an API-triggered campaign',
	description: 'Send an API-triggered campaign to each item’s user, or broadcast it',
	builderHint: {
		propertyHint:
			"Pick to send an API-triggered campaign set up in the platform to each item's user, up to 50 per request, or as a broadcast.",
	},
};

const CAMPAIGN = requiredText({
	displayName: 'Campaign ID',
	name: 'campaignId',
	type: 'string',
	default: '',
	required: true,
	description: 'The API identifier of a campaign created as API-triggered',
	builderHint: {
		propertyHint:
			'The API identifier of a campaign created as API-triggered in the platform. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
	},
});

const RECIPIENT = recipientInput('Trigger Properties', 'trigger_properties');

const attachmentsOption: INodeProperties = {
	displayName: 'Attachments',
	name: 'attachments',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Attachment',
	default: {},
	options: [
		{
			displayName: 'Attachment',
			name: 'attachment',
			values: [
				{
					displayName: 'File Name',
					name: 'file_name',
					type: 'string',
					default: '',
					description: 'Without extension',
				},
				{
					displayName: 'URL',
					name: 'url',
					type: 'string',
					default: '',
					description: 'Where the file is (up to 2 MB); its extension comes from the URL',
				},
			],
		},
	],
};

const sharedPropertiesOption: INodeProperties = {
	displayName: 'Shared Trigger Properties (JSON)',
	name: 'trigger_properties',
	type: 'json',
	default: '{}',
	description: 'Personalization for every recipient of the request; per-recipient properties win on conflicts',
};

const ADDITIONAL = collection(
	additionalFieldsCollection([
		attachmentsOption,
		{
			displayName: 'Send ID',
			name: 'send_id',
			type: 'string',
			default: '',
			description: 'Groups sends for reporting',
		},
		sharedPropertiesOption,
	]),
);

/** The shared trigger properties, read on their own as a JSON object. */
const SHARED_PROPERTIES = collectionOption(ADDITIONAL, sharedPropertiesOption, jsonObjectValue, '');

export const description: INodeProperties[] = [
	...CAMPAIGN.properties,
	...RECIPIENT.properties,
	...ADDITIONAL.properties,
	...AUDIENCE.properties,
];

export const operation = dispatchOperation(
	{
		method: 'POST',
		path: '/campaigns/trigger/send',
		permission: 'campaigns.trigger.send',
		credentialType: 'engagementPlatformApi',
	},
	dispatchShape({ recipients: { form: 'list', field: 'recipients', max: RECIPIENTS_PER_REQUEST } }),
	(item) => {
		const additional = ADDITIONAL.read(item);
		const request: IDataObject = { campaign_id: CAMPAIGN.read(item) };
		if (additional.send_id) request.send_id = String(additional.send_id);
		const shared = SHARED_PROPERTIES.read(item);
		if (shared && Object.keys(shared).length > 0) request.trigger_properties = shared;
		const attachments = ((additional.attachments as { attachment?: IDataObject[] } | undefined)?.attachment ?? []).map(
			(attachment, index) => {
				if (!attachment.file_name || !attachment.url) {
					throw new ItemInputError(
						`${labelOf(attachmentsOption)}[${index}]`,
						'needs a file name and a URL',
						'Fill in both, or remove the attachment.',
					);
				}
				return { file_name: attachment.file_name, url: attachment.url };
			},
		);
		if (attachments.length > 0) request.attachments = attachments;
		const audience = AUDIENCE.read(item);
		if (audience) request.audience = audience;
		const { recipient, subject } = RECIPIENT.read(item);
		return [
			dispatchPiece(item.itemIndex, request, recipient && { slot: 'recipients', value: recipient }, {
				campaign_id: request.campaign_id,
				...subject,
			}),
		];
	},
);
