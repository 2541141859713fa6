/**
 * node communityPackageScan.mjs <scanner folder> <registry URL> <package>@<version> <source folder>
 *
 * n8n's community-package scanner (@n8n/scan-community-package, pinned in test/e2e/registry) on the
 * package a registry serves, as n8n runs it before it verifies a package: the tarball fetched with
 * `npm pack <package>@<version>` (here from the given registry; the scanner hard-codes npmjs.org)
 * and linted as compiled `.js` and its package.json, and the source linted with the full rule set.
 * The source is the folder given: the scanner takes it from github.com at the commit the provenance
 * statement names, which is the commit the publish workflow checks out and packs.
 *
 * The scanner's first step, the provenance attestation, is one only npmjs.org makes (from a GitHub
 * Actions run); it is reported as the registry's metadata shows it, and the release check covers
 * what the attestation needs. Prints one JSON object: { source, tarball, provenance }.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [scannerFolder, registry, spec, sourceFolder] = process.argv.slice(2);
const scannerModule = (file) =>
	pathToFileURL(path.join(scannerFolder, 'node_modules/@n8n/scan-community-package/scanner', file)).href;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(scannerModule('scanner.mjs'));
const { checkPackageProvenance } = await import(scannerModule('provenance.mjs'));

const work = mkdtempSync(path.join(os.tmpdir(), 'ep-scan-'));
try {
	const pack = spawnSync('npm', ['-q', 'pack', spec, '--registry', registry], { cwd: work, encoding: 'utf8' });
	if (pack.status !== 0) throw new Error(`npm pack ${spec} from ${registry} failed: ${pack.stderr}`);
	const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
	const unpacked = path.join(work, 'package');
	mkdirSync(unpacked);
	const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
		cwd: work,
		encoding: 'utf8',
	});
	if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);

	const name = spec.slice(0, spec.lastIndexOf('@'));
	const version = spec.slice(spec.lastIndexOf('@') + 1);
	const packument = await (await fetch(`${registry.replace(/\/$/, '')}/${name.replace('/', '%2f')}`)).json();

	const source = await analyzePackage(sourceFolder, SOURCE_FILE_PATTERNS);
	const tarballResult = await analyzePackage(unpacked, ['**/*.js', 'package.json']);
	const summary = (result) => ({ passed: result.passed, message: result.message, details: result.details });
	console.log(
		JSON.stringify({
			source: summary(source),
			tarball: { ...summary(tarballResult), files: readdirSync(unpacked).sort() },
			provenance: checkPackageProvenance(packument, version),
		}),
	);
} finally {
	rmSync(work, { recursive: true, force: true });
}
