/**
 * A stand-in for n8n's deduplication store: an in-memory implementation of n8n-workflow's own
 * `IDataDeduplicator`, handed to n8n-core's `DataDeduplicationService` as the n8n application does
 * with its database-backed one. It keeps that one's behaviour in `entries` mode: one record per
 * workflow and context (`n:<node id>` for scope node), values kept as MD5 hashes in the order they
 * were first seen, the oldest dropped past `maxEntries`, `removeProcessed` taking out one match each.
 *
 * By default each call is atomic, as n8n's store is with one execution at a time. `race` makes it
 * behave as n8n's does when several executions use it at once (queue mode's workers, or executions
 * running side by side in one process): see `StoreRace`.
 *
 * n8n-core's service is a process-wide singleton that can be set once, so every test file of a jest
 * worker shares this store; `reset()` empties it.
 */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

export interface StoreCall {
	method: 'checkProcessedAndRecord' | 'removeProcessed' | 'clearAllProcessedItems' | 'getProcessedDataCount';
	items: number;
	/** Whose record: the workflow's, or the node's. */
	scope: DeduplicationScope;
}

/**
 * n8n's store under concurrency, as n8n 1.123.81 and 2.41.1 implement it (the same code in both:
 * `DeduplicationHelper`, packages/cli/src/deduplication/deduplication-helper.ts, over the
 * `processed_data` table of @n8n/db, whose primary key is (workflowId, context)). A workflow's entries
 * are one row, and each call is two queries with an await between them, in no transaction and under
 * no lock:
 * - `checkProcessedAndRecord`: `findOne` the row; if there was none, `insert` it with this call's
 *   entries, which fails with the primary key's unique violation when another call inserted the row
 *   meanwhile (nothing of this call is written); else `update` the row with the entries as read plus
 *   this call's new ones, which overwrites whatever another call wrote meanwhile (losing its entries,
 *   bringing back what it removed), and writes nothing if the row was deleted meanwhile.
 * - `removeProcessed`: `findOne`, then the same `update` (nothing when there was no row).
 * - `clearAllProcessedItems`: one `delete`.
 */
export interface StoreRace {
	/** Whose driver words the unique violation (TypeORM's `QueryFailedError` over it). */
	database: 'postgres' | 'sqlite' | 'mysql';
	/** What a call waits for between its read and its write: a database round trip. */
	between: (method: StoreCall['method']) => Promise<void>;
	/** What a call waits for before its read (a test scripting an interleaving). */
	before?: (method: StoreCall['method']) => Promise<void>;
	/** Told when a call has written (or failed, or found nothing to write). */
	after?: (method: StoreCall['method']) => void;
}

/** What the races did, while `race` was set. */
export interface RaceTally {
	/** Inserts that failed: another call had created the row since this call read it. */
	duplicateKeys: number;
	/** Updates that overwrote what another call wrote since this call read the row. */
	overwrites: number;
	/** Updates that wrote nothing: the row was deleted since this call read it. */
	updatesOfDeletedRow: number;
}

/** n8n's `processed_data` primary key constraint (TypeORM's name for (workflowId, context)). */
const PRIMARY_KEY = 'PK_ca04b9d8dc72de268fe07a65773';

/**
 * The error n8n's `insert` throws when the row exists: TypeORM's QueryFailedError, with the message of
 * the database driver's error and its properties (code, detail, ...) copied onto it.
 */
export class QueryFailedError extends Error {
	override name = 'QueryFailedError';
	constructor(
		message: string,
		readonly driverError: Record<string, unknown>,
	) {
		super(message);
		Object.assign(this, driverError);
	}
}

export function duplicateKeyError(
	database: StoreRace['database'],
	workflowId: string,
	context: string,
): QueryFailedError {
	if (database === 'postgres')
		return new QueryFailedError(`duplicate key value violates unique constraint "${PRIMARY_KEY}"`, {
			code: '23505',
			severity: 'ERROR',
			detail: `Key ("workflowId", context)=(${workflowId}, ${context}) already exists.`,
			schema: 'public',
			table: 'processed_data',
			constraint: PRIMARY_KEY,
		});
	if (database === 'sqlite')
		return new QueryFailedError(
			'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context',
			{ errno: 19, code: 'SQLITE_CONSTRAINT' },
		);
	return new QueryFailedError(`Duplicate entry '${workflowId}-${context}' for key 'processed_data.PRIMARY'`, {
		code: 'ER_DUP_ENTRY',
		errno: 1062,
		sqlState: '23000',
	});
}

/** A row as a call read it: its entries and the write it was at. */
interface Read {
	entries: string[];
	version: number;
}

export class InMemoryDeduplicationStore implements IDataDeduplicator {
	/** `<workflow id> <context>` → hashed entries, oldest first. */
	readonly records = new Map<string, string[]>();
	/** How many times each record was written, to tell a write that overwrote another's. */
	private readonly versions = new Map<string, number>();
	private version = 0;
	readonly calls: StoreCall[] = [];
	/** Makes every call of this method fail, as when n8n's database is unreachable. */
	failOn?: StoreCall['method'];
	/** Makes the calls it picks fail (given the calls made so far), as when n8n's database goes away mid-run. */
	failWhen?: (method: StoreCall['method'], calls: StoreCall[]) => boolean;
	/** What a call made to fail throws (default: the database unreachable). */
	failWith?: () => Error;
	/** Unset: every call is atomic. Set: each call reads, waits, then writes, as n8n's does (see StoreRace). */
	race?: StoreRace;
	readonly raced: RaceTally = { duplicateKeys: 0, overwrites: 0, updatesOfDeletedRow: 0 };

	reset(): void {
		this.records.clear();
		this.versions.clear();
		this.calls.length = 0;
		this.failOn = undefined;
		this.failWhen = undefined;
		this.failWith = undefined;
		this.race = undefined;
		this.raced.duplicateKeys = 0;
		this.raced.overwrites = 0;
		this.raced.updatesOfDeletedRow = 0;
	}

	/** The entries of one node's record. */
	entriesOf(workflowId: string, nodeId: string): string[] {
		return this.records.get(`${workflowId} n:${nodeId}`) ?? [];
	}

	/** The entries of a workflow's own record (scope workflow). */
	workflowEntriesOf(workflowId: string): string[] {
		return this.records.get(`${workflowId} `) ?? [];
	}

	/** Whether `value` is recorded for the node, as n8n would find it. */
	has(workflowId: string, nodeId: string, value: DeduplicationItemTypes): boolean {
		return this.entriesOf(workflowId, nodeId).includes(hash(value));
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.enter('checkProcessedAndRecord', items.length, options, scope);
		const race = this.race;
		if (race?.before) await race.before('checkProcessedAndRecord');
		try {
			return await this.checkAndRecord(items, scope, contextData, options);
		} finally {
			race?.after?.('checkProcessedAndRecord');
		}
	}

	private async checkAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const key = recordKey(scope, contextData);
		const read = this.read(key);
		if (this.race) await this.race.between('checkProcessedAndRecord');
		const hashed = items.map(hash);
		if (!read) {
			const entries = options.maxEntries ? hashed.slice(Math.max(0, hashed.length - options.maxEntries)) : hashed;
			this.insert(key, entries, contextData.workflow.id ?? '', scope === 'node' ? `n:${contextData.node!.id}` : '');
			return { new: items, processed: [] };
		}
		const { entries } = read;
		const seen = new Set(entries);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashed.forEach((value, index) => {
			if (seen.has(value)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				entries.push(value);
			}
		});
		if (options.maxEntries) entries.splice(0, Math.max(0, entries.length - options.maxEntries));
		this.update(key, read);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.enter('removeProcessed', items.length, options, scope);
		const race = this.race;
		if (race?.before) await race.before('removeProcessed');
		try {
			const key = recordKey(scope, contextData);
			const read = this.read(key);
			if (race) await race.between('removeProcessed');
			if (!read) return;
			for (const value of items.map(hash)) {
				const index = read.entries.indexOf(value);
				if (index !== -1) read.entries.splice(index, 1);
			}
			this.update(key, read);
		} finally {
			race?.after?.('removeProcessed');
		}
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.enter('clearAllProcessedItems', 0, options, scope);
		const key = recordKey(scope, contextData);
		this.records.delete(key);
		this.versions.delete(key);
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.enter('getProcessedDataCount', 0, options, scope);
		return options.mode === 'entries' ? (this.records.get(recordKey(scope, contextData))?.length ?? 0) : 0;
	}

	/**
	 * n8n's `findOne`. Atomic calls work on the record itself (no copy of a million entries per call);
	 * racing ones on a copy, written back whole by `update`.
	 */
	private read(key: string): Read | undefined {
		const entries = this.records.get(key);
		if (!entries) return undefined;
		return { entries: this.race ? [...entries] : entries, version: this.versions.get(key) ?? 0 };
	}

	/** n8n's `insert`: fails when the row exists (only possible when racing: atomic calls read it just before). */
	private insert(key: string, entries: string[], workflowId: string, context: string): void {
		if (this.records.has(key)) {
			this.raced.duplicateKeys++;
			throw duplicateKeyError(this.race?.database ?? 'postgres', workflowId, context);
		}
		this.records.set(key, entries);
		this.versions.set(key, ++this.version);
	}

	/** n8n's `update` of the whole row, by its key: nothing when the row is gone. */
	private update(key: string, read: Read): void {
		if (!this.records.has(key)) {
			this.raced.updatesOfDeletedRow++;
			return;
		}
		if ((this.versions.get(key) ?? 0) !== read.version) this.raced.overwrites++;
		this.records.set(key, read.entries);
		this.versions.set(key, ++this.version);
	}

	private enter(
		method: StoreCall['method'],
		items: number,
		options: ICheckProcessedOptions,
		scope: DeduplicationScope,
	): void {
		if (this.failOn === method || this.failWhen?.(method, this.calls) === true)
			throw this.failWith?.() ?? new Error('the deduplication store is unreachable');
		if (options.mode !== 'entries') throw new Error(`only entries mode is kept here, not ${options.mode}`);
		this.calls.push({ method, items, scope });
	}
}

function hash(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

function recordKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (scope === 'node' && !contextData.node)
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `${contextData.workflow.id} ${scope === 'node' ? `n:${contextData.node!.id}` : ''}`;
}

let store: InMemoryDeduplicationStore | undefined;

/** The process's store, handed to n8n-core on first use. */
export function deduplicationStore(): InMemoryDeduplicationStore {
	if (store) return store;
	store = new InMemoryDeduplicationStore();
	void DataDeduplicationService.init(store);
	return store;
}

/**
 * A race whose calls each wait a round trip between their read and their write: `ms` (a macrotask when
 * 0), or with `spread` (a seed) between `ms` and twice `ms`, each call its own, so that a call may
 * overtake another's write but never outlast three of them.
 */
export function raceWithRoundTrips(
	ms: number,
	database: StoreRace['database'] = 'postgres',
	spread?: number,
): StoreRace {
	const next = spread === undefined ? () => 0 : mulberry32(spread);
	return {
		database,
		between: async () => {
			const wait = ms * (1 + next());
			await new Promise<void>((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
		},
	};
}

/** A small seeded generator of numbers in [0, 1). */
function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
