/**
 * Every form of a key, every echo, every redirect, every request the package sends: fast-check
 * generates keys as users paste them (spaces, tabs and line breaks around them; quotes, `+ / = %`, a
 * backslash, HTML's signs, latin1 letters and characters no header can carry inside them), a node's
 * operation or a credential's Test, and what answers it: the platform, an answer echoing the key in
 * one of ../reliability/echoes.ts's forms, or a 301, 302, 303, 307 or 308 to another origin or to
 * the endpoint's own. Whatever the case:
 * - the key, in any form it can come back in, is in no item, error output, thrown error, run data,
 *   log or Test message (../reliability/secrets.ts's leaksIn looks for every form, base64 included);
 * - no redirect is followed: nothing reaches the other host, the endpoint gets one request, and the
 *   error names the host the redirect pointed to;
 * - a padded key works as the key itself does; a key no header can carry is refused before anything
 *   is sent.
 * The Trigger's postback credential is generated the same way, its Header Token or its Basic Auth
 * user or password pasted in any of those forms, and the platform (the sandbox) posts a wrong postback
 * and then the authentic one, carrying the secret as HTTP carries it (./postbackDelivery.ts): the
 * wrong one starts nothing, the authentic one exactly one execution, the credential's Test passes and
 * says when it left padding out, a Header Token no header can carry fails the Test and every postback
 * (500), and no form of the secret is in any trace (the Test's message, the trigger's logs, what it
 * answered, the executions).
 *
 *   CREDENTIAL_FORMS_RUNS=20 npx jest test/sequences/credentialForms    quick check
 *   CREDENTIAL_FORMS_RUNS=1000 npx jest test/sequences/credentialForms  as CI runs it (the default when CI is set)
 *   CREDENTIAL_FORMS_SEED=<seed>                                        replays the cases of an earlier report
 *
 * One sandbox serves every case (reset between cases); the other origin is a listener that counts
 * what reaches it. A case the property shrinks to is kept below as a named test.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { startWebhookServer } from '../harness';
import { useSandbox } from '../integration/sandboxLifecycle';
import { ECHOES, ODD_CHARACTERS, PADS, headerCannotCarry } from '../reliability/echoes';
import type { OperationUnderFault } from '../reliability/operationsUnderFault';
import { OPERATIONS_UNDER_FAULT } from '../reliability/operationsUnderFault';
import { leaksIn, traceOf, visibleTraces } from '../reliability/secrets';
import { TRIGGER, TRIGGER_NODE, nodeName } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { runCredentialTest } from '../support/testCredential';
import type { Delivery, PostbackField } from './postbackDelivery';
import {
	POSTBACK_FIELDS,
	POSTBACK_SEED,
	delivery,
	deliverPostback,
	platformForm,
	postbackCredential,
	postbackHeaders,
	wrongForm,
} from './postbackDelivery';

const numberFrom = (name: string, fallback: number) => {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value >= 0 && process.env[name] !== '' ? value : fallback;
};
const RUNS = numberFrom('CREDENTIAL_FORMS_RUNS', process.env.CI ? 1000 : 100);
const SEED =
	process.env.CREDENTIAL_FORMS_SEED === undefined
		? Date.now() ^ (Math.random() * 0x100000000)
		: Number(process.env.CREDENTIAL_FORMS_SEED);

const { sandbox, client, apiKey } = useSandbox();
const ORIGIN = 'n8n.example.com';
const REDIRECTS = [301, 302, 303, 307, 308] as const;

/**
 * Who uses the key: a node running one of its operations, a credential's Test, or the Trigger
 * receiving postbacks with it as one of its postback credential's secrets.
 */
type Sender =
	| { kind: 'node'; operation: OperationUnderFault }
	| { kind: 'test'; credential: 'api' | 'scim' }
	| { kind: 'postback'; field: PostbackField };
const SENDERS: Sender[] = [
	...OPERATIONS_UNDER_FAULT.map((operation) => ({ kind: 'node' as const, operation })),
	{ kind: 'test', credential: 'api' },
	{ kind: 'test', credential: 'scim' },
	...POSTBACK_FIELDS.map((field) => ({ kind: 'postback' as const, field })),
];
const FIRST_TEST = OPERATIONS_UNDER_FAULT.length;
const FIRST_POSTBACK = FIRST_TEST + 2;
const POSTBACK_CREDENTIAL = 'engagementPlatformPostbackAuthApi';

/** What answers the first request. */
type Answer =
	| { kind: 'platform' }
	| { kind: 'echo'; echo: number }
	| { kind: 'redirect'; status: (typeof REDIRECTS)[number]; sameOrigin: boolean };

interface KeyForm {
	before: string;
	/** Hex, so that the key cannot turn up by chance, with the odd characters at `at`. */
	body: string;
	odd: string[];
	at: 'start' | 'middle' | 'end';
	after: string;
}

interface FormsCase {
	sender: number;
	key: KeyForm;
	/** What answers a node or a Test (a postback's receiver is the Trigger). */
	answer: Answer;
	/** How the platform holds and posts a postback secret (the Trigger's cases alone). */
	delivery: Delivery;
}

const keyForm: fc.Arbitrary<KeyForm> = fc.record({
	before: fc.constantFrom(...PADS),
	body: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 24 }),
	// Mostly characters a header carries; now and then one it cannot (a line break, "€", "ключ", "🔑").
	odd: fc.array(
		fc.oneof(
			{ arbitrary: fc.constantFrom(...ODD_CHARACTERS.filter((odd) => !headerCannotCarry(odd))), weight: 19 },
			{ arbitrary: fc.constantFrom(...ODD_CHARACTERS.filter(headerCannotCarry), '\n', '\r\n'), weight: 1 },
		),
		{ maxLength: 4 },
	),
	at: fc.constantFrom('start' as const, 'middle' as const, 'end' as const),
	after: fc.constantFrom(...PADS),
});
const answer: fc.Arbitrary<Answer> = fc.oneof(
	fc.constant({ kind: 'platform' as const }),
	fc.record({ kind: fc.constant('echo' as const), echo: fc.nat({ max: ECHOES.length - 1 }) }),
	fc.record({
		kind: fc.constant('redirect' as const),
		status: fc.constantFrom(...REDIRECTS),
		sameOrigin: fc.boolean(),
	}),
);
const formsCase: fc.Arbitrary<FormsCase> = fc.record({
	// Of thirteen cases, seven a node's operation, three a credential's Test, three the Trigger's postbacks.
	sender: fc.oneof(
		{ arbitrary: fc.nat({ max: FIRST_TEST - 1 }), weight: 7 },
		{ arbitrary: fc.integer({ min: FIRST_TEST, max: FIRST_POSTBACK - 1 }), weight: 3 },
		{ arbitrary: fc.integer({ min: FIRST_POSTBACK, max: SENDERS.length - 1 }), weight: 3 },
	),
	key: keyForm,
	answer,
	delivery,
});

/**
 * The key as the credential holds it (`pasted`), as the platform knows it (`known`: trimmed), and as
 * requests carry it (`sent`). They differ when the paste starts with "=": n8n reads a credential value
 * starting with "=" as an expression, and requests carry what it resolves to, without the "=".
 */
function keyOf({ before, body, odd, at, after }: KeyForm): { pasted: string; known: string; sent: string } {
	const inner = odd.join('');
	const key =
		at === 'start'
			? `${inner}key-${body}`
			: at === 'end'
				? `key-${body}${inner}`
				: `key-${body.slice(0, 8)}${inner}${body.slice(8)}`;
	const pasted = `${before}${key}${after}`;
	return { pasted, known: pasted.trim(), sent: (pasted.startsWith('=') ? pasted.slice(1) : pasted).trim() };
}

const tally = {
	runs: 0,
	nodeRuns: 0,
	testRuns: 0,
	refused: 0,
	echoes: 0,
	redirects: 0,
	leaks: 0,
	followed: 0,
	postbackRuns: 0,
	postbacks: 0,
	started: 0,
	wrongStarted: 0,
	trimmedSaid: 0,
	tokensRefused: 0,
};
afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(
		`credential forms: ${tally.runs} runs (${tally.nodeRuns} node runs, ${tally.testRuns} credential Tests, ${tally.postbackRuns} postback credentials; ${tally.refused} keys refused unsent, ${tally.echoes} echoes, ${tally.redirects} redirects; ${tally.postbacks} postbacks, ${tally.started} executions started, ${tally.tokensRefused} tokens no header carries refused, ${tally.trimmedSaid} Tests saying what they left out); ${tally.leaks} leaks, ${tally.followed} redirects followed, ${tally.wrongStarted} wrong postbacks started (seed ${SEED})`,
	);
});

let foreign: Server;
let foreignUrl: string;
let foreignHits = 0;
beforeAll(async () => {
	foreign = createServer((request, response) => {
		foreignHits++;
		request.resume();
		response.writeHead(201, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify({ message: 'success' }));
	});
	await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
	foreignUrl = `http://localhost:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => foreign.close(resolve)));

/** Runs one case against the sandbox and checks everything the suite promises. */
async function check(formsCase: FormsCase): Promise<void> {
	const sender = SENDERS[formsCase.sender];
	if (sender.kind === 'postback') return await checkPostback(sender.field, formsCase.key, formsCase.delivery);
	const { pasted, known, sent } = keyOf(formsCase.key);
	const carried = !headerCannotCarry(sent);
	const scim = sender.kind === 'node' ? sender.operation.credential === 'scim' : sender.credential === 'scim';
	const path = sender.kind === 'node' ? sender.operation.firstRequest.path : scim ? '/scim/v2/Users' : '/users/track';
	const { answer } = formsCase;

	await client().reset();
	if (carried) {
		if (scim) await client().addScimToken(known, ORIGIN);
		else await client().addApiKey(known, '*');
	}
	if (sender.kind === 'node') await client().seed(sender.operation.seed);
	if (answer.kind === 'echo') {
		await client().injectFaults([{ path, kind: 'answer', times: 1, ...ECHOES[answer.echo].answer(sent, pasted) }]);
	} else if (answer.kind === 'redirect') {
		const location = answer.sameOrigin ? `${path}/elsewhere` : `${foreignUrl}${path}`;
		await client().injectFaults([
			{ path, kind: 'answer', times: 1, status: answer.status, answerBody: {}, answerHeaders: { Location: location } },
		]);
	}
	const credentials: ICredentialDataDecryptedObject = scim
		? { scimEndpoint: sandbox().url, scimToken: pasted, requestOrigin: ORIGIN }
		: { restEndpoint: sandbox().url, apiKey: pasted };
	const hitsBefore = foreignHits;

	let traces: string;
	let failure: string | undefined;
	let succeeded: boolean;
	if (sender.kind === 'node') {
		const result: RunResult = await runNode(sender.operation.nodeType, {
			parameters: { ...sender.operation.parameters, options: { parallelRequests: 1 } },
			items: [sender.operation.items[0]],
			credentials: { [scim ? 'engagementPlatformScimApi' : 'engagementPlatformApi']: credentials },
			continueOnFail: true,
		});
		tally.nodeRuns++;
		const [item] = result.output(nodeName(sender.operation.nodeType));
		// A failed item on the regular output: `failed` in the node's words, the reason beside the row.
		const failed = item !== undefined && (statusOf(item.json) === 'failed' || item.json.error !== undefined);
		failure = result.error?.message ?? (failed ? String(wordsOf(item.json).error ?? item.json.error) : undefined);
		succeeded = result.error === undefined && item !== undefined && !failed;
		traces = visibleTraces(result);
	} else {
		const { result, logs } = await runCredentialTest(
			scim ? 'engagementPlatformScimApi' : 'engagementPlatformApi',
			credentials,
		);
		tally.testRuns++;
		traces = traceOf([result, logs]);
		failure = result.status === 'Error' ? result.message : undefined;
		succeeded = result.status === 'OK';
	}
	const leaks = leaksIn(traces, [pasted, sent]);
	tally.leaks += leaks.length;
	expect(leaks).toEqual([]);

	const requests = await client().requests();
	tally.followed += foreignHits - hitsBefore + Math.max(0, requests.length - 1);
	expect(foreignHits - hitsBefore).toBe(0);

	if (!carried) {
		tally.refused++;
		expect(requests).toEqual([]);
		expect(failure).toContain('cannot carry');
		return;
	}
	expect(requests).toHaveLength(1);
	if (answer.kind === 'platform' && sent === known) {
		expect({ failure, succeeded }).toEqual({ failure: undefined, succeeded: true });
	} else if (answer.kind === 'platform') {
		expect(failure).toMatch(/refused|authenticating/);
	} else if (answer.kind === 'echo') {
		tally.echoes++;
		expect(succeeded).toBe(false);
	} else {
		tally.redirects++;
		const host = answer.sameOrigin ? new URL(sandbox().url).host : new URL(foreignUrl).host;
		expect(failure).toContain(`redirecting to ${host}`);
	}
}

let sends = 0;

/**
 * One postback case: the Trigger holding `pasted` in its postback credential, the credential's Test,
 * then the platform posting a wrong postback and the authentic one, as HTTP carries each.
 */
async function checkPostback(field: PostbackField, key: KeyForm, how: Delivery): Promise<void> {
	const { pasted, known, sent } = keyOf(key);
	const header = field === 'headerToken';
	// Basic's base64 carries any character; a header value neither a control character nor one beyond latin1.
	const carried = !header || !headerCannotCarry(sent);
	// n8n reads a value starting with "=" as an expression; what the Trigger holds is what it resolves to.
	const resolved = pasted.startsWith('=') ? pasted.slice(1) : pasted;
	const credential = postbackCredential(field, pasted);
	tally.postbackRuns++;

	await client().reset();
	await client().seed(POSTBACK_SEED);
	const { result: test, logs: testLogs } = await runCredentialTest(POSTBACK_CREDENTIAL, credential);
	const server = await startWebhookServer({
		trigger: {
			type: TRIGGER_NODE,
			name: TRIGGER,
			parameters: { authentication: header ? 'headerAuth' : 'basicAuth', statuses: ['aborted'] },
		},
		credentials: { [POSTBACK_CREDENTIAL]: credential },
	});
	// The key as the platform holds it: as meant (a header's without what no header can carry); each
	// postback puts the platform's own padding around it (platformForm).
	const core = carried ? known : known.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
	const platform = { client: client(), url: sandbox().url, apiKey };
	const deliver = async (secret: string | undefined) =>
		await deliverPostback(
			platform,
			server,
			postbackHeaders(field, secret === undefined ? undefined : platformForm(field, secret, how)),
			`receipt-${++sends}`,
		);
	let answered: Array<number | null>;
	let traces: string;
	try {
		answered = [await deliver(wrongForm(core, how.wrong))];
		if (carried) answered.push(await deliver(core));
		const calls = await server.settled();
		traces = [
			traceOf([test, testLogs]),
			...calls.map(({ logs, webhookResult, webhookError, execution }) =>
				[traceOf([logs, webhookResult, webhookError]), execution ? visibleTraces(execution) : ''].join('\n'),
			),
		].join('\n');
		tally.postbacks += answered.length;
		const executions = calls.map((call) => (call.execution ? call.execution.output(TRIGGER).length : 0));
		tally.started += executions.filter((items) => items > 0).length;
		tally.wrongStarted += executions[0] > 0 ? 1 : 0;
		const leaks = leaksIn(traces, [pasted, sent, core]);
		tally.leaks += leaks.length;
		expect(leaks).toEqual([]);

		if (!carried) {
			tally.tokensRefused++;
			expect(test.status).toBe('Error');
			expect(test.message).toContain('cannot carry');
			expect({ answered, executions }).toEqual({ answered: [500], executions: [0] });
			return;
		}
		expect(test.status).toBe('OK');
		const leftOut = resolved.trim() !== resolved;
		tally.trimmedSaid += test.message.includes('compared without') ? 1 : 0;
		expect(test.message.includes('compared without')).toBe(leftOut);
		// The platform holds the key as meant; the Trigger compares what n8n resolved it to.
		const authentic = sent === known;
		expect({ answered, executions }).toEqual(
			authentic ? { answered: [401, 200], executions: [0, 1] } : { answered: [401, 401], executions: [0, 0] },
		);
	} finally {
		await server.close();
	}
}

/** Cases kept by name: every case the property has shrunk a failure to, and two examples of what it generates. */
const KEPT: Array<[string, FormsCase]> = [
	[
		// Shrunk to from seed -165291668: the suite expected the key to work, and the platform refused it.
		'the User node, a key starting with "=": n8n reads it as an expression, the platform refuses what it sends',
		{
			sender: 0,
			key: { before: '', body: '0000000000000000', odd: ['='], at: 'start', after: '' },
			answer: { kind: 'platform' },
			delivery: { before: '', after: '', wrong: 'a digit changed' },
		},
	],
	[
		'the Catalog node, a key padded with a tab and a line break, holding quotes and %, echoed in a Basic header',
		{
			sender: OPERATIONS_UNDER_FAULT.findIndex(({ name }) => name.startsWith('Catalog')),
			key: { before: '\t', body: '0123456789abcdef', odd: ['"', '%'], at: 'middle', after: '\r\n' },
			answer: { kind: 'echo', echo: ECHOES.findIndex(({ name }) => name.startsWith('a Basic header, user:key')) },
			delivery: { before: '', after: '', wrong: 'a digit changed' },
		},
	],
	[
		'the SCIM Test, a key starting with a quote, a 308 to the endpoint itself',
		{
			sender: SENDERS.length - 1,
			key: { before: ' ', body: 'fedcba9876543210', odd: ["'"], at: 'start', after: '\n' },
			answer: { kind: 'redirect', status: 308, sameOrigin: true },
			delivery: { before: '', after: '', wrong: 'a digit changed' },
		},
	],
	[
		'the Trigger, a Header Token pasted with a line break at its end, the platform holding it with a space before it; a digit changed first',
		{
			sender: FIRST_POSTBACK + POSTBACK_FIELDS.indexOf('headerToken'),
			key: { before: '', body: '0123456789abcdef', odd: [], at: 'end', after: '\n' },
			answer: { kind: 'platform' },
			delivery: { before: ' ', after: '', wrong: 'a digit changed' },
		},
	],
	[
		// Shrunk by the suite: the harness handed a webhook its credential unresolved, where n8n resolves it.
		'the Trigger, a Header Token starting with "=": n8n reads it as an expression, and the platform holding it as typed is refused',
		{
			sender: FIRST_POSTBACK + POSTBACK_FIELDS.indexOf('headerToken'),
			key: { before: '', body: '0000000000000000', odd: ['='], at: 'start', after: '' },
			answer: { kind: 'echo', echo: 0 },
			delivery: { before: '', after: '', wrong: 'a digit changed' },
		},
	],
	[
		'the Trigger, a Header Token with a line break inside: the Test fails, every postback is answered 500',
		{
			sender: FIRST_POSTBACK + POSTBACK_FIELDS.indexOf('headerToken'),
			key: { before: '\t', body: 'fedcba9876543210', odd: ['\n'], at: 'middle', after: '' },
			answer: { kind: 'platform' },
			delivery: { before: '', after: '', wrong: 'no secret at all' },
		},
	],
	[
		'the Trigger, a Basic Auth password padded and holding "é" and a quote, the platform holding it with a line break after it (base64 carries it); a space inside first',
		{
			sender: FIRST_POSTBACK + POSTBACK_FIELDS.indexOf('password'),
			key: { before: ' ', body: '00112233445566778899', odd: ['é', '"'], at: 'middle', after: '\r\n' },
			answer: { kind: 'platform' },
			delivery: { before: '', after: '\n', wrong: 'a space inside' },
		},
	],
];

describe('every form of a key, every echo, every redirect, every sender', () => {
	test.each(KEPT)('%s', async (_, formsCase) => {
		tally.runs++;
		await check(formsCase);
	});

	test(
		`${RUNS} generated cases`,
		async () => {
			await fc.assert(
				fc.asyncProperty(formsCase, async (generated) => {
					tally.runs++;
					await check(generated);
				}),
				{ numRuns: RUNS, seed: SEED },
			);
		},
		Math.max(60_000, RUNS * 300),
	);
});
