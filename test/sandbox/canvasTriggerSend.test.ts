import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /canvas/trigger/send', () => {
	const sandbox = useSandbox();
	const trigger = (body: unknown) => sandbox.call('POST', '/canvas/trigger/send', body);
	const seedWorkspace = () =>
		sandbox.admin.seed({
			profiles: [
				{ external_id: 'u1', custom_attributes: { plan: 'pro' } },
				{ external_id: 'u2', custom_attributes: { plan: 'free' } },
			],
			canvases: [
				{ id: 'onboarding' },
				{ id: 'on-hold', state: 'paused' },
				{ id: 'old', state: 'archived' },
				{ id: 'ended', state: 'stopped' },
			],
		});
	const bigObject = (bytes: number) => ({ blob: 'x'.repeat(bytes) });

	it.each([
		['no canvas_id', { broadcast: true }, /^canvas_id is required/],
		[
			'neither recipients nor broadcast',
			{ canvas_id: 'onboarding' },
			/^broadcast must be true when recipients is omitted/,
		],
		[
			'recipients with broadcast',
			{ canvas_id: 'onboarding', broadcast: true, recipients: [{ external_user_id: 'u1' }] },
			/^recipients cannot be included when broadcast is true/,
		],
		[
			'campaign fields',
			{ canvas_id: 'onboarding', broadcast: true, trigger_properties: {} },
			/^Unknown request field\(s\): trigger_properties/,
		],
		[
			'canvas_entry_properties over 50 KB',
			{ canvas_id: 'onboarding', broadcast: true, canvas_entry_properties: bigObject(51 * 1024) },
			/^canvas_entry_properties may be at most 50 KB \(51200 bytes\)/,
		],
		[
			"a recipient's canvas_entry_properties over 50 KB",
			{
				canvas_id: 'onboarding',
				recipients: [{ external_user_id: 'u1', canvas_entry_properties: bigObject(51 * 1024) }],
			},
			/^recipients\[0\]\.canvas_entry_properties may be at most 50 KB/,
		],
		[
			'subscription groups in attributes',
			{
				canvas_id: 'onboarding',
				recipients: [
					{
						external_user_id: 'u1',
						attributes: { subscription_groups: [{ subscription_group_id: 'g', subscription_state: 'subscribed' }] },
					},
				],
			},
			/^recipients\[0\]\.attributes\.subscription_groups is not allowed/,
		],
		['an unknown canvas', { canvas_id: 'nope', broadcast: true }, /^Canvas does not exist$/],
	])('refuses %s with 400', async (_case, body, message) => {
		await seedWorkspace();
		const answer = await trigger(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect((await sandbox.admin.state()).dispatches).toEqual([]);
	});

	it('takes canvas_entry_properties of just under 50 KB', async () => {
		await seedWorkspace();
		expect(
			(await trigger({ canvas_id: 'onboarding', broadcast: true, canvas_entry_properties: bigObject(50 * 1024 - 20) }))
				.status,
		).toBe(201);
	});

	it.each([
		['paused', 'on-hold', /^The Canvas is paused\. Resume the Canvas/],
		['archived', 'old', /^The Canvas is archived\. Unarchive the Canvas/],
		['stopped', 'ended', /^The Canvas is stopped\./],
	])('answers 201 with a notice for a %s canvas and sends nothing', async (_state, canvasId, notice) => {
		await seedWorkspace();
		const before = await sandbox.admin.state();
		const answer = await trigger({
			canvas_id: canvasId,
			recipients: [{ external_user_id: 'u1', attributes: { plan: 'enterprise' } }],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			dispatch_id: expect.any(String),
			message: 'success',
			notice: expect.stringMatching(notice),
		});

		const after = await sandbox.admin.state();
		expect(after.dispatches).toEqual([
			{
				dispatch_id: answer.body.dispatch_id,
				endpoint: '/canvas/trigger/send',
				canvas_id: canvasId,
				broadcast: false,
				notice: answer.body.notice,
				recipients: [],
				created_at: expect.any(String),
			},
		]);
		expect(after.profiles).toEqual(before.profiles);
	});

	it('enters the recipients with their attributes applied and entry properties merged', async () => {
		const { profiles } = await seedWorkspace();
		const answer = await trigger({
			canvas_id: 'onboarding',
			canvas_entry_properties: { step: 1, locale: 'en' },
			recipients: [
				{ external_user_id: 'u1', canvas_entry_properties: { locale: 'fr' }, attributes: { plan: 'enterprise' } },
				{ external_user_id: 'u3', send_to_existing_only: false, attributes: { plan: 'trial' } },
			],
		});
		expect(answer.body).toEqual({ dispatch_id: expect.any(String), message: 'success' });
		const state = await sandbox.admin.state();
		const created = state.profiles.find((p) => p.external_id === 'u3');
		expect(created?.custom_attributes).toEqual({ plan: 'trial' });
		expect(state.profiles[0].custom_attributes).toEqual({ plan: 'enterprise' });
		expect(state.dispatches[0]).toMatchObject({
			canvas_id: 'onboarding',
			broadcast: false,
			recipients: [
				{ service_id: profiles[0].service_id, external_id: 'u1', properties: { step: 1, locale: 'fr' } },
				{ service_id: created!.service_id, external_id: 'u3', properties: { step: 1, locale: 'en' } },
			],
		});
		expect(state.dispatches[0].notice).toBeUndefined();
	});

	it('broadcasts to the audience only', async () => {
		await seedWorkspace();
		await trigger({
			canvas_id: 'onboarding',
			broadcast: true,
			audience: { custom_attribute: { custom_attribute_name: 'plan', comparison: 'equals', value: 'free' } },
		});
		expect((await sandbox.admin.state()).dispatches[0].recipients.map((r) => r.external_id)).toEqual(['u2']);
	});

	it('needs the canvas.trigger.send permission', async () => {
		await sandbox.admin.addApiKey('campaigns-only', ['campaigns.trigger.send']);
		const answer = await sandbox.call(
			'POST',
			'/canvas/trigger/send',
			{ canvas_id: 'onboarding', broadcast: true },
			{ apiKey: 'campaigns-only' },
		);
		expect(answer.status).toBe(403);
	});
});
