/**
 * What one call of n8n's deduplication store costs, by the entries it asks for and the entries the record
 * holds: `npm run bench:store`. Send Only Changes keeps what it remembers there (docs/delivery.md), and
 * every call n8n makes reads the workflow's whole record, hashes each entry asked for (MD5), checks it
 * against a set of the record, and writes the record back whole.
 *
 * It runs n8n's own DeduplicationHelper from the pinned app (test/e2e/n8n-app, installed by
 * scripts/n8n/install.sh, nothing new) with its repository standing in for the database as a JSON text per
 * row, parsed on each read and written on each write as the column is; the database's own reading and
 * writing of that text are not counted, so the figures are a floor for the real app.
 */
import path from 'node:path';

import { ensureN8nApp } from '../test/e2e/support/n8nApp';

interface Where {
	workflowId: string;
	context: string;
}

interface DeduplicationHelper {
	checkProcessedAndRecord(
		items: string[],
		scope: 'workflow',
		context: { workflow: { id: string } },
		options: { mode: 'entries'; maxEntries?: number },
	): Promise<{ new: string[]; processed: string[] }>;
}

/** n8n's helper, its repository a JSON text per row in memory. */
function loadHelper(appFolder: string): DeduplicationHelper {
	const modules = path.join(appFolder, 'node_modules');
	const { Container } = require(path.join(modules, '@n8n/di')) as {
		Container: { set(key: unknown, value: unknown): void };
	};
	const { ProcessedDataRepository } = require(path.join(modules, '@n8n/db')) as { ProcessedDataRepository: unknown };
	const { DeduplicationHelper: Helper } = require(
		path.join(modules, 'n8n/dist/deduplication/deduplication-helper.js'),
	) as {
		DeduplicationHelper: new () => DeduplicationHelper;
	};
	const rows = new Map<string, string>();
	const key = ({ workflowId, context }: Where) => `${workflowId} ${context}`;
	Container.set(ProcessedDataRepository, {
		findOne: async ({ where }: { where: Where }) => {
			const text = rows.get(key(where));
			return text === undefined ? null : { ...where, value: JSON.parse(text) as unknown };
		},
		insert: async (row: Where & { value: unknown }) => rows.set(key(row), JSON.stringify(row.value)),
		update: async (where: Where, row: { value: unknown }) => rows.set(key(where), JSON.stringify(row.value)),
	});
	return new Helper();
}

const WORKFLOW = { workflow: { id: 'bench' } };
const OPTIONS = { mode: 'entries', maxEntries: 100_000_000 } as const;

/** One call asking for `asked` entries (a third of them held) of a record holding `held`, in milliseconds. */
async function oneCall(helper: DeduplicationHelper, held: number, asked: number): Promise<number> {
	const record = Array.from({ length: held }, (_, index) => `held ${index}`);
	await helper.checkProcessedAndRecord(record.length > 0 ? record : ['first'], 'workflow', WORKFLOW, {
		mode: 'entries',
		maxEntries: Math.max(1, held),
	});
	const entries = Array.from({ length: asked }, (_, index) => (index % 3 === 0 ? `held ${index}` : `asked ${index}`));
	const started = process.hrtime.bigint();
	await helper.checkProcessedAndRecord(entries, 'workflow', WORKFLOW, OPTIONS);
	return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
	const app = ensureN8nApp();
	const helper = loadHelper(app.folder);
	console.log(
		`One call of n8n ${app.version}'s deduplication store (its DeduplicationHelper, the database's I/O not counted), Node ${process.version}\n`,
	);
	const rows: Array<{ held: number; asked: number; ms: number }> = [];
	for (const [held, asked] of [
		[0, 100_000],
		[0, 1_000_000],
		[1_000_000, 0],
		[3_000_000, 0],
		[200_000, 200_000],
		[3_000_000, 1_300_000],
	]) {
		await oneCall(helper, 1_000, 1_000);
		const ms = Math.min(await oneCall(helper, held, asked), await oneCall(helper, held, asked));
		rows.push({ held, asked, ms: Math.round(ms) });
	}
	console.table(rows.map(({ held, asked, ms }) => ({ 'entries held': held, 'entries asked': asked, ms })));
	const perAsked = (rows[1].ms * 1000) / 1_000_000;
	const perHeld = (rows[3].ms * 1000) / 3_000_000;
	console.log(
		`\nAbout ${perAsked.toFixed(1)} µs per entry asked and ${perHeld.toFixed(2)} µs per entry held, per call (the best of two calls each).`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
