/**
 * CONTRIBUTING.md's "Adding an operation" held to the tree: the count it gives is its list's, every file
 * it names exists, each rows file holds the nodes its table gives it, every operation of every node
 * declares what its succeeded items say (`successStatus`, which test/support/successWords.ts reads), and
 * every file in sandbox/routes/ is served, with no list to join.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { API_ROUTES } from '../../sandbox/routes';
import { packageNodes } from '../conservation/nodeOperations';
import { loadPackageNodeTypes } from '../harness/package-types';
import { answersWithWords, declaredOperation, nodesWithOperations, successStatus } from '../support/successWords';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';

const ROOT = path.resolve(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes/EngagementPlatform');
const ROUTES = path.join(ROOT, 'sandbox/routes');

function section(file: string, heading: string): string {
	const text = readFileSync(path.join(ROOT, file), 'utf8');
	const start = text.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`${file} has no "${heading}"`);
	const end = text.indexOf('\n## ', start + 1);
	return text.slice(start, end < 0 ? undefined : end);
}

const ADDING = section('CONTRIBUTING.md', '## Adding an operation');

/** The section's numbered list: each entry's file and whether it is generated rather than written. */
const listed = [...ADDING.matchAll(/^(\d+)\. `([^`]+)`(, generated)?/gm)].map(([, number, file, generated]) => ({
	number: Number(number),
	file,
	generated: generated !== undefined,
}));

/**
 * Whether a path the section names leads to something, from the repository, from the package's
 * `nodes/EngagementPlatform/` or from a node folder (as the section writes `operations/<operation value>.ts`).
 * A segment in angle brackets (`<Node>`, `<name>.ts`) stands for any name of that form.
 */
function found(named: string): boolean {
	const nodeFolders = readdirSync(NODES).map((name) => path.join(NODES, name));
	const bases = [ROOT, NODES, ...nodeFolders.filter((folder) => statSync(folder).isDirectory())];
	const segments = named.split('/').filter((segment) => segment !== '');
	return bases.some((base) => leadsTo(base, segments));
}

function leadsTo(folder: string, segments: string[]): boolean {
	if (segments.length === 0) return true;
	const [first, ...rest] = segments;
	if (!first.includes('<')) {
		const next = path.join(folder, first);
		return existsSync(next) && (rest.length === 0 || statSync(next).isDirectory()) && leadsTo(next, rest);
	}
	if (!existsSync(folder) || !statSync(folder).isDirectory()) return false;
	const form = new RegExp(
		`^${first
			.split(/<[^>]+>/)
			.map(escaped)
			.join('[^/]+')}$`,
	);
	return readdirSync(folder)
		.filter((name) => form.test(name))
		.some((name) => leadsTo(path.join(folder, name), rest));
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe("CONTRIBUTING.md's Adding an operation", () => {
	test('says how many files, and lists exactly those, at most 5', () => {
		const count = /: (\d+) files, (\d+) written and (\d+) generated, and/.exec(ADDING);
		expect(count).not.toBeNull();
		const [, total, written, generated] = (count ?? []).map(Number);

		expect(listed.map(({ number }) => number)).toEqual(listed.map((_, index) => index + 1));
		expect(listed.length).toBe(total);
		expect(listed.filter((entry) => !entry.generated).length).toBe(written);
		expect(listed.filter((entry) => entry.generated).length).toBe(generated);
		expect(total).toBeLessThanOrEqual(5);
	});

	test('names only files the repository has', () => {
		const named = [...ADDING.matchAll(/`((?:[^`\s<]|<[^`>]+>)+\.(?:ts|md|snap|json))`/g)].map(([, file]) => file);
		expect(named).toEqual(expect.arrayContaining(listed.map(({ file }) => file)));
		expect(named.filter((file) => !found(file))).toEqual([]);
	});

	test("gives each node's rows file as the tree has it", () => {
		const table = [...ADDING.matchAll(/^\s*\| `(test\/conservation\/\w+\.ts)` \| ([^|]+) \|$/gm)].map(
			([, file, names]) => ({ file, names: names.split(',').map((name) => name.trim()) }),
		);
		const typeNamed = Object.fromEntries(
			Object.entries(loadPackageNodeTypes())
				.filter(([type]) => type.includes('.'))
				.map(([type, nodeType]) => [nodeType.description.displayName.replace(/^Engagement Platform /, ''), type]),
		);
		const nodesOf = (file: string): string[] => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = Object.values(require(path.join(ROOT, file)) as Record<string, unknown>);
			const rows = exported.filter(Array.isArray).flat() as Array<{ nodeType?: unknown }>;
			return [...new Set(rows.map(({ nodeType }) => nodeType).filter((type) => typeof type === 'string'))].sort();
		};

		expect(table.length).toBeGreaterThan(0);
		for (const { file, names } of table)
			expect([file, nodesOf(file)]).toEqual([file, names.map((name) => typeNamed[name] ?? name).sort()]);
		// Every rows file is in the table, and every node with operations has its rows file.
		const rowsFiles = readdirSync(path.join(ROOT, 'test/conservation')).filter((name) => name.endsWith('Cases.ts'));
		expect(table.map(({ file }) => path.basename(file)).sort()).toEqual(rowsFiles.sort());
		expect(table.flatMap(({ names }) => names.map((name) => typeNamed[name])).sort()).toEqual(
			nodesWithOperations().sort(),
		);
	});
});

describe('every operation says what its succeeded items say', () => {
	const { operations } = packageNodes();
	/** The engine's own words for an item not sent or failed: no operation's success may read as one. */
	const ENGINE_WORDS = ['failed', 'unchanged', 'replaced', 'already_tracked', 'preview'];
	const isWord = (word: unknown): boolean =>
		typeof word === 'string' && /^[a-z]+(?:_[a-z]+)*$/.test(word) && !ENGINE_WORDS.includes(word);

	test('the test support reads every node that has operations', () => {
		expect(operations.length).toBeGreaterThan(20);
		expect(nodesWithOperations().sort()).toEqual([...new Set(operations.map(({ nodeType }) => nodeType))].sort());
	});

	test.each(
		operations.map(({ nodeType, operation }) => [`${nodeType.split('.').pop()} / ${operation}`, nodeType, operation]),
	)(
		'%s: a word, a parameter the word is in, or none exactly where it answers with records',
		(_, nodeType, operation) => {
			const declared = declaredOperation(nodeType, operation);
			const status = declared.operation.successStatus;
			const parameter = (name: string): INodeProperties | undefined =>
				declared.description.find((property) => property.name === name);

			expect('none' in status).toBe(declared.operation.answersWithRecords === true);
			expect(answersWithWords(nodeType, operation)).toBe(!('none' in status));
			if ('wordIn' in status) {
				const options = (parameter(status.wordIn)?.options ?? []) as Array<{ value?: unknown }>;
				expect(options.length).toBeGreaterThan(0);
				for (const { value } of options) expect([value, isWord(value)]).toEqual([value, true]);
			} else if ('whenAnyGiven' in status) {
				for (const name of status.whenAnyGiven) expect([name, parameter(name) !== undefined]).toEqual([name, true]);
				expect([status.word, status.otherwise].map(isWord)).toEqual([true, true]);
				expect(status.word).not.toBe(status.otherwise);
			} else if ('word' in status) {
				expect([status.word, isWord(status.word)]).toEqual([status.word, true]);
			}
		},
	);

	test('a word that depends on the parameters is told from them; none, or an operation no node has, throws', () => {
		const setGroupState = { operation: 'setGroupState', subscriptionState: 'unsubscribed' };
		expect(successStatus(SUBSCRIPTION_NODE, setGroupState)).toBe('unsubscribed');
		expect(successStatus(SUBSCRIPTION_NODE, { operation: 'subscribe' })).toBe('subscribed');
		expect(() =>
			successStatus(SUBSCRIPTION_NODE, { ...setGroupState, subscriptionState: '={{ $json.state }}' }),
		).toThrow(/written out/);
		const trackUserData = { operation: 'trackUserData', eventsJson: '[]', purchasesJson: '[]' };
		expect(successStatus(USER_NODE, trackUserData)).toBe('updated');
		expect(successStatus(USER_NODE, { ...trackUserData, eventsJson: '[{"name": "order_placed"}]' })).toBe('tracked');
		expect(successStatus(USER_NODE, { operation: 'trackPurchase' })).toBe('tracked');
		expect(successStatus(USER_NODE, { operation: 'updateAttributes' })).toBe('updated');
		expect(() => successStatus(USER_NODE, { operation: 'export' })).toThrow(/no status word/);
		expect(() => successStatus(USER_NODE, { operation: 'deleteUsers' })).toThrow(/has no operation/);
	});
});

describe('every file in sandbox/routes/ is served', () => {
	const isRoute = (value: unknown): boolean =>
		typeof value === 'object' &&
		value !== null &&
		['method', 'path'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string') &&
		typeof (value as Record<string, unknown>).handle === 'function';
	const files = readdirSync(ROUTES).filter((name) => name.endsWith('.ts') && name !== 'index.ts');

	test.each(files)('%s exports a route, and the sandbox serves each it exports', (file) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const routes = Object.values(require(path.join(ROUTES, file)) as Record<string, unknown>).filter(isRoute);
		expect(routes.length).toBeGreaterThan(0);
		for (const route of routes) expect(API_ROUTES).toContain(route);
	});

	test('the sandbox serves nothing else, each method and path once', () => {
		const exported = files.flatMap((file) =>
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			Object.values(require(path.join(ROUTES, file)) as Record<string, unknown>).filter(isRoute),
		);
		expect(API_ROUTES.length).toBe(exported.length);
		const served = API_ROUTES.map(({ method, path: routePath }) => `${method} ${routePath.replace(/\/$/, '')}`);
		expect(new Set(served).size).toBe(served.length);
	});
});
