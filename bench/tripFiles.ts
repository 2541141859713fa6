/**
 * npm run bench:trip — which of the package's files one item's trip runs through: one Track
 * Event item (or Track Purchase with `--operation trackPurchase`) through n8n's engine against the
 * sandbox, with V8's precise coverage counting the functions called. Files only loaded (their
 * module bodies ran at import) are not counted: the node is run once before counting starts.
 * Prints the files and their number.
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_API_KEY, startSandbox } from '../sandbox';
import { packageNodeTypes, runWorkflow } from '../test/harness';
import { statusOf } from '../test/support/nodeWords';

const USER = 'n8n-nodes-engagement-platform.engagementPlatformUser';
const PACKAGE_FILES = `${path.sep}nodes${path.sep}EngagementPlatform${path.sep}`;

const argument = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : fallback;
};

const TRIPS: Record<string, { parameters: INodeParameters; item: IDataObject }> = {
	trackEvent: {
		parameters: {
			operation: 'trackEvent',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			eventName: 'order_placed',
			time: '={{ $json.time }}',
			propertiesInput: 'json',
			propertiesJson: '={{ $json.properties }}',
		},
		item: { userId: 'customer-1', time: '2026-11-01T12:00:00Z', properties: { order_id: 'order-1', total: 19.9 } },
	},
	trackPurchase: {
		parameters: {
			operation: 'trackPurchase',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			productId: '={{ $json.sku }}',
			currency: '={{ $json.currency }}',
			price: '={{ $json.price }}',
			time: '={{ $json.time }}',
		},
		item: { userId: 'customer-1', sku: 'sku-9', currency: 'EUR', price: '59.90', time: '2026-11-01T12:00:00Z' },
	},
};

async function runOnce(sandboxUrl: string, trip: (typeof TRIPS)[string]): Promise<void> {
	const result = await runWorkflow({
		nodes: [{ name: 'Node', type: USER, parameters: trip.parameters }],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		items: [trip.item],
		credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
	});
	if (result.error) throw result.error;
	const [answer] = result.output('Node');
	// The word for a tracked event or purchase.
	if (statusOf(answer?.json) !== 'tracked')
		throw new Error(`the item was not tracked: ${JSON.stringify(answer?.json)}`);
}

async function main(): Promise<void> {
	const name = argument('operation', 'trackEvent');
	const trip = TRIPS[name];
	if (!trip) throw new Error(`unknown operation "${name}" (${Object.keys(TRIPS).join(', ')})`);
	const sandbox = await startSandbox();
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
		await runOnce(sandbox.url, trip);
		// Taking the coverage resets the counts: what follows is the second run alone.
		await session.post('Profiler.takePreciseCoverage');
		await runOnce(sandbox.url, trip);
		const run = await session.post('Profiler.takePreciseCoverage');
		// The test harness builds every node of the package for each run, where n8n builds them once at
		// start: the calls of one build are taken off the run's.
		packageNodeTypes();
		const build = await session.post('Profiler.takePreciseCoverage');
		const builtCalls = new Map<string, number>();
		for (const script of build.result)
			for (const fn of script.functions)
				builtCalls.set(`${script.url}@${fn.ranges[0].startOffset}`, fn.ranges[0].count);
		const files = run.result
			.filter((script) => script.url.includes(PACKAGE_FILES))
			// The module's own body (the range from offset 0) ran when it was loaded, not on the trip.
			.filter((script) =>
				script.functions.some(
					(fn) =>
						fn.ranges[0].startOffset > 0 &&
						fn.ranges[0].count > (builtCalls.get(`${script.url}@${fn.ranges[0].startOffset}`) ?? 0),
				),
			)
			.map((script) => path.relative(process.cwd(), new URL(script.url).pathname))
			.sort();
		console.log(`${name}: one item's trip runs functions in ${files.length} of the package's files\n`);
		for (const file of files) console.log(`  ${file}`);
	} finally {
		session.disconnect();
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
