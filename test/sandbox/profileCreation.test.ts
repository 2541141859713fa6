import type { ProfileView } from '../../sandbox';
import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: which /users/track objects create profiles', () => {
	const sandbox = useSandbox();
	const alias = { alias_name: 'visitor-1', alias_label: 'web' };

	async function profiles(): Promise<ProfileView[]> {
		return (await sandbox.admin.state()).profiles;
	}

	it('creates an identified profile for an unknown external_id', async () => {
		await sandbox.track({ attributes: [{ external_id: 'new-user', first_name: 'Nia', plan: 'pro' }] });
		const [profile] = await profiles();
		expect(profile).toMatchObject({
			external_id: 'new-user',
			standard_attributes: { first_name: 'Nia' },
			custom_attributes: { plan: 'pro' },
		});
		expect(profile.service_id).toMatch(/^[0-9a-f]{24}$/);
	});

	it('does not create a profile when _update_existing_only is true, and says so', async () => {
		const answer = await sandbox.track({
			attributes: [{ external_id: 'ghost', plan: 'pro', _update_existing_only: true }],
			events: [{ external_id: 'ghost', name: 'e', time: AT, _update_existing_only: true }],
		});
		expect(answer.body.errors).toEqual([
			{
				type: "no profile has external_id 'ghost' and _update_existing_only is true",
				input_array: 'attributes',
				index: 0,
			},
			{ type: "no profile has external_id 'ghost' and _update_existing_only is true", input_array: 'events', index: 0 },
		]);
		expect(await profiles()).toEqual([]);
	});

	it('creates an alias-only profile only from an attribute object with _update_existing_only false', async () => {
		const omitted = await sandbox.track({ attributes: [{ user_alias: alias, plan: 'free' }] });
		expect(omitted.body.errors[0].type).toMatch(/set _update_existing_only to false/);
		expect(await profiles()).toEqual([]);

		await sandbox.track({ attributes: [{ user_alias: alias, _update_existing_only: false, plan: 'free' }] });
		const [profile] = await profiles();
		expect(profile.user_aliases).toEqual([alias]);
		expect(profile.external_id).toBeUndefined();
	});

	it('never creates a profile from an event or purchase with a user_alias, but updates an existing one', async () => {
		const event = { user_alias: alias, name: 'viewed', time: AT, _update_existing_only: false };
		const refused = await sandbox.track({ events: [event] });
		expect(refused.body.errors[0]).toEqual({
			type: "no profile has user_alias (alias_label 'web', alias_name 'visitor-1'); events with user_alias only update existing profiles",
			input_array: 'events',
			index: 0,
		});

		// The attribute object comes first, so the event of the same request finds the new profile.
		const answer = await sandbox.track({
			attributes: [{ user_alias: alias, _update_existing_only: false }],
			events: [event],
		});
		expect(answer.body).toEqual({ message: 'success', attributes_processed: 1, events_processed: 1 });
	});

	it('creates an email-only profile, without alias, when no profile has the email', async () => {
		await sandbox.track({ attributes: [{ email: 'new@example.com', first_name: 'Eve' }] });
		const [profile] = await profiles();
		expect(profile).toMatchObject({
			email: 'new@example.com',
			user_aliases: [],
			standard_attributes: { first_name: 'Eve' },
		});
		expect(profile.external_id).toBeUndefined();
	});

	it('updates, among profiles sharing an email, the most recently updated one with an external_id (rule 1)', async () => {
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'older', email: 'shared@example.com' },
				{ external_id: 'newer', email: 'shared@example.com' },
				{ email: 'shared@example.com' },
			],
		});
		await sandbox.track({ attributes: [{ external_id: 'older', touched: true }] });
		await sandbox.track({ events: [{ email: 'SHARED@example.com', name: 'clicked', time: AT }] });

		const all = await profiles();
		const older = all.find((p) => p.external_id === 'older');
		expect((await sandbox.admin.state()).events[0].service_id).toBe(older?.service_id);
	});

	it('otherwise updates the most recently updated profile with the email', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [{ email: 'anon@example.com' }, { email: 'anon@example.com' }],
		});
		await sandbox.track({ events: [{ email: 'anon@example.com', name: 'clicked', time: AT }] });
		expect((await sandbox.admin.state()).events[0].service_id).toBe(seeded[1].service_id);
	});

	it('addresses by phone only with a valid E.164 number', async () => {
		const answer = await sandbox.track({
			events: [
				{ phone: '555-0100', name: 'texted', time: AT },
				{ phone: '+14155550100', name: 'texted', time: AT },
			],
		});
		expect(answer.body.events_processed).toBe(1);
		expect(answer.body.errors[0]).toMatchObject({
			input_array: 'events',
			index: 0,
			type: expect.stringMatching(/E\.164/),
		});
		expect((await profiles())[0].phone).toBe('+14155550100');
	});

	it('accepts a service_id only when that profile exists', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({ profiles: [{ external_id: 'known' }] });
		const answer = await sandbox.track({
			events: [
				{ service_id: seeded[0].service_id, name: 'e', time: AT },
				{ service_id: 'ffffffffffffffffffffffff', name: 'e', time: AT },
			],
		});
		expect(answer.body.events_processed).toBe(1);
		expect(answer.body.errors).toEqual([
			{ type: "no profile has service_id 'ffffffffffffffffffffffff'", input_array: 'events', index: 1 },
		]);
	});

	it('finds a user by a deprecated external_id', async () => {
		const { profiles: seeded } = await sandbox.admin.seed({
			profiles: [{ external_id: 'current', deprecated_external_ids: ['old-id'] }],
		});
		await sandbox.track({ events: [{ external_id: 'old-id', name: 'e', time: AT }] });
		expect(await sandbox.admin.stats()).toMatchObject({ profiles: 1, events: 1 });
		expect((await sandbox.admin.state()).events[0].service_id).toBe(seeded[0].service_id);
	});

	it('refuses an event with two identifiers, but lets an attribute object set the email of an external_id', async () => {
		const answer = await sandbox.track({
			attributes: [{ external_id: 'u-1', email: 'u1@example.com', phone: '+14155550199' }],
			events: [{ external_id: 'u-1', email: 'u1@example.com', name: 'e', time: AT }],
		});
		expect(answer.body.errors).toEqual([
			{ type: 'exactly one identifier is allowed, got external_id and email', input_array: 'events', index: 0 },
		]);
		expect((await profiles())[0]).toMatchObject({ external_id: 'u-1', email: 'u1@example.com', phone: '+14155550199' });
	});
});
