import { DEMO_MESSAGING } from '../../sandbox';
import { eventually, startPostbackReceiver } from './postbackReceiver';
import { useSandbox } from './sandboxTestKit';

describe('sandbox: seeding campaigns, canvases, segments and schedules', () => {
	const sandbox = useSandbox();

	it('defaults campaigns to active API-triggered and canvases to active, and replaces an id seeded again', async () => {
		await sandbox.admin.seed({
			campaigns: [{ id: 'a' }, { id: 'b', state: 'paused', kind: 'transactional' }],
			canvases: [{ id: 'c' }],
			segments: [{ id: 's', external_ids: ['u1'] }],
			canvasSchedules: [{ canvas_id: 'c', schedule_id: 'sc', schedule: { time: '2030-01-01T00:00:00Z' } }],
		});
		await sandbox.admin.seed({
			campaigns: [{ id: 'a', state: 'archived' }],
			canvases: [{ id: 'c', state: 'stopped' }],
		});
		const state = await sandbox.admin.state();
		expect(state.campaigns).toEqual([
			{ id: 'a', state: 'archived', kind: 'api_triggered' },
			{ id: 'b', state: 'paused', kind: 'transactional' },
		]);
		expect(state.canvases).toEqual([{ id: 'c', state: 'stopped' }]);
		expect(state.segments).toEqual([{ id: 's', external_ids: ['u1'] }]);
		expect(state.canvasSchedules).toEqual([
			{ canvas_id: 'c', schedule_id: 'sc', schedule: { time: '2030-01-01T00:00:00Z' } },
		]);
		expect(state).toMatchObject({ dispatches: [], transactionalSends: [], postbacks: [] });
	});

	it.each([
		['a campaign without id', { campaigns: [{ state: 'active' }] }, /campaigns\[0\]\.id must be a non-empty string/],
		[
			'an unknown campaign state',
			{ campaigns: [{ id: 'a', state: 'stopped' }] },
			/campaigns\[0\]\.state must be one of active, paused, archived/,
		],
		[
			'an unknown campaign kind',
			{ campaigns: [{ id: 'a', kind: 'email' }] },
			/campaigns\[0\]\.kind must be one of api_triggered, transactional/,
		],
		[
			'an unknown canvas state',
			{ canvases: [{ id: 'c', state: 'draft' }] },
			/canvases\[0\]\.state must be one of active, paused, archived, stopped/,
		],
		['a segment without external_ids', { segments: [{ id: 's' }] }, /segments\[0\]\.external_ids must be an array/],
		[
			'a schedule of an unknown canvas',
			{ canvasSchedules: [{ canvas_id: 'x', schedule_id: 's', schedule: { time: '2030-01-01T00:00:00Z' } }] },
			/canvasSchedules\[0\]\.canvas_id 'x' is not a seeded canvas/,
		],
		[
			'a schedule without a datetime',
			{ canvases: [{ id: 'c' }], canvasSchedules: [{ canvas_id: 'c', schedule_id: 's', schedule: { time: 'soon' } }] },
			/canvasSchedules\[0\]\.schedule\.time must be an ISO 8601 datetime/,
		],
		['campaigns that are not an array', { campaigns: { id: 'a' } }, /campaigns must be an array/],
	])('refuses %s and stores nothing', async (_case, data, message) => {
		await expect(sandbox.admin.seed(data as never)).rejects.toThrow(message);
		const state = await sandbox.admin.state();
		expect([state.campaigns, state.canvases, state.segments, state.canvasSchedules]).toEqual([[], [], [], []]);
	});

	describe('the demo workspace', () => {
		beforeEach(async () => {
			await sandbox.admin.reset({ seed: 'demo' });
		});

		it('has campaigns in every state, canvases, a segment and a schedule', async () => {
			const state = await sandbox.admin.state();
			expect(state.campaigns).toEqual([
				{ id: 'welcome-campaign', state: 'active', kind: 'api_triggered', messages: expect.any(Array) },
				{ id: 'paused-campaign', state: 'paused', kind: 'api_triggered' },
				{ id: 'archived-campaign', state: 'archived', kind: 'api_triggered' },
				{ id: 'order-receipt', state: 'active', kind: 'transactional' },
			]);
			expect(state.canvases).toEqual([
				{ id: 'onboarding-canvas', state: 'active', steps: expect.any(Array) },
				{ id: 'paused-canvas', state: 'paused' },
				{ id: 'archived-canvas', state: 'archived' },
			]);
			expect(state.segments).toEqual([
				{ id: DEMO_MESSAGING.segments.loyaltyMembers, external_ids: ['demo-user-1', 'demo-user-2'] },
			]);
			expect(state.canvasSchedules).toHaveLength(1);
			expect(state.canvasSchedules[0].canvas_id).toBe('onboarding-canvas');
		});

		it('serves the messaging endpoints out of the box', async () => {
			const segmentSend = await sandbox.call('POST', '/messages/send', {
				segment_id: DEMO_MESSAGING.segments.loyaltyMembers,
				broadcast: true,
				messages: { email: {} },
			});
			expect(segmentSend.status).toBe(201);
			const paused = await sandbox.call('POST', '/canvas/trigger/send', {
				canvas_id: 'paused-canvas',
				broadcast: true,
			});
			expect(paused.body.notice).toMatch(/paused/);
			const archived = await sandbox.call('POST', '/campaigns/trigger/send', {
				campaign_id: 'archived-campaign',
				broadcast: true,
			});
			expect(archived.status).toBe(400);
			const rescheduled = await sandbox.call('POST', '/canvas/trigger/schedule/update', {
				canvas_id: 'onboarding-canvas',
				schedule_id: DEMO_MESSAGING.canvasSchedules.onboardingReminder,
				schedule: { time: '2030-02-01T09:00:00Z' },
			});
			expect(rescheduled.status).toBe(201);
			expect((await sandbox.admin.state()).dispatches[0].recipients.map((r) => r.external_id)).toEqual([
				'demo-user-1',
				'demo-user-2',
			]);
		});

		it('bounces transactional mail to demo-user-4 and aborts it to the web visitor', async () => {
			const receiver = await startPostbackReceiver();
			try {
				await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 5 } });
				await sandbox.call('POST', '/transactional/v1/campaigns/order-receipt/send', {
					recipient: { external_user_id: 'demo-user-4' },
				});
				await eventually(() => (receiver.received.length === 3 ? true : undefined));
				await sandbox.call('POST', '/transactional/v1/campaigns/order-receipt/send', {
					recipient: { user_alias: { alias_label: 'web_visitor', alias_name: 'visitor-7f3a9c' } },
				});
				const received = await receiver.waitFor(4);
				expect(received.map((postback) => postback.body.status)).toEqual(['sent', 'processed', 'bounced', 'aborted']);
			} finally {
				await receiver.close();
			}
		});
	});
});
