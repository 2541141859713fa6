/** The node's output read per input item, through each output item's `pairedItem`. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** The input index an output item is paired with; -1 when it names none. */
export function pairedIndex(answer: INodeExecutionData): number {
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

/** Answered as applied or sent: some answer, and none of them an error. */
export const isSuccess = (answers: IDataObject[] | undefined): boolean =>
	answers !== undefined && answers.length > 0 && answers.every((answer) => answer.error === undefined);
