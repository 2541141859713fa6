import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /campaigns/trigger/send', () => {
	const sandbox = useSandbox({ subscriptionGroups: ['g-news'] });
	const trigger = (body: unknown) => sandbox.call('POST', '/campaigns/trigger/send', body);
	const CAMPAIGN = 'welcome';
	const seedWorkspace = () =>
		sandbox.admin.seed({
			profiles: [
				{ external_id: 'u1', email: 'shared@example.com', custom_attributes: { tier: 'gold' } },
				{ email: 'shared@example.com' },
				{ external_id: 'u2', custom_attributes: { tier: 'silver' } },
				{ user_aliases: [{ alias_label: 'crm', alias_name: 'lead-9' }] },
			],
			campaigns: [
				{ id: CAMPAIGN },
				{ id: 'on-hold', state: 'paused' },
				{ id: 'old', state: 'archived' },
				{ id: 'receipt', kind: 'transactional' },
			],
		});
	const toUser = (recipient: Record<string, unknown>) => ({ campaign_id: CAMPAIGN, recipients: [recipient] });

	it.each([
		['no campaign_id', { broadcast: true }, /^campaign_id is required/],
		[
			'neither recipients nor broadcast',
			{ campaign_id: CAMPAIGN },
			/^broadcast must be true when recipients is omitted/,
		],
		[
			'recipients with broadcast',
			{ campaign_id: CAMPAIGN, broadcast: true, recipients: [{ external_user_id: 'u1' }] },
			/^recipients cannot be included when broadcast is true/,
		],
		[
			'an empty recipients array',
			{ campaign_id: CAMPAIGN, recipients: [] },
			/^recipients must be a non-empty array of at most 50/,
		],
		[
			'51 recipients',
			{ campaign_id: CAMPAIGN, recipients: [...Array(51).keys()].map((i) => ({ external_user_id: `u-${i}` })) },
			/^recipients may contain at most 50 objects per request; received 51/,
		],
		[
			'a recipient with two identifiers',
			toUser({ external_user_id: 'u1', email: 'a@example.com' }),
			/^recipients\[0\]: exactly one of user_alias, external_user_id or email is allowed, got external_user_id and email/,
		],
		[
			'a recipient with none',
			toUser({ trigger_properties: {} }),
			/^recipients\[0\]: one of user_alias, external_user_id or email is required/,
		],
		[
			'an email without prioritization',
			toUser({ email: 'shared@example.com' }),
			/^recipients\[0\]\.prioritization is required with email/,
		],
		[
			'a prioritization with identified and unidentified',
			toUser({ email: 'shared@example.com', prioritization: ['identified', 'unidentified'] }),
			/may contain only one of identified and unidentified/,
		],
		[
			'send_to_existing_only with an alias',
			toUser({ user_alias: { alias_label: 'crm', alias_name: 'lead-9' }, send_to_existing_only: true }),
			/^recipients\[0\]\.send_to_existing_only cannot be used with user_alias/,
		],
		[
			'send_to_existing_only false without attributes',
			toUser({ external_user_id: 'new', send_to_existing_only: false }),
			/^recipients\[0\]\.attributes is required when send_to_existing_only is false/,
		],
		[
			'a bad attribute',
			toUser({ external_user_id: 'u1', attributes: { email_subscribe: 'maybe' } }),
			/^recipients\[0\]\.attributes: email_subscribe must be one of/,
		],
		[
			'an identifier among the attributes',
			toUser({ external_user_id: 'u1', attributes: { external_id: 'u9' } }),
			/^recipients\[0\]\.attributes\.external_id is not allowed/,
		],
		[
			'an unknown recipient field',
			toUser({ external_user_id: 'u1', canvas_entry_properties: {} }),
			/^recipients\[0\]: Unknown request field\(s\): canvas_entry_properties/,
		],
		[
			'trigger_properties that are not an object',
			{ campaign_id: CAMPAIGN, broadcast: true, trigger_properties: 'x' },
			/^trigger_properties must be an object/,
		],
		[
			'an attachment without url',
			{ campaign_id: CAMPAIGN, broadcast: true, attachments: [{ file_name: 'invoice' }] },
			/^attachments\[0\]\.url is required/,
		],
		[
			'an attachment without file_name',
			{ campaign_id: CAMPAIGN, broadcast: true, attachments: [{ url: 'https://files.example.com/a.pdf' }] },
			/^attachments\[0\]\.file_name is required/,
		],
		[
			'an invalid audience',
			{ campaign_id: CAMPAIGN, broadcast: true, audience: { OR: [] } },
			/^audience\.OR must be a non-empty array/,
		],
		['an unknown campaign', { campaign_id: 'nope', broadcast: true }, /^Campaign does not exist$/],
		[
			'a paused campaign',
			{ campaign_id: 'on-hold', broadcast: true },
			/^The campaign is paused\. Resume the campaign in order for trigger requests to take effect\.$/,
		],
		[
			'an archived campaign',
			{ campaign_id: 'old', broadcast: true },
			/^The campaign is archived\. Unarchive the campaign in order for trigger requests to take effect\.$/,
		],
		[
			'a transactional campaign',
			{ campaign_id: 'receipt', broadcast: true },
			/^The campaign is a transactional campaign/,
		],
	])('refuses %s with 400 and changes nothing', async (_case, body, message) => {
		await seedWorkspace();
		const before = await sandbox.admin.state();
		const answer = await trigger(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		const after = await sandbox.admin.state();
		expect(after.dispatches).toEqual([]);
		expect(after.profiles).toEqual(before.profiles);
	});

	it('applies attributes first, creates users only when send_to_existing_only is false, and merges properties', async () => {
		const { profiles } = await seedWorkspace();
		const answer = await trigger({
			campaign_id: CAMPAIGN,
			send_id: 'send-1',
			trigger_properties: { coupon: 'WELCOME10', channel: 'email' },
			recipients: [
				{
					external_user_id: 'u1',
					trigger_properties: { coupon: 'VIP20' },
					attributes: { first_name: 'Ada', tier: 'platinum' },
				},
				{ external_user_id: 'ghost', attributes: { tier: 'none' } },
				{
					external_user_id: 'newbie',
					send_to_existing_only: false,
					attributes: {
						email: 'newbie@example.com',
						subscription_groups: [{ subscription_group_id: 'g-news', subscription_state: 'subscribed' }],
					},
				},
				{ user_alias: { alias_label: 'crm', alias_name: 'lead-9' } },
				{ user_alias: { alias_label: 'crm', alias_name: 'nobody' } },
			],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ dispatch_id: expect.any(String), message: 'success' });

		const state = await sandbox.admin.state();
		const newbie = state.profiles.find((p) => p.external_id === 'newbie');
		expect(newbie).toMatchObject({ email: 'newbie@example.com', subscription_groups: { 'g-news': 'subscribed' } });
		expect(state.profiles.find((p) => p.external_id === 'ghost')).toBeUndefined();
		expect(state.profiles[0]).toMatchObject({
			standard_attributes: { first_name: 'Ada' },
			custom_attributes: { tier: 'platinum' },
		});
		expect(state.dispatches).toEqual([
			{
				dispatch_id: answer.body.dispatch_id,
				endpoint: '/campaigns/trigger/send',
				campaign_id: CAMPAIGN,
				send_id: 'send-1',
				broadcast: false,
				recipients: [
					{ service_id: profiles[0].service_id, external_id: 'u1', properties: { coupon: 'VIP20', channel: 'email' } },
					{
						service_id: newbie!.service_id,
						external_id: 'newbie',
						properties: { coupon: 'WELCOME10', channel: 'email' },
					},
					{ service_id: profiles[3].service_id, properties: { coupon: 'WELCOME10', channel: 'email' } },
				],
				created_at: expect.any(String),
			},
		]);
	});

	it('finds an email recipient by prioritization, and creates an email-only user when told to', async () => {
		const { profiles } = await seedWorkspace();
		await trigger({
			campaign_id: CAMPAIGN,
			recipients: [
				{ email: 'shared@example.com', prioritization: ['unidentified'] },
				{
					email: 'fresh@example.com',
					prioritization: ['identified'],
					send_to_existing_only: false,
					attributes: { first_name: 'Fresh' },
				},
			],
		});
		const state = await sandbox.admin.state();
		const fresh = state.profiles.find((p) => p.email === 'fresh@example.com');
		expect(fresh).toMatchObject({ standard_attributes: { first_name: 'Fresh' } });
		expect(fresh?.external_id).toBeUndefined();
		expect(state.dispatches[0].recipients.map((r) => r.service_id)).toEqual([
			profiles[1].service_id,
			fresh!.service_id,
		]);
	});

	it('broadcasts to everyone in the connected audience, with the attachments recorded', async () => {
		await seedWorkspace();
		const attachments = [{ file_name: 'welcome-guide', url: 'https://files.example.com/welcome-guide.pdf' }];
		const answer = await trigger({
			campaign_id: CAMPAIGN,
			broadcast: true,
			audience: {
				OR: [
					{ custom_attribute: { custom_attribute_name: 'tier', comparison: 'equals', value: 'gold' } },
					{ custom_attribute: { custom_attribute_name: 'tier', comparison: 'equals', value: 'silver' } },
				],
			},
			attachments,
		});
		expect(answer.status).toBe(201);
		const [dispatch] = (await sandbox.admin.state()).dispatches;
		expect(dispatch).toMatchObject({ broadcast: true, attachments });
		expect(dispatch.recipients.map((r) => r.external_id)).toEqual(['u1', 'u2']);
	});

	it('counts recipients against the external-ID budget and broadcasts against the segment one', async () => {
		await seedWorkspace();
		expect((await trigger(toUser({ external_user_id: 'u1' }))).headers.get('x-ratelimit-limit')).toBe('250000');
		expect((await trigger({ campaign_id: CAMPAIGN, broadcast: true })).headers.get('x-ratelimit-limit')).toBe('250');
	});

	it('needs the campaigns.trigger.send permission', async () => {
		await sandbox.admin.addApiKey('canvas-only', ['canvas.trigger.send']);
		const answer = await sandbox.call('POST', '/campaigns/trigger/send', toUser({ external_user_id: 'u1' }), {
			apiKey: 'canvas-only',
		});
		expect(answer.status).toBe(403);
	});
});
