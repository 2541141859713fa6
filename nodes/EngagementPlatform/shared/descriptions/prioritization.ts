import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The Prioritization choice: the orders the spec allows when an email picks a profile. */
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
