import type { IDisplayOptions } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { Input } from './inputs';
import { inputField } from './inputs';
import { prioritizationField } from '../descriptions/prioritization';

/** The spec's orders when an email picks a profile: identified or unidentified, then most recently updated. */
const ORDERS: Record<string, string[]> = {
	identified: ['identified'],
	identifiedThenRecent: ['identified', 'most_recently_updated'],
	recent: ['most_recently_updated'],
	unidentified: ['unidentified'],
	unidentifiedThenRecent: ['unidentified', 'most_recently_updated'],
};

/** Prioritization as an input (fields/inputs.ts): the spec's order chosen, its default where none is. */
export function prioritizationInput(
	displayOptions: IDisplayOptions,
	defaultOrder: 'identifiedThenRecent' | 'unidentifiedThenRecent',
	description: string,
): Input<string[]> {
	return inputField(
		prioritizationField(displayOptions, defaultOrder, description),
		(value, label) => {
			const order = ORDERS[value as string];
			if (!order) throw new ItemInputError(label, 'is not one of the listed orders', 'Pick one of the listed options.');
			return order;
		},
		defaultOrder,
	);
}
