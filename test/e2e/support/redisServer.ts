import { execFileSync } from 'node:child_process';

import { freePort } from './n8nInstance';
import { ServiceProcess } from './serviceProcess';

export interface RedisServer {
	port: number;
	process: ServiceProcess;
}

/** Debian's redis-server (apt) on loopback, a free port, nothing saved to disk. */
export async function startRedis(logFile: string, folder: string): Promise<RedisServer> {
	try {
		execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
	} catch {
		throw new Error('redis-server is not installed: apt-get install redis-server (.ci/run does it)');
	}
	const port = await freePort();
	const redis = ServiceProcess.spawn(
		'redis-server',
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder],
		{
			cwd: folder,
			logFile,
		},
	);
	await redis.waitUntil(() => redis.log.includes('Ready to accept connections'), 30_000);
	return { port, process: redis };
}
