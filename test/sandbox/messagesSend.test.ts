import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /messages/send', () => {
	const sandbox = useSandbox();
	const send = (body: unknown, apiKey?: string) => sandbox.call('POST', '/messages/send', body, { apiKey });
	const EMAIL = { email: { app_id: 'app', subject: 'Hello', body: '<p>Hi</p>' } };
	const seedWorkspace = () =>
		sandbox.admin.seed({
			profiles: [
				{ external_id: 'u1', email: 'u1@example.com', email_subscribe: 'opted_in' },
				{ external_id: 'u2', email: 'u2@example.com' },
				{ external_id: 'u3', email: 'u3@example.com', email_subscribe: 'unsubscribed' },
				{ user_aliases: [{ alias_label: 'crm', alias_name: 'lead-9' }] },
			],
			campaigns: [{ id: 'stats-campaign' }],
			segments: [{ id: 'seg-1', external_ids: ['u1', 'u3', 'ghost'] }],
		});

	it.each([
		['no messages', { external_user_ids: ['u1'] }, /^messages is required/],
		[
			'an empty messages object',
			{ external_user_ids: ['u1'], messages: {} },
			/^messages must contain at least one of android_push/,
		],
		[
			'an unknown channel key',
			{ external_user_ids: ['u1'], messages: { ...EMAIL, carrier_pigeon: {} } },
			/^messages: unknown channel 'carrier_pigeon'/,
		],
		[
			'a channel that is not an object',
			{ external_user_ids: ['u1'], messages: { sms: 'hi' } },
			/^messages\.sms must be a channel message object/,
		],
		['no target at all', { broadcast: true, messages: EMAIL }, /^At least one of segment_id, external_user_ids/],
		[
			'a segment without broadcast',
			{ segment_id: 'seg-1', messages: EMAIL },
			/^broadcast must be true when no external_user_ids or user_aliases are given/,
		],
		[
			'an audience with broadcast false',
			{
				audience: { email_subscription_status: { comparison: 'is', value: 'opted_in' } },
				broadcast: false,
				messages: EMAIL,
			},
			/^broadcast must be true/,
		],
		[
			'users with broadcast true',
			{ external_user_ids: ['u1'], broadcast: true, messages: EMAIL },
			/^external_user_ids and user_aliases cannot be included when broadcast is true/,
		],
		[
			'aliases with broadcast true',
			{ user_aliases: [{ alias_label: 'crm', alias_name: 'lead-9' }], broadcast: true, messages: EMAIL },
			/cannot be included when broadcast is true/,
		],
		[
			'51 external_user_ids',
			{ external_user_ids: [...Array(51).keys()].map((i) => `u-${i}`), messages: EMAIL },
			/^external_user_ids may contain at most 50 IDs per request; received 51/,
		],
		[
			'an empty external ID',
			{ external_user_ids: ['u1', ''], messages: EMAIL },
			/^external_user_ids\[1\] must be a non-empty string/,
		],
		[
			'a malformed alias',
			{ user_aliases: [{ alias_name: 'x' }], messages: EMAIL },
			/^user_aliases\[0\] must be an object with non-empty strings/,
		],
		[
			'an unknown recipient_subscription_state',
			{ external_user_ids: ['u1'], recipient_subscription_state: 'unsubscribed', messages: EMAIL },
			/^recipient_subscription_state must be one of opted_in, subscribed, all/,
		],
		[
			'a non-boolean override_frequency_capping',
			{ external_user_ids: ['u1'], override_frequency_capping: 'yes', messages: EMAIL },
			/^override_frequency_capping must be a boolean/,
		],
		[
			'an unknown campaign',
			{ external_user_ids: ['u1'], campaign_id: 'nope', messages: EMAIL },
			/^Campaign does not exist$/,
		],
		['an unknown segment', { segment_id: 'nope', broadcast: true, messages: EMAIL }, /^Segment does not exist$/],
		[
			'an invalid audience',
			{
				audience: { AND: [{ custom_attribute: { custom_attribute_name: 'tier', comparison: 'is_like', value: 'x' } }] },
				broadcast: true,
				messages: EMAIL,
			},
			/^audience\.AND\[0\]\.custom_attribute\.comparison must be one of/,
		],
		[
			'an unknown field',
			{ external_user_ids: ['u1'], messages: EMAIL, schedule: {} },
			/^Unknown request field\(s\): schedule/,
		],
	])('refuses %s with 400 and records no dispatch', async (_case, body, message) => {
		await seedWorkspace();
		const answer = await send(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
		expect((await sandbox.admin.state()).dispatches).toEqual([]);
	});

	it('sends to the named users, skipping unknown IDs, and records one dispatch', async () => {
		const { profiles } = await seedWorkspace();
		const answer = await send({
			external_user_ids: ['u1', 'ghost', 'u2'],
			user_aliases: [
				{ alias_label: 'crm', alias_name: 'lead-9' },
				{ alias_label: 'crm', alias_name: 'nobody' },
			],
			campaign_id: 'stats-campaign',
			send_id: 'send-42',
			override_frequency_capping: true,
			messages: EMAIL,
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ dispatch_id: expect.stringMatching(/^[0-9a-f]{24}$/), message: 'success' });

		const { dispatches } = await sandbox.admin.state();
		expect(dispatches).toEqual([
			{
				dispatch_id: answer.body.dispatch_id,
				endpoint: '/messages/send',
				campaign_id: 'stats-campaign',
				send_id: 'send-42',
				broadcast: false,
				messages: EMAIL,
				recipients: [
					{ service_id: profiles[0].service_id, external_id: 'u1' },
					{ service_id: profiles[1].service_id, external_id: 'u2' },
					{ service_id: profiles[3].service_id },
				],
				created_at: expect.any(String),
			},
		]);
	});

	it('sends a segment broadcast to its subscribed members, and users given with a segment only when in it', async () => {
		await seedWorkspace();
		await send({ segment_id: 'seg-1', broadcast: true, messages: EMAIL });
		await send({ segment_id: 'seg-1', external_user_ids: ['u1', 'u2'], messages: EMAIL });
		const [broadcast, both] = (await sandbox.admin.state()).dispatches;
		// u3 is in the segment but unsubscribed: the default recipient_subscription_state (subscribed) leaves it out.
		expect(broadcast.recipients.map((r) => r.external_id)).toEqual(['u1']);
		expect(broadcast.broadcast).toBe(true);
		expect(both.recipients.map((r) => r.external_id)).toEqual(['u1']);
	});

	it('lets recipient_subscription_state choose between opted-in, subscribed and all users', async () => {
		await seedWorkspace();
		const ids = ['u1', 'u2', 'u3'];
		await send({ external_user_ids: ids, recipient_subscription_state: 'opted_in', messages: EMAIL });
		await send({ external_user_ids: ids, messages: EMAIL });
		await send({ external_user_ids: ids, recipient_subscription_state: 'all', messages: EMAIL });
		const reached = (await sandbox.admin.state()).dispatches.map((d) => d.recipients.map((r) => r.external_id));
		expect(reached).toEqual([['u1'], ['u1', 'u2'], ['u1', 'u2', 'u3']]);
	});

	it('sends an audience broadcast to the profiles in the audience', async () => {
		await seedWorkspace();
		const answer = await send({
			audience: { email_subscription_status: { comparison: 'is_not', value: 'opted_in' } },
			broadcast: true,
			recipient_subscription_state: 'all',
			messages: { sms: { body: 'hi' } },
		});
		expect(answer.status).toBe(201);
		const [dispatch] = (await sandbox.admin.state()).dispatches;
		expect(dispatch.recipients.map((r) => r.external_id)).toEqual(['u2', 'u3', undefined]);
	});

	it('counts users against the shared external-ID budget and segments against the per-minute one', async () => {
		await seedWorkspace();
		const toUsers = await send({ external_user_ids: ['u1'], messages: EMAIL });
		expect(toUsers.headers.get('x-ratelimit-limit')).toBe('250000');
		const toSegment = await send({ segment_id: 'seg-1', broadcast: true, messages: EMAIL });
		expect(toSegment.headers.get('x-ratelimit-limit')).toBe('250');

		await sandbox.admin.configure({ rateLimits: { 'messaging.segment': { limit: 0, windowMs: 60_000 } } });
		expect((await send({ segment_id: 'seg-1', broadcast: true, messages: EMAIL })).status).toBe(429);
		expect((await send({ external_user_ids: ['u1'], messages: EMAIL })).status).toBe(201);
	});

	it('needs the messages.send permission', async () => {
		await sandbox.admin.addApiKey('track-only', ['users.track']);
		const answer = await send({ external_user_ids: ['u1'], messages: EMAIL }, 'track-only');
		expect(answer.status).toBe(403);
		expect(answer.body.message).toBe('You do not have permission to access this resource');
	});
});
