import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

/**
 * Update Attributes as a freshly added node saves it: the Standard Attributes parameter is
 * not in the saved parameters, so n8n fills in its default (the harness runs n8n's Workflow, which
 * does, as the editor and the server do). Its default mapping mode is "Map Automatically": a sheet's
 * columns named as the standard attributes are set without a click on Mapping Column Mode, and only
 * those: the identifier column and any other column are not sent as standard attributes.
 */
const { sandbox, client, apiKey } = useSandbox();

async function run(parameters: INodeParameters, items: IDataObject[]) {
	const result = await runWorkflow({
		nodes: [{ name: USER, type: USER_NODE, parameters, continueOnFail: true }],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
	return result.output(USER).map(({ json }) => json);
}

/** The parameters a new Update Attributes node saves with only its identifier filled in: no standardAttributes. */
const freshlyAdded: INodeParameters = {
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.external_id }}',
};

const row = {
	external_id: 'crm-7',
	first_name: 'Lena',
	email: 'lena@example.com',
	country: 'DE',
	some_other_column: 'not an attribute',
};

describe('Update Attributes, Standard Attributes left at its default', () => {
	test("sets the columns named as standard attributes, and neither the identifier's column nor another column as one", async () => {
		const [answer] = await run(freshlyAdded, [row]);
		// The item's status word is not asserted here: the item is not an error.
		expect(answer.error).toBeUndefined();

		const requests = await client().requests({ path: '/users/track' });
		expect(requests).toHaveLength(1);
		expect((requests[0].body as { attributes: IDataObject[] }).attributes).toEqual([
			{ external_id: 'crm-7', first_name: 'Lena', email: 'lena@example.com', country: 'DE' },
		]);

		const [profile] = (await client().state()).profiles;
		expect(profile.external_id).toBe('crm-7');
		expect(profile.email).toBe('lena@example.com');
		expect(profile.standard_attributes).toEqual({ first_name: 'Lena', country: 'DE' });
		expect(profile.custom_attributes).toEqual({});
	});

	test('a saved node that chose "Map Each Column Below" with no values keeps it: nothing to update', async () => {
		const [answer] = await run({ ...freshlyAdded, standardAttributes: { mappingMode: 'defineBelow', value: null } }, [
			row,
		]);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(answer.error)).toContain('has nothing to update');
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});
