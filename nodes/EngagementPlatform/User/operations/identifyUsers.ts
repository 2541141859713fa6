import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/itemInputError';
import type { Piece, PieceOutcome, PlannedRequest } from '../../shared/engine/operation';
import { declareOperation } from '../../shared/engine/operation';
import { settleRemaining } from '../../shared/engine/outcomes';
import type { RequestShape } from '../../shared/engine/requestShape';
import { prioritizationField, readPrioritization } from '../../shared/fields/prioritization';
import { optionsCollection, requestOptionSettings } from '../../shared/fields/requestOptions';
import { PER_REQUEST } from '../../shared/limits/requestLimits';
import { EMAIL } from '../../shared/schemas/identifiers';
import { readExternalId } from '../../shared/fields/externalId';

export const option: INodePropertyOptions = {
	name: 'Identify',
	value: 'identifyUsers',
	action: 'Identify an anonymous user',
	description: 'Merge an alias-only or email-only profile into the profile with an external ID',
};

const show = { operation: ['identifyUsers'] };
const whenAlias = { show: { ...show, profileType: ['alias'] } };
const whenEmail = { show: { ...show, profileType: ['email'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. user-1234',
		description: 'The external ID of the identified profile that the anonymous profile merges into',
		displayOptions: { show },
	},
	{
		displayName: 'Anonymous Profile',
		name: 'profileType',
		type: 'options',
		options: [
			{ name: 'Alias-Only Profile', value: 'alias' },
			{ name: 'Email-Only Profile', value: 'email' },
		],
		default: 'alias',
		displayOptions: { show },
	},
	{ displayName: 'Alias Name', name: 'aliasName', type: 'string', default: '', required: true, displayOptions: whenAlias },
	{ displayName: 'Alias Label', name: 'aliasLabel', type: 'string', default: '', required: true, displayOptions: whenAlias },
	{ displayName: 'Email', name: 'email', type: 'string', default: '', required: true, placeholder: 'e.g. name@example.com', displayOptions: whenEmail },
	prioritizationField(
		whenEmail,
		'unidentifiedThenRecent',
		'Which profile with this email to merge when several have it. If several still match, nothing is merged.',
	),
	{
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
				description: 'Keep only push tokens and message history; the anonymous attributes, events and purchases are orphaned',
			},
		],
		default: 'merge',
		displayOptions: { show },
	},
	optionsCollection(show),
];

interface IdentifyGroup {
	merge_behavior: string;
}

const max = PER_REQUEST.identifyProfiles;
const IDENTIFY_SHAPE: RequestShape<IdentifyGroup> = {
	slots: {
		// The spec marks aliases_to_identify required: a request of emails alone sends it empty.
		aliases_to_identify: { form: 'list', field: 'aliases_to_identify', max, alwaysSent: true },
		emails_to_identify: { form: 'list', field: 'emails_to_identify', max },
	},
	// "Up to 50 aliases per request"; emails are not counted separately in the spec, so 50 in all.
	total: max,
	groupKey: (group) => group.merge_behavior,
	groupBody: (group) => ({ merge_behavior: group.merge_behavior }),
};

export const operation = declareOperation<IdentifyGroup, IDataObject>({
	endpoint: {
		method: 'POST',
		path: '/users/identify',
		rateLimit: 'users.identify',
		permission: 'users.identify',
		credentialType: 'engagementPlatformApi',
	},
	shape: IDENTIFY_SHAPE,
	settings: requestOptionSettings,
	readItem(item) {
		const external_id = readExternalId(item, 'externalId', 'External ID');
		const mergeBehavior = item.raw('mergeBehavior', 'merge') as string;
		if (item.raw('profileType', 'alias') === 'email') {
			const email = item.string('email', 'Email');
			if (!EMAIL.test(email)) throw new ItemInputError('Email', `"${email}" is not an email address`, 'Map an address such as name@example.com.');
			const prioritization = readPrioritization(item, 'unidentifiedThenRecent');
			return [piece(item.itemIndex, 'emails_to_identify', mergeBehavior, { external_id, email, prioritization })];
		}
		const user_alias = { alias_name: item.string('aliasName', 'Alias Name'), alias_label: item.string('aliasLabel', 'Alias Label') };
		return [piece(item.itemIndex, 'aliases_to_identify', mergeBehavior, { external_id, user_alias })];
	},
	// A second identify of a merged profile finds no anonymous profile left: it cannot merge twice.
	isSafeToResend: () => true,
	readResponse: readIdentifyResponse,
	itemResult: (_, [{ piece }]) => [{ status: 'processed', ...piece.subject }],
});

function piece(itemIndex: number, slot: string, mergeBehavior: string, payload: IDataObject): Piece<IdentifyGroup> {
	const { prioritization, ...subject } = payload;
	return { itemIndex, slot, group: { merge_behavior: mergeBehavior }, payload, subject: { ...subject, merge_behavior: mergeBehavior } };
}

/**
 * The answer only counts identifications (aliases_processed), not which ones. When it counts
 * fewer than were sent, every item of the request says so rather than claiming success.
 */
function readIdentifyResponse(response: { body: IDataObject }, request: PlannedRequest<IdentifyGroup>): Map<Piece<IdentifyGroup>, PieceOutcome> {
	const processed = Number(response.body.aliases_processed);
	const shortfall =
		Number.isFinite(processed) && processed < request.pieceCount
			? [`The platform identified ${processed} of the ${request.pieceCount} profiles in this request; the others had no matching anonymous profile, or several matched`]
			: undefined;
	return settleRemaining(request, { ok: true, warnings: shortfall });
}
