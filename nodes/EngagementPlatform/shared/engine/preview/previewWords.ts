import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RateLimitName } from '../../limits/rateLimits';
import { RATE_LIMITS } from '../../limits/rateLimits';
import type { OperationSpec, Piece, PieceOutcome, PlannedRequest } from '../operation';
import { requestParts } from '../plan/planner';
import { counted, countedWas } from '../results/runWords';
import { formatDuration } from '../send/sendRequests';

/** Each item's preview: what it would send and in which request, or why it would not be sent. */
export function previewWords(
	spec: OperationSpec,
	pieces: Piece[],
	outcomes: Map<Piece, PieceOutcome>,
	planned: PlannedRequest[],
): Map<number, IDataObject> {
	const byItem = new Map<number, Piece[]>();
	for (const piece of pieces) byItem.set(piece.itemIndex, [...(byItem.get(piece.itemIndex) ?? []), piece]);
	const words = new Map<number, IDataObject>();
	for (const [itemIndex, itemPieces] of byItem) {
		const itemOutcomes = itemPieces.map((piece) => outcomes.get(piece));
		if (itemOutcomes.some((outcome) => !outcome?.ok)) continue;
		words.set(itemIndex, itemWords(spec, itemOutcomes as Array<PieceOutcome & { ok: true }>, planned));
	}
	return words;
}

function itemWords(
	spec: OperationSpec,
	outcomes: Array<PieceOutcome & { ok: true }>,
	planned: PlannedRequest[],
): IDataObject {
	const inRequest = new Map<number, Piece[]>();
	const extra: IDataObject = {};
	let ifChanged = false;
	for (const outcome of outcomes) {
		if (outcome.preview) {
			const { request, piece } = outcome.preview;
			inRequest.set(request, [...(inRequest.get(request) ?? []), piece]);
			ifChanged ||= outcome.preview.ifChanged === true;
		} else if (outcome.replacedBy !== undefined)
			extra.replacedBy = Math.max(outcome.replacedBy, Number(extra.replacedBy ?? -1));
		else if (outcome.unchanged) extra.unchanged = true;
		// Track Once Per Key: tracked before with the same key, so left out.
		else if (outcome.alreadyTracked) {
			extra.alreadyTracked = true;
			if (outcome.alreadyTracked.since) extra.trackedSince = outcome.alreadyTracked.since;
			if (outcome.alreadyTracked.sameKeyAs !== undefined) extra.sameKeyAs = outcome.alreadyTracked.sameKeyAs;
		}
		// Answered by an earlier try of this run (Retry On Fail): it would not be sent again.
		else extra.alreadySent = true;
		if (outcome.replacedParts) extra.replaced = { ...(extra.replaced as IDataObject), ...outcome.replacedParts };
	}
	const requests = [...inRequest].map(([index, itemPieces]) => requestWords(spec, planned, index, itemPieces));
	const sending: IDataObject =
		requests.length === 1
			? requests[0]
			: requests.length > 1
				? { requests: requests.map(({ request, ...rest }) => ({ ...(request as IDataObject), ...rest })) }
				: {};
	return {
		status: 'preview',
		wouldSend: requests.length > 0,
		...sending,
		...(ifChanged ? { ifChanged: true } : {}),
		...extra,
	};
}

/** The request as the item's pieces would make it alone: its shared fields, and the item's part in its place. */
function requestWords(spec: OperationSpec, planned: PlannedRequest[], index: number, pieces: Piece[]): IDataObject {
	const request = planned[index];
	const slots = new Map<string, Piece[]>();
	for (const piece of pieces) slots.set(piece.slot, [...(slots.get(piece.slot) ?? []), piece]);
	const parts = requestParts(spec.endpoint.path, spec.shape, {
		group: request.group,
		slots,
		pieceCount: pieces.length,
	});
	return {
		request: { number: index + 1, of: planned.length, method: spec.endpoint.method, path: parts.path },
		...(parts.body ? { sends: parts.body } : {}),
		...(parts.qs ? { query: parts.qs } : {}),
	};
}

/**
 * The run's one hint: nothing was sent, how many requests to where, how long the platform's documented
 * limits would make the real run take at least, and how to send for real.
 */
export function addPreviewHint(
	context: IExecuteFunctions,
	spec: OperationSpec,
	itemCount: number,
	planned: PlannedRequest[],
	words: Map<number, IDataObject>,
): void {
	const paths = [
		...new Set(
			planned.map(
				(request) =>
					`${spec.endpoint.method} ${requestParts(spec.endpoint.path, spec.shape, { ...request, slots: new Map(), pieceCount: 0 }).path}`,
			),
		),
	];
	const where =
		paths.length === 0
			? ''
			: ` to ${paths.length > 3 ? `${spec.endpoint.method} ${spec.endpoint.path}` : paths.join(', ')}`;
	const notSent = (key: string) =>
		[...words.values()].filter((item) => item[key] !== undefined && item.wouldSend === false).length;
	const replaced = notSent('replacedBy');
	const unchanged = notSent('unchanged');
	const decided = [...words.values()].filter((item) => item.ifChanged === true).length;
	const message =
		`Preview: nothing was sent. ${counted(itemCount, 'item')} → ${counted(planned.length, 'request')}${where}; ` +
		`${timeWords(spec, planned)}.` +
		(replaced > 0
			? ` ${countedWas(replaced, 'item')} would not be sent: a later item sets the same (see "replacedBy").`
			: '') +
		(unchanged > 0 ? ` ${countedWas(unchanged, 'item')} would not be sent: unchanged (Send Only Changes).` : '') +
		(decided > 0
			? ` Send Only Changes decides at the real run which of ${decided === 1 ? 'the 1 item' : `the ${decided} items`} marked "ifChanged" the platform holds already and leaves out, so it may send fewer requests.`
			: '') +
		' To send for real, turn off Options → Preview.';
	context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}

/** The least the documented limits make the requests wait, the longest of their limits. */
function timeWords(spec: OperationSpec, planned: PlannedRequest[]): string {
	const counts = new Map<RateLimitName, number>();
	for (const request of planned) {
		const limit =
			typeof spec.endpoint.rateLimit === 'function' ? spec.endpoint.rateLimit(request) : spec.endpoint.rateLimit;
		counts.set(limit, (counts.get(limit) ?? 0) + 1);
	}
	let waitMs = 0;
	let undocumented = false;
	for (const [name, count] of counts) {
		const limit: { requests: number; windowMs: number } | undefined = RATE_LIMITS[name];
		if (!limit) undocumented = true;
		else waitMs = Math.max(waitMs, Math.floor((count - 1) / limit.requests) * limit.windowMs);
	}
	const time =
		waitMs > 0
			? `at the platform's rate limits this takes about ${formatDuration(waitMs)}`
			: "at the platform's rate limits this takes no waiting, only the requests' own time";
	return undocumented
		? `${time} (the platform documents no limit for this endpoint: its answers pace the real run)`
		: time;
}
