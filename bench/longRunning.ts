/**
 * Section 2b: our node against the bare node in one long-running process, as n8n runs them.
 * Sections 1 and 2 measure each run in a fresh process after a 2,000-item warm-up, where V8 has
 * not yet optimised all of our per-item code, while the bare node's few lines are; a server that
 * has run the node a few times has. Both figures are printed: neither replaces the other.
 */
import type { IDataObject } from 'n8n-workflow';

import { measureInChild } from './childMeasurement';
import { median } from './median';

/** The first rounds are the process starting (loading and first optimisation): not counted. */
const STARTING_ROUNDS = 2;
const ROUNDS = 10;

export async function longRunningProcess(count: number, latencyMs: number, sandboxUrl: string): Promise<IDataObject> {
	const { ours, bare } = await measureInChild<{ ours: number[]; bare: number[] }>('longRunningProcess.ts', [
		String(count),
		String(ROUNDS),
		String(latencyMs),
		sandboxUrl,
	]);
	const oursMs = median(ours.slice(STARTING_ROUNDS));
	const bareMs = median(bare.slice(STARTING_ROUNDS));
	return {
		operation: `one process, ${ROUNDS - STARTING_ROUNDS} runs each after ${STARTING_ROUNDS} (median wall)`,
		items: count,
		oursMs,
		bareMs,
		ofCeiling: `${Math.round((bareMs / oursMs) * 100)}%`,
		oursRuns: ours.join(' '),
		bareRuns: bare.join(' '),
	};
}
