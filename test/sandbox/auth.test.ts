import { useSandbox } from './sandboxTestKit';

describe('sandbox: authentication and request basics', () => {
	const sandbox = useSandbox();
	const harmless = { attributes: [] };

	it('refuses a request without an API key with 401 "Error authenticating credentials"', async () => {
		const answer = await sandbox.call('POST', '/users/track', harmless, { apiKey: null });
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ message: 'Error authenticating credentials' });
	});

	it('refuses an unknown API key with 401', async () => {
		const answer = await sandbox.track(harmless, 'not-a-key');
		expect(answer.status).toBe(401);
		expect(answer.body.message).toBe('Error authenticating credentials');
	});

	it('refuses a key without the endpoint permission with 403', async () => {
		await sandbox.admin.addApiKey('export-only', ['users.export.ids']);
		const answer = await sandbox.track(harmless, 'export-only');
		expect(answer.status).toBe(403);
		expect(answer.body).toEqual({ message: 'You do not have permission to access this resource' });
	});

	it('accepts a key that has the permission, and the demo key that has them all', async () => {
		await sandbox.admin.addApiKey('tracker', ['users.track']);
		expect((await sandbox.track(harmless, 'tracker')).status).toBe(201);
		expect((await sandbox.track(harmless)).status).toBe(201);
	});

	it('forgets added keys on reset but keeps the demo key', async () => {
		await sandbox.admin.addApiKey('tracker', '*');
		await sandbox.admin.reset();
		expect((await sandbox.track(harmless, 'tracker')).status).toBe(401);
		expect((await sandbox.track(harmless)).status).toBe(201);
	});

	it('answers 404 JSON for an unknown endpoint', async () => {
		const answer = await sandbox.call('POST', '/users/nothing-here', {});
		expect(answer.status).toBe(404);
		expect(answer.body.message).toMatch(/not found/i);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const answer = await sandbox.call('POST', '/users/track', '{"attributes": [', {});
		expect(answer.status).toBe(400);
		expect(answer.body.message).toBe('Invalid JSON body');
	});

	it('answers 415 for a body that is not sent as application/json', async () => {
		const answer = await sandbox.call('POST', '/users/track', '{"attributes":[]}', {
			headers: { 'Content-Type': 'text/plain' },
		});
		expect(answer.status).toBe(415);
		expect(answer.body.message).toMatch(/application\/json/);
	});
});
