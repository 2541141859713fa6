import { randomUUID } from 'node:crypto';

import type { CredentialImport } from './n8nInstance';

/** The workflows the queue-mode test runs besides examples/: a postback trigger and a load of tracked events. */
const PACKAGE = 'n8n-nodes-engagement-platform';
const SANDBOX_CREDENTIAL = {
	engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' },
};

export const POSTBACK_TOKEN = `tok-${randomUUID().replace(/-/g, '')}`;
const POSTBACK_CREDENTIAL_ID = 'epQueuePostbackAuth';

export const postbackCredential: CredentialImport = {
	id: POSTBACK_CREDENTIAL_ID,
	name: 'Platform postbacks (queue mode)',
	type: 'engagementPlatformPostbackAuthApi',
	data: { headerName: 'X-Postback-Token', headerToken: POSTBACK_TOKEN },
};

const node = (name: string, type: string, position: number, parameters: object, extra: object = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion: 1,
	position: [position * 220, 0],
	parameters,
	...extra,
});

const chain = (...names: string[]) =>
	Object.fromEntries(
		names.slice(0, -1).map((name, index) => [name, { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] }]),
	);

/**
 * The Trigger on delivered postbacks, then a No-op: activated, it is served by the webhook processor.
 * Workflow ids stay within 21 characters: n8n 2.41 saves no static data (the Trigger's memory of
 * postbacks) for a longer id (`isWorkflowIdValid`).
 */
export const postbackWorkflow = (() => {
	const webhookId = randomUUID();
	const trigger = 'Postback';
	return {
		webhookPath: `/webhook/${webhookId}/engagement-platform-postback`,
		trigger,
		workflow: {
			id: 'epQueuePostbacks',
			name: 'Queue mode: delivered postbacks → next steps',
			nodes: [
				node(
					trigger,
					`${PACKAGE}.engagementPlatformTrigger`,
					0,
					{ authentication: 'headerAuth', statuses: ['delivered'] },
					{
						webhookId,
						credentials: {
							engagementPlatformPostbackAuthApi: { id: POSTBACK_CREDENTIAL_ID, name: postbackCredential.name },
						},
					},
				),
				node('Next Steps', 'n8n-nodes-base.noOp', 1, {}),
			],
			connections: chain(trigger, 'Next Steps'),
			settings: { executionOrder: 'v1' },
			active: false,
		},
	};
})();

/**
 * Manual Trigger → `count` events made by a Set node and split into items → Track Event. Each
 * event carries its execution's id and its number, so the sandbox's store shows which were lost
 * or stored twice.
 */
export function trackEventsLoadWorkflow(count: number) {
	const trigger = 'Start';
	return {
		trigger,
		trackNode: 'Track Events',
		eventName: 'queue_load_test',
		workflow: {
			id: 'epQueueTrackLoad',
			name: `Queue mode: ${count} tracked events`,
			nodes: [
				node(trigger, 'n8n-nodes-base.manualTrigger', 0, {}),
				node(
					'Make Events',
					'n8n-nodes-base.set',
					1,
					{
						mode: 'raw',
						jsonOutput: `={{ { events: Array.from({ length: ${count} }, (_, n) => ({ n, userId: 'load-user-' + (n % 500) })) } }}`,
						options: {},
					},
					{ typeVersion: 3.4 },
				),
				node('One Item per Event', 'n8n-nodes-base.splitOut', 2, { fieldToSplitOut: 'events', options: {} }),
				node(
					'Track Events',
					`${PACKAGE}.engagementPlatformUser`,
					3,
					{
						operation: 'trackEvent',
						identifyBy: 'external_id',
						externalId: '={{ $json.userId }}',
						eventName: 'queue_load_test',
						time: '2026-11-01T12:00:00Z',
						propertiesInput: 'json',
						propertiesJson: '={{ { execution: $execution.id, n: $json.n } }}',
					},
					{ credentials: SANDBOX_CREDENTIAL },
				),
			],
			connections: chain(trigger, 'Make Events', 'One Item per Event', 'Track Events'),
			settings: { executionOrder: 'v1' },
			active: false,
		},
	};
}
