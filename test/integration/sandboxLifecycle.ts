import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';

export interface SandboxSetup {
	/**
	 * The subscription groups the file's tests use, created after every reset as the dashboard creates
	 * them: the platform refuses a group ID its workspace does not have.
	 */
	subscriptionGroups?: readonly string[];
}

/** One sandbox per test file, reset before each test (and given the file's subscription groups). */
export function useSandbox(setup: SandboxSetup = {}): {
	sandbox: () => Sandbox;
	client: () => SandboxClient;
	apiKey: string;
} {
	let sandbox: Sandbox;
	let client: SandboxClient;
	beforeAll(async () => {
		sandbox = await startSandbox();
		client = new SandboxClient(sandbox.url);
	});
	beforeEach(async () => {
		await client.reset();
		if (setup.subscriptionGroups) await client.seed({ subscriptionGroups: [...setup.subscriptionGroups] });
	});
	afterAll(async () => await sandbox.close());
	return { sandbox: () => sandbox, client: () => client, apiKey: DEMO_API_KEY };
}
