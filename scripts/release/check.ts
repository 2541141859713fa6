/**
 * npm run release:check [-- --manifest <package.json>]
 *
 * The publish workflow's dry run (see releaseProblems.ts): package.json (or the manifest a registry
 * serves, given with --manifest), .github/workflows/publish.yml, .ci/run, CHANGELOG.md and the tags on
 * this commit, checked as npm's registry, npm and n8n's verification would. Exits 1 naming each problem.
 *
 * Where the publish workflow runs is known in GitHub Actions and from a GitHub `origin` remote
 * (workflowRepository); elsewhere the repository's form is checked and its match waits for the
 * workflow's own run of this check, before anything is published.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { type Manifest, releaseProblems, repositoryOf, workflowRepository } from './releaseProblems';

const ROOT = path.resolve(__dirname, '../..');

function git(...args: string[]): string {
	try {
		return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
	} catch {
		return '';
	}
}

const manifestArgument = process.argv.indexOf('--manifest');
const manifestFile = manifestArgument > 0 ? process.argv[manifestArgument + 1] : path.join(ROOT, 'package.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
const source = workflowRepository(process.env, git('remote', 'get-url', 'origin'));
const releaseTag = process.env.GITHUB_REF_TYPE === 'tag' ? process.env.GITHUB_REF_NAME : undefined;

const tagsHere = git('tag', '--points-at', 'HEAD', '--list', 'v*').split('\n').filter(Boolean);

const problems = releaseProblems({
	manifest,
	workflow: readFileSync(path.join(ROOT, '.github/workflows/publish.yml'), 'utf8'),
	ciScript: readFileSync(path.join(ROOT, '.ci/run'), 'utf8'),
	changelog: readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'),
	sourceRepository: source,
	releaseTag,
	tagsHere,
});

if (problems.length > 0) {
	console.error(
		`release check: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
	);
	process.exit(1);
}
console.log(
	`release check: ${manifest.name}@${manifest.version} from ${repositoryOf(manifest)} is ready to publish with provenance` +
		(source ? '' : ' (where the publish workflow runs is checked in that run)') +
		(releaseTag ? `, tag ${releaseTag}` : '') +
		(tagsHere.length > 0 ? `; this commit is tagged ${tagsHere.join(', ')}` : ''),
);
