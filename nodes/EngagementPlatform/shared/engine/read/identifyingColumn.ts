import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { columnsReferenced, savedParameter } from '../../fields/parameterSource';
import { RUN_OPTION } from '../runOptionNames';

/**
 * Parameters that name the record a row is (a user, a catalog item, a dashboard user), in the order they
 * are looked for; a product's or a campaign's ID names something many rows share.
 */
const IDENTIFYING: readonly string[] = [
	'externalId',
	'currentExternalId',
	'aliasName',
	'email',
	'phone',
	'userId',
	'itemId',
];

/**
 * The input column that tells a row from the others, for errors to name it (`order_id 'B-2002'`): the
 * Track Once Per Key key's, else the first identifying field's mapped from a column; none where those
 * are typed in, the same for every row.
 */
export function identifyingColumn(parameters: IDataObject, fields: readonly INodeProperties[]): string | undefined {
	const saved = [
		savedParameter(parameters, `options.${RUN_OPTION.trackOncePerKeyKey}`),
		...IDENTIFYING.filter((name) => fields.some((field) => field.name === name)).map((name) =>
			savedParameter(parameters, name),
		),
	];
	return saved.map((value) => columnsReferenced(value)[0]).find((column) => column !== undefined);
}
