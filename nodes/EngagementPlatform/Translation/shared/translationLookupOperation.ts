import type { IDataObject } from 'n8n-workflow';

import type { Endpoint, ItemReader, OperationSpec, Piece, PieceOutcome, RequestShape } from '../../shared/engine';
import { answerRemaining, declareOperation, responseError } from '../../shared/engine';
import type { Input } from '../../shared/fields/inputs';
import type { RateLimitName } from '../../shared/limits/rateLimits';
import { UUID } from '../../shared/schemas/identifiers';
import { translationErrorOf } from './translationErrors';

/** A query parameter: its name, the input that gives it (undefined: not asked), and whether the spec says it is a UUID. */
interface LookupParameter {
	name: string;
	input: Input<string | undefined>;
	uuid: boolean;
}

/**
 * The input naming the locale a translation is kept for, by its name, where the endpoint cannot
 * filter; empty keeps every translation.
 */
type LocaleFilter = Input<string | undefined>;

interface LookupEndpoint {
	path: string;
	permission: string;
	rateLimit: RateLimitName;
	parameters: LookupParameter[];
	localeFilter?: LocaleFilter;
}

/** The query a request asks; items asking the same share it. */
type Lookup = IDataObject;
/** The locale an item keeps, when it asks for one the query cannot name. */
interface Asked {
	localeName?: string;
}

const LOOKUP_SHAPE: RequestShape<Lookup, Asked> = {
	slots: { lookup: { form: 'shared', max: Number.POSITIVE_INFINITY } },
	groupKey: (query) => JSON.stringify(query),
	groupQuery: (query) => query,
};

/**
 * A GET of one message's translations, as a declaration. Items asking for the same
 * translations share one request; each item gets one output item per translation.
 */
export function translationLookupOperation({
	path,
	permission,
	rateLimit,
	parameters,
	localeFilter,
}: LookupEndpoint): OperationSpec {
	const endpoint: Endpoint<Lookup, Asked> = {
		method: 'GET',
		path,
		rateLimit,
		permission,
		credentialType: 'engagementPlatformApi',
	};
	return declareOperation<Lookup, Asked>({
		endpoint,
		// A lookup is one GET whatever the number of items asking for it.
		shape: LOOKUP_SHAPE,
		readItem: (item) => [readLookup(item, parameters, localeFilter)],
		isSafeToResend: () => true,
		readResponse: (response, request) => {
			const translations = Array.isArray(response.body.translations)
				? (response.body.translations as IDataObject[])
				: [];
			return answerRemaining(request, { ok: true, data: { translations } });
		},
		readErrorResponse: (response, request) => {
			const known = translationErrorOf(response.body);
			const outcome: PieceOutcome = known
				? {
						ok: false,
						error: {
							message: `${known.code}: ${known.meaning}`,
							description: known.fix,
							delivery: 'not_applied',
							httpCode: response.statusCode,
							response: response.body,
						},
					}
				: { ok: false, error: responseError(response, endpoint, false) };
			return answerRemaining(request, outcome);
		},
		answersWithRecords: true,
		successStatus: { none: true },
		itemResult: (_, [{ piece, outcome }]) => {
			const all = (outcome.ok ? (outcome.data?.translations as IDataObject[] | undefined) : undefined) ?? [];
			const asked = piece.payload.localeName?.toLowerCase();
			const translations =
				asked === undefined
					? all
					: all.filter(({ locale }) => String((locale as IDataObject | undefined)?.name).toLowerCase() === asked);
			// An item always gets a result: a message without translations (in the locale asked) says so.
			if (translations.length === 0) return [{ ...piece.subject, translations: [] }];
			return translations.map(({ locale, translation_map }) => ({ ...piece.subject, locale, translation_map }));
		},
	});
}

function readLookup(
	item: ItemReader,
	parameters: LookupParameter[],
	localeFilter: LocaleFilter | undefined,
): Piece<Lookup, Asked> {
	const query: IDataObject = {};
	for (const { name, input, uuid } of parameters) {
		const value = input.read(item);
		if (value === undefined) continue;
		if (uuid && !UUID.test(value)) {
			throw input.problem(
				`"${value.slice(0, 60)}" is not a UUID`,
				'Copy the ID from the API identifiers in the platform, e.g. 3f2c8a1e-7b4d-4e9a-9c1f-2d5e6a7b8c9d.',
			);
		}
		query[name] = value;
	}
	const localeName = localeFilter?.read(item);
	if (localeName !== undefined && UUID.test(localeName)) {
		throw localeFilter!.problem(
			`"${localeName}" is a locale ID; this endpoint is asked by locale name`,
			'Give the locale name the multi-language settings show, e.g. de-DE.',
		);
	}
	const subject = localeName === undefined ? query : { ...query, locale_name: localeName };
	return { itemIndex: item.itemIndex, slot: 'lookup', group: query, payload: { localeName }, subject };
}
