import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { bodyFields } from '../../shared/fields/bodyFields';
import { optionalText, time } from '../../shared/fields/inputs';
import { namedValues } from '../../shared/fields/namedValues';
import { trackEvent } from '../../shared/schemas/trackObjects';
import { occurrenceAdditionalFields, timeField } from '../shared/trackFields';
import { trackObjectOperation, trackUser } from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Track Event',
	value: 'trackEvent',
	action: 'Track a custom event',
	description: 'Record a custom event that a user performed',
	builderHint: {
		propertyHint:
			'Pick to record one custom event per input item (for example form_submitted). For a purchase use trackPurchase, and for several events, purchases and attributes of one user at once trackUserData.',
	},
};

const USER = trackUser('events');

/** An event object's fields, each declared once: its property, body key, reader and label. */
const EVENT = bodyFields(
	{
		name: optionalText({
			displayName: 'Event Name',
			name: 'eventName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. form_submitted',
		}),
		time: time(timeField(), { emptyIsNow: true }),
		properties: namedValues({
			name: 'properties',
			displayName: 'Event Properties',
			noun: 'Property',
			example: '{"form": "newsletter", "score": 7}',
		}),
	},
	occurrenceAdditionalFields('event'),
);

export const description: INodeProperties[] = [...USER.properties, ...EVENT.properties];

export const operation = trackObjectOperation('events', USER, EVENT, trackEvent);
