import fc from 'fast-check';

import type { CheckedSchema } from '../../nodes/EngagementPlatform/shared/schemas/parse';
import { trackAttributes, trackEvent, trackPurchase } from '../../nodes/EngagementPlatform/shared/schemas/trackObjects';

/**
 * The plain path (CheckedSchema.asIs) takes an event or purchase without its schema's work. It may
 * send a value to the schema that it could have taken, never take one the schema refuses or would
 * give differently: for every generated object, what asIs takes, the schema accepts, to the same output.
 * And it writes into no object it is given, which may be an input item's own.
 */
const RUNS = Number(process.env.PLAIN_PATH_RUNS ?? 2000);

const text = fc.oneof(
	fc.constantFrom('', ' ', 'order_placed', '$price', 'x'.repeat(255), 'x'.repeat(256), '😀'.repeat(200)),
	fc.string({ maxLength: 8 }),
);
const time = fc.constantFrom(
	'2026-11-01T12:00:00Z',
	'2026-11-22T10:15:00:000+0100',
	'2026-11-22T10:15:00+0100',
	'2026-02-30T10:00:00Z',
	'2026-11-01',
	'not a time',
);
const scalar = fc.oneof(
	text,
	fc.double(),
	fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0, 1, 59.9, 100, 101, 2.5),
	fc.boolean(),
	fc.constant(null),
	fc.constant(undefined),
);
const value = fc.oneof(
	scalar,
	time,
	fc.array(scalar, { maxLength: 3 }),
	fc.dictionary(text, scalar, { maxKeys: 3 }),
	fc.constant(new Date(0)),
);
const properties = fc.oneof(fc.dictionary(text, value, { maxKeys: 4 }), value);

const eventLike = fc.record(
	{
		name: fc.oneof(text, value),
		time: fc.oneof(time, value),
		app_id: fc.oneof(text, value),
		properties,
		_update_existing_only: value,
		[`extra`]: value,
	},
	{ requiredKeys: [] },
);
const purchaseLike = fc.record(
	{
		product_id: fc.oneof(text, value),
		currency: fc.oneof(fc.constantFrom('EUR', 'eur', 'EURO', 'USD'), value),
		price: value,
		quantity: value,
		time: fc.oneof(time, value),
		app_id: fc.oneof(text, value),
		properties,
		_update_existing_only: value,
	},
	{ requiredKeys: [] },
);

const attributesLike = fc.record(
	{
		first_name: fc.oneof(text, value),
		email: fc.oneof(fc.constantFrom('ada@example.com', 'not an email', 'ADA@EXAMPLE.COM'), value),
		country: fc.oneof(fc.constantFrom('DE', 'de', 'DEU'), value),
		gender: fc.oneof(fc.constantFrom('F', 'f', 'X'), value),
		dob: fc.oneof(fc.constantFrom('1990-04-21', '1990-02-30', '21.04.1990'), value),
		time_zone: fc.oneof(fc.constantFrom('Europe/Berlin', 'Mars/Base'), value),
		date_of_last_session: fc.oneof(time, value),
		email_subscribe: fc.oneof(fc.constantFrom('subscribed', 'opted_in', 'maybe'), value),
		subscription_groups: fc.oneof(
			fc.constant([{ subscription_group_id: 'g', subscription_state: 'subscribed' }]),
			value,
		),
		_update_existing_only: value,
		lifetime_value: value,
		[`$custom`]: value,
		[`constructor`]: value,
		[`toString`]: value,
	},
	{ requiredKeys: [] },
);

/**
 * Generated objects alone, over a plainly valid core (the generated values win), or under it (the
 * core's win, so the other keys' values meet the plain path often).
 */
const withCore = (generated: fc.Arbitrary<Record<string, unknown>>, core: Record<string, unknown>) =>
	fc
		.tuple(fc.constantFrom('alone', 'over', 'under'), generated)
		.map(([mode, object]) =>
			mode === 'alone' ? object : mode === 'over' ? { ...core, ...object } : { ...object, ...core },
		);

/** JSON's view of an object: what a request body carries (undefined keys leave). */
const asSent = (data: unknown) => JSON.parse(JSON.stringify(data)) as unknown;

/**
 * Checks every generated object the plain path takes against the schema; returns how many it took.
 * `core` (a plainly valid object) is tried first, as fast-check's example, so that the plain path is
 * reached whatever the draw: a generator's rare plain objects left a run of 2,000 with none.
 */
function checkAgainstSchema<T>(
	checked: CheckedSchema<T>,
	generated: fc.Arbitrary<Record<string, unknown>>,
	core: Record<string, unknown>,
): number {
	let taken = 0;
	fc.assert(
		fc.property(generated, (object) => {
			const forSchema = structuredClone(object);
			const plain = checked.asIs(object);
			// The value may be an input item's own object: the quick check gives a new one where it differs.
			expect(object).toEqual(forSchema);
			if (plain === undefined) return;
			taken++;
			const parsed = checked.schema.safeParse(forSchema);
			expect(parsed.success).toBe(true);
			expect(asSent(plain)).toEqual(asSent(parsed.data));
		}),
		{ numRuns: RUNS, examples: [[{ ...core }]] },
	);
	return taken;
}

describe('the plain path of /users/track objects', () => {
	test('an event it takes is one the schema accepts, sent the same', () => {
		const core = { name: 'order_placed', time: '2026-11-01T12:00:00Z' };
		const taken = checkAgainstSchema(trackEvent, withCore(eventLike, core), core);
		// The generator reaches the plain path, or the test would prove nothing.
		expect(taken).toBeGreaterThan(0);
	});

	test('a purchase it takes is one the schema accepts, sent the same', () => {
		const core = { product_id: 'sku-9', currency: 'EUR', price: 59.9, time: '2026-11-22T10:15:00+0100' };
		expect(checkAgainstSchema(trackPurchase, withCore(purchaseLike, core), core)).toBeGreaterThan(0);
	});

	test('an attribute object it takes is one the schema accepts, sent the same', () => {
		const core = { first_name: 'Ada', email: 'ada@example.com', country: 'DE', lifetime_value: 59.9, vip: true };
		expect(checkAgainstSchema(trackAttributes, withCore(attributesLike, core), core)).toBeGreaterThan(0);
	});

	test('the common item takes the plain path', () => {
		expect(
			trackEvent.asIs({ name: 'order_placed', time: '2026-11-01T12:00:00Z', properties: { total: 19.9 } }),
		).toEqual({ name: 'order_placed', time: '2026-11-01T12:00:00Z', properties: { total: 19.9 } });
		expect(
			trackPurchase.asIs({
				product_id: 'sku-9',
				currency: 'EUR',
				price: 59.9,
				quantity: 1,
				time: '2026-11-22T10:15:00:000+0100',
			}),
		).toEqual({
			product_id: 'sku-9',
			currency: 'EUR',
			price: 59.9,
			quantity: 1,
			time: '2026-11-22T10:15:00.000+01:00',
		});
	});
});
