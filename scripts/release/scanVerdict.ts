/**
 * npx @n8n/scan-community-package <name>@<version> | ts-node scripts/release/scanVerdict.ts <name> <version>
 *
 * n8n's community-package scanner exits 0 when a package fails its checks: it prints its verdict and
 * leaves the judging to the reader. This reads what it printed and exits 1 unless it is the verdict that
 * this very version passed (the publish workflow runs it on the version it has just published).
 */
import { readFileSync } from 'node:fs';

export function scanVerdict(printed: string, name: string, version: string): { passed: boolean; why: string } {
	const lines = printed.split('\n').map((line) => line.trim());
	const passLine = `✅ Package ${name}@${version} has passed all security checks`;
	if (lines.some((line) => line.startsWith('❌') || line.startsWith('Analysis failed')))
		return { passed: false, why: `n8n's scanner failed ${name}@${version}:\n${printed.trim()}` };
	if (!lines.includes(passLine))
		return {
			passed: false,
			why: `n8n's scanner did not say that ${name}@${version} passed (expected "${passLine}"):\n${printed.trim() || '(it printed nothing)'}`,
		};
	return { passed: true, why: passLine };
}

if (require.main === module) {
	const [name, version] = process.argv.slice(2);
	const verdict = scanVerdict(readFileSync(0, 'utf8'), name, version);
	(verdict.passed ? console.log : console.error)(verdict.why);
	process.exit(verdict.passed ? 0 : 1);
}
