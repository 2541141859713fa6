import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/read/itemInputError';
import type { ItemReader } from '../../shared/engine/read/readItems';
import { EMAIL } from '../../shared/schemas/identifiers';

/** Fields several operations share: the user's ID, email, name and department. */

export function userIdField(): INodeProperties {
	return {
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		default: '',
		required: true,
		description: 'The SCIM resource ID of the dashboard user (from Create or Find by Email)',
		builderHint: {
			propertyHint:
				"The account's id from the output of Create or Find by Email, mapped from there; when only the email is known, run Find by Email first.",
		},
	};
}

export function emailField(): INodeProperties {
	return {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: "The user's email, their SCIM userName",
		builderHint: {
			propertyHint:
				"The dashboard user's login email (their SCIM userName), mapped from the input item; an item whose value is not an email address fails.",
		},
	};
}

export function profileFields(departmentRequired: boolean): INodeProperties[] {
	return [
		{
			displayName: 'Given Name',
			name: 'givenName',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Family Name',
			name: 'familyName',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Department',
			name: 'department',
			type: 'string',
			default: '',
			required: departmentRequired,
			placeholder: 'e.g. marketing',
		},
	];
}

export function readEmail(item: ItemReader): string {
	const email = item.string('email');
	if (!EMAIL.test(email))
		throw new ItemInputError(
			'Email',
			`"${email.slice(0, 80)}" is not an email address`,
			'Map the email address of the dashboard user.',
		);
	return email;
}

export function readProfile(item: ItemReader, departmentRequired: boolean): IDataObject {
	const profile: IDataObject = {
		name: { givenName: item.string('givenName'), familyName: item.string('familyName') },
	};
	const department = departmentRequired ? item.string('department') : item.optionalString('department');
	if (department !== undefined) profile.department = department;
	return profile;
}
