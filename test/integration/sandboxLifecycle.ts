import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';

/** One sandbox per test file, reset before each test. */
export function useSandbox(): { sandbox: () => Sandbox; client: () => SandboxClient; apiKey: string } {
	let sandbox: Sandbox;
	let client: SandboxClient;
	beforeAll(async () => {
		sandbox = await startSandbox();
		client = new SandboxClient(sandbox.url);
	});
	beforeEach(async () => await client.reset());
	afterAll(async () => await sandbox.close());
	return { sandbox: () => sandbox, client: () => client, apiKey: DEMO_API_KEY };
}
