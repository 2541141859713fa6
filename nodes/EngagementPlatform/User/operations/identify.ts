import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Piece, PieceOutcome, PlannedRequest, RequestShape } from '../../shared/engine';
import { answerRemaining, declareOperation } from '../../shared/engine';
import { prioritizationInput } from '../../shared/fields/prioritization';
import type { IdentifierKind, IdentifyByLabel } from '../../shared/descriptions/userIdentifierFields';
import { givenOrDefault, user } from '../../shared/fields/inputs';
import { externalId } from '../shared/userInputs';
import { withoutKeys } from '../../shared/objects/withoutKeys';

/** The spec: "up to 50 aliases per request"; emails are counted with them. */
const PROFILES_PER_REQUEST = 50;

export const option: INodePropertyOptions = {
	name: 'Identify',
	value: 'identify',
	action: 'Identify an anonymous user',
	description: 'Merge an alias-only or email-only profile into the profile with an external ID',
	builderHint: {
		propertyHint:
			"Pick to merge an alias-only or email-only profile (for example a guest checkout) into the profile with the user's external ID, once the user is known by it.",
	},
};

/** "Up to 50 aliases per request" or emails: identify merges an alias-only or email-only profile. */
const ANONYMOUS_KINDS: readonly IdentifierKind[] = ['user_alias', 'email'];
const ANONYMOUS_PROFILE_BY: IdentifyByLabel = {
	displayName: 'Anonymous Profile By',
	description:
		'How the platform finds the alias-only or email-only profile that merges into the one with the external ID',
};

const EXTERNAL_ID = externalId({
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. user-1234',
	description: 'The external ID of the identified profile that the anonymous profile merges into',
	builderHint: {
		propertyHint:
			"The external ID (the user's ID in your own system) of the profile the anonymous one merges into, mapped from each input item. Stand-in values such as test, null, unknown or 0 are refused as dummy users.",
	},
});
const ANONYMOUS = user(ANONYMOUS_KINDS, { label: ANONYMOUS_PROFILE_BY });
const PRIORITIZATION = prioritizationInput(
	{ show: { [ANONYMOUS.name]: ['email'] } },
	'unidentifiedThenRecent',
	'Which profile with this email to merge when several have it. If several still match, nothing is merged.',
);
const MERGE_BEHAVIOR = givenOrDefault<string>({
	displayName: 'Merge Behavior',
	name: 'mergeBehavior',
	type: 'options',
	options: [
		{
			name: 'Merge',
			value: 'merge',
			description: 'The identified profile takes the anonymous profile’s names, attributes, events and purchases',
		},
		{
			name: 'None',
			value: 'none',
			description:
				'Keep only push tokens and message history; the anonymous attributes, events and purchases are orphaned',
		},
	],
	default: 'merge',
});

export const description: INodeProperties[] = [
	...EXTERNAL_ID.properties,
	...ANONYMOUS.properties,
	...PRIORITIZATION.properties,
	...MERGE_BEHAVIOR.properties,
];

interface IdentifyGroup {
	merge_behavior: string;
}

const max = PROFILES_PER_REQUEST;
const IDENTIFY_SHAPE: RequestShape<IdentifyGroup> = {
	slots: {
		// The spec marks aliases_to_identify required: a request of emails alone sends it empty.
		aliases_to_identify: { form: 'list', field: 'aliases_to_identify', max, alwaysSent: true },
		emails_to_identify: { form: 'list', field: 'emails_to_identify', max },
	},
	// "Up to 50 aliases per request"; emails are not counted separately in the spec, so 50 in all.
	total: max,
	batch: 'aliases and emails',
	groupKey: (group) => group.merge_behavior,
	groupBody: (group) => ({ merge_behavior: group.merge_behavior }),
};

const IDENTIFIED = 'identified';

export const operation = declareOperation<IdentifyGroup, IDataObject>({
	endpoint: {
		method: 'POST',
		path: '/users/identify',
		rateLimit: 'users.identify',
		permission: 'users.identify',
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	},
	shape: IDENTIFY_SHAPE,
	readItem(item) {
		const external_id = EXTERNAL_ID.read(item);
		const mergeBehavior = MERGE_BEHAVIOR.read(item);
		const { kind, identifier: anonymous } = ANONYMOUS.read(item);
		if (kind === 'email') {
			const prioritization = PRIORITIZATION.read(item);
			return [
				piece(item.itemIndex, 'emails_to_identify', mergeBehavior, { external_id, ...anonymous, prioritization }),
			];
		}
		return [piece(item.itemIndex, 'aliases_to_identify', mergeBehavior, { external_id, ...anonymous })];
	},
	// A second identify of a merged alias finds no alias-only profile left: it cannot merge twice. Not so
	// for emails: with the first email-only profile merged, prioritization picks the next one sharing
	// the email, so a request holding emails is never resent after an unclear failure.
	isSafeToResend: (request) => (request.slots.get('emails_to_identify')?.length ?? 0) === 0,
	readResponse: readIdentifyResponse,
	successStatus: { word: IDENTIFIED },
	itemResult: (_, [{ piece }]) => [{ status: IDENTIFIED, ...piece.subject }],
});

function piece(itemIndex: number, slot: string, mergeBehavior: string, payload: IDataObject): Piece<IdentifyGroup> {
	const subject = withoutKeys(payload, ['prioritization']);
	return {
		itemIndex,
		slot,
		group: { merge_behavior: mergeBehavior },
		payload,
		subject: { ...subject, merge_behavior: mergeBehavior },
	};
}

/**
 * The answer only counts identifications (aliases_processed), not which ones. When it counts
 * fewer than were sent, every item of the request says so rather than claiming success.
 */
function readIdentifyResponse(
	response: { body: IDataObject },
	request: PlannedRequest<IdentifyGroup>,
): Map<Piece<IdentifyGroup>, PieceOutcome> {
	const processed = Number(response.body.aliases_processed);
	const shortfall =
		Number.isFinite(processed) && processed < request.pieceCount
			? [
					`The platform identified ${processed} of the ${request.pieceCount} profiles in this request; the others had no matching anonymous profile, or several matched`,
				]
			: undefined;
	return answerRemaining(request, { ok: true, warnings: shortfall });
}
