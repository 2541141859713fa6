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
import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, apiKey } = useSandbox();
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

/** The reading's functions that ran after readItems returned, as `file: function`. */
async function readingAfterReadItems(type: string, parameters: INodeParameters, items: IDataObject[]) {
	const session = new Session();
	session.connect();
	session.post('Profiler.enable');
	session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	const readItems = reading.readItems;
	const watched = jest.spyOn(reading, 'readItems').mockImplementation((...args) => {
		const read = readItems(...args);
		takeCoverage(session);
		return read;
	});
	try {
		const result = await runWorkflow({
			workflowId: 'stages-forward',
			nodes: [{ id: 'c0ffee00-0000-4000-8000-0000000000aa', name: 'Node', type, parameters }],
			connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
			items,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
		const after = takeCoverage(session);
		expect(result.error).toBeUndefined();
		expect(watched).toHaveBeenCalledTimes(1);
		return after
			.filter((script) => READING.some((folder) => script.url.includes(folder)))
			.flatMap((script) =>
				script.functions
					// The module's own body (from offset 0) ran when it was loaded.
					.filter((fn) => fn.ranges[0].startOffset > 0 && fn.ranges[0].count > 0)
					.map((fn) => `${path.basename(new URL(script.url).pathname)}: ${fn.functionName || '(anonymous)'}`),
			);
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
		],
	] as Array<[string, string, INodeParameters]>)('%s', async (_name, type, parameters) => {
		expect(await readingAfterReadItems(type, parameters, contacts)).toEqual([]);
	});
});
