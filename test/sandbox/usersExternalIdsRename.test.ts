import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: POST /users/external_ids/rename', () => {
	const sandbox = useSandbox();
	const rename = (body: unknown) => sandbox.call('POST', '/users/external_ids/rename', body);
	const renames = (...pairs: Array<[string, string]>) => ({
		external_id_renames: pairs.map(([current, next]) => ({ current_external_id: current, new_external_id: next })),
	});

	it.each([
		['no external_id_renames', {}, /^external_id_renames is required/],
		['an empty array', { external_id_renames: [] }, /^external_id_renames is required/],
		[
			'an object instead of an array',
			{ external_id_renames: { current_external_id: 'a', new_external_id: 'b' } },
			/^external_id_renames is required/,
		],
		[
			'51 renames',
			renames(...[...Array(51).keys()].map((i): [string, string] => [`a-${i}`, `b-${i}`])),
			/at most 50 objects per request; received 51/,
		],
	])('refuses %s with 400', async (_case, body, message) => {
		const answer = await rename(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
	});

	it('makes the new ID primary and keeps the old one as deprecated: both find the user', async () => {
		const { profiles } = await sandbox.admin.seed({
			profiles: [{ external_id: 'crm-1', custom_attributes: { tier: 'gold' } }],
		});
		const answer = await rename(renames(['crm-1', 'user-1']));
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ message: 'success', external_ids: ['crm-1'], rename_errors: [] });

		const [profile] = (await sandbox.admin.state()).profiles;
		expect(profile).toMatchObject({
			service_id: profiles[0].service_id,
			external_id: 'user-1',
			deprecated_external_ids: ['crm-1'],
		});
		for (const id of ['crm-1', 'user-1']) {
			const exported = await sandbox.call('POST', '/users/export/ids', {
				external_ids: [id],
				fields_to_export: ['external_id', 'custom_attributes'],
			});
			expect(exported.body.users).toEqual([{ external_id: 'user-1', custom_attributes: { tier: 'gold' } }]);
		}
		await sandbox.track({ events: [{ external_id: 'crm-1', name: 'old_app_event', time: AT }] });
		expect((await sandbox.admin.state()).events[0].service_id).toBe(profiles[0].service_id);
	});

	it('refuses each rename that breaks a rule, by index, and applies the others', async () => {
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'current', deprecated_external_ids: ['old'] },
				{ external_id: 'other', deprecated_external_ids: ['other-old'] },
				{ external_id: 'movable' },
			],
		});
		const answer = await rename({
			external_id_renames: [
				{ current_external_id: 'old', new_external_id: 'fresh-1' },
				{ current_external_id: 'missing', new_external_id: 'fresh-2' },
				{ current_external_id: 'current', new_external_id: 'other' },
				{ current_external_id: 'current', new_external_id: 'other-old' },
				{ current_external_id: 'current', new_external_id: 'current' },
				{ current_external_id: 'movable', new_external_id: 'moved' },
				{ current_external_id: 'current' },
				'not an object',
				{ current_external_id: 'current', new_external_id: 'undefined' },
			],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			external_ids: ['movable'],
			rename_errors: [
				[0, 'current_external_id is deprecated'],
				[1, 'current_external_id does not exist'],
				[2, 'new_external_id is already in use'],
				[3, 'new_external_id is already in use'],
				[4, 'new_external_id must differ from current_external_id'],
				[6, 'new_external_id must be a non-empty string'],
				[7, 'each rename must be an object {current_external_id, new_external_id}'],
				[8, 'provided external_id is blacklisted and disallowed'],
			],
		});
		const ids = (await sandbox.admin.state()).profiles.map((profile) => [
			profile.external_id,
			profile.deprecated_external_ids,
		]);
		expect(ids).toEqual([
			['current', ['old']],
			['other', ['other-old']],
			['moved', ['movable']],
		]);
	});

	it('applies renames in order: a later one sees the earlier ones', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'a' }] });
		const answer = await rename(renames(['a', 'b'], ['b', 'c'], ['a', 'd'], ['x', 'a']));
		expect(answer.body).toEqual({
			message: 'success',
			external_ids: ['a', 'b'],
			rename_errors: [
				[2, 'current_external_id is deprecated'],
				[3, 'current_external_id does not exist'],
			],
		});
		expect((await sandbox.admin.state()).profiles[0]).toMatchObject({
			external_id: 'c',
			deprecated_external_ids: ['a', 'b'],
		});
	});
});
