import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InputProblem } from './itemInputError';
import { ItemInputError } from './itemInputError';
import { ItemReader } from './itemReader';
import type { OperationSpec, Piece } from './operation';
import { ParameterReader } from './parameterReader';

export interface ReadItems {
	pieces: Array<Piece>;
	/** Item index → its input error, for items that break a rule. */
	inputErrors: Map<number, ItemInputError>;
}

/** Reads and validates every item before anything is sent. */
export function readItems(context: IExecuteFunctions, spec: OperationSpec, itemCount: number): ReadItems {
	const pieces: Array<Piece> = [];
	const inputErrors = new Map<number, ItemInputError>();
	const parameters = new ParameterReader(context);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const reader = new ItemReader(context, itemIndex, parameters);
		try {
			const read = spec.readItem(reader);
			if (reader.problems.length > 0) throw everyProblem([], reader.problems);
			for (const piece of read) pieces.push(piece);
		} catch (error) {
			if (!(error instanceof ItemInputError))
				throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			inputErrors.set(itemIndex, everyProblem(error.problems, reader.problems));
		}
	}
	const acrossItems = spec.checkAcrossItems?.(pieces);
	if (!acrossItems?.size) return { pieces, inputErrors };
	for (const [itemIndex, error] of acrossItems) if (!inputErrors.has(itemIndex)) inputErrors.set(itemIndex, error);
	return { pieces: pieces.filter((piece) => !acrossItems.has(piece.itemIndex)), inputErrors };
}

/** One error listing each problem once: the reading's kept ones and the one that stopped it. */
function everyProblem(thrown: InputProblem[], kept: InputProblem[]): ItemInputError {
	const problems = [...kept];
	for (const problem of thrown)
		if (!problems.some((seen) => seen.field === problem.field && seen.rule === problem.rule)) problems.push(problem);
	const [first, ...more] = problems;
	return new ItemInputError(first.field, first.rule, first.fix, more);
}
