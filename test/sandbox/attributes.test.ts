import { useSandbox } from './sandboxTestKit';

describe('sandbox: attribute objects', () => {
	const NEWSLETTER = 'newsletter-group';
	const sandbox = useSandbox({ subscriptionGroups: [NEWSLETTER] });

	it('sets and unsets custom attributes', async () => {
		await sandbox.track({ attributes: [{ external_id: 'u-1', plan: 'pro', score: 4.5, vip: true, tags: ['a', 'b'] }] });
		await sandbox.track({ attributes: [{ external_id: 'u-1', plan: null }] });
		const [profile] = (await sandbox.admin.state()).profiles;
		expect(profile.custom_attributes).toEqual({ score: 4.5, vip: true, tags: ['a', 'b'] });
	});

	it.each([
		[{ $plan: 'pro' }, /must not start with \$/],
		[{ plan: 'x'.repeat(256) }, /at most 255 characters/],
		[{ tags: ['a', 1] }, /arrays must contain only strings/],
		[{ address: { city: 'Paris' } }, /value must be a string, number, boolean, array of strings or null/],
		[{ email_subscribe: 'yes' }, /email_subscribe must be one of opted_in, subscribed, unsubscribed/],
		[{ email: 'not-an-email' }, /email must be a valid email address/],
		[{ gender: 'X' }, /gender must be one of/],
		[{ dob: '1990-02-30' }, /dob must be a date/],
		[{ country: 'France' }, /ISO-3166-1 alpha-2/],
		[
			{ subscription_groups: [{ subscription_group_id: NEWSLETTER, subscription_state: 'maybe' }] },
			/subscription_state must be subscribed or unsubscribed/,
		],
	])('refuses %j', async (attributes, message) => {
		const answer = await sandbox.track({ attributes: [{ external_id: 'u-1', ...attributes }] });
		expect(answer.body.attributes_processed).toBe(0);
		expect(answer.body.errors[0]).toEqual({
			type: expect.stringMatching(message),
			input_array: 'attributes',
			index: 0,
		});
		expect((await sandbox.admin.stats()).profiles).toBe(0);
	});

	it('stores standard attributes apart from custom ones', async () => {
		await sandbox.track({
			attributes: [
				{ external_id: 'u-1', first_name: 'Ada', country: 'GB', dob: '1815-12-10', gender: 'F', favourite: 'maths' },
			],
		});
		const [profile] = (await sandbox.admin.state()).profiles;
		expect(profile.standard_attributes).toEqual({ first_name: 'Ada', country: 'GB', dob: '1815-12-10', gender: 'F' });
		expect(profile.custom_attributes).toEqual({ favourite: 'maths' });
	});

	it('creates the user and sets its subscription group state in one call', async () => {
		await sandbox.track({
			attributes: [
				{
					external_id: 'u-1',
					subscription_groups: [{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed' }],
				},
			],
		});
		const state = await sandbox.admin.state();
		const [profile] = state.profiles;
		expect(state.subscriptionGroups).toEqual({ [NEWSLETTER]: { [profile.service_id]: 'subscribed' } });
		expect(profile.subscription_groups).toEqual({ [NEWSLETTER]: 'subscribed' });
	});

	it('updates every profile sharing the email when the state is set by external_id', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [
				{ external_id: 'u-1', email: 'family@example.com' },
				{ email: 'family@example.com' },
				{ external_id: 'other', email: 'other@example.com' },
			],
		});
		await sandbox.track({
			attributes: [
				{
					external_id: 'u-1',
					email_subscribe: 'unsubscribed',
					subscription_groups: [{ subscription_group_id: NEWSLETTER, subscription_state: 'unsubscribed' }],
				},
			],
		});
		const { subscriptionGroups, profiles } = await sandbox.admin.state();
		expect(subscriptionGroups[NEWSLETTER]).toEqual({
			[seeded[0].service_id]: 'unsubscribed',
			[seeded[1].service_id]: 'unsubscribed',
		});
		expect(profiles.map((p) => p.email_subscribe)).toEqual(['unsubscribed', 'unsubscribed', undefined]);
	});

	it('updates only the addressed profile when the state is set by email', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [{ external_id: 'u-1', email: 'family@example.com' }, { email: 'family@example.com' }],
		});
		await sandbox.track({
			attributes: [
				{
					email: 'family@example.com',
					subscription_groups: [{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed' }],
				},
			],
		});
		expect((await sandbox.admin.state()).subscriptionGroups[NEWSLETTER]).toEqual({
			[seeded[0].service_id]: 'subscribed',
		});
	});

	it('moves a profile to a new email when the email attribute changes', async () => {
		await sandbox.track({ attributes: [{ external_id: 'u-1', email: 'old@example.com' }] });
		await sandbox.track({ attributes: [{ external_id: 'u-1', email: 'new@example.com' }] });
		const answer = await sandbox.track({
			attributes: [{ email: 'old@example.com', _update_existing_only: true, plan: 'x' }],
		});
		expect(answer.body.errors[0].type).toBe("no profile has email 'old@example.com' and _update_existing_only is true");
	});
});
