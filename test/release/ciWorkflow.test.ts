/**
 * CI on every change (.github/workflows/ci.yml): pull requests and pushes to main run the release
 * check, lint, types and the unit and integration suites; the schedule runs .ci/run whole, end-to-end
 * suite included; both on Node lines n8n supports, none past its end of life. publish.yml's check and
 * publish run on a supported line too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

interface Job {
	if?: string;
	container?: string;
	strategy?: { matrix?: { node?: number[] } };
	steps: Array<{ run?: string; with?: Record<string, unknown> }>;
}
interface Workflow {
	on: Record<string, unknown>;
	jobs: Record<string, Job>;
}

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => parse(readFileSync(path.join(ROOT, file), 'utf8')) as Workflow;
const ci = read('.github/workflows/ci.yml');
const publish = read('.github/workflows/publish.yml');
/** The Node lines n8n 2.x and 1.x run on; 20 reached its end of life in April 2026. */
const SUPPORTED_NODE = [22, 24];

const runs = (job: Job) => job.steps.flatMap(({ run }) => (run ? [run] : []));

test('pull requests and pushes to main run the release check, lint, types and the unit suites on each supported Node line', () => {
	expect(ci.on).toMatchObject({ push: { branches: ['main'] }, pull_request: null });
	const checks = ci.jobs.checks;
	expect(checks.if).toMatch(/push/);
	expect(checks.if).toMatch(/pull_request/);
	expect(checks.strategy?.matrix?.node).toEqual(SUPPORTED_NODE);
	expect(runs(checks)).toEqual(
		expect.arrayContaining([
			expect.stringMatching(/^npm ci\b/),
			'npm run release:check',
			'npm run lint',
			'npm run typecheck',
			expect.stringMatching(/^npm test\b/),
		]),
	);
	expect(runs(checks).join('\n')).not.toMatch(/test:e2e|\.ci\/run/);
});

test('nightly and on demand, .ci/run runs whole (the end-to-end suite included) on each supported Node line', () => {
	expect(ci.on).toHaveProperty('schedule');
	expect(ci.on).toHaveProperty('workflow_dispatch');
	const endToEnd = ci.jobs['end-to-end'];
	expect(endToEnd.if).toMatch(/schedule/);
	expect(endToEnd.strategy?.matrix?.node).toEqual(SUPPORTED_NODE);
	expect(endToEnd.container).toMatch(/^node:\$\{\{ matrix\.node \}\}-bookworm$/);
	expect(runs(endToEnd)).toEqual(['bash .ci/run']);
});

test('publish.yml checks and publishes on a supported Node line', () => {
	const lines = Object.values(publish.jobs).flatMap((job) => [
		...(job.container ? [Number(/^node:(\d+)/.exec(job.container)?.[1])] : []),
		...job.steps.flatMap((step) => (step.with?.['node-version'] ? [Number(step.with['node-version'])] : [])),
	]);
	expect(lines.length).toBeGreaterThan(0);
	for (const line of lines) expect(SUPPORTED_NODE).toContain(line);
});

test("after publishing, publish.yml runs n8n's scanner on the published version and judges its words, not its exit code", () => {
	const scan = (publish.jobs as Record<string, Job & { needs?: string }>).scan;
	expect(scan.needs).toBe('publish');
	const script = runs(scan).join('\n');
	expect(script).toMatch(/npx --yes @n8n\/scan-community-package@\d+\.\d+\.\d+ "\$name@\$version" \| tee scan\.txt/);
	expect(script).toMatch(/scripts\/release\/scanVerdict\.ts "\$name" "\$version" < scan\.txt/);
});
