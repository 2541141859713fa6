/**
 * Keys as users paste them: with a space, a tab or a line break around them, and with characters an
 * echo writes differently. The workflow works with a padded key (it is sent trimmed), a key no
 * header can carry is refused before anything is sent, and an answer that echoes the key, in
 * whatever form, never carries it into an item, the error output, the thrown error, n8n's run data
 * or the log.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { useSandbox } from '../integration/sandboxLifecycle';
import { DASHBOARD_USER, DASHBOARD_USER_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { statusOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { successStatus } from '../support/successWords';
import { ECHOES, ODD_CHARACTERS, PADS, headerCannotCarry, pastedKey } from './echoes';
import { leakedSecrets } from './secrets';

const { sandbox, client } = useSandbox();
const ORIGIN = 'n8n.example.com';

const TRACK_EVENT: INodeParameters = {
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: 'u1',
	eventName: 'visited',
	time: '2026-11-24T02:00:00Z',
};

/** A node of each credential, with an operation whose first request the sandbox can answer with an echo. */
const NODES = [
	{
		credential: 'REST API key',
		type: USER_NODE,
		name: USER,
		path: '/users/track',
		parameters: TRACK_EVENT,
		// The word for an event tracked ("tracked").
		succeeded: (json: IDataObject) => statusOf(json) === successStatus(USER_NODE, TRACK_EVENT),
		register: async (key: string) => await client().addApiKey(key, '*'),
		credentials: (key: string): Record<string, ICredentialDataDecryptedObject> => ({
			engagementPlatformApi: { restEndpoint: sandbox().url, apiKey: key },
		}),
	},
	{
		credential: 'SCIM token',
		type: DASHBOARD_USER_NODE,
		name: DASHBOARD_USER,
		path: '/scim/v2/Users',
		parameters: { operation: 'findByEmail', email: 'mia@example.com' } as INodeParameters,
		succeeded: (json: IDataObject) => json.found === false,
		register: async (key: string) => await client().addScimToken(key, ORIGIN),
		credentials: (key: string): Record<string, ICredentialDataDecryptedObject> => ({
			engagementPlatformScimApi: { scimEndpoint: sandbox().url, scimToken: key, requestOrigin: `${ORIGIN}\n` },
		}),
	},
] as const;

const ON_ERROR = [{ continueOnFail: true }, { onError: 'continueErrorOutput' as const }, {}] as const;

describe.each(NODES)('a $credential as users paste it', (node) => {
	test.each(PADS.filter((pad) => pad !== ''))('with %j around it: the workflow works', async (pad) => {
		const { core, pasted } = pastedKey(['+', '/', '='], pad, pad);
		await node.register(core);

		const result = await runNode(node.type, {
			parameters: node.parameters,
			items: [{}],
			credentials: node.credentials(pasted),
		});

		expect(result.error).toBeUndefined();
		expect(node.succeeded(result.output(node.name)[0].json)).toBe(true);
		expect(leakedSecrets(result, [pasted])).toEqual([]);
	});

	test.each(ODD_CHARACTERS.filter((odd) => !headerCannotCarry(odd)))('holding %j: the workflow works', async (odd) => {
		const { core, pasted } = pastedKey([odd], ' ', '\n');
		await node.register(core);

		const result = await runNode(node.type, {
			parameters: node.parameters,
			items: [{}],
			credentials: node.credentials(pasted),
		});

		expect(result.error).toBeUndefined();
		expect(node.succeeded(result.output(node.name)[0].json)).toBe(true);
	});

	test.each([...ODD_CHARACTERS.filter(headerCannotCarry), '\n', '\r\n'])(
		'holding %j inside it: refused before anything is sent, without showing the key',
		async (odd) => {
			const { pasted } = pastedKey([odd], '', ' ');

			const result = await runNode(node.type, {
				parameters: node.parameters,
				items: [{}],
				credentials: node.credentials(pasted),
			});

			expect(result.error?.message).toContain('cannot carry');
			expect(await client().requests()).toEqual([]);
			expect(leakedSecrets(result, [pasted])).toEqual([]);
		},
	);

	describe.each(ECHOES)('an answer echoing it: $name', (echo) => {
		test.each(ON_ERROR.map((onError, index) => ({ onError, odd: [ODD_CHARACTERS[index], '"', '%', 'é'] })))(
			'in no item, error output, thrown error, run data or log ($onError)',
			async ({ onError, odd }) => {
				const { core, pasted } = pastedKey(odd, '\t', '\r\n');
				await node.register(core);
				await client().injectFaults([{ path: node.path, kind: 'answer', times: 1, ...echo.answer(core, pasted) }]);

				const result = await runNode(node.type, {
					parameters: node.parameters,
					items: [{}],
					credentials: node.credentials(pasted),
					...onError,
				});

				expect((await client().requests()).length).toBe(1);
				expect(leakedSecrets(result, [pasted])).toEqual([]);
			},
		);
	});
});

describe('Send Only Changes knows a key however it was pasted', () => {
	const store = deduplicationStore();
	beforeEach(() => store.reset());

	test('a run with the key padded remembers what the run with it trimmed sent, and the other way round', async () => {
		const { core } = pastedKey(['+', '/'], '', '');
		await client().addApiKey(core, '*');
		const sync = async (apiKey: string) =>
			await runWorkflow({
				workflowId: 'nightly-sync',
				nodes: [{ id: 'c0ffee00-0000-4000-8000-000000000002', name: USER, type: USER_NODE, parameters: SYNC }],
				connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
				items: [{ id: 'crm-1', plan: 'gold' }],
				credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
			});

		for (const apiKey of [core, ` ${core}\r\n`, `\t${core}`]) {
			const result = await sync(apiKey);
			expect(result.error).toBeUndefined();
		}

		expect((await client().requests({ path: '/users/track' })).length).toBe(1);
	});
});

const SYNC: INodeParameters = {
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: '={{ { plan: $json.plan } }}',
	options: { sendOnlyChanges: true, resendEveryDays: 0 },
};
