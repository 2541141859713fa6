import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationSpec, Piece, PieceOutcome, PlannedRequest } from '../../shared/engine';
import { requiredText } from '../../shared/fields/inputs';
import { externalId } from '../shared/userInputs';

/** The spec: "up to 50 rename objects per request". */
const RENAMES_PER_REQUEST = 50;

export const option: INodePropertyOptions = {
	name: 'Rename External ID',
	value: 'renameExternalIds',
	action: "Rename a user's external ID",
	description: 'Give a user a new external ID; the old one stays usable as a deprecated ID',
	builderHint: {
		propertyHint:
			"Pick to change a user's external ID, for example after a CRM migration; the old ID stays usable as a deprecated ID.",
	},
};

const CURRENT = requiredText({
	displayName: 'Current External ID',
	name: 'currentExternalId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. crm-1001',
	description: "The user's primary external ID (not a deprecated one)",
	builderHint: {
		propertyHint: "The user's current primary external ID (not a deprecated one), mapped from each input item.",
	},
});
const NEW = externalId({
	displayName: 'New External ID',
	name: 'newExternalId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 7f3c9a2e-1b4d-4c8e-9a6f-2d1e0b3c4a5f',
	description: 'An ID no user has, as primary or deprecated ID',
	builderHint: {
		propertyHint:
			'The new external ID, mapped from each input item; no user may have it yet as primary or deprecated ID, and stand-in values such as test or null are refused.',
	},
});

export const description: INodeProperties[] = [...CURRENT.properties, ...NEW.properties];

const RENAMED = 'renamed';

export const operation: OperationSpec = {
	endpoint: {
		method: 'POST',
		path: '/users/external_ids/rename',
		rateLimit: 'users.external_ids.rename',
		permission: 'users.external_ids.rename',
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	},
	shape: {
		slots: { external_id_renames: { form: 'list', field: 'external_id_renames', max: RENAMES_PER_REQUEST } },
		batch: 'renames',
	},
	readItem(item) {
		const current_external_id = CURRENT.read(item);
		const new_external_id = NEW.read(item);
		if (current_external_id === new_external_id) {
			throw NEW.problem('is the same as the current one', 'Give a different new ID.');
		}
		const payload = { current_external_id, new_external_id };
		return [{ itemIndex: item.itemIndex, slot: 'external_id_renames', group: undefined, payload, subject: payload }];
	},
	// After an unclear failure a resend would report "does not exist" for a rename that was applied.
	isSafeToResend: () => false,
	readResponse: readRenameResponse,
	successStatus: { word: RENAMED },
	itemResult: (_, [{ piece }]) => [{ status: RENAMED, ...piece.subject }],
};

/**
 * rename_errors holds one entry per refused rename, each naming the index of its object in the
 * request ([index, message] as the platform sends it). A rename counts as done only when
 * `external_ids` lists it (by its current or its new ID: the spec says "successful renames" without
 * saying which, and either names it alone); one the answer neither lists nor refuses is in doubt, and
 * carries any error the node could not place.
 */
function readRenameResponse(response: { body: IDataObject }, request: PlannedRequest): Map<Piece, PieceOutcome> {
	const pieces = request.slots.get('external_id_renames') ?? [];
	const outcomes = new Map<Piece, PieceOutcome>();
	const unplaced: string[] = [];
	for (const entry of (response.body.rename_errors as unknown[] | undefined) ?? []) {
		const parts = Array.isArray(entry) ? entry : [entry];
		const index = parts.find((part): part is number => typeof part === 'number') ?? indexInText(parts);
		const message = parts.filter((part) => typeof part === 'string').join('; ') || JSON.stringify(entry);
		const piece = index === undefined ? undefined : pieces[index];
		if (!piece) {
			unplaced.push(message);
			continue;
		}
		outcomes.set(piece, {
			ok: false,
			error: {
				message: `The platform refused this rename: ${message}`,
				description:
					'The current ID must be a primary (not deprecated) ID, the new ID must be unused as primary or deprecated ID, and the two must differ.',
				delivery: 'not_applied',
			},
		});
	}
	const listed = new Set(
		(Array.isArray(response.body.external_ids) ? response.body.external_ids : []).map((id) => String(id)),
	);
	for (const piece of pieces) {
		if (outcomes.has(piece)) continue;
		const { current_external_id, new_external_id } = piece.payload;
		if (listed.has(String(current_external_id)) || listed.has(String(new_external_id))) {
			outcomes.set(piece, { ok: true });
			continue;
		}
		const words = unplaced.length > 0 ? `: ${unplaced.join('; ')}` : '';
		outcomes.set(piece, {
			ok: false,
			error: {
				message: `The platform's answer neither lists this rename as done nor refuses it${words}; it may or may not have been applied`,
				description:
					'Export the user by its current and its new ID to see which one the platform knows before running this item again: tracking under the new ID before the rename is done creates a second profile.',
				delivery: 'maybe_applied',
				response: response.body,
			},
		});
	}
	return outcomes;
}

function indexInText(parts: unknown[]): number | undefined {
	const match = parts
		.map(String)
		.join(' ')
		.match(/index\D*(\d+)/i);
	return match ? Number(match[1]) : undefined;
}
