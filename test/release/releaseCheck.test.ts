/**
 * The release check (`npm run release:check`, the first step of .ci/run): the project's own
 * package.json, publish workflow, .ci/run and CHANGELOG pass, and each thing provenance or n8n's
 * verification needs, taken away from a copy of them, fails the check naming it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parseDocument } from 'yaml';

import {
	type Manifest,
	type ReleaseFacts,
	releaseProblems,
	unreleasedEntries,
	workflowRepository,
} from '../../scripts/release/releaseProblems';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const REPOSITORY = 'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform';

function facts(change: Partial<ReleaseFacts> = {}): ReleaseFacts {
	return {
		manifest: JSON.parse(read('package.json')) as Manifest,
		workflow: read('.github/workflows/publish.yml'),
		ciScript: read('.ci/run'),
		changelog: read('CHANGELOG.md'),
		sourceRepository: REPOSITORY,
		tagsHere: [],
		...change,
	};
}

function withManifest(edit: (manifest: Manifest & Record<string, unknown>) => void): Partial<ReleaseFacts> {
	const manifest = JSON.parse(read('package.json')) as Manifest & Record<string, unknown>;
	edit(manifest);
	return { manifest };
}

function withWorkflow(edit: (document: ReturnType<typeof parseDocument>) => void): Partial<ReleaseFacts> {
	const document = parseDocument(read('.github/workflows/publish.yml'));
	edit(document);
	return { workflow: document.toString() };
}

const version = (JSON.parse(read('package.json')) as Manifest).version!;

test('the project as it is passes, and so does npm run release:check', () => {
	expect(releaseProblems(facts())).toEqual([]);
	const printed = execFileSync('npm', ['run', '-s', 'release:check'], { cwd: ROOT, encoding: 'utf8' });
	expect(printed).toContain(`n8n-nodes-engagement-platform@${version} from ${REPOSITORY} is ready to publish`);
});

test.each<[string, Partial<ReleaseFacts>, RegExp]>([
	[
		'no repository',
		withManifest((manifest) => delete manifest.repository),
		/no "repository": npm refuses the provenance statement \(E422\)/,
	],
	[
		'an empty repository URL',
		withManifest((manifest) => (manifest.repository = { type: 'git', url: '' })),
		/no "repository"/,
	],
	[
		'a repository other than the one the workflow runs in',
		{ sourceRepository: 'https://github.com/someone/fork' },
		/runs in https:\/\/github\.com\/someone\/fork: npm refuses the provenance statement \(E422\)/,
	],
	[
		'a repository off GitHub',
		withManifest((manifest) => (manifest.repository = 'https://gitlab.com/a/b')),
		/from github\.com only/,
	],
	['no bugs', withManifest((manifest) => delete manifest.bugs), /no "bugs"/],
	[
		'the registry page as homepage',
		withManifest((manifest) => (manifest.homepage = 'https://www.npmjs.com/package/x')),
		/"homepage" .* is not the repository/,
	],
	[
		'a runtime dependency',
		withManifest((manifest) => (manifest.dependencies = { axios: '1.0.0' })),
		/runtime dependencies \(axios\)/,
	],
	[
		'no id-token permission',
		withWorkflow((document) => document.deleteIn(['jobs', 'publish', 'permissions', 'id-token'])),
		/lacks "permissions: id-token: write"/,
	],
	[
		'publishing without --provenance',
		{
			...withWorkflow((document) => {
				const steps = document.getIn(['jobs', 'publish', 'steps']) as { items: unknown[] };
				const index = steps.items.length - 1;
				document.setIn(['jobs', 'publish', 'steps', index, 'run'], 'npm publish --access public');
			}),
			...withManifest((manifest) => delete manifest.publishConfig),
		},
		/without --provenance/,
	],
	[
		'no publishConfig.provenance (a publish from a laptop would ship without it)',
		withManifest((manifest) => delete manifest.publishConfig),
		/"publishConfig\.provenance" is not true/,
	],
	[
		'a self-hosted runner',
		withWorkflow((document) => document.setIn(['jobs', 'publish', 'runs-on'], 'self-hosted')),
		/GitHub-hosted runners only/,
	],
	[
		'no registry URL',
		withWorkflow((document) => document.deleteIn(['jobs', 'publish', 'steps', 1, 'with', 'registry-url'])),
		/without registry-url/,
	],
	[
		'publishing without the checks',
		withWorkflow((document) => document.deleteIn(['jobs', 'publish', 'needs'])),
		/does not need a job running \.ci\/run/,
	],
	[
		'.ci/run without the release check',
		{ ciScript: read('.ci/run').replace(/^npm run release:check\n/m, '') },
		/\.ci\/run does not run "npm run release:check"/,
	],
	[
		'a version with no CHANGELOG section',
		withManifest((manifest) => (manifest.version = '9.9.9')),
		/newest release is .*, package\.json says 9\.9\.9/,
	],
	[
		'a version that is no semantic version',
		withManifest((manifest) => (manifest.version = '1.1')),
		/not a semantic version/,
	],
	[
		'a pushed tag other than the version',
		{ releaseTag: 'v0.0.1' },
		/tag v0\.0\.1 does not match package\.json's version/,
	],
	['another version tag on the commit', { tagsHere: ['v2.0.0'] }, /tag v2\.0\.0 does not match/],
])('%s fails the check, naming it', (_case, change, problem) => {
	const problems = releaseProblems(facts(change));
	expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
});

/** CHANGELOG.md as a commit after a release makes it: changes waiting under [Unreleased]. */
function withUnreleased(...entries: string[]): string {
	return read('CHANGELOG.md').replace(
		/^## \[Unreleased\]\n[\s\S]*?(?=^## \[)/m,
		`## [Unreleased]\n\n### Fixed\n\n${entries.map((entry) => `- ${entry}\n`).join('')}\n`,
	);
}

/** A release commit made from `changelog`: [Unreleased] moved into the version's section, dated, and tagged. */
function preparedRelease(changelog: string, next: string): Partial<ReleaseFacts> {
	return {
		...withManifest((manifest) => (manifest.version = next)),
		changelog: changelog.replace(/^## \[Unreleased\]\n/m, `## [Unreleased]\n\n## [${next}] - 2026-12-01\n`),
		releaseTag: `v${next}`,
	};
}

const escaped = (text: string) => text.replace(/[.[\]]/g, (sign) => `\\${sign}`);

test('the project as it is, tagged with its version, is a release exactly when [Unreleased] lists nothing', () => {
	const waiting = unreleasedEntries(read('CHANGELOG.md'));
	expect(releaseProblems(facts({ tagsHere: [`v${version}`] }))).toEqual(
		waiting.length === 0 ? [] : [expect.stringMatching(/^CHANGELOG\.md's \[Unreleased\] still lists/)],
	);
	// Untagged (any commit on main, as CI checks it), [Unreleased] is where changes wait: no problem.
	expect(releaseProblems(facts({ changelog: withUnreleased('A change.') }))).toEqual([]);
});

test('a commit whose [Unreleased] lists changes, tagged, is no release: the check refuses it naming them', () => {
	const changelog = withUnreleased('**A sheet date read as meant.** More words.', 'Another change.');
	expect(unreleasedEntries(changelog)).toEqual(['A sheet date read as meant.', 'Another change.']);
	expect(releaseProblems(facts({ changelog, tagsHere: [`v${version}`] }))).toEqual([
		expect.stringMatching(
			new RegExp(
				`^CHANGELOG\\.md's \\[Unreleased\\] still lists 2 changes \\(A sheet date read as meant\\., …\\): move them into "## \\[${escaped(version)}\\] - <date>" before tagging v${escaped(version)}`,
			),
		),
	]);
	// A pushed tag (GitHub's GITHUB_REF_NAME) is held to the same rule as a tag on the commit.
	expect(releaseProblems(facts({ changelog, releaseTag: `v${version}` }))).toHaveLength(1);
});

test('a prepared release commit passes: [Unreleased] empty, its changes under the version, tagged with it', () => {
	const prepared = preparedRelease(withUnreleased('A change.'), '1.0.1');
	expect(unreleasedEntries(prepared.changelog!)).toEqual([]);
	expect(releaseProblems(facts(prepared))).toEqual([]);
	// Its section must be the version's: the same commit tagged for another version is refused.
	expect(
		releaseProblems(
			facts({ ...prepared, ...withManifest((manifest) => (manifest.version = '1.1.0')), releaseTag: 'v1.1.0' }),
		),
	).toEqual([expect.stringMatching(/newest release is 1\.0\.1, package\.json says 1\.1\.0/)]);
});

test('the repository URL is compared in every form npm accepts', () => {
	for (const url of [
		`git+${REPOSITORY}.git`,
		`${REPOSITORY}.git`,
		`git@github.com:${REPOSITORY.slice(19)}.git`,
		REPOSITORY.slice(19),
	])
		expect(releaseProblems(facts(withManifest((manifest) => (manifest.repository = { type: 'git', url }))))).toEqual(
			[],
		);
});

test('where the workflow runs is read from GitHub Actions or a GitHub origin, never from a local path', () => {
	const owner = REPOSITORY.slice(19);
	expect(workflowRepository({}, `git@github.com:${owner}.git`)).toBe(REPOSITORY);
	expect(workflowRepository({}, `${REPOSITORY}.git`)).toBe(REPOSITORY);
	expect(
		workflowRepository(
			{ GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'someone/fork' },
			`${REPOSITORY}.git`,
		),
	).toBe('https://github.com/someone/fork');
	// A clone of a clone (CI clones the project from a folder) or a mirror elsewhere says nothing of where
	// the publish workflow runs: the match waits for the workflow's own run.
	expect(workflowRepository({}, '/check/repo')).toBeUndefined();
	expect(workflowRepository({}, 'file:///check/repo')).toBeUndefined();
	expect(workflowRepository({}, 'https://gitlab.com/a/b.git')).toBeUndefined();
	expect(workflowRepository({}, '')).toBeUndefined();
});

test('a clean clone of a local clone, as CI makes, passes npm run release:check', () => {
	const folder = mkdtempSync(path.join(tmpdir(), 'release-check-'));
	try {
		const clone = path.join(folder, 'repo');
		execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
		// The check reads the committed files; the working copy's (possibly uncommitted) ones are what is tested.
		for (const file of ['package.json', 'CHANGELOG.md', '.ci/run', '.github/workflows/publish.yml', 'scripts'])
			cpSync(path.join(ROOT, file), path.join(clone, file), { recursive: true });
		symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
		const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GITHUB_')));
		const printed = execFileSync('npm', ['run', '-s', 'release:check'], { cwd: clone, encoding: 'utf8', env });
		expect(printed).toContain('is ready to publish with provenance');
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});
