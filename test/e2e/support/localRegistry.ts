import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PROJECT_ROOT, REGISTRY_APP, ensureInstalled } from './n8nApp';
import { npmEnv } from './packedPackage';
import { freePort } from './n8nInstance';

/**
 * A local npm registry on loopback (verdaccio, pinned in test/e2e/registry and installed by
 * scripts/n8n/install.sh), with no uplink: it serves what is published to it and nothing else.
 * It runs on the Node given (verdaccio 6 needs Node >= 22: the 2.x app's Node 24).
 */
export class LocalRegistry {
	private log = '';

	private constructor(
		private readonly process: ChildProcess,
		private readonly folder: string,
		readonly url: string,
	) {
		process.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
		process.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
	}

	static async start(node: string): Promise<LocalRegistry> {
		const verdaccio = path.join(ensureInstalled(REGISTRY_APP), 'node_modules/verdaccio/bin/verdaccio');
		const folder = mkdtempSync(path.join(os.tmpdir(), 'ep-registry-'));
		const config = path.join(folder, 'config.yaml');
		writeFileSync(
			config,
			[
				`storage: ${JSON.stringify(path.join(folder, 'storage'))}`,
				'auth:',
				'  htpasswd:',
				`    file: ${JSON.stringify(path.join(folder, 'htpasswd'))}`,
				'    max_users: 10',
				'uplinks: {}',
				'packages:',
				"  '**':",
				'    access: $all',
				'    publish: $authenticated',
				'    unpublish: $authenticated',
				'web:',
				'  enable: false',
				'log: { type: stdout, format: pretty, level: warn }',
				'',
			].join('\n'),
		);
		const port = await freePort();
		const url = `http://127.0.0.1:${port}/`;
		const child = spawn(node, [verdaccio, '--config', config, '--listen', `127.0.0.1:${port}`], {
			cwd: folder,
			env: { PATH: `${path.dirname(node)}:${process.env.PATH ?? ''}`, HOME: folder, NODE_ENV: 'production' },
		});
		const registry = new LocalRegistry(child, folder, url);
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline) {
			if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}\n${registry.log}`);
			try {
				if ((await fetch(`${url}-/ping`)).ok) return registry;
			} catch {
				// not listening yet
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		await registry.stop();
		throw new Error(`verdaccio did not answer in 60 s\n${registry.log}`);
	}

	/** Creates a user (`PUT /-/user/org.couchdb.user:<name>`) and returns its token. */
	async addUser(name: string, password: string): Promise<string> {
		const response = await fetch(`${this.url}-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
			method: 'PUT',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				_id: `org.couchdb.user:${name}`,
				name,
				password,
				email: `${name}@engagement-platform.local`,
				type: 'user',
				roles: [],
				date: new Date().toISOString(),
			}),
		});
		const body = (await response.json().catch(() => ({}))) as { token?: string };
		if (!response.ok || !body.token)
			throw new Error(`creating the registry user failed: ${response.status} ${JSON.stringify(body)}`);
		return body.token;
	}

	/** Publishes a tarball (from `npm pack`) with npm as a user would, authenticated by the token. */
	publish(tarball: string, token: string): string {
		const userconfig = path.join(this.folder, 'publish.npmrc');
		const { host } = new URL(this.url);
		writeFileSync(userconfig, `//${host}/:_authToken=${token}\n`);
		return execFileSync(
			'npm',
			[
				'publish',
				tarball,
				'--registry',
				this.url,
				'--userconfig',
				userconfig,
				'--ignore-scripts',
				'--loglevel=warn',
				// package.json asks for provenance, which only the publish workflow can sign; npm lets the
				// command line override publishConfig, as a user publishing to a private registry would.
				'--provenance=false',
			],
			{
				cwd: this.folder,
				encoding: 'utf8',
				env: npmEnv(),
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
	}

	/** The registry's metadata of a package (what `npm view` reads). */
	async packument(name: string): Promise<{ 'dist-tags'?: Record<string, string>; versions?: Record<string, unknown> }> {
		const url = `${this.url}${name.replace('/', '%2f')}`;
		// Once more on a dropped connection: fetch reuses a kept-alive socket verdaccio may have closed
		// meanwhile (its keep-alive timeout is 5 s), which ends as "other side closed". A GET is safe to repeat.
		const response = await fetch(url).catch(async () => await fetch(url));
		if (!response.ok) throw new Error(`${name} is not on the local registry: ${response.status}`);
		return (await response.json()) as { 'dist-tags'?: Record<string, string> };
	}

	async stop(): Promise<void> {
		const child = this.process;
		if (child.exitCode === null) {
			await new Promise<void>((resolve) => {
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
				setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
			});
		}
		rmSync(this.folder, { recursive: true, force: true });
	}
}

interface ScanLeg {
	passed: boolean;
	message?: string;
	details?: string;
}

/** What n8n's community-package scanner said of a package on the registry (see communityPackageScan.mjs). */
export interface CommunityPackageScan {
	source: ScanLeg;
	tarball: ScanLeg & { files: string[] };
	provenance: ScanLeg;
}

/** n8n's community-package scanner on `<package>@<version>` as the registry serves it, with the project's own source. */
export function scanCommunityPackage(registry: LocalRegistry, spec: string): CommunityPackageScan {
	const output = execFileSync(
		process.execPath,
		[path.join(__dirname, 'communityPackageScan.mjs'), ensureInstalled(REGISTRY_APP), registry.url, spec, PROJECT_ROOT],
		// Without jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base takes it for its own test run and checks made-up file names.
		{
			encoding: 'utf8',
			env: { ...npmEnv(), NODE_ENV: 'production' },
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 180_000,
		},
	);
	return JSON.parse(output.trim().split('\n').at(-1)!) as CommunityPackageScan;
}
