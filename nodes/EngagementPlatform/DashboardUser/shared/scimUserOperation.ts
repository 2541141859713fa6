import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ApiResponse, Endpoint, ItemReader, OperationSpec, PieceError, RequestShape } from '../../shared/engine';
import { declareOperation, onlyPiece, refuseRepeatedKeys, responseError } from '../../shared/engine';
import type { Input } from '../../shared/fields/inputs';

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** What one item asks of /scim/v2/Users. */
interface ScimCall extends IDataObject {
	id?: string;
	body?: IDataObject;
	query?: IDataObject;
}

interface ScimUserOperation {
	method: IHttpRequestMethods;
	/** `/scim/v2/Users/{id}` rather than the collection. */
	byId: boolean;
	/** A resend after an unclear failure cannot change more than the first request (GET, PUT). */
	safeToResend: boolean;
	read(item: ItemReader): { call: ScimCall; subject: IDataObject };
	/** The output items of an answered item, from the response body (empty for a 204). */
	result(body: IDataObject, subject: IDataObject): IDataObject[];
	/**
	 * Where two items of one run may not name the same user: a second create meets 409, a second
	 * delete 404, and two updates race (each replaces the user whole). `input` is the one naming the
	 * user, whose label the problem gives.
	 */
	oneItemPerUser?: { input: Input<unknown>; keyOf(subject: IDataObject): string };
}

/** The user a request names in its path, when it names one. */
interface ScimTarget {
	id?: string;
}

/** One item per request: its body, its query, or (a GET or DELETE by ID) nothing but the path. */
const SCIM_SHAPE: RequestShape<ScimTarget> = {
	slots: { body: { form: 'fields', max: 1 }, query: { form: 'query', max: 1 }, path: { form: 'shared', max: 1 } },
	groupKey: (group) => group.id ?? '',
	pathParams: (group): Record<string, string> => (group.id === undefined ? {} : { id: group.id }),
};

/**
 * A SCIM 2.0 request on dashboard users (RFC 7644) as a declaration: one request per item, paced
 * against the 5,000 requests a day all SCIM endpoints share, SCIM errors given by their detail.
 */
export function scimUserOperation({
	method,
	byId,
	safeToResend,
	read,
	result,
	oneItemPerUser,
}: ScimUserOperation): OperationSpec {
	const endpoint: Endpoint<ScimTarget> = {
		method,
		path: byId ? '/scim/v2/Users/{id}' : '/scim/v2/Users',
		rateLimit: 'scim',
		permission: 'SCIM token',
		credentialType: 'engagementPlatformScimApi',
	};
	return declareOperation<ScimTarget, IDataObject>({
		endpoint,
		shape: SCIM_SHAPE,
		readItem(item) {
			const { call, subject } = read(item);
			const slot = call.body ? 'body' : call.query ? 'query' : 'path';
			return [
				{ itemIndex: item.itemIndex, slot, group: { id: call.id }, payload: call.body ?? call.query ?? {}, subject },
			];
		},
		checkAcrossItems: oneItemPerUser
			? (pieces) =>
					refuseRepeatedKeys(
						pieces,
						(piece) => oneItemPerUser.keyOf(piece.subject ?? {}),
						(_, first) =>
							oneItemPerUser.input.problem(
								`names the same user as row ${first + 1} (item ${first})`,
								'Merge the two items into one, or remove one.',
							),
					)
			: undefined,
		isSafeToResend: () => safeToResend,
		readResponse: (response, request) => new Map([[onlyPiece(request), { ok: true, data: response.body }]]),
		readErrorResponse: (response, request) =>
			new Map([[onlyPiece(request), { ok: false, error: scimError(response, endpoint) }]]),
		answersWithRecords: true,
		successStatus: { none: true },
		itemResult: (_, [{ piece, outcome }]) => result(outcome.ok ? (outcome.data ?? {}) : {}, piece.subject ?? {}),
	});
}

/** A SCIM error (`schemas`, `detail`, `status`) with advice for the cases the spec names. */
function scimError(response: ApiResponse, endpoint: Endpoint<ScimTarget>): PieceError {
	const error = responseError(response, endpoint, false);
	const detail = typeof response.body.detail === 'string' ? response.body.detail : undefined;
	if (!detail) return error;
	switch (response.statusCode) {
		case 404:
			return {
				...error,
				message: detail,
				description: 'No dashboard user has this ID. Get the ID with Find by Email; the user may have been deleted.',
			};
		case 409:
			return {
				...error,
				message: detail,
				description: 'A dashboard user with this email already exists. Get its ID with Find by Email, then use Update.',
			};
		case 400:
			return { ...error, message: detail, description: 'Correct the value the platform names and run the item again.' };
		default:
			return { ...error, message: detail };
	}
}
