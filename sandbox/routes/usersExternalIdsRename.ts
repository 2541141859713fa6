import { badRequest, unknownFieldsProblem } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { isPlainObject } from '../formats';
import { renameExternalId } from '../identity/renameExternalId';

const MAX_RENAMES = 50;

/**
 * POST /users/external_ids/rename: each rename object applied in order (a later one sees the earlier
 * ones), or refused on its own in `rename_errors` as [index, message].
 */
export const usersExternalIdsRename: RouteDeclaration = {
	method: 'POST',
	path: '/users/external_ids/rename',
	auth: 'rest',
	permission: 'users.external_ids.rename',
	rateLimitGroup: 'users.external_ids.rename',
	handle({ body, state, now }) {
		const fatal = fatalProblem(body);
		if (fatal) return badRequest(fatal);
		const renames = (body as { external_id_renames: unknown[] }).external_id_renames;

		const externalIds: string[] = [];
		const renameErrors: Array<[number, string]> = [];
		renames.forEach((rename, index) => {
			const outcome = renameExternalId(state, rename, now);
			if ('renamed' in outcome) externalIds.push(outcome.renamed);
			else renameErrors.push([index, outcome.error]);
		});
		// The spec: `message` is success for any valid request, whatever the individual renames did.
		return { status: 201, body: { message: 'success', external_ids: externalIds, rename_errors: renameErrors } };
	},
};

function fatalProblem(body: unknown): string | undefined {
	if (!isPlainObject(body)) return 'Request body must be a JSON object with external_id_renames';
	const unknown = unknownFieldsProblem(body, ['external_id_renames']);
	if (unknown) return unknown;
	const renames = body.external_id_renames;
	if (!Array.isArray(renames) || renames.length === 0) {
		return `external_id_renames is required: a non-empty array of at most ${MAX_RENAMES} objects {current_external_id, new_external_id}`;
	}
	if (renames.length > MAX_RENAMES)
		return `external_id_renames may contain at most ${MAX_RENAMES} objects per request; received ${renames.length}`;
	return undefined;
}
