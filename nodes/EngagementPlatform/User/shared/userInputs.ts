import type { INodeProperties } from 'n8n-workflow';

import type { Input } from '../../shared/fields/inputs';
import { inputField, inputOf } from '../../shared/fields/inputs';
import { externalIdValue } from '../../shared/fields/userIdentifier';
import { collectionValues } from '../../shared/schemas/textValues';

/** Kinds of input the User node's operations read that shared/fields/inputs.ts has no kind for. */

/** An external ID that names a real user: required text, not a placeholder the platform refuses as a dummy user. */
export const externalId = (declared: INodeProperties) => inputField(declared, externalIdValue, '');

/**
 * One of the operation's own Options (OperationOptions.fields), read for each item as the workflow holds
 * it in the Options collection every operation has (engine/runOptions.ts); its properties are the option.
 */
export const operationOption = (option: INodeProperties): Input<unknown> =>
	inputOf('options', option.displayName, [option], (item, name) => collectionValues(item.raw(name, {}))[option.name]);
