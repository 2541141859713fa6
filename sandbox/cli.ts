import {
	ADMIN_PREFIX,
	DEMO_API_KEY,
	DEMO_SCIM_ORIGIN,
	DEMO_SCIM_TOKEN,
	startSandbox,
	type SandboxOptions,
} from './index';

const USAGE = `Usage: npm run sandbox -- [--port N] [--host H] [--latency MS] [--seed demo|empty] [--no-log-bodies]

  --port N          port to listen on (default 4010; 0 picks a free one)
  --host H          address to listen on (default 127.0.0.1)
  --latency MS      delay added to every API response (default 0)
  --seed NAME       demo (default) or empty
  --no-log-bodies   keep request and response bodies out of the request log`;

function parseArguments(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 4010, seed: 'demo' };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = (): string => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${flag} needs a value`);
			return next;
		};
		switch (flag) {
			case '--port':
				options.port = integer(flag, value());
				break;
			case '--host':
				options.host = value();
				break;
			case '--latency':
				options.latencyMs = integer(flag, value());
				break;
			case '--seed': {
				const seed = value();
				if (seed !== 'demo' && seed !== 'empty') throw new Error('--seed must be demo or empty');
				options.seed = seed;
				break;
			}
			case '--no-log-bodies':
				options.logBodies = false;
				break;
			case '--help':
			case '-h':
				console.log(USAGE);
				return process.exit(0);
			default:
				throw new Error(`unknown option ${flag}`);
		}
	}
	return options;
}

function integer(flag: string, text: string): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} must be a whole number, got ${text}`);
	return value;
}

async function main(): Promise<void> {
	let options: SandboxOptions;
	try {
		options = parseArguments(process.argv.slice(2));
	} catch (error) {
		console.error(`${(error as Error).message}\n\n${USAGE}`);
		process.exit(2);
	}
	const sandbox = await startSandbox(options);
	console.log(`Engagement Platform sandbox listening on ${sandbox.url} (seed: ${options.seed})`);
	console.log(`  API key with every permission: ${DEMO_API_KEY}`);
	console.log(`  SCIM token: ${DEMO_SCIM_TOKEN} (with X-Request-Origin: ${DEMO_SCIM_ORIGIN})`);
	console.log(
		`  Admin API (no auth): ${sandbox.url}${ADMIN_PREFIX} reset, api-keys, scim-tokens, config, faults, requests, state, stats, seed`,
	);
	// Benchmarks that start the sandbox as a child process wait for this exact line.
	console.log(`SANDBOX_READY ${sandbox.url}`);

	const stop = (signal: string): void => {
		console.log(`\n${signal}: stopping the sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
