/**
 * Two workspaces of the platform, each its own in-process sandbox on loopback, holding the same three
 * customers (an external ID and a distinct email each). A sequence starts from both reset and seeded.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';

export const USERS = ['u1', 'u2', 'u3'] as const;
export type UserId = (typeof USERS)[number];

export const emailOf = (user: UserId): string => `${user}@shop.example`;

/** Workspace 0 is the one the workflow's credential normally points at; 1 is the one it is switched to. */
export const WORKSPACES = [0, 1] as const;
export type WorkspaceIndex = (typeof WORKSPACES)[number];
export const workspaceName = (workspace: WorkspaceIndex): string => (workspace === 0 ? 'main' : 'second');

export interface Workspace {
	sandbox: Sandbox;
	client: SandboxClient;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

/** Starts both sandboxes before the file's tests and closes them after. */
export function useWorkspaces(): () => Workspace[] {
	const workspaces: Workspace[] = [];
	beforeAll(async () => {
		for (const _ of WORKSPACES) {
			const sandbox = await startSandbox();
			workspaces.push({
				sandbox,
				client: new SandboxClient(sandbox.url),
				credentials: { engagementPlatformApi: { restEndpoint: sandbox.url, apiKey: DEMO_API_KEY } },
			});
		}
	});
	afterAll(async () => {
		for (const { sandbox } of workspaces) await sandbox.close();
	});
	return () => workspaces;
}

/** Empties the workspace and seeds the three customers, with nothing else on their profiles. */
export async function resetWorkspace({ client }: Workspace): Promise<void> {
	await client.reset();
	await client.seed({ profiles: USERS.map((user) => ({ external_id: user, email: emailOf(user) })) });
}
