import type { INodeProperties, INodeType, INodePropertyOptions } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

/**
 * CONTRIBUTING.md's vocabulary, checked on every node's description: saved workflows store these
 * names and values, so they are one set across the package.
 */
const IDENTIFIER_KINDS = ['external_id', 'user_alias', 'email', 'phone', 'service_id', 'device_id'];
/** The field each kind reads the identifier from. */
const IDENTIFIER_FIELDS = ['externalId', 'aliasName', 'aliasLabel', 'email', 'phone', 'serviceId', 'deviceId'];
/** Values that name a way to identify a user, in any spelling the platform's bodies use. */
const USER_IDENTIFYING_VALUES =
	/^(external_(user_)?ids?|user_alias(es)?|alias|emails?|phones?|service_ids?|device_ids?)$/;

interface Parameter {
	node: string;
	operations: string[];
	property: INodeProperties;
}

function parametersOf(): Parameter[] {
	return Object.entries(loadPackageNodeTypes()).flatMap(([name, type]) =>
		(type as INodeType).description.properties.map((property) => ({
			node: name,
			operations: ((property.displayOptions?.show?.operation as string[] | undefined) ?? []).map(String),
			property,
		})),
	);
}

const optionValues = (property: INodeProperties): string[] =>
	property.type === 'options'
		? ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value))
		: [];

describe('one vocabulary for "who is this item\'s user"', () => {
	const parameters = parametersOf();

	test('every choice among ways to identify a user is identifyBy, with the identifier kinds as values', () => {
		const choices = parameters.filter(({ property }) =>
			optionValues(property).some((value) => USER_IDENTIFYING_VALUES.test(value)),
		);
		const misnamed = choices
			.filter(
				({ property }) =>
					property.name !== 'identifyBy' || !optionValues(property).every((value) => IDENTIFIER_KINDS.includes(value)),
			)
			.map(
				({ node, operations, property }) =>
					`${node} ${operations.join('/')}: ${property.name} = ${optionValues(property).join(', ')}`,
			);

		expect(misnamed).toEqual([]);
		// The User, Subscription and Message nodes all have one.
		expect(new Set(choices.map(({ node }) => node.split('.').pop()))).toEqual(
			new Set(['engagementPlatformUser', 'engagementPlatformSubscription', 'engagementPlatformMessage']),
		);
	});

	test('each kind is read from its one field, shown only for that kind', () => {
		const shownFor = parameters.filter(({ property }) => property.displayOptions?.show?.identifyBy !== undefined);
		const strays = shownFor
			.filter(({ property }) => !IDENTIFIER_FIELDS.includes(property.name) && property.name !== 'prioritization')
			.map(({ node, property }) => `${node}: ${property.name}`);

		expect(strays).toEqual([]);
		expect(new Set(shownFor.map(({ property }) => property.name))).toEqual(
			new Set([...IDENTIFIER_FIELDS, 'prioritization']),
		);
	});

	test('no node keeps an older name for the user of an item', () => {
		const older = parameters.filter(({ property }) =>
			['userBy', 'recipientBy', 'profileType', 'externalUserId'].includes(property.name),
		);

		expect(older.map(({ node, property }) => `${node}: ${property.name}`)).toEqual([]);
	});
});

describe('one naming rule inside a collection', () => {
	const SNAKE = /^_?[a-z0-9]+(_[a-z0-9]+)*$/;
	const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
	/** A name of one word fits both rules. */
	const kindOf = (name: string) =>
		SNAKE.test(name) && CAMEL.test(name) ? 'either' : SNAKE.test(name) ? 'snake' : 'camel';

	test("a collection's fields are all the platform's body names (snake_case) or all the node's own (camelCase)", () => {
		const mixed = parametersOf()
			.filter(({ property }) => property.type === 'collection' && property.name !== 'options')
			.flatMap(({ node, operations, property }) => {
				const kinds = new Set(
					((property.options ?? []) as INodeProperties[])
						.map(({ name }) => kindOf(name))
						.filter((kind) => kind !== 'either'),
				);
				return kinds.size > 1
					? [
							`${node} ${operations.join('/')}: ${property.name} holds ${((property.options ?? []) as INodeProperties[]).map(({ name }) => name).join(', ')}`,
						]
					: [];
			});

		expect(mixed).toEqual([]);
	});
});
