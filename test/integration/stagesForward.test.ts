/**
 * Once the items are read, no later stage calls back into the reading: planning (the last word, Send Only
 * Changes), sending and answering run no function of the input layer (`shared/fields/`) or of
 * `shared/engine/read/` (CONTRIBUTING.md, Layout). Measured with V8's precise coverage through n8n's
 * engine: the counts are taken when `readItems` returns (it is watched, not replaced), and any function
 * of those folders that runs after it, until the run ends, is a frame that went back into the reading.
 */
import { Session } from 'node:inspector';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as reading from '../../nodes/EngagementPlatform/shared/engine/read/readItems';
import { deduplicationStore } from '../harness/deduplicationStore';
import { nodeName, SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import { statusOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });
const store = deduplicationStore();
beforeEach(() => store.reset());

const READING = [
	`${path.sep}shared${path.sep}fields${path.sep}`,
	`${path.sep}shared${path.sep}engine${path.sep}read${path.sep}`,
];

interface ScriptCoverage {
	url: string;
	functions: Array<{ functionName: string; ranges: Array<{ startOffset: number; count: number }> }>;
}

function takeCoverage(session: Session): ScriptCoverage[] {
	let taken: ScriptCoverage[] = [];
	// An in-process session answers synchronously: the counts are taken at this very point of the run.
	session.post('Profiler.takePreciseCoverage', (error, answer) => {
		if (error) throw error;
		taken = answer.result as ScriptCoverage[];
	});
	return taken;
}

/** The reading's functions that ran in `coverage`, as `file: function`. */
function readingFunctions(coverage: ScriptCoverage[]): string[] {
	return coverage
		.filter((script) => READING.some((folder) => script.url.includes(folder)))
		.flatMap((script) =>
			script.functions
				// The module's own body (from offset 0) ran when it was loaded.
				.filter((fn) => fn.ranges[0].startOffset > 0 && fn.ranges[0].count > 0)
				.map((fn) => `${path.basename(new URL(script.url).pathname)}: ${fn.functionName || '(anonymous)'}`),
		);
}

/** The reading's functions that ran up to readItems' return, and after it. */
async function readingAroundReadItems(
	type: string,
	parameters: INodeParameters,
	items: IDataObject[],
	expected: string,
) {
	const session = new Session();
	session.connect();
	session.post('Profiler.enable');
	session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	const readItems = reading.readItems;
	let upToReturn: ScriptCoverage[] = [];
	const watched = jest.spyOn(reading, 'readItems').mockImplementation((...args) => {
		const read = readItems(...args);
		upToReturn = takeCoverage(session);
		return read;
	});
	try {
		const result = await runNode(type, { items, parameters, endpoint: sandbox().url, apiKey });
		const after = takeCoverage(session);
		expect(result.error).toBeUndefined();
		expect(result.output(nodeName(type)).map(({ json }) => statusOf(json))).toEqual(items.map(() => expected));
		expect(watched).toHaveBeenCalledTimes(1);
		return { before: readingFunctions(upToReturn), after: readingFunctions(after) };
	} finally {
		watched.mockRestore();
		session.post('Profiler.stopPreciseCoverage');
		session.disconnect();
	}
}

const contacts = Array.from({ length: 60 }, (_, i) => ({
	id: `crm-${i}`,
	email: `crm${i}@example.com`,
	plan: ['gold', 'silver'][i % 2],
	at: '2026-11-01 10:00',
}));

describe('no stage after the reading calls back into it', () => {
	test.each([
		[
			'Track Event',
			USER_NODE,
			{
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventName: 'order_placed',
				time: '={{ $json.at }}',
			},
			'tracked',
		],
		[
			'Update Attributes with Send Only Changes',
			USER_NODE,
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesInput: 'json',
				attributesJson: '={{ { plan: $json.plan } }}',
				options: { sendOnlyChanges: true, resendEveryDays: 0 },
			},
			'updated',
		],
		[
			'Subscribe with Send Only Changes',
			SUBSCRIPTION_NODE,
			{
				operation: 'subscribe',
				subscriptionGroupId: 'newsletter',
				identifyBy: 'email',
				email: '={{ $json.email }}',
				options: { sendOnlyChanges: true, resendEveryDays: 0 },
			},
			'subscribed',
		],
	] as Array<[string, string, INodeParameters, string]>)('%s', async (_name, type, parameters, expected) => {
		const { before, after } = await readingAroundReadItems(type, parameters, contacts, expected);
		// The coverage sees the reading: its functions ran before readItems returned.
		expect(before).toContain('readItems.ts: readItems');
		expect(before.filter((fn) => fn.startsWith('inputs.ts: '))).not.toEqual([]);
		expect(after).toEqual([]);
	});
});
