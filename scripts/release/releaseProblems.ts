import { parse } from 'yaml';

/**
 * What a release needs before its tag is pushed: the dry run of the publish workflow, short of the
 * signing only GitHub Actions can do. Each rule names who would refuse the release without it:
 *
 * - npm's registry refuses a provenance statement (E422) unless the published package.json's
 *   `repository.url` is the repository the workflow ran in, and provenance only from a GitHub-hosted
 *   runner (not a self-hosted one);
 * - npm refuses `--provenance` without the `id-token: write` permission;
 * - n8n's community-package scanner accepts only an SLSA v1 statement (GitHub Actions; GitLab's is
 *   v0.2) and lints the source it points at, fetched from github.com at the attested commit;
 * - n8n's verification wants an MIT package without runtime dependencies that links its source.
 *
 * Every problem is one line naming the field or step and the fix.
 */
export interface ReleaseFacts {
	/** package.json as it will be published. */
	manifest: Manifest;
	/** .github/workflows/publish.yml. */
	workflow: string;
	/** .ci/run, which the publish workflow runs before publishing. */
	ciScript: string;
	changelog: string;
	/** `https://github.com/<owner>/<repo>` the publish workflow runs in, when known (GitHub Actions, or the clone's origin). */
	sourceRepository?: string;
	/** The tag being released (GitHub's `GITHUB_REF_NAME` on a tag push), when there is one. */
	releaseTag?: string;
	/** Tags of the `v*` form on the commit being checked. */
	tagsHere: string[];
}

export interface Manifest {
	name?: string;
	version?: string;
	license?: string;
	homepage?: string;
	repository?: string | { type?: string; url?: string; directory?: string };
	bugs?: string | { url?: string };
	dependencies?: Record<string, string>;
	publishConfig?: { provenance?: boolean; access?: string; registry?: string };
}

const NPM_REGISTRY = 'https://registry.npmjs.org';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const GITHUB_REPOSITORY = /^https:\/\/github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export function releaseProblems(facts: ReleaseFacts): string[] {
	return [...manifestProblems(facts), ...workflowProblems(facts), ...versionProblems(facts)];
}

/** `git+https://github.com/o/r.git` and the shorthand forms npm accepts, as the registry compares them. */
export function repositoryOf(manifest: Manifest): string | undefined {
	const raw = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	if (!raw) return undefined;
	const shorthand = /^(?:github:)?([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/.exec(raw);
	if (shorthand) return `https://github.com/${shorthand[1]}`;
	return raw
		.replace(/^git\+/, '')
		.replace(/^(?:git|ssh):\/\/(?:git@)?github\.com[/:]/, 'https://github.com/')
		.replace(/^git@github\.com:/, 'https://github.com/')
		.replace(/\.git$/, '')
		.replace(/\/$/, '');
}

/**
 * `https://github.com/<owner>/<repo>` the publish workflow runs in: GitHub Actions says so, and a clone
 * whose `origin` is on GitHub runs it there. Any other origin (a folder CI cloned from, a mirror elsewhere)
 * says nothing of it, and the match waits for the workflow's own run of the check.
 */
export function workflowRepository(env: NodeJS.ProcessEnv, origin: string): string | undefined {
	const { GITHUB_ACTIONS, GITHUB_SERVER_URL, GITHUB_REPOSITORY: repositoryName } = env;
	if (GITHUB_ACTIONS === 'true' && GITHUB_SERVER_URL && repositoryName) return `${GITHUB_SERVER_URL}/${repositoryName}`;
	if (!/^(?:git\+)?(?:https|git|ssh):\/\/(?:git@)?github\.com[/:]|^git@github\.com:/.test(origin)) return undefined;
	const repository = repositoryOf({ repository: origin });
	return repository && GITHUB_REPOSITORY.test(repository) ? repository : undefined;
}

function manifestProblems({ manifest, sourceRepository }: ReleaseFacts): string[] {
	const problems: string[] = [];
	const repository = repositoryOf(manifest);
	if (!repository) {
		problems.push(
			'package.json has no "repository": npm refuses the provenance statement (E422) and n8n cannot find the source to verify. Add {"type": "git", "url": "git+https://github.com/<owner>/<repo>.git"}.',
		);
	} else if (!GITHUB_REPOSITORY.test(repository)) {
		problems.push(
			`package.json "repository" is ${repository}: n8n's scanner fetches the attested source from github.com only. Point it at the public GitHub repository the publish workflow runs in.`,
		);
	} else if (sourceRepository && repository !== sourceRepository) {
		problems.push(
			`package.json "repository" is ${repository}, but the publish workflow runs in ${sourceRepository}: npm refuses the provenance statement (E422). Make them the same.`,
		);
	}
	if (typeof manifest.repository === 'object' && manifest.repository.directory)
		problems.push('package.json "repository.directory" is set: this package is the repository\'s root. Remove it.');
	const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
	if (!bugs) problems.push('package.json has no "bugs": add {"url": "<repository>/issues"}.');
	else if (repository && !bugs.startsWith(repository))
		problems.push(`package.json "bugs" (${bugs}) is not in the repository ${repository}.`);
	if (!manifest.homepage) problems.push('package.json has no "homepage": add "<repository>#readme".');
	else if (repository && !manifest.homepage.startsWith(repository))
		problems.push(`package.json "homepage" (${manifest.homepage}) is not the repository ${repository}.`);
	if (manifest.license !== 'MIT')
		problems.push(`package.json "license" is ${manifest.license}: n8n verifies MIT packages.`);
	const dependencies = Object.keys(manifest.dependencies ?? {});
	if (dependencies.length > 0)
		problems.push(
			`package.json has runtime dependencies (${dependencies.join(', ')}): n8n verifies packages without any.`,
		);
	if (manifest.publishConfig?.provenance !== true)
		problems.push(
			'package.json "publishConfig.provenance" is not true: an npm publish from anywhere but the publish workflow (a laptop, with whatever dist/ lies there) would ship without provenance. Set "publishConfig": {"provenance": true, "access": "public"}; npm then refuses to publish where it cannot sign.',
		);
	if (manifest.publishConfig?.registry && manifest.publishConfig.registry.replace(/\/$/, '') !== NPM_REGISTRY)
		problems.push(
			`package.json "publishConfig.registry" is ${manifest.publishConfig.registry}: publish to ${NPM_REGISTRY}.`,
		);
	return problems;
}

interface WorkflowStep {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
interface WorkflowJob {
	'runs-on'?: string | string[];
	needs?: string | string[];
	permissions?: Record<string, string> | string;
	steps?: WorkflowStep[];
}

function workflowProblems({ workflow, ciScript, manifest }: ReleaseFacts): string[] {
	let document: { on?: { push?: { tags?: string[] } }; jobs?: Record<string, WorkflowJob> };
	try {
		document = parse(workflow) ?? {};
	} catch (error) {
		return [`.github/workflows/publish.yml is not YAML: ${(error as Error).message}`];
	}
	const problems: string[] = [];
	const jobs = Object.entries(document.jobs ?? {});
	const runs = (job: WorkflowJob, pattern: RegExp) =>
		(job.steps ?? []).findIndex((step) => pattern.test(step.run ?? ''));

	if (!(document.on?.push?.tags ?? []).some((tag) => tag.startsWith('v')))
		problems.push("publish.yml is not started by pushing a version tag: add on.push.tags: ['v*.*.*'].");

	const publishing = jobs.filter(([, job]) => runs(job, /\bnpm publish\b/) >= 0);
	if (publishing.length !== 1) {
		problems.push(`publish.yml has ${publishing.length} jobs running npm publish: it needs exactly one.`);
		return problems;
	}
	const [publishName, publish] = publishing[0];
	const publishStep = runs(publish, /\bnpm publish\b/);
	const command = publish.steps![publishStep].run!;
	const permissions = typeof publish.permissions === 'object' ? publish.permissions : {};
	if (permissions['id-token'] !== 'write')
		problems.push(
			`publish.yml job ${publishName} lacks "permissions: id-token: write": npm cannot get the token that signs the provenance statement.`,
		);
	if (!/--provenance\b/.test(command) && manifest.publishConfig?.provenance !== true)
		problems.push(
			`publish.yml job ${publishName} publishes without --provenance: n8n's scanner refuses a package without it.`,
		);
	if (!/--access[ =]public\b/.test(command) && manifest.publishConfig?.access !== 'public')
		problems.push(
			`publish.yml job ${publishName} publishes without --access public: npm refuses provenance for a package it takes as private.`,
		);
	const runner = [publish['runs-on'] ?? ''].flat().join(' ');
	if (!/^(ubuntu|windows|macos)-/.test(runner) || /self-hosted/.test(runner))
		problems.push(
			`publish.yml job ${publishName} runs on "${runner}": npm's registry accepts provenance from GitHub-hosted runners only.`,
		);
	const setupNode = (publish.steps ?? []).find((step) => step.uses?.startsWith('actions/setup-node@'));
	const registry = String(setupNode?.with?.['registry-url'] ?? '').replace(/\/$/, '');
	if (registry !== NPM_REGISTRY)
		problems.push(`publish.yml job ${publishName} sets up Node without registry-url: ${NPM_REGISTRY}.`);
	if (runs(publish, /\bnpm run build\b/) < 0 || runs(publish, /\bnpm run build\b/) > publishStep)
		problems.push(
			`publish.yml job ${publishName} does not run "npm run build" before npm publish: with scripts off (.npmrc), nothing else builds dist/.`,
		);

	const needs = [publish.needs ?? []].flat();
	if (!jobs.some(([name, job]) => needs.includes(name) && runs(job, /\.ci\/run\b/) >= 0))
		problems.push(`publish.yml job ${publishName} does not need a job running .ci/run (the checks and the tests).`);
	if (!/^npm run release:check\b/m.test(ciScript))
		problems.push(
			'.ci/run does not run "npm run release:check": a tag that does not match the version would be published.',
		);
	return problems;
}

function versionProblems({ manifest, changelog, releaseTag, tagsHere }: ReleaseFacts): string[] {
	const problems: string[] = [];
	const version = manifest.version ?? '';
	if (!SEMVER.test(version)) problems.push(`package.json "version" (${version}) is not a semantic version.`);
	const released = [...changelog.matchAll(/^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})$/gm)];
	if (released[0]?.[1] !== version)
		problems.push(
			`CHANGELOG.md's newest release is ${released[0]?.[1] ?? 'none'}, package.json says ${version}: write its section "## [${version}] - <date>" above the others.`,
		);
	const tags = [releaseTag, ...tagsHere].filter((tag): tag is string => tag !== undefined);
	for (const tag of tags) {
		if (tag !== `v${version}`)
			problems.push(`The tag ${tag} does not match package.json's version ${version}: tag this commit v${version}.`);
	}
	// Between releases [Unreleased] collects what the next one brings; a tagged commit is a release, and
	// what [Unreleased] still holds would ship under a section that does not mention it.
	const unreleased = unreleasedEntries(changelog);
	if (tags.length > 0 && unreleased.length > 0)
		problems.push(
			`CHANGELOG.md's [Unreleased] still lists ${unreleased.length} change${unreleased.length === 1 ? '' : 's'} (${unreleased[0]}${unreleased.length > 1 ? ', …' : ''}): move them into "## [${version}] - <date>" before tagging v${version}.`,
		);
	return problems;
}

/** The entries (list items) of CHANGELOG.md's [Unreleased] section, each by its first words. */
export function unreleasedEntries(changelog: string): string[] {
	const section = /^## \[Unreleased\][^\n]*\n([\s\S]*?)(?=^## \[|(?![\s\S]))/m.exec(changelog)?.[1] ?? '';
	return [...section.matchAll(/^- (.*)$/gm)].map(([, entry]) =>
		entry
			.replace(/\*\*/g, '')
			.split(/(?<=[.:])\s/)[0]
			.slice(0, 80),
	);
}
