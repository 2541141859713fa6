/**
 * Coded attributes as marketers write them: a sheet's `Country: Germany`, `Language: German`, `Gender:
 * female` and `Phone: +49 151 2345 678` are sent as the platform's codes (DE, de, F, +491512345678), by
 * Map Automatically, by an attributes JSON and by Track User Data alike; a value that reads as no code
 * fails its row naming the value, the codes it could mean and the expression that maps it; a phone
 * without its country code is refused, never sent half-formed, whether an attribute or an identifier.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

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

/** Update Attributes as a freshly added node saves it: Map Automatically. */
const MAP_AUTOMATICALLY: INodeParameters = {
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
};

/** What the sandbox received for each external ID. */
async function sentAttributes(): Promise<Record<string, IDataObject>> {
	const sent: Record<string, IDataObject> = {};
	for (const request of await client().requests({ path: '/users/track' }))
		for (const object of (request.body as { attributes?: IDataObject[] }).attributes ?? []) {
			const { external_id: id, ...rest } = object;
			sent[String(id)] = rest;
		}
	return sent;
}

describe('Map Automatically reads a sheet’s words as codes', () => {
	test.each([
		['Country', 'Germany', 'country', 'DE'],
		['Country', 'United States', 'country', 'US'],
		['Country', 'USA', 'country', 'US'],
		['Country', 'U.S.', 'country', 'US'],
		['Country', 'UK', 'country', 'GB'],
		['Country', 'Great Britain', 'country', 'GB'],
		['Country', 'Deutschland', 'country', 'DE'],
		['Country', 'España', 'country', 'ES'],
		['Country', 'espana', 'country', 'ES'],
		['Country', 'Frankreich', 'country', 'FR'],
		['Country', 'de', 'country', 'DE'],
		['Language', 'German', 'language', 'de'],
		['Language', 'Deutsch', 'language', 'de'],
		['Language', 'français', 'language', 'fr'],
		['Language', 'EN', 'language', 'en'],
		['Gender', 'female', 'gender', 'F'],
		['Gender', 'Woman', 'gender', 'F'],
		['Gender', 'Frau', 'gender', 'F'],
		['Gender', 'male', 'gender', 'M'],
		['Gender', 'man', 'gender', 'M'],
		['Gender', 'Mann', 'gender', 'M'],
		['Gender', 'f', 'gender', 'F'],
		['Phone', '+49 151 2345 678', 'phone', '+491512345678'],
		['Phone', '+1 (415) 555-0100', 'phone', '+14155550100'],
		['Phone', '0049 151.2345.678', 'phone', '+491512345678'],
	])('%s %p is sent as %s %p, with the row’s other columns', async (column, written, attribute, code) => {
		const [answer] = await run(MAP_AUTOMATICALLY, [{ id: 'c-1', [column]: written, plan: 'gold', first_name: 'Lena' }]);

		expect(answer.error).toBeUndefined();
		expect(statusOf(answer)).toBe('updated');
		// The item's answer shows the code it sent.
		expect(wordsOf(answer).sent).toMatchObject({ [attribute]: code });
		expect((await sentAttributes())['c-1']).toEqual({ [attribute]: code, first_name: 'Lena' });
		const [profile] = (await client().state()).profiles;
		// The platform keeps a phone beside the email, as an address of the profile.
		const held =
			attribute === 'phone' ? (profile as { phone?: unknown }).phone : profile.standard_attributes[attribute];
		expect(held).toBe(code);
	});

	test('a country that reads as no code fails its row with the value, the codes near it and the expression', async () => {
		const [bavaria, united] = await run(MAP_AUTOMATICALLY, [
			{ id: 'c-1', Country: 'Bavaria' },
			{ id: 'c-2', Country: 'United' },
		]);

		expect(wordsOf(bavaria)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(bavaria.error)).toContain(
			`"Standard Attributes.Country (ISO 3166 Code, e.g. DE)" expects a two-letter ISO 3166-1 country code or a country name, not 'Bavaria'`,
		);
		expect(String(wordsOf(bavaria).description)).toContain(
			`Give a code such as DE, or map the value to one: {{ $json.Country === 'Bavaria' ? 'DE' : $json.Country }}.`,
		);
		expect(String(united.error)).toMatch(/did you mean [A-Z]{2} \(United [^)]+\)( or [A-Z]{2} \([^)]+\))+\?/);
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});

	test('a phone without its country code is refused, naming the value and how to add one', async () => {
		const [local] = await run(MAP_AUTOMATICALLY, [{ id: 'c-1', Phone: '(415) 555-0100' }]);

		expect(wordsOf(local)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(local.error)).toContain(`"Standard Attributes.Phone" has no country code: '(415) 555-0100'`);
		expect(String(wordsOf(local).description)).toContain(`{{ '+49' + $json.Phone.replace(/^0/, '') }}`);
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});

describe('the same reading wherever attributes or phones go', () => {
	test('an attributes JSON: words become codes', async () => {
		const [answer] = await run(
			{ ...MAP_AUTOMATICALLY, attributesInput: 'json', attributesJson: '={{ $json.attributes }}' },
			[{ id: 'c-1', attributes: { country: 'Deutschland', language: 'Deutsch', gender: 'weiblich', plan: 'gold' } }],
		);

		expect(answer.error).toBeUndefined();
		expect((await sentAttributes())['c-1']).toEqual({ country: 'DE', language: 'de', gender: 'F', plan: 'gold' });
	});

	test('Track User Data: an attribute object’s words become codes; one that reads as none fails its item', async () => {
		const [sent, refused] = await run(
			{
				operation: 'trackUserData',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesInput: 'json',
				attributesJson: '={{ $json.attributes }}',
			},
			[
				{ id: 'c-1', attributes: { country: 'United Kingdom', phone: '+44 20 7946 0958' } },
				{ id: 'c-2', attributes: { country: 'Atlantis' } },
			],
		);

		expect(sent.error).toBeUndefined();
		expect((await sentAttributes())['c-1']).toEqual({ country: 'GB', phone: '+442079460958' });
		expect(String(refused.error)).toContain(
			`"Attributes.country" expects a two-letter ISO 3166-1 country code or a country name, not 'Atlantis'`,
		);
	});

	test('identified by phone: a number as dialled is the user’s E.164 number; one without a country code is refused', async () => {
		const [dialled, local] = await run(
			{
				operation: 'updateAttributes',
				identifyBy: 'phone',
				phone: '={{ $json.mobile }}',
				attributesInput: 'json',
				attributesJson: '{"plan": "gold"}',
			},
			[{ mobile: '+49 (151) 2345-678' }, { mobile: '0151 2345678' }],
		);

		expect(dialled.error).toBeUndefined();
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { attributes: IDataObject[] }).attributes).toEqual([
			{ phone: '+491512345678', plan: 'gold' },
		]);
		expect(String(local.error)).toContain(`"Phone" has no country code: '0151 2345678'`);
		expect(String(wordsOf(local).description)).toContain(`{{ '+49' + $json.mobile.replace(/^0/, '') }}`);
	});
});
