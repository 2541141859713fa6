import { z } from 'zod/v4';

import { attributeValueRules, characterCount, checkPropertyRules, eventProperties } from './properties';
import { STANDARD_ATTRIBUTE_RULES, SUBSCRIBE_STATES } from './standardAttributes';
import { isoTime, platformTime } from './time';

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
export const trackEvent = z
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
export const trackPurchase = z
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

export type TrackEvent = z.infer<typeof trackEvent>;
export type TrackPurchase = z.infer<typeof trackPurchase>;
export type TrackAttributes = z.infer<typeof trackAttributes>;
