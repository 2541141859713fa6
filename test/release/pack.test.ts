/**
 * What `npm publish` would ship: the working tree is copied (tracked and untracked files, none that
 * git ignores, so no local dist/), built with `npm run build` and packed with `npm pack --dry-run`.
 * The developer's own dist/ is never touched, so this runs before or after a build, and beside
 * `npm run dev`. The tarball must hold exactly package.json, README.md, LICENSE and the compiled
 * nodes and credentials n8n loads: their .js with its .d.ts, codex files and icons. No source map: it
 * would point at TypeScript sources the package does not ship.
 */
import { execFileSync } from 'child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

const PROJECT_ROOT = path.resolve(__dirname, '../..');

interface Loaded {
	nodes: Array<{ file: string; icons: string[]; codex: string }>;
	credentials: Array<{ file: string; icons: string[] }>;
	required: string[];
}

let copy: string;
let packed: string[];
let loaded: Loaded;
let n8nSection: { nodes: string[]; credentials: string[] };
let searched: Array<{ displayName: string; alias: string[] }>;

function run(command: string, args: string[]): string {
	return execFileSync(command, args, { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
	copy = mkdtempSync(path.join(tmpdir(), 'pack-test-'));
	const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
	});
	for (const file of files.split('\0')) {
		// Skips files listed but deleted in the working tree, and a node_modules that is a symlink (git does not ignore those).
		if (file === '' || file === 'node_modules' || !existsSync(path.join(PROJECT_ROOT, file))) continue;
		cpSync(path.join(PROJECT_ROOT, file), path.join(copy, file));
	}
	symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

	run('npm', ['run', '-s', 'build']);
	const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json'])) as Array<{ files: Array<{ path: string }> }>;
	packed = pack.files.map((file) => file.path).sort();
	loaded = JSON.parse(run(process.execPath, [path.join(__dirname, 'loadPackage.js')])) as Loaded;
	n8nSection = require(path.join(copy, 'package.json')).n8n;
	searched = JSON.parse(
		execFileSync(process.execPath, [path.join(__dirname, 'searchPackage.js')], {
			cwd: copy,
			encoding: 'utf8',
			env: { ...process.env, NODE_PATH: path.join(PROJECT_ROOT, 'node_modules') },
		}),
	) as typeof searched;
}, 120_000);

afterAll(() => {
	if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the npm tarball', () => {
	test('holds package.json, README.md and LICENSE', () => {
		expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
	});

	test('holds every node and credential package.json lists under n8n', () => {
		expect(n8nSection.nodes.length).toBeGreaterThan(0);
		expect(n8nSection.credentials.length).toBeGreaterThan(0);
		const listed = [...n8nSection.nodes, ...n8nSection.credentials];
		expect(listed.filter((file) => !packed.includes(file))).toEqual([]);
	});

	test("holds each node's codex file and every icon the nodes and credentials declare", () => {
		const icons = [...loaded.nodes, ...loaded.credentials].flatMap((entry) => entry.icons);
		expect(icons.length).toBeGreaterThan(0);
		const wanted = [...loaded.nodes.map((node) => node.codex), ...icons];
		expect(wanted.filter((file) => !packed.includes(file))).toEqual([]);
	});

	test('holds nothing from test/, sandbox/, bench/, scripts/ or examples/, and no TypeScript source', () => {
		const stray = packed.filter(
			(file) =>
				/^(test|sandbox|bench|scripts|examples)\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts')),
		);
		expect(stray).toEqual([]);
	});

	test('holds exactly the files n8n loads and their declarations, no source map, and nothing else', () => {
		const compiled = loaded.required.flatMap((file) => [file, file.replace(/\.js$/, '.d.ts')]);
		const expected = new Set([
			'package.json',
			'README.md',
			'LICENSE',
			...compiled,
			...loaded.nodes.flatMap((node) => [node.codex, ...node.icons]),
			...loaded.credentials.flatMap((credential) => credential.icons),
		]);
		expect(packed).toEqual([...expected].sort());
	});
});

/**
 * n8n's node panel searches a node's display name and its codex alias, nothing else. The words a
 * marketer types for these tasks (the issue tracker's list) must each find a node, through the
 * codex files as n8n-core's loader reads them from the built package.
 */
const MARKETER_WORDS = [
	'attribute',
	'custom attribute',
	'profile',
	'contact',
	'customer',
	'purchase',
	'order',
	'event',
	'track event',
	'subscription',
	'newsletter',
	'opt in',
	'opt out',
	'unsubscribe',
	'email',
	'push',
	'campaign',
	'canvas',
	'catalog',
	'receipt',
	'webhook',
	'translation',
	'scim',
];

describe("n8n's node panel, on the built package", () => {
	test.each(MARKETER_WORDS)('"%s" finds a node', (word) => {
		const found = searched.filter(({ displayName, alias }) =>
			[displayName, ...alias].some((text) => text.toLowerCase().includes(word)),
		);
		expect(found.map(({ displayName }) => displayName)).not.toEqual([]);
	});

	test('every node has a codex n8n keeps (its alias is read only when the codex has resources)', () => {
		expect(searched).toHaveLength(n8nSection.nodes.length);
		for (const node of searched) expect(node.alias.length).toBeGreaterThan(0);
	});
});
