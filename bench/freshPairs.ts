/**
 * Section 2's share of the ceiling: our node and the bare node, each run in a fresh process after
 * a 2,000-item warm-up, alternating, several times. One run of each, minutes apart, was the
 * figure before; on these machines one run's wall time moves by 10% or more from one minute to the
 * next, so a single pair could read 79% or 95% of the same code. The median of the pairs is printed
 * with every pair's own share.
 */
import type { IDataObject } from 'n8n-workflow';

import { median } from './median';
import type { RunFigures } from './measureOne';

export async function freshPairs(
	count: number,
	pairs: number,
	prepare: () => Promise<void>,
	measure: (name: string) => Promise<RunFigures>,
	oursName: string,
): Promise<IDataObject> {
	const ours: number[] = [];
	const bare: number[] = [];
	for (let pair = 0; pair < pairs; pair++) {
		await prepare();
		ours.push((await measure(oursName)).wallMs);
		await prepare();
		bare.push((await measure('baseline')).wallMs);
	}
	const shares = ours.map((oursMs, pair) => Math.round((bare[pair] / oursMs) * 100));
	return {
		operation: `ours of the ceiling: bare node / ours, ${pairs} alternating pairs of fresh processes (median)`,
		items: count,
		oursMs: median(ours),
		bareMs: median(bare),
		ofCeiling: `${median(shares)}%`,
		pairs: shares.map((share) => `${share}%`).join(' '),
	};
}
