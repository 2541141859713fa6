import type { IDataObject } from 'n8n-workflow';

import type { ItemReader } from '../shared/engine/itemReader';
import { ItemInputError } from '../shared/engine/itemInputError';
import type { OperationSpec, Piece, PieceOutcome, PlannedRequest } from '../shared/engine/operation';
import { settleRemaining } from '../shared/engine/outcomes';
import { responseError } from '../shared/engine/platformErrors';
import { fixedPackingSettings } from '../shared/fields/requestOptions';
import { UUID } from '../shared/schemas/identifiers';
import { translationErrorOf } from './translationErrors';

/** A query parameter: its name, its field in the node, and whether the spec says it is a UUID. */
export interface LookupParameter {
	name: string;
	field: string;
	label: string;
	uuid: boolean;
	required: boolean;
}

interface LookupEndpoint {
	path: string;
	permission: string;
	rateLimitGroup: string;
	parameters: LookupParameter[];
}

/**
 * A GET of one message's translations, as a declaration. Items asking for the same
 * translations share one request; each item gets one output item per translation.
 */
export function translationLookup({ path, permission, rateLimitGroup, parameters }: LookupEndpoint): OperationSpec {
	const endpoint = { method: 'GET' as const, path, rateLimitGroup, permission, credentialType: 'engagementPlatformApi' as const };
	return {
		endpoint,
		// A lookup is one GET whatever the number of items asking for it.
		settings: fixedPackingSettings({ perSlot: Number.POSITIVE_INFINITY }),
		readItem: (item) => [readLookup(item, parameters)],
		queryFor: (request) => firstPiece(request).payload,
		isSafeToResend: () => true,
		readResponse: (response, request) => {
			const translations = Array.isArray(response.body.translations) ? (response.body.translations as IDataObject[]) : [];
			return settleRemaining(request, { ok: true, data: { translations } });
		},
		readErrorResponse: (response, request) => {
			const known = translationErrorOf(response.body);
			const outcome: PieceOutcome = known
				? {
						ok: false,
						error: { message: `${known.code}: ${known.meaning}`, description: known.fix, delivery: 'not_applied', httpCode: response.statusCode, response: response.body },
					}
				: { ok: false, error: responseError(response, endpoint, false) };
			return settleRemaining(request, outcome);
		},
		itemResult: (_, [{ piece, outcome }]) => {
			const translations = (outcome.ok ? (outcome.data?.translations as IDataObject[] | undefined) : undefined) ?? [];
			// An item always gets a result: a message without translations says so.
			if (translations.length === 0) return [{ ...piece.subject, translations: [] }];
			return translations.map(({ locale, translation_map }) => ({ ...piece.subject, locale, translation_map }));
		},
	};
}

function readLookup(item: ItemReader, parameters: LookupParameter[]): Piece {
	const query: IDataObject = {};
	for (const { name, field, label, uuid, required } of parameters) {
		const value = required ? item.string(field, label) : item.optionalString(field, label);
		if (value === undefined) continue;
		if (uuid && !UUID.test(value)) {
			throw new ItemInputError(label, `"${value.slice(0, 60)}" is not a UUID`, 'Copy the ID from the API identifiers in the platform, e.g. 3f2c8a1e-7b4d-4e9a-9c1f-2d5e6a7b8c9d.');
		}
		query[name] = value;
	}
	return { itemIndex: item.itemIndex, slot: 'lookup', groupKey: JSON.stringify(query), payload: query, subject: query };
}

function firstPiece(request: PlannedRequest): Piece {
	return request.slots.get('lookup')![0];
}
