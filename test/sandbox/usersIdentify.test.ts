import type { ProfileView } from '../../sandbox';
import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /users/identify', () => {
	const sandbox = useSandbox();
	const identify = (body: unknown) => sandbox.call('POST', '/users/identify', body);
	const exportUser = async (externalId: string, fields: string[]) =>
		(await sandbox.call('POST', '/users/export/ids', { external_ids: [externalId], fields_to_export: fields })).body
			.users[0];
	const visitor = { alias_name: 'visitor-1', alias_label: 'web' };

	async function profiles(): Promise<ProfileView[]> {
		return (await sandbox.admin.state()).profiles;
	}

	/** An identified customer and an alias-only visitor, each with events, attributes and a purchase. */
	async function seedCustomerAndVisitor(): Promise<void> {
		await sandbox.admin.seed({
			profiles: [
				{
					external_id: 'customer-1',
					standard_attributes: { first_name: 'Ada', date_of_first_session: '2024-03-01T00:00:00Z' },
					custom_attributes: { tier: 'gold' },
					events: [
						{ name: 'viewed', time: '2024-05-02T00:00:00Z' },
						{ name: 'viewed', time: '2024-05-03T00:00:00Z' },
					],
					purchases: [{ product_id: 'mug', currency: 'USD', price: 10, time: '2024-05-03T00:00:00Z' }],
				},
				{
					user_aliases: [visitor],
					phone: '+14155550100',
					subscription_groups: { 'group-newsletter': 'subscribed' },
					standard_attributes: {
						first_name: 'Visitor',
						last_name: 'Lovelace',
						home_city: 'London',
						date_of_first_session: '2024-02-01T00:00:00Z',
					},
					custom_attributes: { tier: 'free', landing_page: '/pricing' },
					events: [
						{ name: 'viewed', time: '2024-05-01T00:00:00Z' },
						{ name: 'viewed', time: '2024-05-04T00:00:00Z' },
						{ name: 'signed_up', time: '2024-05-04T00:00:00Z' },
					],
					purchases: [{ product_id: 'mug', currency: 'USD', price: 5, quantity: 2, time: '2024-04-30T00:00:00Z' }],
				},
			],
		});
	}

	it.each([
		['neither array', { merge_behavior: 'merge' }, /^aliases_to_identify is required/],
		[
			'emails_to_identify without aliases_to_identify',
			{ emails_to_identify: [{ external_id: 'u', email: 'a@example.com', prioritization: ['unidentified'] }] },
			/^aliases_to_identify is required: an array of at most 50 \{external_id, user_alias\} objects, \[\] when only emails_to_identify is given$/,
		],
		[
			'aliases_to_identify as null',
			{
				aliases_to_identify: null,
				emails_to_identify: [{ external_id: 'u', email: 'a@example.com', prioritization: ['unidentified'] }],
			},
			/^aliases_to_identify must be an array$/,
		],
		[
			'two empty arrays',
			{ aliases_to_identify: [], emails_to_identify: [] },
			/^aliases_to_identify or emails_to_identify is required/,
		],
		[
			'51 aliases',
			{ aliases_to_identify: [...Array(51).keys()].map((i) => ({ external_id: `u-${i}`, user_alias: visitor })) },
			/aliases_to_identify may contain at most 50 objects per request; received 51/,
		],
		[
			'an alias without external_id',
			{ aliases_to_identify: [{ user_alias: visitor }] },
			/^aliases_to_identify\[0\]\.external_id must be a non-empty string/,
		],
		[
			'a malformed user_alias',
			{ aliases_to_identify: [{ external_id: 'u', user_alias: { alias_name: 'x' } }] },
			/aliases_to_identify\[0\]\.user_alias must be an object/,
		],
		[
			'a missing prioritization',
			{ aliases_to_identify: [], emails_to_identify: [{ external_id: 'u', email: 'a@example.com' }] },
			/emails_to_identify\[0\]\.prioritization is required/,
		],
		[
			'an empty prioritization',
			{
				aliases_to_identify: [],
				emails_to_identify: [{ external_id: 'u', email: 'a@example.com', prioritization: [] }],
			},
			/prioritization is required/,
		],
		[
			'an unknown prioritization value',
			{
				aliases_to_identify: [],
				emails_to_identify: [{ external_id: 'u', email: 'a@example.com', prioritization: ['newest'] }],
			},
			/prioritization: unknown value "newest"/,
		],
		[
			'identified with unidentified',
			{
				aliases_to_identify: [],
				emails_to_identify: [
					{ external_id: 'u', email: 'a@example.com', prioritization: ['identified', 'unidentified'] },
				],
			},
			/may contain only one of identified and unidentified/,
		],
		[
			'a malformed email',
			{
				aliases_to_identify: [],
				emails_to_identify: [{ external_id: 'u', email: 'not-an-email', prioritization: ['unidentified'] }],
			},
			/emails_to_identify\[0\]\.email "not-an-email" is not a valid email address/,
		],
		[
			'an unknown merge_behavior',
			{ aliases_to_identify: [{ external_id: 'u', user_alias: visitor }], merge_behavior: 'all' },
			/merge_behavior must be none or merge/,
		],
	])('refuses %s with 400', async (_case, body, message) => {
		await sandbox.admin.seed({ profiles: [{ user_aliases: [visitor] }] });
		const answer = await identify(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
		expect((await profiles())[0].external_id).toBeUndefined();
	});

	it('gives the external_id to the alias-only profile when nobody has it', async () => {
		await sandbox.admin.seed({
			profiles: [{ user_aliases: [visitor], custom_attributes: { landing_page: '/pricing' } }],
		});
		const answer = await identify({ aliases_to_identify: [{ external_id: 'new-customer', user_alias: visitor }] });
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ aliases_processed: 1, message: 'success' });
		const [profile] = await profiles();
		expect(profile).toMatchObject({
			external_id: 'new-customer',
			user_aliases: [visitor],
			custom_attributes: { landing_page: '/pricing' },
		});
	});

	it('merge: removes the visitor and gives the customer its alias, missing fields, new custom attributes, events and purchases', async () => {
		await seedCustomerAndVisitor();
		const answer = await identify({
			aliases_to_identify: [{ external_id: 'customer-1', user_alias: visitor }],
			merge_behavior: 'merge',
		});
		expect(answer.body).toEqual({ aliases_processed: 1, message: 'success' });

		const all = await profiles();
		expect(all).toHaveLength(1);
		expect(all[0]).toMatchObject({
			external_id: 'customer-1',
			user_aliases: [visitor],
			phone: '+14155550100',
			// The customer's own first name and tier are kept; what it lacked comes from the visitor.
			standard_attributes: {
				first_name: 'Ada',
				last_name: 'Lovelace',
				home_city: 'London',
				date_of_first_session: '2024-02-01T00:00:00Z',
			},
			custom_attributes: { tier: 'gold', landing_page: '/pricing' },
		});
		expect(await exportUser('customer-1', ['custom_events', 'purchases', 'total_revenue'])).toEqual({
			custom_events: [
				{ name: 'viewed', first: '2024-05-01T00:00:00.000Z', last: '2024-05-04T00:00:00.000Z', count: 4 },
				{ name: 'signed_up', first: '2024-05-04T00:00:00.000Z', last: '2024-05-04T00:00:00.000Z', count: 1 },
			],
			purchases: [{ name: 'mug', first: '2024-04-30T00:00:00.000Z', last: '2024-05-03T00:00:00.000Z', count: 2 }],
			total_revenue: 20,
		});
	});

	it('none (the default): attaches the alias, merges no data, and orphans the visitor events and purchases', async () => {
		await seedCustomerAndVisitor();
		const visitorId = (await profiles())[1].service_id;
		const answer = await identify({ aliases_to_identify: [{ external_id: 'customer-1', user_alias: visitor }] });
		expect(answer.body).toEqual({ aliases_processed: 1, message: 'success' });

		const all = await profiles();
		expect(all).toHaveLength(1);
		expect(all[0].user_aliases).toEqual([visitor]);
		expect(all[0].phone).toBeUndefined();
		expect(all[0].standard_attributes).toEqual({ first_name: 'Ada', date_of_first_session: '2024-03-01T00:00:00Z' });
		expect(all[0].custom_attributes).toEqual({ tier: 'gold' });
		expect(await exportUser('customer-1', ['custom_events', 'purchases'])).toEqual({
			custom_events: [
				{ name: 'viewed', first: '2024-05-02T00:00:00.000Z', last: '2024-05-03T00:00:00.000Z', count: 2 },
			],
			purchases: [{ name: 'mug', first: '2024-05-03T00:00:00.000Z', last: '2024-05-03T00:00:00.000Z', count: 1 }],
		});
		const { events, purchases, subscriptionGroups } = await sandbox.admin.state();
		expect(events.filter((event) => event.service_id === visitorId)).toHaveLength(3);
		expect(purchases.filter((purchase) => purchase.service_id === visitorId)).toHaveLength(1);
		// Group states are not in the spec's merge list: they leave with the removed profile.
		expect(subscriptionGroups).toEqual({ 'group-newsletter': {} });
		expect(all[0].subscription_groups).toEqual({});
	});

	it('works on the demo workspace: the web visitor identified as demo-user-3 brings its events along', async () => {
		await sandbox.admin.reset({ seed: 'demo' });
		const before = (await sandbox.admin.stats()).profiles;
		const answer = await identify({
			aliases_to_identify: [
				{ external_id: 'demo-user-3', user_alias: { alias_label: 'web_visitor', alias_name: 'visitor-7f3a9c' } },
			],
			merge_behavior: 'merge',
		});
		expect(answer.body).toEqual({ aliases_processed: 1, message: 'success' });
		expect((await sandbox.admin.stats()).profiles).toBe(before - 1);
		expect(await exportUser('demo-user-3', ['home_city', 'custom_events'])).toEqual({
			home_city: 'Manchester',
			custom_events: [
				{ name: 'viewed_product', first: '2024-03-28T08:30:00.000Z', last: '2024-03-30T12:00:00.000Z', count: 2 },
				{ name: 'started_checkout', first: '2024-03-28T08:42:00.000Z', last: '2024-03-28T08:42:00.000Z', count: 1 },
			],
		});
	});

	it('after identification, the alias finds the identified user', async () => {
		await seedCustomerAndVisitor();
		await identify({ aliases_to_identify: [{ external_id: 'customer-1', user_alias: visitor }] });
		const answer = await sandbox.call('POST', '/users/export/ids', {
			user_aliases: [visitor],
			fields_to_export: ['external_id'],
		});
		expect(answer.body).toEqual({ message: 'success', users: [{ external_id: 'customer-1' }] });
	});

	it('attaches several aliases to one external_id, and does not count aliases it cannot apply', async () => {
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'customer-1', user_aliases: [{ alias_name: 'crm-9', alias_label: 'crm' }] },
				{ user_aliases: [visitor] },
				{ user_aliases: [{ alias_name: 'app-1', alias_label: 'app' }] },
				{ user_aliases: [{ alias_name: 'crm-1', alias_label: 'crm' }] },
				{ external_id: 'someone-else', user_aliases: [{ alias_name: 'owned', alias_label: 'web' }] },
			],
		});
		const answer = await identify({
			aliases_to_identify: [
				{ external_id: 'customer-1', user_alias: visitor },
				{ external_id: 'customer-1', user_alias: { alias_name: 'app-1', alias_label: 'app' } },
				{ external_id: 'customer-1', user_alias: { alias_name: 'nobody', alias_label: 'web' } },
				// customer-1 already has a 'crm' alias: Braze does not combine the profiles.
				{ external_id: 'customer-1', user_alias: { alias_name: 'crm-1', alias_label: 'crm' } },
				// Already on an identified profile.
				{ external_id: 'customer-1', user_alias: { alias_name: 'owned', alias_label: 'web' } },
			],
		});
		expect(answer.body).toEqual({ aliases_processed: 2, message: 'success' });
		const customer = (await profiles()).find((profile) => profile.external_id === 'customer-1');
		expect(customer?.user_aliases).toEqual([
			{ alias_name: 'crm-9', alias_label: 'crm' },
			visitor,
			{ alias_name: 'app-1', alias_label: 'app' },
		]);
		expect(await profiles()).toHaveLength(3);
	});

	it('identifies an email-only profile by email: merged into the customer, who keeps the email', async () => {
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'customer-1' },
				{
					email: 'fan@example.com',
					email_subscribe: 'subscribed',
					custom_attributes: { source: 'footer' },
					events: [{ name: 'opened', time: '2024-05-01T00:00:00Z' }],
				},
			],
		});
		const answer = await identify({
			aliases_to_identify: [],
			emails_to_identify: [
				{
					external_id: 'customer-1',
					email: 'FAN@example.com',
					prioritization: ['unidentified', 'most_recently_updated'],
				},
			],
			merge_behavior: 'merge',
		});
		expect(answer.body).toEqual({ aliases_processed: 1, message: 'success' });
		const all = await profiles();
		expect(all).toHaveLength(1);
		expect(all[0]).toMatchObject({
			external_id: 'customer-1',
			email: 'fan@example.com',
			email_subscribe: 'subscribed',
			custom_attributes: { source: 'footer' },
		});
		expect((await exportUser('customer-1', ['custom_events'])).custom_events).toEqual([
			{ name: 'opened', first: '2024-05-01T00:00:00.000Z', last: '2024-05-01T00:00:00.000Z', count: 1 },
		]);
	});

	it('identifies nobody when several email-only profiles match the prioritization, and picks the newest with most_recently_updated', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [{ email: 'twice@example.com' }, { email: 'twice@example.com' }],
		});
		const ambiguous = await identify({
			aliases_to_identify: [],
			emails_to_identify: [{ external_id: 'customer-1', email: 'twice@example.com', prioritization: ['unidentified'] }],
		});
		expect(ambiguous.body).toEqual({ aliases_processed: 0, message: 'success' });
		expect((await profiles()).every((profile) => profile.external_id === undefined)).toBe(true);

		const picked = await identify({
			aliases_to_identify: [],
			emails_to_identify: [
				{
					external_id: 'customer-1',
					email: 'twice@example.com',
					prioritization: ['unidentified', 'most_recently_updated'],
				},
			],
		});
		expect(picked.body.aliases_processed).toBe(1);
		expect((await profiles()).find((profile) => profile.external_id === 'customer-1')?.service_id).toBe(
			seeded[1].service_id,
		);
	});

	it('does not count an email that no unidentified profile has', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'has-email', email: 'taken@example.com' }] });
		const answer = await identify({
			aliases_to_identify: [],
			emails_to_identify: [
				{ external_id: 'customer-1', email: 'taken@example.com', prioritization: ['unidentified'] },
				{ external_id: 'customer-1', email: 'taken@example.com', prioritization: ['identified'] },
				{ external_id: 'customer-1', email: 'nobody@example.com', prioritization: ['most_recently_updated'] },
			],
		});
		expect(answer.body).toEqual({ aliases_processed: 0, message: 'success' });
		expect(await profiles()).toHaveLength(1);
	});
});
