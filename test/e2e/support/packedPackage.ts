import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PROJECT_ROOT } from './n8nApp';

/** `npm pack` of the project (run `npm run build` first): the tarball's path in `destination`. */
export function packProject(destination: string): string {
	const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
		env: npmEnv(),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [packed] = JSON.parse(output) as Array<{ filename: string }>;
	return path.join(destination, packed.filename);
}

let unpacked: string | undefined;

/**
 * The package as `npm pack` makes it (run `npm run build` first), unpacked once per process: the files
 * a user's n8n installs from the registry, which every n8n instance of the suite gets.
 */
export function unpackedPackage(): string {
	if (unpacked) return unpacked;
	const folder = mkdtempSync(path.join(os.tmpdir(), 'ep-packed-'));
	process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
	const tarball = packProject(folder);
	const target = path.join(folder, 'package');
	mkdirSync(target);
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	unpacked = target;
	return target;
}

/** This process's environment without the npm_config_* that `npm run` passes down. */
export function npmEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}
