/**
 * Conservation (CONTRIBUTING.md, Commands: `npm test`): for every operation of every action node, seeded fast-check
 * batches with every per-item field varying per item, run by n8n's engine against the sandbox with
 * On Error set to continue. No faults are injected, so each item answered as applied or sent must be in
 * exactly one accepted request, each piece on the wire must be its item's and answered to it, and no
 * request may exceed a per-request limit of the spec (wireLimits.ts). A tally is printed last.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../integration/sandboxLifecycle';
import { CONSERVATION_OPERATIONS } from './operationsTable';
import { runConservation } from './runCase';
import { formatTally } from './tally';

const SEED = 20_261_101;
/** Each operation its own sequence of batches, stable however the table is ordered. */
const seedOf = (name: string) => [...name].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);
/** Problems shown per operation: the first one names the fault; the rest are usually its echoes. */
const SHOWN = 5;

const { sandbox, client } = useSandbox();

afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(formatTally());
});

describe.each(CONSERVATION_OPERATIONS)('$name', (testCase) => {
	test("every item answered as applied is in exactly one accepted request; every piece on the wire is its item's; no request over a limit", async () => {
		const problems: string[] = [];
		let run = 0;
		await fc.assert(
			fc.asyncProperty(testCase.items, async (items: IDataObject[]) => {
				problems.push(...(await runConservation(client(), sandbox().url, testCase, items, run++)));
			}),
			{ seed: seedOf(testCase.name), numRuns: testCase.numRuns, endOnFailure: true },
		);
		if (problems.length > 0) {
			const more = problems.length > SHOWN ? `\n… and ${problems.length - SHOWN} more` : '';
			throw new Error(`${testCase.name}: ${problems.length} problems\n${problems.slice(0, SHOWN).join('\n')}${more}`);
		}
	});
});
