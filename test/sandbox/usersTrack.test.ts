import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: POST /users/track responses', () => {
	const sandbox = useSandbox();

	it('records 75 events, 75 attributes and 75 purchases in one call', async () => {
		const range = [...Array(75).keys()];
		const answer = await sandbox.track({
			attributes: range.map((i) => ({ external_id: `shopper-${i}`, first_name: `Shopper ${i}` })),
			events: range.map((i) => ({
				external_id: `shopper-${i}`,
				name: 'viewed_product',
				time: AT,
				properties: { sku: `SKU-${i}` },
			})),
			purchases: range.map((i) => ({
				external_id: `shopper-${i}`,
				product_id: 'tea',
				currency: 'EUR',
				price: 4.5,
				time: AT,
			})),
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			attributes_processed: 75,
			events_processed: 75,
			purchases_processed: 75,
		});
		expect(await sandbox.admin.stats()).toMatchObject({ profiles: 75, events: 75, purchases: 75 });
	});

	it('reports processed counts only for the arrays that were sent', async () => {
		const answer = await sandbox.track({ events: [{ external_id: 'u-1', name: 'opened_app', time: AT }] });
		expect(answer.body).toEqual({ message: 'success', events_processed: 1 });
	});

	it('treats a request with no objects as a harmless success (a credential test)', async () => {
		expect(await sandbox.track({ attributes: [] })).toMatchObject({
			status: 201,
			body: { message: 'success', attributes_processed: 0 },
		});
		expect(await sandbox.track({})).toMatchObject({ status: 201, body: { message: 'success' } });
		expect((await sandbox.admin.stats()).profiles).toBe(0);
	});

	it('refuses a whole request with 76 events: fatal error, nothing stored', async () => {
		const events = [...Array(76).keys()].map((i) => ({ external_id: `u-${i}`, name: 'e', time: AT }));
		const answer = await sandbox.track({ attributes: [{ external_id: 'u-0', plan: 'pro' }], events });
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(/events may contain at most 75 objects/);
		expect(answer.body.errors).toEqual([answer.body.message]);
		expect(await sandbox.admin.stats()).toMatchObject({ profiles: 0, events: 0 });
	});

	it.each([
		['a body that is not an object', [1, 2], /must be a JSON object/],
		['an array field that is not an array', { attributes: { external_id: 'u-1' } }, /attributes must be an array/],
		['a misspelt array', { event: [] }, /Unknown request field\(s\): event/],
	])('refuses %s with a fatal error', async (_case, body, message) => {
		const answer = await sandbox.track(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
	});

	it('processes valid objects and names each invalid one by array and index', async () => {
		const answer = await sandbox.track({
			attributes: [{ external_id: 'ok-1', plan: 'pro' }, { plan: 'no identifier' }],
			events: [
				{ external_id: 'ok-1', name: 'signed_up', time: AT },
				{ external_id: 'ok-1', time: AT },
				{ external_id: 'ok-1', name: 'late', time: 'yesterday' },
			],
			purchases: ['not an object'],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			attributes_processed: 1,
			events_processed: 1,
			purchases_processed: 0,
			errors: [
				{ type: expect.stringMatching(/identifier is required/), input_array: 'attributes', index: 1 },
				{ type: expect.stringMatching(/^name is required/), input_array: 'events', index: 1 },
				{
					type: expect.stringMatching(/^time "yesterday" is not an ISO 8601 datetime/),
					input_array: 'events',
					index: 2,
				},
				{ type: 'each element of purchases must be an object', input_array: 'purchases', index: 0 },
			],
		});
		expect(await sandbox.admin.stats()).toMatchObject({ profiles: 1, events: 1, purchases: 0 });
	});

	it('stores every event occurrence under its own id, even identical ones', async () => {
		const event = { external_id: 'repeat', name: 'pinged', time: AT, app_id: 'app-1', properties: { n: 1 } };
		await sandbox.track({ events: [event, event] });
		const { events, profiles } = await sandbox.admin.state();
		expect(events).toHaveLength(2);
		expect(events[0].id).not.toBe(events[1].id);
		expect(events[0]).toMatchObject({
			service_id: profiles[0].service_id,
			name: 'pinged',
			time: AT,
			app_id: 'app-1',
			properties: { n: 1 },
		});
	});

	it('stores purchases with currency upper-cased and quantity defaulting to 1', async () => {
		await sandbox.track({
			purchases: [{ external_id: 'buyer', product_id: 'mug', currency: 'usd', price: 12.5, time: AT }],
		});
		const [purchase] = (await sandbox.admin.state()).purchases;
		expect(purchase).toMatchObject({ product_id: 'mug', currency: 'USD', price: 12.5, quantity: 1, time: AT });
		expect(purchase.id).toMatch(/^[0-9a-f]{24}$/);
	});

	it('addresses each kind of object only by the identifiers the spec lists for it', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [{ external_id: 'known', email: 'known@example.com', phone: '+14155550100' }],
		});
		const serviceId = seeded[0].service_id;
		const buy = { product_id: 'mug', currency: 'USD', price: 9.99, time: AT };
		const answer = await sandbox.track({
			attributes: [
				{ service_id: serviceId, plan: 'pro' },
				{ phone: '+14155550100', plan: 'by-phone' },
				{ email: 'known@example.com', service_id: serviceId, plan: 'both' },
			],
			events: [
				{ service_id: serviceId, name: 'e', time: AT },
				{ phone: '+14155550100', name: 'e', time: AT },
			],
			purchases: [
				{ phone: '+14155550100', ...buy },
				{ service_id: serviceId, ...buy },
				{ external_id: 'known', phone: '+14155550100', ...buy },
				{ email: 'known@example.com', ...buy },
			],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			attributes_processed: 1,
			events_processed: 2,
			purchases_processed: 1,
			errors: [
				{
					type: 'service_id cannot identify the user of an attribute object; use external_id, user_alias, email or phone',
					input_array: 'attributes',
					index: 0,
				},
				{
					type: 'service_id cannot identify the user of an attribute object; use external_id, user_alias, email or phone',
					input_array: 'attributes',
					index: 2,
				},
				{
					type: 'phone cannot identify the user of a purchase object; use external_id, user_alias or email',
					input_array: 'purchases',
					index: 0,
				},
				{
					type: 'service_id cannot identify the user of a purchase object; use external_id, user_alias or email',
					input_array: 'purchases',
					index: 1,
				},
				{
					type: 'phone cannot identify the user of a purchase object; use external_id, user_alias or email',
					input_array: 'purchases',
					index: 2,
				},
			],
		});
		const state = await sandbox.admin.state();
		expect(state.profiles).toHaveLength(1);
		expect(state.profiles[0].custom_attributes).toEqual({ plan: 'by-phone' });
		expect([state.events.length, state.purchases.length]).toEqual([2, 1]);
	});

	it('names the identifiers an object of each kind may use when it has none', async () => {
		const answer = await sandbox.track({
			attributes: [{ plan: 'pro' }],
			events: [{ name: 'e', time: AT }],
			purchases: [{ product_id: 'mug', currency: 'USD', price: 1, time: AT }],
		});
		expect(answer.body.errors.map((error: { type: string }) => error.type)).toEqual([
			'one identifier is required: external_id, user_alias, email or phone',
			'one identifier is required: external_id, user_alias, service_id, email or phone',
			'one identifier is required: external_id, user_alias or email',
		]);
	});

	it("gives 'provided external_id is blacklisted and disallowed' for a dummy external_id", async () => {
		const answer = await sandbox.track({
			attributes: [{ external_id: 'undefined', plan: 'pro' }],
			events: [{ external_id: 'N/A', name: 'e', time: AT }],
		});
		expect(answer.body.errors).toEqual([
			{ type: 'provided external_id is blacklisted and disallowed', input_array: 'attributes', index: 0 },
			{ type: 'provided external_id is blacklisted and disallowed', input_array: 'events', index: 0 },
		]);
		expect((await sandbox.admin.stats()).profiles).toBe(0);
	});

	it('takes 100,050 events in 1,334 requests of 75 (the benchmark shape)', async () => {
		await sandbox.admin.configure({ logBodies: false, rateLimits: { 'users.track': null } });
		const batches = 1334;
		for (let b = 0; b < batches; b += 50) {
			await Promise.all(
				[...Array(Math.min(50, batches - b)).keys()].map((i) =>
					sandbox.track({
						events: [...Array(75).keys()].map((j) => ({
							external_id: `bulk-${(b + i) * 75 + j}`,
							name: 'imported',
							time: AT,
						})),
					}),
				),
			);
		}
		expect(await sandbox.admin.stats()).toMatchObject({
			events: 100_050,
			profiles: 100_050,
			requests: 1334,
			responsesByStatus: { '201': 1334 },
		});
	});
});
