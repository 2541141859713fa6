import type { INodeProperties, INodeType } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

/** The part of a property's show rule beyond its operations: two properties differ there or are both shown. */
function otherConditions(property: INodeProperties): string {
	const { operation: _operation, ...rest } = property.displayOptions?.show ?? {};
	return JSON.stringify({ show: rest, hide: property.displayOptions?.hide ?? {} });
}

describe('node descriptions', () => {
	test('no operation shows two parameters of one name under the same conditions (the editor would show both)', () => {
		const twice: string[] = [];
		for (const [nodeName, type] of Object.entries(loadPackageNodeTypes())) {
			const seen = new Map<string, string>();
			for (const property of (type as INodeType).description.properties) {
				const operations = (property.displayOptions?.show?.operation as string[] | undefined) ?? ['(every operation)'];
				for (const operation of operations) {
					const key = `${operation} ${property.name} ${otherConditions(property)}`;
					if (seen.has(key)) twice.push(`${nodeName.split('.').pop()}: ${operation} shows "${property.name}" twice`);
					seen.set(key, property.name);
				}
			}
		}

		expect(twice).toEqual([]);
	});
});
