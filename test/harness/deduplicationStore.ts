/**
 * A stand-in for n8n's deduplication store: an in-memory implementation of n8n-workflow's own
 * `IDataDeduplicator`, handed to n8n-core's `DataDeduplicationService` as the n8n application does
 * with its database-backed one. It keeps that one's behaviour in `entries` mode: one record per
 * workflow and context (`n:<node id>` for scope node), values kept as MD5 hashes in the order they
 * were first seen, the oldest dropped past `maxEntries`, `removeProcessed` taking out one match each.
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
}

export class InMemoryDeduplicationStore implements IDataDeduplicator {
	/** `<workflow id> <context>` → hashed entries, oldest first. */
	readonly records = new Map<string, string[]>();
	readonly calls: StoreCall[] = [];
	/** Makes every call of this method fail, as when n8n's database is unreachable. */
	failOn?: StoreCall['method'];
	/** Makes the calls it picks fail (given the calls made so far), as when n8n's database goes away mid-run. */
	failWhen?: (method: StoreCall['method'], calls: StoreCall[]) => boolean;

	reset(): void {
		this.records.clear();
		this.calls.length = 0;
		this.failOn = undefined;
		this.failWhen = undefined;
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
		this.enter('checkProcessedAndRecord', items.length, options);
		const key = recordKey(scope, contextData);
		const existing = this.records.get(key);
		const hashed = items.map(hash);
		if (!existing) {
			const entries = options.maxEntries ? hashed.slice(Math.max(0, hashed.length - options.maxEntries)) : hashed;
			this.records.set(key, entries);
			return { new: items, processed: [] };
		}
		const seen = new Set(existing);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashed.forEach((value, index) => {
			if (seen.has(value)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				existing.push(value);
			}
		});
		if (options.maxEntries) existing.splice(0, Math.max(0, existing.length - options.maxEntries));
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.enter('removeProcessed', items.length, options);
		const existing = this.records.get(recordKey(scope, contextData));
		if (!existing) return;
		for (const value of items.map(hash)) {
			const index = existing.indexOf(value);
			if (index !== -1) existing.splice(index, 1);
		}
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.enter('clearAllProcessedItems', 0, options);
		this.records.delete(recordKey(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.enter('getProcessedDataCount', 0, options);
		return options.mode === 'entries' ? (this.records.get(recordKey(scope, contextData))?.length ?? 0) : 0;
	}

	private enter(method: StoreCall['method'], items: number, options: ICheckProcessedOptions): void {
		if (this.failOn === method || this.failWhen?.(method, this.calls) === true)
			throw new Error('the deduplication store is unreachable');
		if (options.mode !== 'entries') throw new Error(`only entries mode is kept here, not ${options.mode}`);
		this.calls.push({ method, items });
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
