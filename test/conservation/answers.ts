/**
 * The node's output read per input item, through each output item's `pairedItem`, and what the node
 * said of each: an operation answering in its words puts them in one field beside the row
 * (`{...row, engagementPlatform: {status, ...}}`), a failed item with `error` beside the row too; one
 * answering with the platform's records (Export, translations, dashboard users) gives the records alone.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { statusOf, wordsOf } from '../support/nodeWords';

/** The input index an output item is paired with; -1 when it names none. */
function pairedIndex(answer: INodeExecutionData): number {
	const paired = answer.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? paired[0].item : -1;
	return typeof paired === 'object' && paired !== null ? paired.item : -1;
}

/** Each input index's output items (an item may have several: an export finding two users). */
export function answersByItem(output: INodeExecutionData[]): Map<number, IDataObject[]> {
	const byItem = new Map<number, IDataObject[]>();
	for (const answer of output) {
		const index = pairedIndex(answer);
		byItem.set(index, [...(byItem.get(index) ?? []), answer.json]);
	}
	return byItem;
}

/** A failed item: `failed` in the node's words, or an `error` at the top (where a failed item carries its reason). */
export const isFailure = (answer: IDataObject): boolean => statusOf(answer) === 'failed' || answer.error !== undefined;

/** Answered as applied or sent: some answer, and none of them an error. */
export const isSuccess = (answers: IDataObject[] | undefined): boolean =>
	answers !== undefined && answers.length > 0 && !answers.some(isFailure);

/**
 * What the node said of an item in an answer: its words (`engagementPlatform`) where the operation
 * answers in words, else the record itself.
 */
export const saidIn = (answer: IDataObject, withWords: boolean): IDataObject => (withWords ? wordsOf(answer) : answer);
