import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { Input } from './inputs';
import { inputField } from './inputs';

/**
 * The orders the spec allows for `prioritization` when an email picks a profile: at most one
 * of identified / unidentified, optionally followed by most recently updated.
 */
const ORDERS: Record<string, string[]> = {
	identified: ['identified'],
	identifiedThenRecent: ['identified', 'most_recently_updated'],
	recent: ['most_recently_updated'],
	unidentified: ['unidentified'],
	unidentifiedThenRecent: ['unidentified', 'most_recently_updated'],
};

function prioritizationField(
	displayOptions: IDisplayOptions,
	defaultOrder: 'identifiedThenRecent' | 'unidentifiedThenRecent',
	description: string,
): INodeProperties {
	return {
		displayName: 'Prioritization',
		name: 'prioritization',
		type: 'options',
		options: [
			{ name: 'Identified', value: 'identified' },
			{ name: 'Identified, Then Most Recently Updated', value: 'identifiedThenRecent' },
			{ name: 'Most Recently Updated', value: 'recent' },
			{ name: 'Unidentified', value: 'unidentified' },
			{ name: 'Unidentified, Then Most Recently Updated', value: 'unidentifiedThenRecent' },
		],
		default: defaultOrder,
		description,
		displayOptions,
	};
}

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
