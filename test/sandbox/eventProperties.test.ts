import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: event and purchase validation', () => {
	const sandbox = useSandbox();
	const event = (extra: Record<string, unknown>) => ({ external_id: 'u-1', name: 'checked_out', time: AT, ...extra });
	const purchase = (extra: Record<string, unknown>) => ({
		external_id: 'u-1',
		product_id: 'mug',
		currency: 'USD',
		price: 9.99,
		time: AT,
		...extra,
	});

	it.each([
		'2024-05-01T10:00:00Z',
		'2024-05-01T10:00:00.123+02:00',
		'2024-05-01T10:00',
		'2024-05-01T10:00:00:000-0700',
		'2024-05-01T10:00:00:000Z',
	])('accepts the time %s', async (time) => {
		expect((await sandbox.track({ events: [event({ time })] })).body).toEqual({
			message: 'success',
			events_processed: 1,
		});
	});

	it.each(['2024-05-01', '2024-13-01T10:00:00Z', '01/05/2024 10:00', 1714557600])(
		'refuses the time %j',
		async (time) => {
			const answer = await sandbox.track({ events: [event({ time })] });
			expect(answer.body.errors[0].type).toMatch(/^time .* is not an ISO 8601 datetime/);
		},
	);

	it.each([
		[{ properties: { '': 1 } }, /names must not be empty/],
		[{ properties: { $price: 1 } }, /must not start with \$/],
		[{ properties: { ['n'.repeat(256)]: 1 } }, /longer than 255 characters/],
		[{ properties: { note: 'x'.repeat(256) } }, /properties\.note: strings may be at most 255 characters/],
		[{ properties: { dates: ['2024-05-01T10:00:00Z'] } }, /properties\.dates: arrays cannot contain datetimes/],
		[{ properties: { missing: null } }, /null is not an allowed value/],
		[{ properties: ['not', 'an', 'object'] }, /properties must be an object/],
		[{ properties: { big: ['x'.repeat(200)].concat(Array(600).fill('y'.repeat(200))) } }, /at most 100 KB/],
		[{ colour: 'red' }, /unknown field 'colour' in event object/],
		[{ app_id: 7 }, /app_id must be a string/],
	])('refuses the event %#', async (extra, message) => {
		const answer = await sandbox.track({ events: [event(extra)] });
		expect(answer.body.events_processed).toBe(0);
		expect(answer.body.errors[0].type).toMatch(message);
	});

	it('accepts every allowed property value type', async () => {
		const properties = { n: 1, f: 1.5, b: false, when: AT, s: 'text', list: ['a', 1, true], nested: { a: { b: 1 } } };
		expect((await sandbox.track({ events: [event({ properties })] })).body.events_processed).toBe(1);
		expect((await sandbox.admin.state()).events[0].properties).toEqual(properties);
	});

	it.each([
		[{ product_id: undefined }, /product_id is required/],
		[{ currency: 'DOLLARS' }, /currency is required: a three-letter ISO 4217 code/],
		[{ price: '9.99' }, /price is required: a number/],
		[{ quantity: 0 }, /quantity must be an integer from 1 to 100/],
		[{ quantity: 101 }, /quantity must be an integer from 1 to 100/],
		[{ quantity: 1.5 }, /quantity must be an integer from 1 to 100/],
		[{ time: undefined }, /time is required/],
		[{ properties: { $x: 1 } }, /must not start with \$/],
	])('refuses the purchase %#', async (extra, message) => {
		const answer = await sandbox.track({ purchases: [purchase(extra)] });
		expect(answer.body.purchases_processed).toBe(0);
		expect(answer.body.errors[0]).toEqual({ type: expect.stringMatching(message), input_array: 'purchases', index: 0 });
	});

	it.each(['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.123+02:00', '2024-05-01T10:00'])(
		'accepts the purchase time %s',
		async (time) => {
			expect((await sandbox.track({ purchases: [purchase({ time })] })).body).toEqual({
				message: 'success',
				purchases_processed: 1,
			});
		},
	);

	it.each(['2026-11-22T10:10:00:000+0100', '2024-05-01T10:00:00:000Z'])(
		'refuses the purchase time %s: the alternate format is for events only',
		async (time) => {
			const answer = await sandbox.track({ events: [event({ time })], purchases: [purchase({ time })] });
			expect(answer.body).toEqual({
				message: 'success',
				events_processed: 1,
				purchases_processed: 0,
				errors: [
					{
						type: `time "${time}" is in the format yyyy-MM-dd'T'HH:mm:ss:SSSZ, which only event times take; send an ISO 8601 datetime (e.g. 2024-05-01T10:00:00Z)`,
						input_array: 'purchases',
						index: 0,
					},
				],
			});
			expect(await sandbox.admin.stats()).toMatchObject({ events: 1, purchases: 0 });
		},
	);

	it('refuses a purchase time that is no datetime at all', async () => {
		const answer = await sandbox.track({ purchases: [purchase({ time: 'yesterday' })] });
		expect(answer.body.errors[0].type).toBe(
			'time is required: an ISO 8601 datetime (e.g. 2024-05-01T10:00:00Z), got "yesterday"',
		);
	});

	it('takes the alternate format as a datetime in event and purchase properties', async () => {
		const when = '2026-11-22T10:10:00:000+0100';
		const answer = await sandbox.track({
			events: [event({ properties: { when } })],
			purchases: [purchase({ properties: { when } })],
		});
		expect(answer.body).toEqual({ message: 'success', events_processed: 1, purchases_processed: 1 });
		// A datetime, not a plain string: arrays refuse it.
		const inArray = await sandbox.track({ purchases: [purchase({ properties: { whens: [when] } })] });
		expect(inArray.body.errors[0].type).toMatch(/properties\.whens: arrays cannot contain datetimes/);
	});

	it('accepts a purchase with quantity 100 and properties', async () => {
		const answer = await sandbox.track({
			purchases: [purchase({ quantity: 100, properties: { size: 'L' }, app_id: 'web' })],
		});
		expect(answer.body).toEqual({ message: 'success', purchases_processed: 1 });
	});
});
