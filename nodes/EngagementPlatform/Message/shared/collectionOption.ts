import type { INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine/read/readItems';
import type { Input } from '../../shared/fields/inputs';
import { inputOf } from '../../shared/fields/inputs';

/**
 * One option of a collection (Additional Fields) read on its own, as `<collection>.<option>`, and
 * named by the option's label. Its property is the collection's, which shows it: it declares none.
 */
export function collectionOption<T>(
	collection: Input<unknown>,
	option: INodeProperties,
	read: (item: ItemReader, name: string, label: string) => T,
): Input<T> {
	return inputOf(`${collection.name}.${option.name}`, labelOfOption(option), [], read);
}

/** An option's label as errors name it: without the "(JSON)" that tells the panel's input kind. */
export function labelOfOption(option: INodeProperties): string {
	return option.displayName.replace(/ \(JSON\)$/, '');
}
