/**
 * What no reading of the spec can change, checked on one run from the sandbox's request log and the
 * node's output:
 * 1. every item answered as applied or sent has each piece of its data in exactly one request the
 *    sandbox answered 2xx;
 * 2. every piece of data in every request belongs to exactly one input item, carries that item's
 *    data, and that item was answered from that request (a success, or an error its answer gave);
 *    a `dispatch_id` in the answer is the item's;
 * 3. no request exceeds a per-request limit the spec states;
 * and every item's row comes out as it went in: an operation answering in its words (in
 * `engagementPlatform`) keeps each answer's other fields exactly the input item's, a failed item
 * (any operation) with `error` beside them.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { RecordedRequest } from '../../sandbox';
import { rowOf, statusOf, wordsOf } from '../support/nodeWords';
import { answersWithWords } from '../support/successWords';
import { answersByItem, isFailure, isSuccess, saidIn } from './answers';
import type { ConservationCase, ExpectedPiece } from './conservationCase';
import { limitViolations } from './wireLimits';
import { wirePieces } from './wirePieces';

export interface RunFindings {
	problems: string[];
	lost: number;
	overLimit: number;
	astray: number;
	failedItems: number;
}

const accepted = (request: RecordedRequest) => request.status >= 200 && request.status < 300;
const describe = (request: RecordedRequest) =>
	`request #${request.seq} (${request.method} ${request.path}, ${request.status})`;
const short = (value: unknown) => {
	const text = JSON.stringify(value) ?? 'undefined';
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** An answer that carries errors for some of what the request held (a 2xx with non-fatal errors). */
function answerGaveErrors(request: RecordedRequest): boolean {
	const response = request.response as IDataObject | undefined;
	return (
		!accepted(request) ||
		(Array.isArray(response?.errors) && response.errors.length > 0) ||
		(Array.isArray(response?.rename_errors) && response.rename_errors.length > 0)
	);
}

function mismatch(expected: ExpectedPiece, wireValue: unknown): string | undefined {
	if (expected.check) return expected.check(wireValue);
	return isDeepStrictEqual(wireValue, expected.value)
		? undefined
		: `carries ${short(wireValue)}, the item's data is ${short(expected.value)}`;
}

export function checkConservation(
	testCase: ConservationCase,
	items: IDataObject[],
	output: INodeExecutionData[],
	requests: RecordedRequest[],
): RunFindings {
	const findings: RunFindings = { problems: [], lost: 0, overLimit: 0, astray: 0, failedItems: 0 };
	const answers = answersByItem(output);
	const withWords = answersWithWords(testCase.nodeType, testCase.operation);
	// What the node said of each item: its words, or the platform's records.
	const said = (itemAnswers: IDataObject[]) => itemAnswers.map((answer) => saidIn(answer, withWords));

	// Each expected piece's key names exactly one item (the generator guarantees unique markers).
	const owners = new Map<string, { index: number; piece: ExpectedPiece }>();
	items.forEach((json, index) => {
		for (const piece of testCase.expected(json, index)) {
			const other = owners.get(piece.key);
			if (other)
				throw new Error(
					`${testCase.name}: items ${other.index} and ${index} both expect ${piece.key}; the generator must make markers unique`,
				);
			owners.set(piece.key, { index, piece });
		}
	});

	// 3. Limits.
	const requestsOverLimit = new Set<RecordedRequest>();
	for (const request of requests) {
		const violations = limitViolations(request);
		if (violations.length === 0) continue;
		requestsOverLimit.add(request);
		findings.overLimit++;
		findings.problems.push(`${describe(request)} is over a limit: ${violations.join('; ')}`);
	}

	// 2. Every piece on the wire: whose, whether it is that item's data, whether the item was answered from it.
	const acceptedIn = new Map<string, RecordedRequest[]>();
	const seenIn = new Map<number, RecordedRequest[]>();
	const astray = (message: string) => {
		findings.astray++;
		findings.problems.push(message);
	};
	const pendingResends: Array<{ key: string; index: number; request: RecordedRequest }> = [];
	for (const request of requests) {
		for (const { key, value } of wirePieces(request)) {
			const owner = owners.get(key);
			if (!owner) {
				astray(`${describe(request)} carries ${key}, which belongs to no input item: ${short(value)}`);
				continue;
			}
			const wrong = mismatch(owner.piece, value);
			if (wrong) astray(`${describe(request)}: ${key} of item ${owner.index} ${wrong}`);
			seenIn.set(owner.index, [...(seenIn.get(owner.index) ?? []), request]);
			const itemAnswers = answers.get(owner.index);
			if (accepted(request)) acceptedIn.set(key, [...(acceptedIn.get(key) ?? []), request]);
			if (!itemAnswers || itemAnswers.length === 0) continue; // reported below as unanswered
			if (isSuccess(itemAnswers)) {
				// A success from a refused request: only a resend that a later accepted request answered.
				if (!accepted(request)) pendingResends.push({ key, index: owner.index, request });
				else {
					const from = answeredFrom(testCase, said(itemAnswers), request);
					if (from) astray(`${describe(request)}: item ${owner.index} (${key}) was not answered from it: ${from}`);
				}
			}
		}
	}
	for (const { key, index, request } of pendingResends) {
		if ((acceptedIn.get(key) ?? []).length !== 1)
			astray(`${describe(request)}: item ${index} (${key}) is answered as a success, but this request was refused`);
	}

	// 1. Every item answered as a success: each piece of its data in exactly one accepted request.
	items.forEach((json, index) => {
		const itemAnswers = answers.get(index);
		if (!itemAnswers || itemAnswers.length === 0) {
			findings.problems.push(`item ${index} got no answer`);
			return;
		}
		const rowProblem = rowNotKept(json, itemAnswers, withWords);
		if (rowProblem) findings.problems.push(`item ${index} ${rowProblem}`);
		if (!isSuccess(itemAnswers)) {
			const failed = itemAnswers.find(isFailure)!;
			const reason = String(wordsOf(failed).error ?? failed.error);
			const requestsOfItem = seenIn.get(index) ?? [];
			const overLimit = requestsOfItem.some((request) => requestsOverLimit.has(request));
			findings.failedItems++;
			// Its error must be one an answer gave: a request holding its data refused it, or answered with errors.
			if (requestsOfItem.length > 0 && !requestsOfItem.some(answerGaveErrors)) {
				astray(
					`item ${index} is answered with an error, but every request holding its data was accepted without errors: ${reason}`,
				);
			}
			if (requestsOfItem.length === 0)
				findings.problems.push(
					`item ${index} is valid and was answered with an error without any request holding its data: ${reason}`,
				);
			else if (!overLimit)
				findings.problems.push(
					`item ${index} is valid, in requests within every limit, and was answered with an error: ${reason}`,
				);
			return;
		}
		const missing = testCase.expected(json, index).filter((piece) => (acceptedIn.get(piece.key) ?? []).length !== 1);
		if (missing.length === 0) return;
		findings.lost++;
		const counts = missing.map((piece) => `${piece.key} in ${(acceptedIn.get(piece.key) ?? []).length}`).join(', ');
		const saidOf = said(itemAnswers);
		findings.problems.push(
			`item ${index} is answered ${short(saidOf[0].status ?? saidOf[0])}${answeringRequest(saidOf, requests)} but is not in exactly one accepted request: ${counts}`,
		);
	});

	const unpaired = [...answers.entries()]
		.filter(([index]) => index < 0 || index >= items.length)
		.reduce((sum, [, list]) => sum + list.length, 0);
	if (unpaired > 0) findings.problems.push(`${unpaired} output items are paired with no input item`);
	return findings;
}

/**
 * Whether the item's answers carry its row as it came: every field of the input item, none changed and
 * none added but the node's field (and `error` on a failed item, the reason its words give). Answers
 * of the platform's records are the records alone, where only a failed item carries the row.
 */
function rowNotKept(input: IDataObject, itemAnswers: IDataObject[], withWords: boolean): string | undefined {
	for (const answer of itemAnswers) {
		const failed = statusOf(answer) === 'failed';
		if (!withWords && !failed) continue;
		const row = failed ? { ...input, error: wordsOf(answer).error } : input;
		if (!isDeepStrictEqual(rowOf(answer), row))
			return `does not carry its row as it came: ${short(rowOf(answer))}, the input is ${short(input)}`;
	}
	return undefined;
}

/** The item's answer is its request's: the same dispatch_id, and whatever the case checks. */
function answeredFrom(
	testCase: ConservationCase,
	itemAnswers: IDataObject[],
	request: RecordedRequest,
): string | undefined {
	const dispatchId = (request.response as IDataObject | undefined)?.dispatch_id;
	if (typeof dispatchId === 'string') {
		const other = itemAnswers.find((answer) => answer.dispatch_id !== dispatchId);
		if (other) return `dispatch_id ${String(other.dispatch_id)}, its request's is ${dispatchId}`;
	}
	return testCase.answeredFrom?.(itemAnswers, request);
}

/** ", with the dispatch_id of request #n" when the item's answer names the request it claims to be from. */
function answeringRequest(itemAnswers: IDataObject[], requests: RecordedRequest[]): string {
	const dispatchId = itemAnswers[0].dispatch_id;
	if (typeof dispatchId !== 'string') return '';
	const request = requests.find(
		(candidate) => (candidate.response as IDataObject | undefined)?.dispatch_id === dispatchId,
	);
	return request ? ` with the dispatch_id of request #${request.seq}` : ` with dispatch_id ${dispatchId}, no request's`;
}
