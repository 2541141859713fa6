import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/itemInputError';
import type { OperationSpec, Piece, PieceOutcome, PlannedRequest } from '../../shared/engine/operation';
import { settleRemaining } from '../../shared/engine/outcomes';
import { prioritizationField, readPrioritization } from '../../shared/fields/prioritization';
import { fixedPackingSettings, optionsCollection } from '../../shared/fields/requestOptions';
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

export const operation: OperationSpec = {
	endpoint: {
		method: 'POST',
		path: '/users/identify',
		rateLimitGroup: 'users.identify',
		permission: 'users.identify',
		credentialType: 'engagementPlatformApi',
	},
	// "Up to 50 aliases per request"; emails are not counted separately in the spec, so 50 in all.
	settings: fixedPackingSettings({ perSlot: 50, perRequest: 50 }),
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
	buildBody(request) {
		const body: IDataObject = { merge_behavior: request.groupKey };
		for (const [slot, pieces] of request.slots) body[slot] = pieces.map((p) => p.payload);
		return body;
	},
	// A second identify of a merged profile finds no anonymous profile left: it cannot merge twice.
	isSafeToResend: () => true,
	readResponse: readIdentifyResponse,
	itemResult: (_, [{ piece }]) => [{ status: 'processed', ...piece.subject }],
};

function piece(itemIndex: number, slot: string, mergeBehavior: string, payload: IDataObject): Piece {
	const { prioritization, ...subject } = payload;
	return { itemIndex, slot, groupKey: mergeBehavior, payload, subject: { ...subject, merge_behavior: mergeBehavior } };
}

/**
 * The answer only counts identifications (aliases_processed), not which ones. When it counts
 * fewer than were sent, every item of the request says so rather than claiming success.
 */
function readIdentifyResponse(response: { body: IDataObject }, request: PlannedRequest): Map<Piece, PieceOutcome> {
	const processed = Number(response.body.aliases_processed);
	const shortfall =
		Number.isFinite(processed) && processed < request.pieceCount
			? [`The platform identified ${processed} of the ${request.pieceCount} profiles in this request; the others had no matching anonymous profile, or several matched`]
			: undefined;
	return settleRemaining(request, { ok: true, warnings: shortfall });
}
