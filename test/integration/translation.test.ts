import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SeedData } from '../../sandbox';
import { TRANSLATION, TRANSLATION_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(TRANSLATION_NODE, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const LOCALE = { fr: id(1), de: id(2), ja: id(3), unknown: id(99) };
const MESSAGE = {
	welcomeEmail: id(10),
	plainEmail: id(11),
	push: id(12),
	canvasEmail: id(13),
	otherCampaignEmail: id(14),
	nowhere: id(98),
};
const STEP = id(20);

const WORKSPACE: SeedData = {
	multiLanguage: {
		locales: [
			{ id: LOCALE.fr, name: 'fr-FR', country: 'FR', language: 'fr' },
			{ id: LOCALE.de, name: 'de-DE', country: 'DE', language: 'de' },
			{ id: LOCALE.ja, name: 'ja-JP', country: 'JP', language: 'ja' },
		],
	},
	campaigns: [
		{
			id: 'welcome',
			messages: [
				{
					message_variation_id: MESSAGE.welcomeEmail,
					channel: 'email',
					translations: { [LOCALE.fr]: { subject: 'Bienvenue' }, [LOCALE.de]: { subject: 'Willkommen' } },
				},
				{ message_variation_id: MESSAGE.plainEmail, channel: 'email', multi_language: false },
				{ message_variation_id: MESSAGE.push, channel: 'push' },
			],
		},
		{
			id: 'winback',
			messages: [{ message_variation_id: MESSAGE.otherCampaignEmail, channel: 'email', translations: {} }],
		},
	],
	canvases: [
		{
			id: 'onboarding',
			steps: [
				{
					step_id: STEP,
					messages: [
						{
							message_variation_id: MESSAGE.canvasEmail,
							channel: 'email',
							translations: { [LOCALE.de]: { subject: 'Los geht’s' } },
						},
					],
				},
			],
		},
	],
};

const campaignLookup: INodeParameters = {
	operation: 'getCampaignTranslations',
	campaignId: '={{ $json.campaign }}',
	messageVariationId: '={{ $json.message }}',
	localeName: '={{ $json.locale ?? "" }}',
};
const canvasLookup: INodeParameters = {
	operation: 'getCanvasTranslations',
	stepId: '={{ $json.step }}',
	messageVariationId: '={{ $json.message }}',
	localeId: '={{ $json.locale }}',
};

describe('Translation node', () => {
	beforeEach(async () => await client().seed(WORKSPACE));

	test('a campaign message gives one item per translation, paired with its input; identical lookups share one GET', async () => {
		const result = await run(
			[
				{ campaign: 'welcome', message: MESSAGE.welcomeEmail },
				{ campaign: 'welcome', message: MESSAGE.welcomeEmail, locale: 'de-DE' },
				{ campaign: 'welcome', message: MESSAGE.welcomeEmail },
			],
			campaignLookup,
		);

		expect(result.error).toBeUndefined();
		const output = result.output(TRANSLATION);
		expect(output.map((item) => [item.pairedItem, (item.json.locale as IDataObject).name])).toEqual([
			[{ item: 0 }, 'fr-FR'],
			[{ item: 0 }, 'de-DE'],
			[{ item: 1 }, 'de-DE'],
			[{ item: 2 }, 'fr-FR'],
			[{ item: 2 }, 'de-DE'],
		]);
		expect(output[0].json).toEqual({
			campaign_id: 'welcome',
			message_variation_id: MESSAGE.welcomeEmail,
			locale: { name: 'fr-FR', country: 'FR', language: 'fr' },
			translation_map: { subject: 'Bienvenue' },
		});
		expect(output[2].json).toMatchObject({ locale_name: 'de-DE', translation_map: { subject: 'Willkommen' } });
		// locale_id is no parameter of this endpoint: the three items ask one GET, and each keeps its locale's.
		const requests = await client().requests();
		expect(requests.map((r) => r.query)).toEqual([
			{ campaign_id: 'welcome', message_variation_id: MESSAGE.welcomeEmail },
		]);
	});

	test('a message without translations still gives its item, with an empty list', async () => {
		const result = await run([{ campaign: 'winback', message: MESSAGE.otherCampaignEmail }], campaignLookup);

		expect(result.output(TRANSLATION).map((item) => item.json)).toEqual([
			{ campaign_id: 'winback', message_variation_id: MESSAGE.otherCampaignEmail, translations: [] },
		]);
	});

	test('a canvas step message gives the translation of the locale asked for', async () => {
		const result = await run([{ step: STEP, message: MESSAGE.canvasEmail, locale: LOCALE.de }], canvasLookup);

		expect(result.output(TRANSLATION).map((item) => item.json)).toEqual([
			{
				step_id: STEP,
				message_variation_id: MESSAGE.canvasEmail,
				locale_id: LOCALE.de,
				locale: { name: 'de-DE', country: 'DE', language: 'de' },
				translation_map: { subject: 'Los geht’s' },
			},
		]);
		const [request] = await client().requests();
		expect(request).toMatchObject({
			method: 'GET',
			path: '/canvas/translations',
			query: { step_id: STEP, message_variation_id: MESSAGE.canvasEmail, locale_id: LOCALE.de },
		});
	});

	test("each of the spec's error conditions reaches its item as the code, what it means and what to change", async () => {
		const cases: Array<[IDataObject, string]> = [
			[{ campaign: 'winback', message: MESSAGE.welcomeEmail }, 'INVALID_CAMPAIGN_ID'],
			[{ campaign: 'welcome', message: MESSAGE.nowhere }, 'MESSAGE_NOT_FOUND'],
			[{ campaign: 'welcome', message: MESSAGE.push }, 'UNSUPPORTED_CHANNEL'],
			[{ campaign: 'welcome', message: MESSAGE.plainEmail }, 'MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE'],
			[{ campaign: 'welcome', message: MESSAGE.welcomeEmail }, ''],
		];
		// The locale errors are the canvas endpoint's (the campaign endpoint takes no locale).
		const canvasCases: Array<[IDataObject, string]> = [
			[{ step: STEP, message: MESSAGE.canvasEmail, locale: LOCALE.unknown }, 'LOCALE_NOT_FOUND'],
			// Answered as plain text by the platform.
			[{ step: STEP, message: MESSAGE.canvasEmail, locale: LOCALE.ja }, 'INVALID_LOCALE_ID'],
		];

		const result = await run(
			cases.map(([item]) => item),
			campaignLookup,
			true,
		);
		const canvasResult = await run(
			canvasCases.map(([item]) => item),
			canvasLookup,
			true,
		);

		for (const [output, asked] of [
			[result.output(TRANSLATION), cases],
			[canvasResult.output(TRANSLATION), canvasCases],
		] as const) {
			for (const [index, [, code]] of asked.entries()) {
				const item = output.find((entry) => (entry.pairedItem as { item: number }).item === index)!;
				if (code === '') expect(item.json.error).toBeUndefined();
				else {
					expect(item.json.error).toMatch(new RegExp(`^Row ${index + 1} \\(item ${index}\\): ${code}: `));
					expect(wordsOf(item.json)).toMatchObject({
						status: 'failed',
						delivery: 'not_applied',
						description: expect.any(String),
					});
				}
			}
		}
		const invalidLocale = canvasResult
			.output(TRANSLATION)
			.find((entry) => String(entry.json.error).includes('INVALID_LOCALE_ID'));
		expect(wordsOf(invalidLocale?.json).description).toContain('translated into');
	});

	test('a workspace without multi-language settings: every item says to turn them on', async () => {
		await client().seed({ multiLanguage: { enabled: false, locales: [] } });

		const result = await run([{ step: STEP, message: MESSAGE.canvasEmail, locale: LOCALE.de }], canvasLookup, true);

		const [answer] = result.output(TRANSLATION).map((item) => item.json);
		expect(answer.error).toEqual(
			expect.stringContaining('MULTI_LANGUAGE_NOT_ENABLED: multi-language settings are not enabled'),
		);
		expect(wordsOf(answer)).toMatchObject({
			status: 'failed',
			description: expect.stringContaining('Turn on multi-language support'),
			httpCode: 400,
		});
	});

	test('IDs that must be UUIDs are checked before anything is sent', async () => {
		const result = await run(
			[
				{ step: 'step-1', message: MESSAGE.canvasEmail, locale: LOCALE.de },
				{ step: STEP, message: MESSAGE.canvasEmail, locale: 'de-DE' },
				{ step: STEP, message: MESSAGE.canvasEmail, locale: '' },
			],
			canvasLookup,
			true,
		);

		expect(
			result
				.output(TRANSLATION)
				.map((item) => [statusOf(item.json), wordsOf(item.json).field, wordsOf(item.json).delivery]),
		).toEqual([
			['failed', 'Step ID', 'invalid'],
			['failed', 'Locale ID', 'invalid'],
			['failed', 'Locale ID', 'invalid'],
		]);
		expect(await client().requests()).toEqual([]);
	});

	test('a key without the permission: the error names it', async () => {
		await client().addApiKey('no-translations', ['campaigns.trigger.send']);

		const result = await runNode(TRANSLATION_NODE, {
			items: [{ campaign: 'welcome', message: MESSAGE.welcomeEmail }],
			parameters: campaignLookup,
			endpoint: sandbox().url,
			apiKey: 'no-translations',
		});

		expect((result.error as { description?: string }).description).toContain(
			'lacks the "campaigns.translations.get" permission',
		);
	});
});
