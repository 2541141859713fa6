import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { bodyFields, namedValuesField, textField, timeBodyField } from '../../shared/fields/bodyFields';
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
	[
		textField('name', {
			displayName: 'Event Name',
			name: 'eventName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. form_submitted',
		}),
		timeBodyField('time', timeField(), { emptyIsNow: true }),
		namedValuesField('properties', {
			name: 'properties',
			displayName: 'Event Properties',
			noun: 'Property',
			example: '{"form": "newsletter", "score": 7}',
		}),
	],
	occurrenceAdditionalFields('event'),
);

export const description: INodeProperties[] = [...USER.properties, ...EVENT.properties];

export const operation = trackObjectOperation('events', USER, EVENT, trackEvent);
