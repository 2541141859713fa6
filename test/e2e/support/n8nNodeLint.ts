import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8N_NODE_CLI_APP, PROJECT_ROOT, ensureInstalled } from './n8nApp';

/** What ships, as source: the nodes, the credentials, their icons and the package manifest (and the TypeScript settings the import rules resolve by). */
const SHIPPED_SOURCE = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];

export interface N8nNodeLint {
	/** `n8n-node lint`: its exit code and what it printed. */
	cli: { code: number | null; output: string };
	/** The same configuration's findings, counted (eslint's JSON report), so that warnings count too. */
	errors: number;
	warnings: number;
	findings: string[];
}

/**
 * Lints the package's shipped source as n8n's node CLI lints a package it made: the source alone in a
 * folder of its own, with `eslint.config.mjs` exactly as `n8n-node new` writes it (so that strict mode,
 * which the package declares, finds it unchanged), by `n8n-node lint`; then by eslint with that same
 * configuration for a count of errors and warnings (n8n-node lint fails on errors only).
 */
export function lintAsN8nNode(): N8nNodeLint {
	const app = ensureInstalled(N8N_NODE_CLI_APP);
	const cliPackage = path.join(app, 'node_modules/@n8n/node-cli');
	const folder = mkdtempSync(path.join(os.tmpdir(), 'ep-n8n-node-lint-'));
	try {
		for (const entry of SHIPPED_SOURCE)
			cpSync(path.join(PROJECT_ROOT, entry), path.join(folder, entry), { recursive: true });
		copyFileSync(
			path.join(cliPackage, 'dist/template/templates/shared/default/eslint.config.mjs'),
			path.join(folder, 'eslint.config.mjs'),
		);
		symlinkSync(path.join(app, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
		// Without jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base takes it for its own test run.
		const options = {
			cwd: folder,
			encoding: 'utf8' as const,
			env: { ...process.env, NODE_ENV: 'production', FORCE_COLOR: '0', CI: 'true' },
			timeout: 300_000,
		};
		const cli = spawnSync(process.execPath, [path.join(cliPackage, 'bin/n8n-node.mjs'), 'lint'], options);
		const eslint = spawnSync(
			process.execPath,
			[path.join(app, 'node_modules/eslint/bin/eslint.js'), '.', '--format', 'json'],
			{ ...options, maxBuffer: 64 * 1024 * 1024 },
		);
		const report = JSON.parse(eslint.stdout) as Array<{
			filePath: string;
			messages: Array<{ severity: number; ruleId: string | null; message: string; line: number }>;
		}>;
		const messages = report.flatMap(({ filePath, messages: found }) =>
			found.map((message) => ({ ...message, file: path.relative(folder, filePath) })),
		);
		return {
			cli: { code: cli.status, output: `${cli.stdout}${cli.stderr}` },
			errors: messages.filter(({ severity }) => severity === 2).length,
			warnings: messages.filter(({ severity }) => severity === 1).length,
			findings: messages.map(({ file, line, ruleId, message }) => `${file}:${line} ${ruleId ?? ''} ${message}`),
		};
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
