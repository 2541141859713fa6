import { z } from 'zod/v4';

import { isPlatformDatetime, isoTime, platformTime, toIso8601 } from './time';
import type { CheckedSchema, NearestIn } from './parse';
import { currencyCodes } from './nearestValue';
import { PROTO_KEY, PROTO_KEY_PROBLEM, isJsonObject } from './parse';
import {
	CODED_ATTRIBUTES,
	GROUP_STATES,
	STANDARD_ATTRIBUTE_RULES,
	SUBSCRIBE_STATES,
	asCode,
} from './standardAttributes';
import { characterCount, exceedsCharacters } from './textValues';
import { withoutKeys } from '../objects/withoutKeys';

const MAX_NAME_LENGTH = 255;
const MAX_STRING_LENGTH = 255;
/**
 * "A properties payload containing array or object values may be up to 100 KB." We read KB
 * as 1,000 bytes, the stricter reading, so nothing we accept can be refused for size.
 */
const MAX_STRUCTURED_PAYLOAD_BYTES = 100_000;

const nameRule = { fix: 'Rename the key: at most 255 characters, not starting with "$".' };

/**
 * Checks a key/value object against the spec's property rules (also used for custom
 * attributes): names 1-255 characters not starting with `$`, each value by `valueRules`,
 * and at most 100 KB in all when arrays or objects are among the values.
 */
function checkPropertyRules(value: Record<string, unknown>, ctx: z.RefinementCtx, valueRules: ValueRules): void {
	let structured = false;
	let sound = true;
	for (const [name, entry] of Object.entries(value)) {
		if (name.length === 0 || exceedsCharacters(name, MAX_NAME_LENGTH)) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must have 1 to 255 characters', params: nameRule });
		} else if (name.startsWith('$')) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must not start with "$"', params: nameRule });
		}
		const problem = valueRules(entry);
		if (problem) sound = false;
		if (problem)
			ctx.addIssue({
				code: 'custom',
				path: [name, ...(problem.path ?? [])],
				message: problem.rule,
				params: { fix: problem.fix },
			});
		if (Array.isArray(entry) || (entry !== null && typeof entry === 'object')) structured = true;
	}
	// Sized only when every value is sound: JSON.stringify cannot fail on a bounded depth.
	if (structured && sound) {
		const bytes = Buffer.byteLength(JSON.stringify(value));
		if (bytes > MAX_STRUCTURED_PAYLOAD_BYTES) {
			ctx.addIssue({
				code: 'custom',
				message: `holds arrays or objects and is ${bytes.toLocaleString('en-US')} bytes; the limit is 100 KB`,
				params: { fix: 'Send fewer or smaller array and object values.' },
			});
		}
	}
}

/** A value's problem; `path` leads from the value to the part at fault (`["scores", "average"]`). */
type ValueProblem = { rule: string; fix: string; path?: Array<string | number> };
type ValueRules = (value: unknown) => ValueProblem | undefined;

const TOO_LONG = (value: string) => ({
	rule: `is ${characterCount(value)} characters; text values may have at most 255`,
	fix: 'Shorten the text.',
});

/**
 * The spec does not say how deep an array or object value may nest. We take 100 levels, deeper than
 * any profile or order data, so that a runaway value fails its own item here and not the whole node
 * when the request is written.
 */
const MAX_NESTING = 100;

/**
 * The first part of an array or object value JSON cannot carry as it is: a number that is not finite
 * (NaN, Infinity, which JSON.stringify would send as null) or nesting past MAX_NESTING.
 */
function structuredProblem(value: object): ValueProblem | undefined {
	const pending: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
	while (pending.length > 0) {
		const { value: part, path } = pending.pop()!;
		if (typeof part === 'number' && !Number.isFinite(part))
			return { rule: `must be a finite number, got ${part}`, fix: 'Give a number, or leave the key out.', path };
		if (part === null || typeof part !== 'object') continue;
		if (path.length >= MAX_NESTING)
			return {
				rule: `is nested more than ${MAX_NESTING} levels deep`,
				fix: 'Flatten the value, or send its inner parts as their own properties.',
				path: path.slice(0, 3),
			};
		if (Array.isArray(part)) part.forEach((element, index) => pending.push({ value: element, path: [...path, index] }));
		else
			for (const key of Object.keys(part))
				pending.push({ value: (part as Record<string, unknown>)[key], path: [...path, key] });
	}
	return undefined;
}

function scalarProblem(value: unknown): { rule: string; fix: string } | undefined {
	if (typeof value === 'number')
		return Number.isFinite(value) ? undefined : { rule: 'must be a finite number', fix: 'Give a number.' };
	if (typeof value === 'string') return exceedsCharacters(value, MAX_STRING_LENGTH) ? TOO_LONG(value) : undefined;
	if (typeof value === 'boolean') return undefined;
	return {
		rule: `must be a number, boolean, text, array or object, got ${typeof value}`,
		fix: 'Map a plain JSON value.',
	};
}

function holdsDatetime(array: unknown[]): boolean {
	return array.some((element) =>
		Array.isArray(element) ? holdsDatetime(element) : typeof element === 'string' && isPlatformDatetime(element),
	);
}

/** Event and purchase properties: numbers, booleans, datetimes, short text, arrays without datetimes, objects. */
const propertyValueRules: ValueRules = (value) => {
	if (value === null) return { rule: 'must not be null', fix: 'Remove the key or give it a value.' };
	if (typeof value === 'object') {
		const problem = structuredProblem(value);
		if (problem) return problem;
	}
	if (Array.isArray(value)) {
		return holdsDatetime(value)
			? {
					rule: 'is an array holding a datetime, which the platform does not allow',
					fix: 'Send datetimes as their own keys, not inside arrays.',
				}
			: undefined;
	}
	return typeof value === 'object' ? undefined : scalarProblem(value);
};

/**
 * Custom attributes: the spec shows text, booleans, numbers and arrays of text; null unsets
 * an attribute. Nested objects are not among them, so they are refused here rather than by the platform.
 */
const attributeValueRules: ValueRules = (value) => {
	if (value === null) return undefined;
	if (Array.isArray(value)) {
		const bad = value.find((element) => typeof element !== 'string' || exceedsCharacters(element, MAX_STRING_LENGTH));
		if (bad === undefined) return undefined;
		return typeof bad === 'string'
			? TOO_LONG(bad)
			: { rule: 'must be an array of text values', fix: 'Turn each element into text, e.g. with String().' };
	}
	if (typeof value === 'object') {
		return {
			rule: 'is an object; attributes take text, numbers, booleans, arrays of text or null',
			fix: 'Send each field as its own attribute, or as text.',
		};
	}
	return scalarProblem(value);
};

/**
 * Zod's objects and records leave out a key named `__proto__` (a row's own, as JSON.parse keeps it), so
 * that a value would be answered as sent without it: it is refused here, before they read it.
 */
function refusingProtoKey<T extends z.ZodType>(schema: T) {
	return z.preprocess((value, ctx) => {
		if (isJsonObject(value) && Object.hasOwn(value, PROTO_KEY))
			ctx.addIssue({
				code: 'custom',
				path: [PROTO_KEY],
				message: PROTO_KEY_PROBLEM.rule,
				params: { fix: PROTO_KEY_PROBLEM.fix },
			});
		return value;
	}, schema);
}

const eventProperties = refusingProtoKey(
	z.record(z.string(), z.unknown()).superRefine((value, ctx) => checkPropertyRules(value, ctx, propertyValueRules)),
);

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
	.refine((text) => !exceedsCharacters(text, 255), 'may have at most 255 characters');

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
		currency: z.string({ error: required }).refine((code) => /^[A-Z]{3}$/.test(code), {
			message: 'must be a three-letter ISO 4217 code such as USD',
			params: { fix: 'Give a code such as USD or EUR.', nearestIn: currencyCodes } satisfies NearestIn & {
				fix: string;
			},
		}),
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

const subscriptionGroupState = z
	.object({
		subscription_group_id: z.string().min(1, 'is required'),
		subscription_state: z.enum(GROUP_STATES),
	})
	.strict();

/**
 * Attribute objects: the three documented fields, standard attributes (first_name, email,
 * country, ...) under their own rules, and custom attributes under the attribute value rules.
 */
const trackAttributesSchema = refusingProtoKey(
	z
		.object({
			email_subscribe: z.enum(SUBSCRIBE_STATES).optional(),
			subscription_groups: z.array(subscriptionGroupState).optional(),
			_update_existing_only: z.boolean().optional(),
		})
		.catchall(z.unknown())
		.superRefine((value, ctx) => {
			const rest = withoutKeys(value, ['email_subscribe', 'subscription_groups', '_update_existing_only']);
			const custom: Record<string, unknown> = {};
			for (const [name, entry] of Object.entries(rest)) {
				const standardRule = standardRuleOf(name);
				if (!standardRule) custom[name] = entry;
				else if (entry !== null) {
					const problem = standardRule(entry);
					if (problem)
						ctx.addIssue({ code: 'custom', path: [name], message: problem.rule, params: { fix: problem.fix } });
				}
			}
			checkPropertyRules(custom, ctx, attributeValueRules);
		})
		.transform(withCodes),
);

/** The attribute object with each coded attribute (country, language, gender, phone) as the code it reads as. */
function withCodes<T extends Record<string, unknown>>(value: T): T {
	let coded: Record<string, unknown> | undefined;
	for (const name of CODED_NAMES) {
		if (!Object.hasOwn(value, name)) continue;
		const code = asCode(name, value[name]);
		if (code !== value[name]) (coded ??= { ...value })[name] = code;
	}
	return (coded ?? value) as T;
}

const CODED_NAMES: readonly string[] = Object.keys(CODED_ATTRIBUTES);

/** A standard attribute's rule; undefined for a custom attribute, `constructor` and `toString` among them. */
function standardRuleOf(name: string) {
	return Object.hasOwn(STANDARD_ATTRIBUTE_RULES, name) ? STANDARD_ATTRIBUTE_RULES[name] : undefined;
}

export type TrackEvent = z.infer<typeof trackEventSchema>;
export type TrackPurchase = z.infer<typeof trackPurchaseSchema>;

/*
 * The plain path: an event or purchase whose every value plainly meets the rules above is taken as
 * it is, without the schema's work (most of the node's own time per item on large runs). Each test
 * is the schema's rule for that key; a value it does not decide (a structured property, a Date, a
 * missing field) goes through the schema, which gives the words of any problem.
 */
type PlainTests = Readonly<Record<string, (value: unknown) => boolean>>;

const isName = (value: unknown) =>
	typeof value === 'string' && value.length > 0 && !exceedsCharacters(value, MAX_NAME_LENGTH);
const isTime = (value: unknown) => typeof value === 'string' && isPlatformDatetime(value);
const isOptionalAppId = (value: unknown) => value === undefined || (typeof value === 'string' && value !== '');
const isOptionalFlag = (value: unknown) => value === undefined || typeof value === 'boolean';
const DOLLAR = '$'.charCodeAt(0);

/**
 * Properties of scalar values only (objects and arrays have a size rule the schema counts), each
 * name and value plainly within the property rules: a name of 1 to 255 UTF-16 units not starting
 * with "$", a finite number, a boolean, or text of at most 255 UTF-16 units.
 */
const isOptionalPlainProperties = (value: unknown) => {
	if (value === undefined) return true;
	if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
	for (const name in value) {
		if (name.length === 0 || name.length > MAX_NAME_LENGTH || name.charCodeAt(0) === DOLLAR || name === PROTO_KEY)
			return false;
		const entry = (value as Record<string, unknown>)[name];
		const plain =
			typeof entry === 'string'
				? entry.length <= MAX_STRING_LENGTH
				: typeof entry === 'number'
					? Number.isFinite(entry)
					: typeof entry === 'boolean';
		if (!plain) return false;
	}
	return true;
};
const EVENT_TESTS = plainTests({
	name: isName,
	time: isTime,
	app_id: isOptionalAppId,
	properties: isOptionalPlainProperties,
	_update_existing_only: isOptionalFlag,
});

const PURCHASE_TESTS = plainTests({
	product_id: isName,
	currency: (value) => typeof value === 'string' && /^[A-Z]{3}$/.test(value),
	price: (value) => typeof value === 'number' && Number.isFinite(value),
	quantity: (value) =>
		value === undefined || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 100),
	time: isTime,
	app_id: isOptionalAppId,
	properties: isOptionalPlainProperties,
	_update_existing_only: isOptionalFlag,
});

/** The tests as lists, so that an item's check walks arrays rather than the tests' keys. */
interface PlainTestLists {
	keys: readonly string[];
	tests: ReadonlyArray<(value: unknown) => boolean>;
	known: ReadonlySet<string>;
}

function plainTests(tests: PlainTests): PlainTestLists {
	return { keys: Object.keys(tests), tests: Object.values(tests), known: new Set(Object.keys(tests)) };
}

function passes(value: unknown, { keys, tests, known }: PlainTestLists): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const object = value as Record<string, unknown>;
	for (let index = 0; index < keys.length; index++) if (!tests[index](object[keys[index]])) return false;
	for (const key in object) if (!known.has(key)) return false;
	return true;
}

export const trackEvent: CheckedSchema<TrackEvent> = {
	schema: trackEventSchema,
	asIs: (value) => (passes(value, EVENT_TESTS) ? (value as TrackEvent) : undefined),
};

/**
 * A purchase's time is sent in ISO 8601's extended form, as the schema gives it. The value given may be
 * an input item's own object (CheckedSchema): a time written in another form goes into a copy.
 */
export const trackPurchase: CheckedSchema<TrackPurchase> = {
	schema: trackPurchaseSchema,
	asIs(value) {
		if (!passes(value, PURCHASE_TESTS)) return undefined;
		const time = toIso8601(value.time as string);
		return (time === value.time ? value : { ...value, time }) as TrackPurchase;
	},
};
export type TrackAttributes = z.infer<typeof trackAttributesSchema>;

/**
 * An attribute object is taken as it is when its three documented fields are plainly valid or
 * absent, each standard attribute meets its own rule (STANDARD_ATTRIBUTE_RULES) and each custom one
 * has a plain name and a scalar value within the attribute value rules: the schema's own rules, run
 * without its work. Subscription groups and arrays go through the schema.
 */
export const trackAttributes: CheckedSchema<TrackAttributes> = {
	schema: trackAttributesSchema,
	asIs(value) {
		if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
			return undefined;
		for (const name in value) {
			const entry = (value as Record<string, unknown>)[name];
			if (!isPlainAttribute(name, entry)) return undefined;
		}
		return value as TrackAttributes;
	},
};

function isPlainAttribute(name: string, entry: unknown): boolean {
	if (name === 'email_subscribe')
		return entry === undefined || (SUBSCRIBE_STATES as readonly unknown[]).includes(entry);
	if (name === '_update_existing_only') return isOptionalFlag(entry);
	if (name === 'subscription_groups') return entry === undefined;
	const standardRule = standardRuleOf(name);
	// A coded attribute written otherwise than as its code (Germany, female) goes through the schema, which sends the code.
	if (standardRule) return entry === null || (standardRule(entry) === undefined && asCode(name, entry) === entry);
	if (name.length === 0 || name.length > MAX_NAME_LENGTH || name.charCodeAt(0) === DOLLAR || name === PROTO_KEY)
		return false;
	return (entry === null || typeof entry !== 'object') && attributeValueRules(entry) === undefined;
}
