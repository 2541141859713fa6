import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { keyValueOrJsonFields, readKeyValueOrJson } from '../../shared/fields/keyValueOrJson';
import { readUserIdentifier, userIdentifierFields } from '../../shared/fields/userIdentifier';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackEvent } from '../../shared/schemas/trackObjects';
import { trackPiece, usersTrackOperation } from '../usersTrack';

export const option: INodePropertyOptions = {
	name: 'Track Event',
	value: 'trackEvent',
	action: 'Track a custom event',
	description: 'Record a custom event that a user performed',
};

const show = { operation: ['trackEvent'] };

export const description: INodeProperties[] = [
	...userIdentifierFields(show),
	{
		displayName: 'Event Name',
		name: 'eventName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. form_submitted',
		displayOptions: { show },
	},
	{
		displayName: 'Time',
		name: 'time',
		type: 'string',
		default: '={{ $now.toISO() }}',
		required: true,
		hint: "ISO 8601, e.g. 2026-11-22T10:15:00Z (or yyyy-MM-dd'T'HH:mm:ss:SSSZ)",
		displayOptions: { show },
	},
	...keyValueOrJsonFields({ name: 'properties', displayName: 'Event Properties', show, example: '{"form": "newsletter", "score": 7}' }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{ displayName: 'App ID', name: 'app_id', type: 'string', default: '' },
			{
				displayName: 'Update Existing Only',
				name: '_update_existing_only',
				type: 'boolean',
				default: false,
				description:
					'Whether to record the event only for profiles that exist already. When not added, an unknown external ID gets a new profile. Events of a user alias never create a profile.',
			},
		],
	},
];

export const operation = usersTrackOperation((item) => {
	const identifier = readUserIdentifier(item);
	const event = parseOrThrow(
		trackEvent,
		{
			name: item.optionalString('eventName', 'Event Name'),
			time: item.raw('time'),
			properties: readKeyValueOrJson(item, 'properties', 'Event Properties'),
			...item.collection('additionalFields'),
		},
		'',
		{ name: 'Event Name', time: 'Time', properties: 'Event Properties', app_id: 'App ID' },
	);
	return [trackPiece(item.itemIndex, 'events', identifier, event)];
});
