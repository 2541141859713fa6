import { DEMO_API_KEY, DEMO_TRANSLATIONS, type SeedData } from '../../sandbox';
import { useSandbox } from './sandboxTestKit';

describe('sandbox: GET /campaigns/translations and /canvas/translations', () => {
	const sandbox = useSandbox();

	const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const FR = { id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' };
	const DE = { id: uuid(2), name: 'de-DE', country: 'DE', language: 'de' };
	const ES = { id: uuid(3), name: 'es-MX', country: 'MX', language: 'es' };
	const localeOf = ({ name, country, language }: typeof FR) => ({ name, country, language });
	const FR_MAP = { id_0: 'Bonjour', id_1: 'Au revoir' };
	const DE_MAP = { id_0: 'Hallo' };
	const ids = {
		email: uuid(101),
		push: uuid(102),
		emailOff: uuid(103),
		otherCampaignEmail: uuid(104),
		step: uuid(201),
		otherStep: uuid(202),
		stepEmail: uuid(301),
		stepSms: uuid(302),
		stepEmailOff: uuid(303),
		otherStepEmail: uuid(304),
		unknown: uuid(999),
	};
	const SEED: SeedData = {
		multiLanguage: { locales: [FR, DE, ES] },
		campaigns: [
			{
				id: 'newsletter',
				messages: [
					// Translations listed out of the workspace order: answers follow the workspace order.
					{ message_variation_id: ids.email, channel: 'email', translations: { [DE.id]: DE_MAP, [FR.id]: FR_MAP } },
					{ message_variation_id: ids.push, channel: 'push', translations: { [FR.id]: FR_MAP } },
					{
						message_variation_id: ids.emailOff,
						channel: 'email',
						multi_language: false,
						translations: { [FR.id]: FR_MAP },
					},
				],
			},
			{
				id: 'promo',
				messages: [
					{ message_variation_id: ids.otherCampaignEmail, channel: 'email', translations: { [FR.id]: FR_MAP } },
				],
			},
		],
		canvases: [
			{
				id: 'journey',
				steps: [
					{
						step_id: ids.step,
						messages: [
							{
								message_variation_id: ids.stepEmail,
								channel: 'email',
								translations: { [FR.id]: FR_MAP, [DE.id]: DE_MAP },
							},
							{ message_variation_id: ids.stepSms, channel: 'sms' },
							{ message_variation_id: ids.stepEmailOff, channel: 'email', multi_language: false },
						],
					},
					{ step_id: ids.otherStep, messages: [{ message_variation_id: ids.otherStepEmail, channel: 'email' }] },
				],
			},
		],
	};

	const query = (params: Record<string, string | undefined>) => {
		const search = new URLSearchParams(
			Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
		).toString();
		return search === '' ? '' : `?${search}`;
	};
	const campaign = (params: Record<string, string | undefined>, apiKey?: string, path = '/campaigns/translations') =>
		sandbox.call('GET', `${path}${query(params)}`, undefined, { apiKey });
	const canvas = (params: Record<string, string | undefined>, apiKey?: string, path = '/canvas/translations') =>
		sandbox.call('GET', `${path}${query(params)}`, undefined, { apiKey });
	/** The test kit parses JSON; a plain-text answer is read here. */
	const rawGet = async (path: string) => {
		const response = await fetch(`${sandbox.url}${path}`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
		return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
	};
	const expectError = (answer: { status: number; body: unknown }, code: string, status = 400) => {
		expect([answer.status, answer.body]).toEqual([status, { errors: [{ message: code }] }]);
	};
	const success = (...entries: Array<[typeof FR, Record<string, string>]>) => ({
		translations: entries.map(([locale, map]) => ({ locale: localeOf(locale), translation_map: map })),
		message: 'success',
	});

	beforeEach(async () => {
		await sandbox.admin.seed(SEED);
	});

	describe('seeding', () => {
		it('shows the multi-language settings, messages and steps in state (multi_language defaults to true for email only)', async () => {
			const state = await sandbox.admin.state();
			expect(state.multiLanguage).toEqual({ enabled: true, locales: [FR, DE, ES] });
			expect(state.campaigns[0]).toEqual({
				id: 'newsletter',
				state: 'active',
				kind: 'api_triggered',
				messages: [
					{
						message_variation_id: ids.email,
						channel: 'email',
						multi_language: true,
						translations: { [DE.id]: DE_MAP, [FR.id]: FR_MAP },
					},
					{ message_variation_id: ids.push, channel: 'push', multi_language: false, translations: { [FR.id]: FR_MAP } },
					{
						message_variation_id: ids.emailOff,
						channel: 'email',
						multi_language: false,
						translations: { [FR.id]: FR_MAP },
					},
				],
			});
			expect(state.canvases[0].steps?.map((step) => [step.step_id, step.messages.length])).toEqual([
				[ids.step, 3],
				[ids.otherStep, 1],
			]);
			expect(state.canvases[0].steps?.[1].messages[0]).toEqual({
				message_variation_id: ids.otherStepEmail,
				channel: 'email',
				multi_language: true,
				translations: {},
			});
		});

		it('has no multi-language settings until seeded', async () => {
			await sandbox.admin.reset();
			expect((await sandbox.admin.state()).multiLanguage).toBeNull();
		});

		it.each([
			[
				'a locale id that is not a UUID',
				{ multiLanguage: { locales: [{ ...FR, id: 'fr' }] } },
				/multiLanguage\.locales\[0\]\.id must be a UUID/,
			],
			[
				'a locale without country',
				{ multiLanguage: { locales: [{ id: uuid(9), name: 'x', language: 'x' }] } },
				/multiLanguage\.locales\[0\]\.country must be a non-empty string/,
			],
			[
				'a locale twice',
				{ multiLanguage: { locales: [FR, FR] } },
				/multiLanguage\.locales\[1\]\.id '.*' is used twice/,
			],
			[
				'enabled that is not a boolean',
				{ multiLanguage: { enabled: 'yes', locales: [] } },
				/multiLanguage\.enabled must be a boolean/,
			],
			[
				'a message id that is not a UUID',
				{ campaigns: [{ id: 'c', messages: [{ message_variation_id: 'm1', channel: 'email' }] }] },
				/campaigns\[0\]\.messages\[0\]\.message_variation_id must be a UUID/,
			],
			[
				'an unknown channel',
				{ campaigns: [{ id: 'c', messages: [{ message_variation_id: uuid(50), channel: 'fax' }] }] },
				/campaigns\[0\]\.messages\[0\]\.channel must be one of email, push/,
			],
			[
				'translations keyed by something else',
				{
					campaigns: [
						{ id: 'c', messages: [{ message_variation_id: uuid(50), channel: 'email', translations: { fr: {} } }] },
					],
				},
				/'fr' is not a locale id/,
			],
			[
				'a translation text that is not a string',
				{
					campaigns: [
						{
							id: 'c',
							messages: [{ message_variation_id: uuid(50), channel: 'email', translations: { [FR.id]: { id_0: 1 } } }],
						},
					],
				},
				/must be a translation_map/,
			],
			[
				'a step id that is not a UUID',
				{ canvases: [{ id: 'v', steps: [{ step_id: 's', messages: [] }] }] },
				/canvases\[0\]\.steps\[0\]\.step_id must be a UUID/,
			],
			[
				'a message id already used',
				{ campaigns: [{ id: 'c', messages: [{ message_variation_id: ids.stepEmail, channel: 'email' }] }] },
				/message_variation_id '.*' is used twice/,
			],
			[
				'a step id already used',
				{ canvases: [{ id: 'v', steps: [{ step_id: ids.step, messages: [] }] }] },
				/step_id '.*' is used twice/,
			],
		])('refuses %s', async (_case, data, message) => {
			await expect(sandbox.admin.seed(data as never)).rejects.toThrow(message);
		});

		it('lets a campaign seeded again bring its own message ids back (replaced whole)', async () => {
			await sandbox.admin.seed({
				campaigns: [{ id: 'newsletter', messages: [{ message_variation_id: ids.email, channel: 'email' }] }],
			});
			expect((await sandbox.admin.state()).campaigns[0].messages).toHaveLength(1);
		});
	});

	describe('GET /campaigns/translations', () => {
		it('answers every translation of the message, in the workspace locale order', async () => {
			const answer = await campaign({ campaign_id: 'newsletter', message_variation_id: ids.email });
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(success([FR, FR_MAP], [DE, DE_MAP]));
			expect(answer.headers.get('x-ratelimit-limit')).toBe('250000');
		});

		it('ignores locale_id, which is not among its parameters: every translation, whatever the locale_id', async () => {
			for (const localeId of [DE.id, ES.id, uuid(77), 'fr-FR', '']) {
				const answer = await campaign({
					campaign_id: 'newsletter',
					message_variation_id: ids.email,
					locale_id: localeId,
				});
				expect([localeId, answer.status, answer.body]).toEqual([localeId, 200, success([FR, FR_MAP], [DE, DE_MAP])]);
			}
		});

		it('answers an email without translations with an empty list', async () => {
			await sandbox.admin.seed({
				campaigns: [{ id: 'plain', messages: [{ message_variation_id: uuid(60), channel: 'email' }] }],
			});
			expect((await campaign({ campaign_id: 'plain', message_variation_id: uuid(60) })).body).toEqual({
				translations: [],
				message: 'success',
			});
		});

		it('serves the spec sample path /campaign/translations the same way, on the same budget', async () => {
			const answer = await campaign(
				{ campaign_id: 'newsletter', message_variation_id: ids.email },
				undefined,
				'/campaign/translations',
			);
			expect([answer.status, answer.body]).toEqual([200, success([FR, FR_MAP], [DE, DE_MAP])]);
			expect(answer.headers.get('x-ratelimit-remaining')).toBe('249999');
			expect(
				(await campaign({ campaign_id: 'newsletter', message_variation_id: ids.email })).headers.get(
					'x-ratelimit-remaining',
				),
			).toBe('249998');
		});

		describe('errors, in order', () => {
			it('MULTI_LANGUAGE_NOT_ENABLED: never seeded, or turned off (checked first)', async () => {
				await sandbox.admin.seed({ multiLanguage: { enabled: false, locales: [FR] } });
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.email }),
					'MULTI_LANGUAGE_NOT_ENABLED',
				);
				expectError(await campaign({}), 'MULTI_LANGUAGE_NOT_ENABLED');
				await sandbox.admin.reset();
				expectError(
					await campaign({ campaign_id: 'c', message_variation_id: ids.email }),
					'MULTI_LANGUAGE_NOT_ENABLED',
				);
			});

			it('INVALID_MESSAGE_VARIATION_ID: missing or not a UUID (before the campaign ID)', async () => {
				expectError(await campaign({ campaign_id: 'newsletter' }), 'INVALID_MESSAGE_VARIATION_ID');
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: 'welcome-email' }),
					'INVALID_MESSAGE_VARIATION_ID',
				);
				expectError(await campaign({ message_variation_id: '' }), 'INVALID_MESSAGE_VARIATION_ID');
			});

			it("INVALID_CAMPAIGN_ID: missing, or the message is another campaign's or a canvas's", async () => {
				expectError(await campaign({ message_variation_id: ids.email }), 'INVALID_CAMPAIGN_ID');
				expectError(await campaign({ message_variation_id: ids.unknown }), 'INVALID_CAMPAIGN_ID');
				expectError(await campaign({ campaign_id: 'promo', message_variation_id: ids.email }), 'INVALID_CAMPAIGN_ID');
				expectError(await campaign({ campaign_id: 'nope', message_variation_id: ids.email }), 'INVALID_CAMPAIGN_ID');
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.stepEmail }),
					'INVALID_CAMPAIGN_ID',
				);
			});

			it('MESSAGE_NOT_FOUND (404): a well-formed message ID nothing has', async () => {
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.unknown }),
					'MESSAGE_NOT_FOUND',
					404,
				);
				expectError(
					await campaign({ campaign_id: 'nope', message_variation_id: ids.unknown }),
					'MESSAGE_NOT_FOUND',
					404,
				);
			});

			it('UNSUPPORTED_CHANNEL: not an email (before the locale)', async () => {
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.push }),
					'UNSUPPORTED_CHANNEL',
				);
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.push, locale_id: 'x' }),
					'UNSUPPORTED_CHANNEL',
				);
			});

			it('MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE: an email with multi-language off', async () => {
				expectError(
					await campaign({ campaign_id: 'newsletter', message_variation_id: ids.emailOff }),
					'MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE',
				);
			});
		});
	});

	describe('GET /canvas/translations', () => {
		const stepEmail = { step_id: ids.step, message_variation_id: ids.stepEmail };

		it("answers the locale's translation, with or without the trailing slash", async () => {
			const answer = await canvas({ ...stepEmail, locale_id: DE.id });
			expect([answer.status, answer.body]).toEqual([200, success([DE, DE_MAP])]);
			expect(answer.headers.get('x-ratelimit-limit')).toBe('250000');
			const slashed = await canvas({ ...stepEmail, locale_id: FR.id }, undefined, '/canvas/translations/');
			expect([slashed.status, slashed.body]).toEqual([200, success([FR, FR_MAP])]);
		});

		it('reads UUIDs in either case', async () => {
			const answer = await canvas({
				step_id: ids.step.toUpperCase(),
				message_variation_id: ids.stepEmail.toUpperCase(),
				locale_id: FR.id.toUpperCase(),
			});
			expect([answer.status, answer.body]).toEqual([200, success([FR, FR_MAP])]);
		});

		describe('errors, in order', () => {
			it('MULTI_LANGUAGE_NOT_ENABLED (checked first)', async () => {
				await sandbox.admin.seed({ multiLanguage: { enabled: false, locales: [FR, DE] } });
				expectError(await canvas({ ...stepEmail, locale_id: FR.id }), 'MULTI_LANGUAGE_NOT_ENABLED');
				expectError(await canvas({}), 'MULTI_LANGUAGE_NOT_ENABLED');
			});

			it('INVALID_MESSAGE_VARIATION_ID: missing or not a UUID (before the step)', async () => {
				expectError(await canvas({ locale_id: FR.id }), 'INVALID_MESSAGE_VARIATION_ID');
				expectError(
					await canvas({ step_id: 'nope', message_variation_id: 'nope', locale_id: FR.id }),
					'INVALID_MESSAGE_VARIATION_ID',
				);
			});

			it('INVALID_STEP_ID: missing or not a UUID; STEP_NOT_FOUND (404): a step no canvas has', async () => {
				expectError(await canvas({ message_variation_id: ids.stepEmail, locale_id: FR.id }), 'INVALID_STEP_ID');
				expectError(
					await canvas({ step_id: 'step-1', message_variation_id: ids.stepEmail, locale_id: FR.id }),
					'INVALID_STEP_ID',
				);
				expectError(
					await canvas({ step_id: ids.unknown, message_variation_id: ids.stepEmail, locale_id: FR.id }),
					'STEP_NOT_FOUND',
					404,
				);
			});

			it('MESSAGE_NOT_FOUND (404): a message not in that step', async () => {
				expectError(
					await canvas({ step_id: ids.step, message_variation_id: ids.unknown, locale_id: FR.id }),
					'MESSAGE_NOT_FOUND',
					404,
				);
				expectError(
					await canvas({ step_id: ids.otherStep, message_variation_id: ids.stepEmail, locale_id: FR.id }),
					'MESSAGE_NOT_FOUND',
					404,
				);
				expectError(
					await canvas({ step_id: ids.step, message_variation_id: ids.email, locale_id: FR.id }),
					'MESSAGE_NOT_FOUND',
					404,
				);
			});

			it('UNSUPPORTED_CHANNEL, then MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE (both before the locale)', async () => {
				expectError(await canvas({ step_id: ids.step, message_variation_id: ids.stepSms }), 'UNSUPPORTED_CHANNEL');
				expectError(
					await canvas({ step_id: ids.step, message_variation_id: ids.stepEmailOff }),
					'MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE',
				);
			});

			it('LOCALE_NOT_FOUND: locale_id missing, not a UUID, or not a workspace locale', async () => {
				expectError(await canvas(stepEmail), 'LOCALE_NOT_FOUND');
				expectError(await canvas({ ...stepEmail, locale_id: 'de' }), 'LOCALE_NOT_FOUND');
				expectError(await canvas({ ...stepEmail, locale_id: uuid(77) }), 'LOCALE_NOT_FOUND');
			});

			it('INVALID_LOCALE_ID: a workspace locale the message has no translation for, as plain text', async () => {
				const answer = await rawGet(`/canvas/translations${query({ ...stepEmail, locale_id: ES.id })}`);
				expect(answer).toEqual({
					status: 400,
					contentType: 'text/plain; charset=utf-8',
					text: `INVALID_LOCALE_ID: locale ${ES.id} is not in this message's translation`,
				});
				const requests = await sandbox.admin.requests({ path: '/canvas/translations' });
				expect(requests.at(-1)).toMatchObject({
					status: 400,
					response: `INVALID_LOCALE_ID: locale ${ES.id} is not in this message's translation`,
				});
			});
		});
	});

	describe('permissions', () => {
		it('refuses a key without the endpoint permission with 403, each endpoint its own', async () => {
			await sandbox.admin.addApiKey('campaign-reader', ['campaigns.translations.get']);
			await sandbox.admin.addApiKey('canvas-reader', ['canvas.translations.get']);
			const forbidden = { message: 'You do not have permission to access this resource' };
			const campaignParams = { campaign_id: 'newsletter', message_variation_id: ids.email };
			const canvasParams = { step_id: ids.step, message_variation_id: ids.stepEmail, locale_id: FR.id };

			expect(await campaign(campaignParams, 'canvas-reader')).toMatchObject({ status: 403, body: forbidden });
			expect(await campaign(campaignParams, 'canvas-reader', '/campaign/translations')).toMatchObject({
				status: 403,
				body: forbidden,
			});
			expect(await canvas(canvasParams, 'campaign-reader')).toMatchObject({ status: 403, body: forbidden });
			expect((await campaign(campaignParams, 'campaign-reader')).status).toBe(200);
			expect((await canvas(canvasParams, 'canvas-reader')).status).toBe(200);
		});
	});

	describe('the demo workspace', () => {
		it('has a translated campaign email and canvas email out of the box', async () => {
			await sandbox.admin.reset({ seed: 'demo' });
			const { locales, campaign: demoCampaign, canvas: demoCanvas } = DEMO_TRANSLATIONS;

			const all = await campaign({ campaign_id: demoCampaign.id, message_variation_id: demoCampaign.emailMessage });
			expect(all.status).toBe(200);
			expect(all.body.translations.map((entry: { locale: { name: string } }) => entry.locale.name)).toEqual([
				'fr-FR',
				'es-MX',
			]);
			expectError(
				await campaign({ campaign_id: demoCampaign.id, message_variation_id: demoCampaign.pushMessage }),
				'UNSUPPORTED_CHANNEL',
			);
			const withLocale = await campaign({
				campaign_id: demoCampaign.id,
				message_variation_id: demoCampaign.emailMessage,
				locale_id: locales.deDE.id,
			});
			expect([withLocale.status, withLocale.body]).toEqual([200, all.body]);

			const german = await canvas({
				step_id: demoCanvas.step,
				message_variation_id: demoCanvas.emailMessage,
				locale_id: locales.deDE.id,
			});
			expect(german.status).toBe(200);
			expect(german.body.translations[0].locale).toEqual({ name: 'de-DE', country: 'DE', language: 'de' });
		});
	});
});
