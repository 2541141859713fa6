import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Endpoint } from '../../shared/engine/operation';
import { declareOperation } from '../../shared/engine/operation';
import { runIndexOf } from '../../shared/engine/runIndex';
import { responseError } from '../../shared/engine/send/platformErrors';
import type { ApiResponse } from '../../shared/engine/send/transport';
import { onlyPiece } from '../../shared/engine/send/sendRequests';
import { refuseRepeatedKeys } from '../../shared/engine/read/repeatedKeys';
import type { RequestShape } from '../../shared/engine/plan/planner';
import { optionalText, pathSegment, user } from '../../shared/fields/inputs';
import type { IdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackAttributes } from '../../shared/schemas/trackObjects';
import { namedValues } from '../../shared/fields/namedValues';
import { recipientOf } from '../shared/recipientFields';

/** The spec: "Exactly one user per request". */
const RECIPIENTS_PER_REQUEST = 1;

export const option: INodePropertyOptions = {
	name: 'Send Transactional Email',
	value: 'sendTransactionalEmail',
	action: 'Send a transactional email',
	description: 'Send a one-to-one transactional email (receipts, password resets), deduplicated on retry',
	builderHint: {
		propertyHint:
			'Pick for a one-to-one transactional email (a receipt, a password reset) of a transactional campaign, one recipient per input item; a retry never sends it twice.',
	},
};

/** "Exactly one user per request", by external user ID or alias. */
const RECIPIENT_KINDS: readonly IdentifierKind[] = ['external_id', 'user_alias'];
const EXTERNAL_SEND_ID = /^[A-Za-z0-9+/=_-]+$/;

const CAMPAIGN = pathSegment({
	displayName: 'Campaign ID',
	name: 'campaignId',
	type: 'string',
	default: '',
	required: true,
	description: 'A transactional email campaign',
	builderHint: {
		propertyHint:
			'The API identifier of a transactional email campaign in the platform. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
	},
});

const USER = user(RECIPIENT_KINDS);

const SEND_ID = optionalText({
	displayName: 'External Send ID',
	name: 'externalSendId',
	type: 'string',
	default: '',
	placeholder: 'e.g. order-1001-receipt',
	hint: 'Letters, digits and - _ + / =. The platform sends once per ID within 24 hours. Empty: an ID derived from this execution and item, so a retry never sends twice.',
	builderHint: {
		propertyHint:
			'Leave empty for an ID derived per execution and item, so retries within the run never send twice. Map a stable key (for example the order ID plus -receipt) only when a new execution for the same email must not send it again within 24 hours.',
	},
});

const TRIGGER_PROPERTIES = namedValues({
	name: 'triggerProperties',
	displayName: 'Trigger Properties',
	noun: 'Property',
	example: '{"order_id": "1001", "total": "59.90"}',
});

const ATTRIBUTES = namedValues({
	name: 'recipientAttributes',
	displayName: 'Recipient Attributes',
	noun: 'Attribute',
	example: '{"first_name": "Ada", "email": "ada@example.com"}',
});

export const description: INodeProperties[] = [
	...CAMPAIGN.properties,
	...USER.properties,
	...SEND_ID.properties,
	...TRIGGER_PROPERTIES.properties,
	...ATTRIBUTES.properties,
];

/** One email per External Send ID: the fix where one is given twice. */
const ONE_EMAIL_PER_ID =
	'Give each email its own ID, e.g. {{ $json.order_id }}-receipt, or leave the field empty for one derived per item.';

interface TransactionalCampaign {
	campaign_id: string;
}

const TRANSACTIONAL_SHAPE: RequestShape<TransactionalCampaign> = {
	// "Exactly one user per request": the body is one item's send; requests run in parallel within the options' limit.
	slots: { send: { form: 'fields', max: RECIPIENTS_PER_REQUEST } },
	groupKey: (group) => group.campaign_id,
	pathParams: (group) => ({ campaign_id: group.campaign_id }),
};

const TRANSACTIONAL_ENDPOINT: Endpoint<TransactionalCampaign> = {
	method: 'POST',
	path: '/transactional/v1/campaigns/{campaign_id}/send',
	rateLimit: 'transactional',
	permission: 'transactional.send',
	credentialType: 'engagementPlatformApi',
	// Spec: "Response: dispatch_id, status, metadata".
	successCarries: 'dispatch_id',
};

export const operation = declareOperation<TransactionalCampaign, IDataObject>({
	endpoint: TRANSACTIONAL_ENDPOINT,
	shape: TRANSACTIONAL_SHAPE,
	readItem(item) {
		const campaignId = CAMPAIGN.read(item);
		const recipient: IDataObject = { ...recipientOf(USER.read(item)) };
		const subject = { campaign_id: campaignId, ...recipient };
		const attributes = ATTRIBUTES.read(item);
		if (attributes) recipient.attributes = parseOrThrow(trackAttributes, attributes, ATTRIBUTES.label) as IDataObject;

		const given = SEND_ID.read(item);
		if (given && !EXTERNAL_SEND_ID.test(given)) {
			throw SEND_ID.problem(
				`"${given}" has characters other than letters, digits and - _ + / =`,
				'Remove the other characters, e.g. spaces or dots.',
			);
		}
		if (given) claimSendId(item.context, given, JSON.stringify(recipient), item.itemIndex);
		const body: IDataObject = {
			external_send_id: given ?? derivedSendId(item.context, item.itemIndex),
			recipient,
		};
		const properties = TRIGGER_PROPERTIES.read(item);
		if (properties) body.trigger_properties = properties;
		const group = { campaign_id: campaignId };
		return [
			{
				itemIndex: item.itemIndex,
				slot: 'send',
				group,
				payload: body,
				subject: { ...subject, external_send_id: body.external_send_id },
			},
		];
	},
	// The platform sends once per External Send ID within 24 hours: a second item with the same ID
	// would be dropped as a duplicate while answered as sent, so it is refused before anything leaves.
	checkAcrossItems: (pieces) =>
		refuseRepeatedKeys(
			pieces,
			(piece) => String(piece.payload.external_send_id),
			(piece, first) =>
				SEND_ID.problem(
					`"${String(piece.payload.external_send_id)}" is item ${first}'s too, and the platform sends once per ID`,
					ONE_EMAIL_PER_ID,
				),
		),
	// The external_send_id makes the platform send once however often the request arrives.
	isSafeToResend: () => true,
	// "The external reference has been queued. Please retry to obtain send_id.": a resend met the first
	// send still being queued. The email was received; asking again later gives its dispatch.
	asksAgainLater: isQueued,
	// Still queued when the retries are spent: received, and it must not be sent again.
	readErrorResponse: (response, request) =>
		isQueued(response)
			? new Map([[onlyPiece(request), { ok: true, data: { queued: true } }]])
			: new Map([[onlyPiece(request), { ok: false, error: responseError(response, TRANSACTIONAL_ENDPOINT, false) }]]),
	readResponse: (response, request) =>
		new Map([
			[
				onlyPiece(request),
				{
					ok: true,
					data: {
						dispatch_id: response.body.dispatch_id,
						send_status: response.body.status,
						metadata: response.body.metadata,
					},
				},
			],
		]),
	itemResult: (_, [{ piece, outcome }]) =>
		outcome.ok && outcome.data?.queued === true
			? [
					{
						status: 'queued',
						...piece.subject,
						note: 'The platform received this email and is queueing it; its status arrives by postback. Do not run this item again: the External Send ID keeps it from being sent twice within 24 hours, not after.',
					},
				]
			: [{ status: 'sent', ...piece.subject, ...(outcome.ok ? outcome.data : {}) }],
});

const QUEUED = /external reference has been queued/i;

function isQueued(response: ApiResponse): boolean {
	return response.statusCode === 400 && typeof response.body.message === 'string' && QUEUED.test(response.body.message);
}

/**
 * One per run of the node and item: n8n runs a node several times in one execution (Loop Over Items,
 * both IF branches wired into it, an agent's tool calls), each run with its own run index and item
 * indexes from 0, so the run index is part of the ID. Stable within the run, so the engine's resends
 * and n8n's Retry On Fail (the same run tried again, same run index) reuse it and the platform sends
 * once. A new execution (a whole execution run again) derives new IDs: see "Retries and pacing" in
 * docs/delivery.md.
 */
function derivedSendId(context: IExecuteFunctions, itemIndex: number): string {
	return createHash('sha256')
		.update(`${runKeyOf(context)}:${itemIndex}`)
		.digest('base64url')
		.slice(0, 32);
}

/**
 * An External Send ID given to another recipient by an earlier run of this node in the same execution
 * (a loop's earlier pass, the other IF branch) is refused as checkAcrossItems refuses it within a run:
 * the platform would drop this email as a duplicate while answering it as sent. The node's context
 * keeps, for this execution only, each ID with its recipient and the run that gave it; the same run
 * tried again (Retry On Fail) and the same recipient again (the platform sends it once) pass.
 */
function claimSendId(context: IExecuteFunctions, id: string, recipient: string, itemIndex: number): void {
	const claims = ((context.getContext('node').sendIds as IDataObject | undefined) ?? {}) as Record<
		string,
		{ recipient: string; run: number; item: number }
	>;
	const run = runIndexOf(context);
	const earlier = claims[id];
	if (earlier && earlier.run !== run && earlier.recipient !== recipient) {
		throw SEND_ID.problem(
			`"${id}" went to another recipient in an earlier run of this node in this execution (item ${earlier.item} of run ${earlier.run + 1}), and the platform sends once per ID`,
			ONE_EMAIL_PER_ID,
		);
	}
	if (!earlier || earlier.run === run) claims[id] = { recipient, run, item: itemIndex };
	context.getContext('node').sendIds = claims as unknown as IDataObject;
}

function runKeyOf(context: IExecuteFunctions): string {
	return `${context.getExecutionId()}:${context.getNode().id}:${runIndexOf(context)}`;
}
