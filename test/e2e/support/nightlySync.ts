/**
 * The nightly-sync example as the end-to-end suites run it again and again: the workflow as saved,
 * the same workflow the next day with 20 contacts changed, and what a run of it sent and answered.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SandboxClient } from '../../../sandbox';
import { statusOf } from '../../support/nodeWords';
import type { Example } from '../../support/examples';
import { loadExamples } from '../../support/examples';

export const NIGHTLY_SYNC: Example = loadExamples().find((example) => example.name === 'nightly-contact-sync')!;
export const SYNC_NODE = NIGHTLY_SYNC.expectation.node;
export const CONTACTS = NIGHTLY_SYNC.expectation.items;

/** Every 50th contact from crm-7 on (20 of 1,000) moves to the platinum plan. */
export const CHANGED = Array.from({ length: CONTACTS / 50 }, (_, i) => `crm-${i * 50 + 7}`);

const PLAN = "['gold', 'silver', 'bronze'][n % 3]";
const CHANGED_PLAN = `(n % 50 === 7 ? 'platinum' : ${PLAN})`;

/** The example with the 20 contacts changed in its CRM node, under the same workflow and node ids. */
export function nextDaysWorkflow(): Example['workflow'] {
	const workflow = structuredClone(NIGHTLY_SYNC.workflow);
	const crm = workflow.nodes.find((node) => node.name === 'CRM Contacts')!;
	const expression = String(crm.parameters.jsonOutput);
	if (!expression.includes(PLAN))
		throw new Error('the nightly-sync example no longer computes the plan as this test expects');
	crm.parameters.jsonOutput = expression.replace(PLAN, CHANGED_PLAN);
	return workflow;
}

export interface SyncRunOnWire {
	/** /users/track requests the run made, and the external IDs of the attribute objects they carried. */
	requests: number;
	sent: string[];
}

export async function requestLogLength(client: SandboxClient): Promise<number> {
	return (await client.requests()).length;
}

/** What the sandbox received from `after` (a request-log length) on. */
export async function sentSince(client: SandboxClient, after: number): Promise<SyncRunOnWire> {
	const requests = (await client.requests()).slice(after).filter((request) => request.path === '/users/track');
	return {
		requests: requests.length,
		sent: requests.flatMap((request) =>
			((request.body as { attributes?: Array<{ external_id?: string }> }).attributes ?? []).map((object) =>
				String(object.external_id),
			),
		),
	};
}

/** How many output items have each status (the node's words beside the row), or each error. */
export function statusCounts(items: Array<{ json: Record<string, unknown> }>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { json } of items) {
		const said = String(statusOf(json as IDataObject) ?? json.error);
		counts[said] = (counts[said] ?? 0) + 1;
	}
	return counts;
}
