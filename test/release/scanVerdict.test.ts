/**
 * The publish workflow's judge of n8n's scanner (scripts/release/scanVerdict.ts): the scanner exits 0
 * whatever it found, so only its pass line for the version just published passes.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { scanVerdict } from '../../scripts/release/scanVerdict';

const NAME = 'n8n-nodes-engagement-platform';
const PASSED = `✅ Package ${NAME}@1.2.0 has passed all security checks\n`;

test.each([
	['its pass line for the version', PASSED, true],
	[
		'a failure, with its reason and details',
		`❌ Package ${NAME}@1.2.0 has failed security checks\nReason: Package was not published with npm provenance\n\nDetails:\n…\n`,
		false,
	],
	['the pass line of another version', `✅ Package ${NAME}@1.1.0 has passed all security checks\n`, false],
	['an analysis that failed', 'Analysis failed: Error: 404 Not Found\n', false],
	['nothing', '', false],
])('%s: passed is %s', (_, printed, passed) => {
	const verdict = scanVerdict(printed, NAME, '1.2.0');
	expect(verdict.passed).toBe(passed);
	if (!passed) expect(verdict.why).toMatch(/n8n's scanner/);
});

test('the script exits 1 on a failure the scanner printed with exit code 0, and names it', () => {
	const script = path.resolve(__dirname, '../../scripts/release/scanVerdict.ts');
	const run = (input: string) => {
		try {
			execFileSync('npx', ['ts-node', '--transpile-only', script, NAME, '1.2.0'], {
				input,
				encoding: 'utf8',
				stdio: 'pipe',
			});
			return 0;
		} catch (error) {
			return (error as { status: number }).status;
		}
	};
	expect(run(PASSED)).toBe(0);
	expect(run(`❌ Package ${NAME}@1.2.0 has failed security checks\nReason: lint\n`)).toBe(1);
});
