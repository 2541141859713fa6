/**
 * Two workspaces of the platform, each its own in-process sandbox on loopback, holding the same three
 * customers (an external ID and a distinct email each). A sequence starts from both reset and seeded.
 * A fourth customer, the newcomer, exists in neither until a run creates a profile for them or they
 * sign up (are seeded).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';

/** The seeded customers. */
export const USERS = ['u1', 'u2', 'u3'] as const;
/** The customer no workspace knows at first. */
export const NEWCOMER = 'u4';
export const PEOPLE = [...USERS, NEWCOMER] as const;
export type Person = (typeof PEOPLE)[number];

export const IDENTIFIER_KINDS = ['external_id', 'email'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export const emailOf = (user: Person): string => `${user}@shop.example`;

/** The workspace's newsletter group (each workspace has one of this ID, created as the dashboard creates it). */
export const GROUP = 'newsletter';

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

/** Empties the workspace and seeds its newsletter group and the three customers, with nothing else on their profiles. */
export async function resetWorkspace({ client }: Workspace): Promise<void> {
	await client.reset();
	await client.seed({
		subscriptionGroups: [GROUP],
		profiles: USERS.map((user) => ({ external_id: user, email: emailOf(user) })),
	});
}

/** The customer signs up: a profile with their external ID and email, nothing else. */
export async function signUp({ client }: Workspace, user: Person): Promise<void> {
	await client.seed({ profiles: [{ external_id: user, email: emailOf(user) }] });
}
