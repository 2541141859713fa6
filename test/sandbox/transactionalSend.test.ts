import { PlatformState } from '../../sandbox/state/platformState';
import { DEDUP_KEY_LIFETIME_MS, findDuplicate } from '../../sandbox/transactional/deduplication';
import { eventually } from './postbackReceiver';
import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /transactional/v1/campaigns/{campaign_id}/send', () => {
	const sandbox = useSandbox();
	const sendTo = (campaignId: string, body: unknown, options: { apiKey?: string | null } = {}) =>
		sandbox.call('POST', `/transactional/v1/campaigns/${campaignId}/send`, body, options);
	const seedWorkspace = () =>
		sandbox.admin.seed({
			profiles: [
				{ external_id: 'u1', email: 'u1@example.com' },
				{ user_aliases: [{ alias_label: 'crm', alias_name: 'lead-9' }], email: 'lead@example.com' },
			],
			campaigns: [
				{ id: 'receipt', kind: 'transactional' },
				{ id: 'receipt-paused', kind: 'transactional', state: 'paused' },
				{ id: 'receipt-archived', kind: 'transactional', state: 'archived' },
				{ id: 'welcome' },
			],
		});
	const toU1 = { recipient: { external_user_id: 'u1' } };

	it.each([
		[
			'a campaign that is not transactional',
			'welcome',
			'The campaign is not a transactional campaign. Only transactional campaigns may use this endpoint',
		],
		['an unknown campaign', 'nope', 'Campaign does not exist'],
		[
			'an archived campaign',
			'receipt-archived',
			'The campaign is archived. Unarchive the campaign in order for trigger requests to take effect.',
		],
		[
			'a paused campaign',
			'receipt-paused',
			'The campaign is paused. Resume the campaign in order for trigger requests to take effect.',
		],
		['a campaign_id with a space', 'order%20receipt', 'campaign_id must be a string of the campaign api identifier'],
		['an unfilled template', '%7Bcampaign_id%7D', 'campaign_id must be a string of the campaign api identifier'],
	])('refuses %s with 400 and the spec message', async (_case, campaignId, message) => {
		await seedWorkspace();
		const answer = await sendTo(campaignId, toU1);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ message, errors: [message] });
		expect((await sandbox.admin.state()).transactionalSends).toEqual([]);
	});

	it.each([
		['no recipient', {}, /^recipient is required/],
		[
			'two identifiers',
			{ recipient: { external_user_id: 'u1', user_alias: { alias_label: 'crm', alias_name: 'lead-9' } } },
			/^recipient must have exactly one of external_user_id or user_alias/,
		],
		['an email recipient', { recipient: { email: 'u1@example.com' } }, /^recipient: Unknown request field\(s\): email/],
		[
			'an external_send_id outside Base64',
			{ external_send_id: 'order 17!', ...toU1 },
			/^external_send_id must be Base64-compatible/,
		],
		[
			'trigger_properties that are not an object',
			{ trigger_properties: [1], ...toU1 },
			/^trigger_properties must be an object/,
		],
		[
			'a bad attribute',
			{ recipient: { external_user_id: 'u1', attributes: { country: 'Britain' } } },
			/^recipient\.attributes: country must be an ISO-3166-1 alpha-2 country code/,
		],
		[
			'an unknown user without attributes',
			{ recipient: { external_user_id: 'stranger' } },
			/^Recipient does not exist: no user has external_user_id 'stranger'; send attributes to create the user/,
		],
		[
			'an unknown alias',
			{ recipient: { user_alias: { alias_label: 'crm', alias_name: 'nobody' } } },
			/^Recipient does not exist: no user has user_alias/,
		],
		['an unknown field', { ...toU1, broadcast: true }, /^Unknown request field\(s\): broadcast/],
	])('refuses %s with 400', async (_case, body, message) => {
		await seedWorkspace();
		const answer = await sendTo('receipt', body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect((await sandbox.admin.state()).transactionalSends).toEqual([]);
	});

	it('answers 201 queued with the metadata, then moves through sent, processed and delivered', async () => {
		const { profiles } = await seedWorkspace();
		const answer = await sendTo('receipt', {
			external_send_id: 'b3JkZXItMTc=',
			trigger_properties: { order: 17 },
			...toU1,
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			dispatch_id: expect.stringMatching(/^[0-9a-f]{24}$/),
			status: 'queued',
			metadata: { external_send_id: 'b3JkZXItMTc=', campaign_api_id: 'receipt', received_at: expect.any(String) },
		});
		const final = await eventually(async () => {
			const [send] = (await sandbox.admin.state()).transactionalSends;
			return send.statuses.length === 4 ? send : undefined;
		});
		expect(final).toEqual({
			dispatch_id: answer.body.dispatch_id,
			campaign_id: 'receipt',
			external_send_id: 'b3JkZXItMTc=',
			service_id: profiles[0].service_id,
			statuses: ['queued', 'sent', 'processed', 'delivered'],
		});
		// No postback URL configured: nothing was POSTed.
		expect((await sandbox.admin.state()).postbacks).toEqual([]);
	});

	it('omits external_send_id from the metadata when none was sent, and reaches a user by alias', async () => {
		const { profiles } = await seedWorkspace();
		const answer = await sendTo('receipt', { recipient: { user_alias: { alias_label: 'crm', alias_name: 'lead-9' } } });
		expect(answer.body.metadata).toEqual({ campaign_api_id: 'receipt', received_at: expect.any(String) });
		expect((await sandbox.admin.state()).transactionalSends[0].service_id).toBe(profiles[1].service_id);
	});

	it('creates an unknown user sent with attributes, and updates a known one before sending', async () => {
		await seedWorkspace();
		expect(
			(
				await sendTo('receipt', {
					recipient: { external_user_id: 'new-buyer', attributes: { email: 'buyer@example.com', first_name: 'Bo' } },
				})
			).status,
		).toBe(201);
		expect(
			(await sendTo('receipt', { recipient: { external_user_id: 'u1', attributes: { first_name: 'Ada', vip: true } } }))
				.status,
		).toBe(201);
		const { profiles, transactionalSends } = await sandbox.admin.state();
		const buyer = profiles.find((p) => p.external_id === 'new-buyer');
		expect(buyer).toMatchObject({ email: 'buyer@example.com', standard_attributes: { first_name: 'Bo' } });
		expect(profiles[0]).toMatchObject({ standard_attributes: { first_name: 'Ada' }, custom_attributes: { vip: true } });
		expect(transactionalSends.map((s) => s.service_id)).toEqual([buyer!.service_id, profiles[0].service_id]);
	});

	it('deduplicates an external_send_id per campaign: the original dispatch_id and its current status, no new send', async () => {
		await seedWorkspace();
		await sandbox.admin.seed({ campaigns: [{ id: 'receipt-2', kind: 'transactional' }] });
		const first = await sendTo('receipt', { external_send_id: 'order-17', ...toU1 });
		await eventually(async () =>
			(await sandbox.admin.state()).transactionalSends[0].statuses.length === 4 ? true : undefined,
		);

		const again = await sendTo('receipt', {
			external_send_id: 'order-17',
			recipient: { external_user_id: 'someone-else' },
		});
		expect(again.status).toBe(201);
		expect(again.body).toEqual({
			dispatch_id: first.body.dispatch_id,
			status: 'delivered',
			// When the first one was received: a repeat says when its email went.
			metadata: {
				external_send_id: 'order-17',
				campaign_api_id: 'receipt',
				received_at: (first.body.metadata as Record<string, unknown>).received_at,
			},
		});

		const otherCampaign = await sendTo('receipt-2', { external_send_id: 'order-17', ...toU1 });
		expect(otherCampaign.body.dispatch_id).not.toBe(first.body.dispatch_id);
		const fresh = await sendTo('receipt', { external_send_id: 'order-18', ...toU1 });
		expect(fresh.body.dispatch_id).not.toBe(first.body.dispatch_id);
		expect((await sandbox.admin.state()).transactionalSends).toHaveLength(3);
	});

	it('refuses a repeat that arrives while the original is still being answered with the spec\'s "queued" message', async () => {
		await seedWorkspace();
		await sandbox.admin.configure({ latencyMs: 300 });
		const body = { external_send_id: 'order-99', ...toU1 };
		const [first, second] = await Promise.all([
			sendTo('receipt', body),
			new Promise((resolve) => setTimeout(resolve, 50)).then(() => sendTo('receipt', body)),
		]);
		expect(first.status).toBe(201);
		expect(second.status).toBe(400);
		expect(second.body.message).toBe('The external reference has been queued. Please retry to obtain send_id.');
		const later = await sendTo('receipt', body);
		expect(later.body.dispatch_id).toBe(first.body.dispatch_id);
	});

	it('forgets a deduplication key after 24 hours', () => {
		const state = new PlatformState();
		const acceptedAtMs = Date.UTC(2024, 4, 1);
		state.transactionalSends.add({
			dispatch_id: 'd1',
			campaign_id: 'c',
			external_send_id: 'k',
			service_id: 's',
			statuses: ['queued'],
			acceptedAtMs,
			answeredAtMs: acceptedAtMs,
		});
		expect(findDuplicate(state, 'c', 'k', acceptedAtMs + DEDUP_KEY_LIFETIME_MS - 1)).toMatchObject({ kind: 'repeat' });
		expect(findDuplicate(state, 'c', 'k', acceptedAtMs + DEDUP_KEY_LIFETIME_MS)).toBeUndefined();
		expect(findDuplicate(state, 'c', undefined, acceptedAtMs)).toBeUndefined();
	});

	it('keeps accepting past any limit: no 429 and no rate-limit headers', async () => {
		await seedWorkspace();
		const answers = await Promise.all([...Array(20).keys()].map(() => sendTo('receipt', toU1)));
		expect(answers.every((answer) => answer.status === 201)).toBe(true);
		expect(answers[0].headers.get('x-ratelimit-limit')).toBeNull();
	});

	it('answers 401 without a valid key and 403 without transactional.send', async () => {
		await seedWorkspace();
		expect((await sendTo('receipt', toU1, { apiKey: null })).body).toEqual({
			message: 'Error authenticating credentials',
		});
		await sandbox.admin.addApiKey('no-email', ['messages.send']);
		const forbidden = await sendTo('receipt', toU1, { apiKey: 'no-email' });
		expect(forbidden.status).toBe(403);
		expect(forbidden.body).toEqual({ message: 'You do not have permission to access this resource' });
	});
});
