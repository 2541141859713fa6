import type { INodeProperties } from 'n8n-workflow';

import { POSTBACK_STATUSES } from './postback';

const STATUS_LABELS: Record<(typeof POSTBACK_STATUSES)[number], { name: string; description: string }> = {
	aborted: {
		name: 'Aborted',
		description: 'Not sent: the user had no email address, or the message aborted itself (Liquid abort)',
	},
	bounced: { name: 'Bounced', description: 'Rejected by the inbox provider; the reason holds its bounce code' },
	delivered: { name: 'Delivered', description: 'Accepted by the inbox provider' },
	processed: {
		name: 'Processed',
		description: 'Accepted by the email sending partner and prepared for the inbox provider',
	},
	sent: { name: 'Sent', description: 'Handed to the email sending partner' },
};

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'The platform has no API for registering postback URLs, so set it up there yourself: paste the Production URL above into the platform\'s email settings, section "Transactional event status postback", then publish this workflow. While you build, point the setting at the Test URL instead: it receives one postback each time you listen for a test event.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{
				name: 'Basic Auth',
				value: 'basicAuth',
				description: 'The platform sends a user and password (Authorization: Basic)',
			},
			{
				name: 'Header Token',
				value: 'headerAuth',
				description: 'The platform sends a secret token in a header of your choice',
			},
			{
				name: 'None',
				value: 'none',
				description: 'Anyone who knows the URL can post; the URL itself holds a random ID',
			},
		],
		default: 'none',
		description:
			'How postbacks prove they come from the platform. A postback without the right secret is answered 401 and starts nothing.',
		builderHint: {
			propertyHint:
				"Keep none unless the user asks to protect the URL; basicAuth and headerAuth need a credential holding the same secret that is set in the platform's postback settings.",
		},
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: [...POSTBACK_STATUSES].sort().map((status) => ({
			name: STATUS_LABELS[status].name,
			value: status,
			description: STATUS_LABELS[status].description,
		})),
		default: [...POSTBACK_STATUSES],
		required: true,
		description:
			'The statuses that start the workflow. A postback with another status is answered 200 and starts nothing; with every status chosen, a status the platform adds later starts it too, as it came.',
		builderHint: {
			propertyHint:
				'Keep every status unless the workflow acts on only some, for example bounced and aborted to handle failures; a postback with a status not chosen starts nothing.',
		},
	},
	{
		displayName: 'Drop Duplicates',
		name: 'dropDuplicates',
		type: 'boolean',
		default: true,
		description:
			'Whether to start nothing for a postback whose dispatch ID and status already came in within the window (the platform may send one twice)',
		builderHint: {
			propertyHint:
				'Keep it on: the platform may post a status twice, and a repeat of the same dispatch ID and status within the window then starts nothing.',
		},
	},
	{
		displayName:
			'Repeats are dropped when they come one after another. Two identical postbacks arriving at the same moment can both start a run: n8n gives a trigger no atomic store. Where a step must never run twice, guard it downstream with a unique key on dispatch ID and status (for example a database insert that ignores conflicts).',
		name: 'duplicatesNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { dropDuplicates: [true] } },
	},
	{
		displayName: 'Window (Minutes)',
		name: 'windowMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10080 },
		default: 60,
		displayOptions: { show: { dropDuplicates: [true] } },
		description:
			'How long after the first postback of a dispatch ID and status a repeat of it counts as a duplicate (at most 7 days)',
	},
];
