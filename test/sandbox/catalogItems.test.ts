import { useSandbox } from './sandboxTestKit';

describe('sandbox: PATCH, PUT, DELETE /catalogs/{catalog_name}/items', () => {
	const sandbox = useSandbox();
	const path = (catalog = 'restaurants') => `/catalogs/${catalog}/items`;
	const patch = (body: unknown, apiKey?: string) => sandbox.call('PATCH', path(), body, { apiKey });
	const put = (body: unknown, apiKey?: string) => sandbox.call('PUT', path(), body, { apiKey });
	const remove = (body: unknown, apiKey?: string) => sandbox.call('DELETE', path(), body, { apiKey });
	const SEEDED = [
		{ id: 'r1', name: 'Pizza Place', rating: 4, open: true, tags: ['pizza', 'italian'] },
		{ id: 'r2', name: 'Taco Shop', rating: 3 },
	];
	const seedCatalog = () =>
		sandbox.admin.seed({
			catalogs: [
				{
					name: 'restaurants',
					fields: [
						{ name: 'name', type: 'string' },
						{ name: 'rating', type: 'number' },
						{ name: 'open', type: 'boolean' },
						{ name: 'opened_at', type: 'time' },
						{ name: 'tags', type: 'array' },
						{ name: 'address', type: 'object' },
					],
					items: SEEDED,
				},
			],
		});
	const items = async () =>
		(await sandbox.admin.state()).catalogs.find((catalog) => catalog.name === 'restaurants')?.items;
	const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { level: nested(levels - 1) });

	beforeEach(seedCatalog);

	it('seeds catalogs into state', async () => {
		const { catalogs } = await sandbox.admin.state();
		expect(catalogs).toHaveLength(1);
		expect(catalogs[0]).toMatchObject({ name: 'restaurants', items: SEEDED });
		expect(catalogs[0].fields).toContainEqual({ name: 'tags', type: 'array' });
	});

	it.each([
		[
			'an undeclared item field',
			{ catalogs: [{ name: 'c', fields: [], items: [{ id: 'a', x: 1 }] }] },
			/items\[0\]\.x is not a declared field/,
		],
		['an item without a valid id', { catalogs: [{ name: 'c', fields: [], items: [{ id: 'a b' }] }] }, /items\[0\]\.id/],
		[
			'an unknown field type',
			{ catalogs: [{ name: 'c', fields: [{ name: 'x', type: 'date' }] }] },
			/fields\[0\]\.type/,
		],
	])('refuses a seed with %s', async (_case, seed, message) => {
		await expect(sandbox.admin.seed(seed as never)).rejects.toThrow(message);
	});

	describe('effects', () => {
		it('PATCH edits the fields sent, keeps the others, ignores unknown IDs', async () => {
			const answer = await patch({
				items: [
					{ id: 'r1', rating: 5, opened_at: '2024-05-01T10:00:00Z' },
					{ id: 'nobody', rating: 1 },
				],
			});
			expect(answer.status).toBe(202);
			expect(answer.body).toEqual({ message: 'success' });
			expect(await items()).toEqual([{ ...SEEDED[0], rating: 5, opened_at: '2024-05-01T10:00:00Z' }, SEEDED[1]]);
		});

		it('PATCH applies $remove then $add on array fields (a missing array counts as empty)', async () => {
			const answer = await patch({
				items: [
					{ id: 'r1', tags: { $remove: ['pizza'], $add: ['vegan', 'late'] } },
					{ id: 'r2', tags: { $add: ['mexican'] } },
				],
			});
			expect(answer.status).toBe(202);
			const [r1, r2] = (await items())!;
			expect(r1.tags).toEqual(['italian', 'vegan', 'late']);
			expect(r2.tags).toEqual(['mexican']);
		});

		it('PUT replaces whole items and creates new ones; null clears a field', async () => {
			const answer = await put({
				items: [
					{ id: 'r1', name: 'Pizza Palace' },
					{ id: 'r3', name: 'Sushi Bar', rating: null, address: { city: 'Paris' } },
				],
			});
			expect(answer.status).toBe(202);
			expect(answer.body).toEqual({ message: 'success' });
			expect(await items()).toEqual([
				{ id: 'r1', name: 'Pizza Palace' },
				SEEDED[1],
				{ id: 'r3', name: 'Sushi Bar', rating: null, address: { city: 'Paris' } },
			]);
		});

		it('DELETE removes items and ignores unknown IDs', async () => {
			const answer = await remove({ items: [{ id: 'r1' }, { id: 'nobody' }] });
			expect(answer.status).toBe(202);
			expect(answer.body).toEqual({ message: 'success' });
			expect(await items()).toEqual([SEEDED[1]]);
		});

		it('accepts an empty list and changes nothing', async () => {
			expect((await put({ items: [] })).status).toBe(202);
			expect(await items()).toEqual(SEEDED);
		});
	});

	describe('errors', () => {
		const expectRefused = async (
			answer: { status: number; body: any },
			id: string,
			parameters: unknown[],
			values: unknown[],
		) => {
			expect(answer.status).toBe(400);
			expect(answer.body.message).toBe('Invalid Request');
			const error = answer.body.errors.find((candidate: { id: string }) => candidate.id === id);
			expect(error).toEqual({ id, message: expect.any(String), parameters, parameter_values: values });
			// Nothing of a refused request is applied.
			expect(await items()).toEqual(SEEDED);
		};

		it('answers an unknown catalog 404 with catalog-not-found, on every method', async () => {
			for (const method of ['PATCH', 'PUT', 'DELETE']) {
				const answer = await sandbox.call(method, path('nope'), { items: [{ id: 'r1' }] });
				expect(answer.status).toBe(404);
				expect(answer.body).toEqual({
					message: 'Invalid Request',
					errors: [
						{
							id: 'catalog-not-found',
							message: 'Could not find catalog',
							parameters: ['catalog_name'],
							parameter_values: ['nope'],
						},
					],
				});
			}
		});

		it('ids-too-large: an ID over 250 characters', async () => {
			const long = 'a'.repeat(251);
			await expectRefused(await put({ items: [{ id: long }] }), 'ids-too-large', [long], [long]);
			expect((await put({ items: [{ id: 'a'.repeat(250) }] })).status).toBe(202);
		});

		it('ids-not-strings on PATCH and DELETE, ids-not-string on PUT', async () => {
			await expectRefused(await patch({ items: [{ id: 42, rating: 1 }] }), 'ids-not-strings', ['items[0]'], [42]);
			await expectRefused(
				await remove({ items: [{ id: 'r1' }, { id: true }] }),
				'ids-not-strings',
				['items[1]'],
				[true],
			);
			await expectRefused(await put({ items: [{ id: 42 }] }), 'ids-not-string', ['items[0]'], [42]);
		});

		it('ids-not-unique: the same ID twice in one request', async () => {
			await expectRefused(
				await remove({ items: [{ id: 'r1' }, { id: 'r2' }, { id: 'r1' }, { id: 'r1' }] }),
				'ids-not-unique',
				['r1'],
				['r1'],
			);
		});

		it('invalid-ids: characters other than letters, numbers, hyphens, underscores (or none)', async () => {
			await expectRefused(
				await patch({ items: [{ id: 'r1', rating: 5 }, { id: 'bad id!', rating: 1 }, { id: '' }] }),
				'invalid-ids',
				['bad id!', 'items[2]'],
				['bad id!', ''],
			);
		});

		it('invalid-fields: a field the catalog does not declare (not id); on DELETE any field but id', async () => {
			await expectRefused(
				await patch({ items: [{ id: 'r1', rating: 5, colour: 'red' }] }),
				'invalid-fields',
				['r1'],
				['colour'],
			);
			await expectRefused(
				await put({ items: [{ id: 'r9', colour: 'red', size: 2 }] }),
				'invalid-fields',
				['r9', 'r9'],
				['colour', 'size'],
			);
			await expectRefused(
				await remove({ items: [{ id: 'r1', name: 'Pizza Place' }] }),
				'invalid-fields',
				['r1'],
				['name'],
			);
		});

		it('invalid-keys-in-value-object: object keys with . or $ (PATCH, PUT)', async () => {
			await expectRefused(
				await put({ items: [{ id: 'r1', address: { 'street.name': 'Main', nested: { $where: 1 } } }] }),
				'invalid-keys-in-value-object',
				['r1', 'r1'],
				['street.name', '$where'],
			);
			await expectRefused(
				await patch({ items: [{ id: 'r2', tags: { $add: [{ 'a.b': 1 }] } }] }),
				'invalid-keys-in-value-object',
				['r2'],
				['a.b'],
			);
		});

		it('items-missing-ids: items without an ID; on DELETE also non-objects', async () => {
			await expectRefused(
				await patch({ items: [{ id: 'r1', rating: 5 }, { rating: 1 }] }),
				'items-missing-ids',
				['items[1]'],
				[null],
			);
			await expectRefused(await put({ items: [{ id: null, name: 'x' }] }), 'items-missing-ids', ['items[0]'], [null]);
			await expectRefused(await remove({ items: ['r1'] }), 'items-missing-ids', ['items[0]'], ['r1']);
			await expectRefused(await remove({ ids: ['r1'] }), 'items-missing-ids', ['items'], [null]);
		});

		it('item-array-invalid: items not an array of objects (PATCH, PUT)', async () => {
			await expectRefused(await put({ items: { id: 'r1' } }), 'item-array-invalid', ['items'], [{ id: 'r1' }]);
			await expectRefused(await patch({}), 'item-array-invalid', ['items'], [null]);
			await expectRefused(
				await patch({ items: [{ id: 'r1', rating: 5 }, 'r2'] }),
				'item-array-invalid',
				['items[1]'],
				['r2'],
			);
		});

		it('items-too-large: a value over 5,000 characters (PATCH, PUT)', async () => {
			const long = 'x'.repeat(5001);
			await expectRefused(await patch({ items: [{ id: 'r1', name: long }] }), 'items-too-large', ['r1'], [long]);
			await expectRefused(
				await put({ items: [{ id: 'r1', tags: [long.slice(0, 3000), long.slice(0, 3000)] }] }),
				'items-too-large',
				['r1'],
				[[long.slice(0, 3000), long.slice(0, 3000)]],
			);
			expect((await put({ items: [{ id: 'r1', name: 'x'.repeat(5000) }] })).status).toBe(202);
		});

		it('request-includes-too-many-items: more than 50', async () => {
			const many = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `item-${i}` }));
			await expectRefused(await put({ items: many(51) }), 'request-includes-too-many-items', ['items'], [51]);
			await expectRefused(await remove({ items: many(51) }), 'request-includes-too-many-items', ['items'], [51]);
			expect((await put({ items: many(50) })).status).toBe(202);
		});

		it('too-deep-nesting-in-value-object: more than 50 levels (PATCH, PUT)', async () => {
			const tooDeep = nested(51);
			await expectRefused(
				await put({ items: [{ id: 'r1', address: tooDeep }] }),
				'too-deep-nesting-in-value-object',
				['r1'],
				[tooDeep],
			);
			await expectRefused(
				await patch({ items: [{ id: 'r1', address: tooDeep }] }),
				'too-deep-nesting-in-value-object',
				['r1'],
				[tooDeep],
			);
			expect((await patch({ items: [{ id: 'r1', address: nested(50) }] })).status).toBe(202);
		});

		it.each([
			['a number for a string field', 'name', 7],
			['a numeric string for a number field', 'rating', '4'],
			['a string for a boolean field', 'open', 'yes'],
			['a date without time for a time field', 'opened_at', '2024-05-01'],
			['a string for an array field', 'tags', 'pizza'],
			['an array for an object field', 'address', ['Main street']],
		])('unable-to-coerce-value: %s (PATCH, PUT)', async (_case, field, value) => {
			await expectRefused(
				await patch({ items: [{ id: 'r1', [field]: value }] }),
				'unable-to-coerce-value',
				['r1'],
				[value],
			);
			await expectRefused(
				await put({ items: [{ id: 'r1', [field]: value }] }),
				'unable-to-coerce-value',
				['r1'],
				[value],
			);
		});

		it('unable-to-coerce-value: $add / $remove on PUT, on a non-array field, or malformed', async () => {
			await expectRefused(
				await put({ items: [{ id: 'r1', tags: { $add: ['x'] } }] }),
				'unable-to-coerce-value',
				['r1'],
				[{ $add: ['x'] }],
			);
			await expectRefused(
				await patch({ items: [{ id: 'r1', name: { $add: ['x'] } }] }),
				'unable-to-coerce-value',
				['r1'],
				[{ $add: ['x'] }],
			);
			await expectRefused(
				await patch({ items: [{ id: 'r1', tags: { $add: 'x' } }] }),
				'unable-to-coerce-value',
				['r1'],
				[{ $add: 'x' }],
			);
			await expectRefused(
				await patch({ items: [{ id: 'r1', tags: { $push: ['x'] } }] }),
				'unable-to-coerce-value',
				['r1'],
				[{ $push: ['x'] }],
			);
		});

		it('lists every problem, one error per id, and applies nothing', async () => {
			const answer = await patch({
				items: [
					{ id: 'r1', rating: 'five' },
					{ id: 'bad id', name: 'ok' },
					{ id: 'r2', colour: 'red' },
				],
			});
			expect(answer.status).toBe(400);
			expect(answer.body.errors.map((error: { id: string }) => error.id)).toEqual([
				'invalid-ids',
				'unable-to-coerce-value',
				'invalid-fields',
			]);
			expect(await items()).toEqual(SEEDED);
		});
	});

	it('needs each method its own permission and counts against the catalogs rate-limit group', async () => {
		await sandbox.admin.addApiKey('update-only', ['catalogs.update_items']);
		const body = { items: [{ id: 'r1' }] };
		expect((await put(body, 'update-only')).status).toBe(403);
		expect((await remove(body, 'update-only')).status).toBe(403);
		const patched = await patch(body, 'update-only');
		expect(patched.status).toBe(202);
		expect(patched.headers.get('x-ratelimit-limit')).toBe('100');

		await sandbox.admin.configure({ rateLimits: { catalogs: { limit: 1, windowMs: 60_000 } } });
		expect((await put(body)).status).toBe(202);
		expect((await remove(body)).status).toBe(429);
		expect((await items())!.map((item) => item.id)).toEqual(['r1', 'r2']);
	});
});
