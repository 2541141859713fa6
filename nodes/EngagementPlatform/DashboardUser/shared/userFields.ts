import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine';
import { ItemInputError } from '../../shared/engine';
import { requiredTextValue } from '../../shared/schemas/textValues';
import {
	defineInputs,
	inputField,
	optionalText,
	pathSegment,
	propertiesOf,
	requiredText,
} from '../../shared/fields/inputs';
import { EMAIL } from '../../shared/schemas/identifiers';

/** Inputs several operations share: the user's ID, email, name and department. */

export const USER_ID = pathSegment({
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
});

/** Required text that is an email address. */
const emailAddress = (declared: INodeProperties) =>
	inputField(
		declared,
		(value, label) => {
			const email = requiredTextValue(value, label);
			if (!EMAIL.test(email))
				throw new ItemInputError(
					label,
					`"${email.slice(0, 80)}" is not an email address`,
					'Map the email address of the dashboard user.',
				);
			return email;
		},
		'',
	);

export const USER_EMAIL = emailAddress({
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
});

/** The user's name and department: their properties, and the profile part of the SCIM body an item gives. */
export interface Profile {
	properties: INodeProperties[];
	read(item: ItemReader): IDataObject;
}

/** The profile fields; Update replaces the user whole, so there the department is required too. */
export function profile(departmentRequired: boolean): Profile {
	const department: INodeProperties = {
		displayName: 'Department',
		name: 'department',
		type: 'string',
		default: '',
		required: departmentRequired,
		placeholder: 'e.g. marketing',
	};
	const INPUT = defineInputs({
		givenName: requiredText({
			displayName: 'Given Name',
			name: 'givenName',
			type: 'string',
			default: '',
			required: true,
		}),
		familyName: requiredText({
			displayName: 'Family Name',
			name: 'familyName',
			type: 'string',
			default: '',
			required: true,
		}),
		department: departmentRequired ? requiredText(department) : optionalText(department),
	});
	return {
		properties: propertiesOf(INPUT),
		read(item) {
			const result: IDataObject = {
				name: { givenName: INPUT.givenName.read(item), familyName: INPUT.familyName.read(item) },
			};
			const value = INPUT.department.read(item);
			if (value !== undefined) result.department = value;
			return result;
		},
	};
}
