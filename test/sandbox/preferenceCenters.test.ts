import { DEMO_PREFERENCE_CENTERS } from '../../sandbox';
import { useSandbox } from './sandboxTestKit';

describe('sandbox: PUT and POST /preference_center/v1/{preferenceCenterExternalID}', () => {
	const sandbox = useSandbox();
	const path = (externalId = 'newsletter') => `/preference_center/v1/${externalId}`;
	const put = (body: unknown, options: { apiKey?: string | null; externalId?: string } = {}) =>
		sandbox.call('PUT', path(options.externalId), body, { apiKey: options.apiKey });
	const post = (body: unknown, options: { apiKey?: string | null; externalId?: string } = {}) =>
		sandbox.call('POST', path(options.externalId), body, { apiKey: options.apiKey });
	const CREATED_AT = '2024-03-01T09:00:00.000Z';
	const SEEDED = {
		external_id: 'newsletter',
		name: 'Newsletter',
		preference_center_title: 'Choose',
		state: 'active' as const,
		options: {
			'meta-viewport-content': 'width=device-width',
			'links-tags': [{ rel: 'icon' as const, href: 'https://example.com/a.png' }],
		},
		created_at: '2024-03-01T09:00:00Z',
	};
	const seededView = {
		...SEEDED,
		preference_center_api_id: 'newsletter',
		created_at: CREATED_AT,
		updated_at: CREATED_AT,
	};
	const centers = async () => (await sandbox.admin.state()).preferenceCenters;

	beforeEach(async () => {
		await sandbox.admin.seed({ preferenceCenters: [SEEDED, { external_id: 'second', name: 'Second' }] });
	});

	describe('seeding', () => {
		it('creates preference centers in order, the API id being the external id, updated_at = created_at', async () => {
			const before = Date.now();
			const [first, second] = await centers();
			expect(first).toEqual(seededView);
			expect(second).toEqual({
				external_id: 'second',
				preference_center_api_id: 'second',
				name: 'Second',
				created_at: expect.any(String),
				updated_at: second.created_at,
			});
			expect(Date.parse(second.created_at)).toBeGreaterThanOrEqual(before - 1000);
		});

		it('replaces an external_id seeded again, whole, in its place', async () => {
			await sandbox.admin.seed({ preferenceCenters: [{ external_id: 'newsletter', name: 'Renamed' }] });
			const [first, second] = await centers();
			expect(first).toEqual({
				external_id: 'newsletter',
				preference_center_api_id: 'newsletter',
				name: 'Renamed',
				created_at: expect.any(String),
				updated_at: first.created_at,
			});
			expect(second.external_id).toBe('second');
		});

		it.each([
			['no external_id', { name: 'x' }, /preferenceCenters\[0\]\.external_id must be a non-empty string/],
			['no name', { external_id: 'x' }, /preferenceCenters\[0\]\.name must be a string/],
			[
				'a bad state',
				{ external_id: 'x', name: 'x', state: 'deleted' },
				/preferenceCenters\[0\]\.state must be one of active, draft/,
			],
			[
				'a bad created_at',
				{ external_id: 'x', name: 'x', created_at: 'yesterday' },
				/preferenceCenters\[0\]\.created_at must be an ISO 8601 datetime/,
			],
			[
				'an unknown field',
				{ external_id: 'x', name: 'x', colour: 'red' },
				/preferenceCenters\[0\]: Unknown request field\(s\): colour/,
			],
			[
				'a bad link tag',
				{ external_id: 'x', name: 'x', options: { 'links-tags': [{ href: 'h' }] } },
				/preferenceCenters\[0\]\.options\.links-tags\[0\]\.rel is required/,
			],
		])('refuses a seed with %s and stores nothing', async (_case, center, message) => {
			await expect(sandbox.admin.seed({ preferenceCenters: [center as never] })).rejects.toThrow(message);
			expect(await centers()).toHaveLength(2);
		});
	});

	describe('updates', () => {
		it.each([
			['PUT', put],
			['POST', post],
		])('%s sets the fields sent, keeps the others, answers 200 with the ids and datetimes', async (_method, update) => {
			const before = Date.now();
			const answer = await update({ name: 'Weekly news', state: 'draft', confirmation_page_html: '<p>Saved</p>' });
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({
				preference_center_api_id: 'newsletter',
				created_at: CREATED_AT,
				updated_at: expect.any(String),
				message: 'success',
			});
			expect(Date.parse(answer.body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
			expect(new Date(answer.body.updated_at).toISOString()).toBe(answer.body.updated_at);
			const [first, second] = await centers();
			expect(first).toEqual({
				...seededView,
				name: 'Weekly news',
				state: 'draft',
				confirmation_page_html: '<p>Saved</p>',
				updated_at: answer.body.updated_at,
			});
			expect(second.name).toBe('Second');
		});

		it('replaces options whole, and takes every field and link tag the spec lists', async () => {
			const options = {
				'links-tags': [
					{ rel: 'apple-touch-icon', type: 'image/png', sizes: '180x180', href: 'https://example.com/touch.png' },
					{ rel: 'shortcut icon', type: 'mask-icon', color: '#ff0000', href: 'https://example.com/mask.svg' },
					{ rel: 'icon', type: 'image/svg+xml', href: 'https://example.com/icon.svg' },
				],
			};
			const body = {
				name: 'N',
				preference_center_title: 'T',
				preference_center_page_html: '<p>page</p>',
				confirmation_page_html: '<p>done</p>',
				state: 'active',
				options,
			};
			expect((await put(body)).status).toBe(200);
			const [first] = await centers();
			expect(first).toEqual({ ...seededView, ...body, updated_at: expect.any(String) });
			expect(first.options).toEqual(options);
		});

		it('answers an unknown external id 404 and changes nothing', async () => {
			for (const update of [put, post]) {
				const answer = await update({ name: 'x' }, { externalId: 'nobody' });
				expect(answer.status).toBe(404);
				expect(answer.body).toEqual({ message: 'Preference center not found' });
			}
			expect((await centers())[0]).toEqual(seededView);
		});
	});

	describe('validation (400, nothing changed)', () => {
		it.each([
			[
				'a body that is not an object',
				['name'],
				/Request body must be a JSON object with at least one of name, preference_center_title/,
			],
			['no body', undefined, /Request body must be a JSON object/],
			[
				'no field',
				{},
				/at least one of name, preference_center_title, preference_center_page_html, confirmation_page_html, state, options/,
			],
			['an unknown field', { name: 'x', title: 'y' }, /Unknown request field\(s\): title/],
			['a name that is not a string', { name: 5 }, /^name must be a string$/],
			['a title that is not a string', { preference_center_title: null }, /^preference_center_title must be a string$/],
			[
				'page html that is not a string',
				{ preference_center_page_html: ['<p>'] },
				/^preference_center_page_html must be a string$/,
			],
			[
				'confirmation html that is not a string',
				{ confirmation_page_html: true },
				/^confirmation_page_html must be a string$/,
			],
			['an unknown state', { state: 'archived' }, /^state must be one of active, draft$/],
			['options that are not an object', { options: [] }, /^options must be an object/],
			[
				'an unknown option',
				{ options: { 'meta-viewport': 'x' } },
				/^options: Unknown request field\(s\): meta-viewport/,
			],
			[
				'a viewport that is not a string',
				{ options: { 'meta-viewport-content': 1 } },
				/^options\.meta-viewport-content must be a string/,
			],
			['links-tags that are not an array', { options: { 'links-tags': {} } }, /^options\.links-tags must be an array/],
			[
				'a link tag that is not an object',
				{ options: { 'links-tags': ['icon'] } },
				/^options\.links-tags\[0\] must be an object/,
			],
			[
				'a link tag without rel',
				{ options: { 'links-tags': [{ href: 'h' }] } },
				/^options\.links-tags\[0\]\.rel is required: one of icon, shortcut icon, apple-touch-icon$/,
			],
			[
				'an unknown rel',
				{ options: { 'links-tags': [{ rel: 'stylesheet', href: 'h' }] } },
				/^options\.links-tags\[0\]\.rel is required: one of/,
			],
			[
				'an unknown type',
				{ options: { 'links-tags': [{ rel: 'icon', type: 'image/jpeg', href: 'h' }] } },
				/^options\.links-tags\[0\]\.type must be one of image\/png, image\/svg, image\/gif, image\/x-icon, image\/svg\+xml, mask-icon$/,
			],
			[
				'sizes that are not a string',
				{ options: { 'links-tags': [{ rel: 'icon', sizes: 32, href: 'h' }] } },
				/^options\.links-tags\[0\]\.sizes must be a string$/,
			],
			[
				'a color that is not a string',
				{ options: { 'links-tags': [{ rel: 'icon', type: 'mask-icon', color: 0, href: 'h' }] } },
				/^options\.links-tags\[0\]\.color must be a string$/,
			],
			[
				'a color without type mask-icon',
				{ options: { 'links-tags': [{ rel: 'icon', type: 'image/png', color: '#000', href: 'h' }] } },
				/^options\.links-tags\[0\]\.color is only for type mask-icon$/,
			],
			[
				'a link tag without href',
				{ options: { 'links-tags': [{ rel: 'icon' }] } },
				/^options\.links-tags\[0\]\.href is required: a string$/,
			],
			[
				'an unknown link tag field',
				{ options: { 'links-tags': [{ rel: 'icon', href: 'h', media: 'x' }] } },
				/^options\.links-tags\[0\]: Unknown request field\(s\): media/,
			],
		])('refuses %s', async (_case, body, message) => {
			const answer = await put(body);
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual({ message: expect.stringMatching(message), errors: [answer.body.message] });
			expect((await centers())[0]).toEqual(seededView);
		});
	});

	describe('access and limits', () => {
		it('refuses a key without preference_center.update with 403', async () => {
			await sandbox.admin.addApiKey('tracker', ['users.track']);
			const answer = await post({ name: 'x' }, { apiKey: 'tracker' });
			expect(answer.status).toBe(403);
			expect(answer.body).toEqual({ message: 'You do not have permission to access this resource' });
			await sandbox.admin.addApiKey('editor', ['preference_center.update']);
			expect((await post({ name: 'x' }, { apiKey: 'editor' })).status).toBe(200);
		});

		it('allows 10 updates a minute per key, PUT and POST together, then 429 with the X-RateLimit headers', async () => {
			// Windows are aligned to the minute: start well inside one.
			const intoMinute = Date.now() % 60_000;
			if (intoMinute > 58_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoMinute));
			for (let i = 1; i <= 10; i++) {
				const answer = await (i % 2 === 0 ? put : post)({ name: `name ${i}` });
				expect([
					answer.status,
					answer.headers.get('x-ratelimit-limit'),
					answer.headers.get('x-ratelimit-remaining'),
				]).toEqual([200, '10', String(10 - i)]);
			}
			const refused = await put({ name: 'one too many' });
			expect(refused.status).toBe(429);
			expect(refused.body).toEqual({ message: 'Rate limit exceeded' });
			expect(refused.headers.get('x-ratelimit-limit')).toBe('10');
			expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
			const reset = Number(refused.headers.get('x-ratelimit-reset'));
			expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
			expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
			expect((await centers())[0].name).toBe('name 10');

			await sandbox.admin.addApiKey('other-key', ['preference_center.update']);
			expect((await put({ name: 'other key' }, { apiKey: 'other-key' })).status).toBe(200);
		});
	});

	describe('methods turned off (config.preferenceCenterMethods)', () => {
		it('serves both by default, and reset restores the default', async () => {
			expect((await sandbox.admin.configure({})).preferenceCenterMethods).toEqual(['PUT', 'POST']);
			await sandbox.admin.configure({ preferenceCenterMethods: ['POST'] });
			await sandbox.admin.reset();
			expect((await sandbox.admin.configure({})).preferenceCenterMethods).toEqual(['PUT', 'POST']);
		});

		it('answers a method turned off 405 with Allow, before credentials and rate limit, and changes nothing', async () => {
			await sandbox.admin.configure({ preferenceCenterMethods: ['POST'] });
			const refused = await put({ name: 'by PUT' });
			expect(refused.status).toBe(405);
			expect(refused.body).toEqual({ message: 'Method Not Allowed' });
			expect(refused.headers.get('allow')).toBe('POST');
			expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
			expect((await put({ name: 'no key' }, { apiKey: null })).status).toBe(405);
			expect((await put({ name: 'unknown id' }, { externalId: 'nobody' })).status).toBe(405);
			expect((await centers())[0]).toEqual(seededView);

			const accepted = await post({ name: 'by POST' });
			expect(accepted.status).toBe(200);
			expect(accepted.headers.get('x-ratelimit-remaining')).toBe('9');
		});

		it('turns POST off the same way', async () => {
			await sandbox.admin.configure({ preferenceCenterMethods: ['PUT'] });
			const refused = await post({ name: 'by POST' });
			expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'PUT']);
			expect((await put({ name: 'by PUT' })).status).toBe(200);
		});

		it.each([[[]], [['PATCH']], [['PUT', 'PUT']], ['PUT']])('refuses the setting %j', async (methods) => {
			await expect(sandbox.admin.configure({ preferenceCenterMethods: methods as never })).rejects.toThrow(
				/preferenceCenterMethods must be a non-empty list/,
			);
		});
	});

	describe('the demo workspace', () => {
		it('has preference centers to update out of the box', async () => {
			await sandbox.admin.reset({ seed: 'demo' });
			const demo = (await sandbox.admin.state()).preferenceCenters;
			expect(demo.map((center) => [center.external_id, center.state])).toEqual([
				[DEMO_PREFERENCE_CENTERS.newsletter, 'active'],
				[DEMO_PREFERENCE_CENTERS.smsAlerts, 'draft'],
			]);
			const answer = await put({ state: 'active' }, { externalId: DEMO_PREFERENCE_CENTERS.smsAlerts });
			expect(answer.status).toBe(200);
			expect(answer.body.preference_center_api_id).toBe(DEMO_PREFERENCE_CENTERS.smsAlerts);
		});
	});
});
