import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /canvas/trigger/schedule/update and /delete', () => {
	const sandbox = useSandbox();
	const update = (body: unknown, apiKey?: string) =>
		sandbox.call('POST', '/canvas/trigger/schedule/update', body, { apiKey });
	const remove = (body: unknown, apiKey?: string) =>
		sandbox.call('POST', '/canvas/trigger/schedule/delete', body, { apiKey });
	const seedWorkspace = () =>
		sandbox.admin.seed({
			canvases: [{ id: 'reminders' }, { id: 'other' }],
			canvasSchedules: [
				{
					canvas_id: 'reminders',
					schedule_id: 'sched-1',
					schedule: { time: '2030-01-01T09:00:00Z', in_local_time: true },
					trigger_properties: { note: 'first' },
				},
				{ canvas_id: 'other', schedule_id: 'sched-2', schedule: { time: '2030-02-01T09:00:00Z' } },
			],
		});

	it('replaces the whole schedule: an omitted in_local_time means UTC', async () => {
		await seedWorkspace();
		const answer = await update({
			canvas_id: 'reminders',
			schedule_id: 'sched-1',
			schedule: { time: '2030-03-01T10:30:00+01:00' },
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ message: 'success' });
		const { canvasSchedules } = await sandbox.admin.state();
		expect(canvasSchedules[0]).toEqual({
			canvas_id: 'reminders',
			schedule_id: 'sched-1',
			schedule: { time: '2030-03-01T10:30:00+01:00', in_local_time: false },
			trigger_properties: { note: 'first' },
		});
	});

	it('replaces trigger_properties when given', async () => {
		await seedWorkspace();
		await update({
			canvas_id: 'reminders',
			schedule_id: 'sched-1',
			schedule: { time: '2030-03-01T10:30:00Z', in_local_time: true },
			trigger_properties: { note: 'second' },
		});
		expect((await sandbox.admin.state()).canvasSchedules[0]).toMatchObject({
			schedule: { in_local_time: true },
			trigger_properties: { note: 'second' },
		});
	});

	it.each([
		['no schedule', { canvas_id: 'reminders', schedule_id: 'sched-1' }, /^schedule is required/],
		[
			'no schedule_id',
			{ canvas_id: 'reminders', schedule: { time: '2030-03-01T10:30:00Z' } },
			/^schedule_id is required/,
		],
		[
			'a time that is not a datetime',
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: 'tomorrow' } },
			/^schedule\.time is required: an ISO 8601 datetime/,
		],
		[
			'a date without time',
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: '2030-03-01' } },
			/^schedule\.time is required/,
		],
		[
			"a time in the events' alternate format",
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: '2026-11-22T10:10:00:000+0100' } },
			/^schedule\.time "2026-11-22T10:10:00:000\+0100" is in the format yyyy-MM-dd'T'HH:mm:ss:SSSZ, which only event times take; send an ISO 8601 datetime \(e\.g\. 2024-05-01T10:00:00Z\)$/,
		],
		[
			'a time in that format with Z',
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: '2030-03-01T10:30:00:000Z' } },
			/^schedule\.time "2030-03-01T10:30:00:000Z" is in the format yyyy-MM-dd'T'HH:mm:ss:SSSZ/,
		],
		[
			'a non-boolean in_local_time',
			{
				canvas_id: 'reminders',
				schedule_id: 'sched-1',
				schedule: { time: '2030-03-01T10:30:00Z', in_local_time: 'yes' },
			},
			/^schedule\.in_local_time must be a boolean/,
		],
		[
			'an unknown schedule field',
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: '2030-03-01T10:30:00Z', repeat: 'daily' } },
			/^schedule: Unknown request field\(s\): repeat/,
		],
		[
			'an unknown field',
			{ canvas_id: 'reminders', schedule_id: 'sched-1', schedule: { time: '2030-03-01T10:30:00Z' }, recipients: [] },
			/^Unknown request field\(s\): recipients/,
		],
	])('refuses an update with %s (400) and keeps the schedule', async (_case, body, message) => {
		await seedWorkspace();
		const answer = await update(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect((await sandbox.admin.state()).canvasSchedules[0].schedule).toEqual({
			time: '2030-01-01T09:00:00Z',
			in_local_time: true,
		});
	});

	it.each([
		['an unknown canvas', { canvas_id: 'nope', schedule_id: 'sched-1' }, "Canvas 'nope' does not exist"],
		[
			'an unknown schedule',
			{ canvas_id: 'reminders', schedule_id: 'nope' },
			"Schedule 'nope' does not exist for canvas 'reminders'",
		],
		[
			"another canvas's schedule",
			{ canvas_id: 'reminders', schedule_id: 'sched-2' },
			"Schedule 'sched-2' does not exist for canvas 'reminders'",
		],
	])('answers 404 for %s, on update and delete', async (_case, target, message) => {
		await seedWorkspace();
		const updated = await update({ ...target, schedule: { time: '2030-03-01T10:30:00Z' } });
		expect(updated.status).toBe(404);
		expect(updated.body).toEqual({ message });
		const deleted = await remove(target);
		expect(deleted.status).toBe(404);
		expect(deleted.body).toEqual({ message });
	});

	it('deletes a schedule; a second delete finds nothing', async () => {
		await seedWorkspace();
		const answer = await remove({ canvas_id: 'reminders', schedule_id: 'sched-1' });
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ message: 'success' });
		expect((await sandbox.admin.state()).canvasSchedules.map((s) => s.schedule_id)).toEqual(['sched-2']);
		expect((await remove({ canvas_id: 'reminders', schedule_id: 'sched-1' })).status).toBe(404);
		expect((await remove({ canvas_id: 'reminders' })).status).toBe(400);
	});

	it('needs the update and delete permissions, and shares one rate-limit group', async () => {
		await seedWorkspace();
		await sandbox.admin.addApiKey('update-only', ['canvas.trigger.schedule.update']);
		const target = { canvas_id: 'reminders', schedule_id: 'sched-1' };
		expect((await remove(target, 'update-only')).status).toBe(403);
		const updated = await update({ ...target, schedule: { time: '2030-03-01T10:30:00Z' } }, 'update-only');
		expect(updated.status).toBe(201);
		expect(updated.headers.get('x-ratelimit-limit')).toBe('250000');

		await sandbox.admin.configure({ rateLimits: { 'canvas.trigger.schedule': { limit: 1, windowMs: 60_000 } } });
		expect((await update({ ...target, schedule: { time: '2030-03-01T10:30:00Z' } })).status).toBe(201);
		expect((await remove(target)).status).toBe(429);
	});
});
