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

/** The package's action nodes have one version, 2; the Trigger and n8n's own nodes here, 1 unless `extra` says. */
const versionOf = (type: string) => (type.startsWith(`${PACKAGE}.`) && !type.endsWith('Trigger') ? 2 : 1);

const node = (name: string, type: string, position: number, parameters: object, extra: object = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion: versionOf(type),
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

/** Nodes that keep their ids when a workflow is imported again with other data (what a user's edit does). */
const fixedNode = (id: string, name: string, type: string, position: number, parameters: object, extra = {}) => ({
	...node(name, type, position, parameters, extra),
	id: `5a7e0000-0000-4000-8000-${id.padStart(12, '0')}`,
});

/** Five contacts, all on `tier`, through Update Attributes with Send Only Changes: run on gold, silver, gold. */
export const TIER_CONTACTS = ['tier-a', 'tier-b', 'tier-c', 'tier-d', 'tier-e'];
export function tierRevertWorkflow(tier: string) {
	const trigger = 'Start';
	return {
		trigger,
		workflow: {
			id: 'epQueueTierRevert',
			name: `Queue mode: tiers go back (${tier})`,
			nodes: [
				fixedNode('1', trigger, 'n8n-nodes-base.manualTrigger', 0, {}),
				fixedNode(
					'2',
					'Contacts',
					'n8n-nodes-base.set',
					1,
					{
						mode: 'raw',
						jsonOutput: JSON.stringify({ contacts: TIER_CONTACTS.map((id) => ({ id, tier })) }),
						options: {},
					},
					{ typeVersion: 3.4 },
				),
				fixedNode('3', 'One Item per Contact', 'n8n-nodes-base.splitOut', 2, {
					fieldToSplitOut: 'contacts',
					options: {},
				}),
				fixedNode(
					'4',
					'Sync Tier',
					`${PACKAGE}.engagementPlatformUser`,
					3,
					{
						operation: 'updateAttributes',
						identifyBy: 'external_id',
						externalId: '={{ $json.id }}',
						attributesInput: 'json',
						attributesJson: '={{ { tier: $json.tier } }}',
						options: { sendOnlyChanges: true, resendEveryDays: 0 },
					},
					{ credentials: SANDBOX_CREDENTIAL },
				),
			],
			connections: chain(trigger, 'Contacts', 'One Item per Contact', 'Sync Tier'),
			settings: { executionOrder: 'v1' },
			active: false,
		},
	};
}

/**
 * A form answer (lena opts in or out) → IF → a Subscribe and an Unsubscribe node (Set Group State):
 * on whichever worker each run lands, the group ends on the last run's word.
 */
export function newsletterBranchesWorkflow(optIn: boolean) {
	const trigger = 'Start';
	const groupState = (state: string) => ({
		operation: 'setGroupState',
		subscriptionGroupId: 'newsletter',
		subscriptionState: state,
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		options: {},
	});
	return {
		trigger,
		workflow: {
			id: 'epQueueNewsletterIf',
			name: `Queue mode: newsletter on IF branches (${optIn ? 'opt in' : 'opt out'})`,
			nodes: [
				fixedNode('11', trigger, 'n8n-nodes-base.manualTrigger', 0, {}),
				fixedNode(
					'12',
					'Form Answer',
					'n8n-nodes-base.set',
					1,
					{ mode: 'raw', jsonOutput: JSON.stringify({ id: 'lena', newsletter: optIn }), options: {} },
					{ typeVersion: 3.4 },
				),
				fixedNode(
					'13',
					'Opted In?',
					'n8n-nodes-base.if',
					2,
					{
						conditions: {
							options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
							conditions: [
								{
									id: 'b6f0c1d2-0000-4000-8000-000000000013',
									leftValue: '={{ $json.newsletter }}',
									rightValue: '',
									operator: { type: 'boolean', operation: 'true', singleValue: true },
								},
							],
							combinator: 'and',
						},
						options: {},
					},
					{ typeVersion: 2.2 },
				),
				fixedNode('14', 'Subscribe', `${PACKAGE}.engagementPlatformSubscription`, 3, groupState('subscribed'), {
					credentials: SANDBOX_CREDENTIAL,
				}),
				fixedNode('15', 'Unsubscribe', `${PACKAGE}.engagementPlatformSubscription`, 3, groupState('unsubscribed'), {
					credentials: SANDBOX_CREDENTIAL,
				}),
			],
			connections: {
				...chain(trigger, 'Form Answer', 'Opted In?'),
				'Opted In?': {
					main: [[{ node: 'Subscribe', type: 'main', index: 0 }], [{ node: 'Unsubscribe', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
			active: false,
		},
	};
}
