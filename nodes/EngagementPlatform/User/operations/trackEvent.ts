import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { keyValueOrJsonFields, readKeyValueOrJson } from '../../shared/fields/keyValueOrJson';
import { userIdentifierFields } from '../../shared/fields/userIdentifier';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackEvent } from '../../shared/schemas/trackObjects';
import { occurrenceAdditionalFields, timeField } from '../shared/trackFields';
import { readTrackIdentifier, TRACK_IDENTIFIERS, trackPiece, usersTrackOperation } from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Track Event',
	value: 'trackEvent',
	action: 'Track a custom event',
	description: 'Record a custom event that a user performed',
};

const additionalFields = occurrenceAdditionalFields('event');

export const description: INodeProperties[] = [
	...userIdentifierFields(TRACK_IDENTIFIERS.events),
	{
		displayName: 'Event Name',
		name: 'eventName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. form_submitted',
	},
	timeField(),
	...keyValueOrJsonFields({
		name: 'properties',
		displayName: 'Event Properties',
		noun: 'Property',
		example: '{"form": "newsletter", "score": 7}',
	}),
	additionalFields,
];

export const operation = usersTrackOperation((item) => {
	const identifier = readTrackIdentifier(item, 'events');
	const event = parseOrThrow(
		trackEvent,
		{
			name: item.optionalString('eventName', 'Event Name'),
			time: item.time('time'),
			properties: readKeyValueOrJson(item, 'properties', 'Event Properties'),
			...item.collection('additionalFields', additionalFields),
		},
		'',
		{ name: 'Event Name', time: 'Time', properties: 'Event Properties', app_id: 'App ID' },
	);
	return [trackPiece(item.itemIndex, 'events', identifier, event)];
});
