/**
 * Bad input, property-based (fast-check, seeded and bounded): generated batches for every
 * operation that takes item data, mixing valid items with wrong types, missing identifiers,
 * oversize values, `$`-prefixed and dotted keys, invalid dates, unicode, deep nesting, duplicate
 * ids and more items than one request holds, run by n8n's engine against the sandbox.
 */
import fc from 'fast-check';

import { useSandbox } from '../integration/sandboxLifecycle';
import { BAD_INPUT_CASES } from './badInputCases';
import { checkBadInput, tally } from './badInputRun';

const SEED = 20_260_601;
const RUNS = 20;

const { sandbox, client } = useSandbox();

afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(
		`bad input: ${tally.items.toLocaleString('en-US')} items generated (${tally.bad.toLocaleString('en-US')} bad) over ${tally.runs} runs ` +
			`of ${BAD_INPUT_CASES.length} operations; ${tally.refusedByNode.toLocaleString('en-US')} refused by the node, ` +
			`${tally.sent.toLocaleString('en-US')} sent; ${tally.disagreements} disagreements`,
	);
});

describe.each(BAD_INPUT_CASES)('$name', (testCase) => {
	test('every item is answered; what the node accepts the sandbox takes; nothing is sent when one item stops the run', async () => {
		await fc.assert(
			fc.asyncProperty(testCase.items, async (items) => await checkBadInput(client(), sandbox().url, testCase, items)),
			{ seed: SEED, numRuns: testCase.numRuns ?? RUNS },
		);
	});
});
