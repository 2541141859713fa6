import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Runs a measurement script of bench/ in a process of its own (with --expose-gc, so it can collect
 * garbage before measuring) and returns the JSON of its last line; this process's event loop stays
 * free meanwhile, and the child's CPU time and memory are its alone.
 */
export async function measureInChild<T>(script: string, args: string[]): Promise<T> {
	const { stdout } = await promisify(execFile)(
		process.execPath,
		['--expose-gc', '-r', 'ts-node/register/transpile-only', path.join(__dirname, script), ...args],
		{ cwd: path.resolve(__dirname, '..'), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
	);
	return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
