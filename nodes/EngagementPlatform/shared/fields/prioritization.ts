import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader } from '../engine/read/readItems';

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

export function prioritizationField(
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

export function readPrioritization(item: ItemReader, defaultOrder: string): string[] {
	const order = ORDERS[item.raw('prioritization', defaultOrder) as string];
	if (!order)
		throw new ItemInputError('Prioritization', 'is not one of the listed orders', 'Pick one of the listed options.');
	return order;
}
