import type { INodeProperties } from 'n8n-workflow';

import type { Declared, Input } from '../../shared/fields/inputs';
import { asGiven, inputField, inputOf } from '../../shared/fields/inputs';
import { readPrioritization } from '../../shared/fields/prioritization';
import { readExternalId } from '../../shared/fields/userIdentifier';

/** Kinds of input the User node's operations read that shared/fields/inputs.ts has no kind for. */

/** The property a declaration gives version 2 and later (the one the input is named and labelled by). */
const currentOf = (declared: Declared): INodeProperties => ('version1' in declared ? declared.fromVersion2 : declared);

/** An external ID that names a real user: required text, not a placeholder the platform refuses as a dummy user. */
export const externalId = (declared: Declared) => inputField(declared, (item, name) => readExternalId(item, name));

/**
 * The parameter as n8n gives it (a list's choice, a multi-option's values), the property's default where
 * the workflow holds none.
 */
export const givenOrDefault = <T>(declared: Declared) => asGiven<T>(declared, currentOf(declared).default as T);

/** Which profile an email picks (prioritizationField), as the spec's order; its default where none is chosen. */
export const prioritization = (property: INodeProperties) =>
	inputField(property, (item) => readPrioritization(item, property.default as string));

/**
 * One of the operation's own Options (OperationOptions.fields), read for each item as the workflow holds
 * it in the Options collection every operation has (engine/runOptions.ts); its properties are the option.
 */
export const operationOption = (option: INodeProperties): Input<unknown> =>
	inputOf('options', option.displayName, [option], (item, name) => item.collection(name)[option.name]);
