import { z } from 'zod/v4';

import type { CheckedSchema } from './parse';
import {
	attributeValueRules,
	characterCount,
	checkPropertyRules,
	eventProperties,
	MAX_NAME_LENGTH,
	propertyValueRules,
} from './properties';
import { STANDARD_ATTRIBUTE_RULES, SUBSCRIBE_STATES } from './standardAttributes';
import { isoTime, isPlatformDatetime, platformTime, toIso8601 } from './time';

/**
 * The spec's event, purchase and attribute objects of /users/track, without the user
 * identifier (the node adds the one the item chose).
 */

/** A missing value is "required"; other type errors keep zod's own message. */
const required = (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : undefined);

/** Required text of at most 255 characters, counted as the spec counts them (code points). */
const name255 = z
	.string({ error: required })
	.min(1, 'is required')
	.refine((text) => characterCount(text) <= 255, 'may have at most 255 characters');

/** Event names: the spec gives no limit; we hold them to the 255 of property names. */
const trackEventSchema = z
	.object({
		name: name255,
		time: platformTime,
		app_id: z.string().min(1, 'must not be empty').optional(),
		properties: eventProperties.optional(),
		_update_existing_only: z.boolean().optional(),
	})
	.strict();

/**
 * The spec does not say which purchase fields are required. As on well-known platforms:
 * product_id, currency (ISO 4217, three letters), price and time are; quantity is 1-100,
 * 1 when omitted. The time is ISO 8601 only: the alternate format is the events' alone.
 */
const trackPurchaseSchema = z
	.object({
		product_id: name255,
		currency: z
			.string({ error: required })
			.regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code such as USD' }),
		price: z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') }),
		quantity: z
			.number({ error: 'must be a whole number' })
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.max(100, 'may be at most 100')
			.optional(),
		time: isoTime,
		app_id: z.string().min(1, 'must not be empty').optional(),
		properties: eventProperties.optional(),
		_update_existing_only: z.boolean().optional(),
	})
	.strict();

export const subscriptionGroupState = z
	.object({
		subscription_group_id: z.string().min(1, 'is required'),
		subscription_state: z.enum(['subscribed', 'unsubscribed']),
	})
	.strict();

/**
 * Attribute objects: the three documented fields, standard attributes (first_name, email,
 * country, ...) under their own rules, and custom attributes under the attribute value rules.
 */
export const trackAttributes = z
	.object({
		email_subscribe: z.enum(SUBSCRIBE_STATES).optional(),
		subscription_groups: z.array(subscriptionGroupState).optional(),
		_update_existing_only: z.boolean().optional(),
	})
	.catchall(z.unknown())
	.superRefine((value, ctx) => {
		const { email_subscribe, subscription_groups, _update_existing_only, ...rest } = value;
		const custom: Record<string, unknown> = {};
		for (const [name, entry] of Object.entries(rest)) {
			const standardRule = STANDARD_ATTRIBUTE_RULES[name];
			if (!standardRule) custom[name] = entry;
			else if (entry !== null) {
				const problem = standardRule(entry);
				if (problem)
					ctx.addIssue({ code: 'custom', path: [name], message: problem.rule, params: { fix: problem.fix } });
			}
		}
		checkPropertyRules(custom, ctx, attributeValueRules);
	});

export type TrackEvent = z.infer<typeof trackEventSchema>;
export type TrackPurchase = z.infer<typeof trackPurchaseSchema>;

/*
 * The plain path: an event or purchase whose every value plainly meets the rules above is taken as
 * it is, without the schema's work (most of the node's own time per item on large runs). Each test
 * is the schema's rule for that key; a value it does not settle (a structured property, a Date, a
 * missing field) goes through the schema, which gives the words of any problem.
 */
type PlainTests = Readonly<Record<string, (value: unknown) => boolean>>;

const isName = (value: unknown) =>
	typeof value === 'string' && value.length > 0 && characterCount(value) <= MAX_NAME_LENGTH;
const isTime = (value: unknown) => typeof value === 'string' && isPlatformDatetime(value);
const isOptionalAppId = (value: unknown) => value === undefined || (typeof value === 'string' && value !== '');
const isOptionalFlag = (value: unknown) => value === undefined || typeof value === 'boolean';
/** Properties of scalar values only: objects and arrays have a size rule the schema counts. */
const isOptionalPlainProperties = (value: unknown) => {
	if (value === undefined) return true;
	if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
	for (const name of Object.keys(value)) {
		const entry = (value as Record<string, unknown>)[name];
		if (!isName(name) || name.startsWith('$') || (entry !== null && typeof entry === 'object')) return false;
		if (propertyValueRules(entry) !== undefined) return false;
	}
	return true;
};

const EVENT_TESTS: PlainTests = {
	name: isName,
	time: isTime,
	app_id: isOptionalAppId,
	properties: isOptionalPlainProperties,
	_update_existing_only: isOptionalFlag,
};

const PURCHASE_TESTS: PlainTests = {
	product_id: isName,
	currency: (value) => typeof value === 'string' && /^[A-Z]{3}$/.test(value),
	price: (value) => typeof value === 'number' && Number.isFinite(value),
	quantity: (value) =>
		value === undefined || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 100),
	time: isTime,
	app_id: isOptionalAppId,
	properties: isOptionalPlainProperties,
	_update_existing_only: isOptionalFlag,
};

function passes(value: unknown, tests: PlainTests): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const object = value as Record<string, unknown>;
	for (const key in tests) if (!tests[key](object[key])) return false;
	for (const key of Object.keys(object)) if (!Object.hasOwn(tests, key)) return false;
	return true;
}

export const trackEvent: CheckedSchema<TrackEvent> = {
	schema: trackEventSchema,
	asIs: (value) => (passes(value, EVENT_TESTS) ? (value as TrackEvent) : undefined),
};

/** A purchase's time is sent in ISO 8601's extended form, as the schema gives it. */
export const trackPurchase: CheckedSchema<TrackPurchase> = {
	schema: trackPurchaseSchema,
	asIs(value) {
		if (!passes(value, PURCHASE_TESTS)) return undefined;
		value.time = toIso8601(value.time as string);
		return value as TrackPurchase;
	},
};
export type TrackAttributes = z.infer<typeof trackAttributes>;
