import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ApiResponse, EarlierAttempts, Endpoint, ItemReader, RequestShape } from '../../shared/engine';
import {
	changingValueIn,
	declareOperation,
	onlyPiece,
	refuseRepeatedKeys,
	responseError,
	runIndexOf,
} from '../../shared/engine';
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
	description: 'Send a one-to-one transactional email (receipts, password resets), sent once however it is run again',
	builderHint: {
		propertyHint:
			'Pick for a one-to-one transactional email (a receipt, a password reset) of a transactional campaign, one recipient per input item; the same email run again within 24 hours (a retry, the same webhook twice) is sent once.',
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
	hint: 'Letters, digits and - _ + / =. The platform sends once per ID within 24 hours. Empty: an ID derived from this node and the input item as it came in, so the same item run again is sent once; to send an identical email again on purpose, give an ID of your own.',
	builderHint: {
		propertyHint:
			'Leave empty: the ID is derived from this n8n instance, workflow, node and the input item as it came in, so the same item run again within 24 hours (a retried execution, the same webhook twice) is sent once, and a different item is a different email. Map an ID only to send an identical email again on purpose, or to share one ID with another system.',
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

const SENT = 'sent';

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
		else changingValueHint(item);
		const properties = TRIGGER_PROPERTIES.read(item);
		const body: IDataObject = {
			external_send_id: given ?? derivedSendId(item),
			recipient,
		};
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
					`"${String(piece.payload.external_send_id)}" is row ${first + 1}'s (item ${first}) too, and the platform sends once per ID`,
					ONE_EMAIL_PER_ID,
				),
		),
	// The external_send_id makes the platform send once however often the request arrives.
	isSafeToResend: () => true,
	// "The external reference has been queued. Please retry to obtain send_id.": a resend met the first
	// send still being queued. The email was received; asking again later gives its dispatch.
	asksAgainLater: isQueued,
	// Still queued when the retries are spent: received, and it must not be sent again.
	readErrorResponse: (response, request, before) =>
		isQueued(response)
			? new Map([[onlyPiece(request), { ok: true, data: { queued: true, duplicate: isRepeat(response, before) } }]])
			: new Map([[onlyPiece(request), { ok: false, error: responseError(response, TRANSACTIONAL_ENDPOINT, false) }]]),
	readResponse: (response, request, before) =>
		new Map([
			[
				onlyPiece(request),
				{
					ok: true,
					data: {
						dispatch_id: response.body.dispatch_id,
						send_status: response.body.status,
						metadata: response.body.metadata,
						duplicate: isRepeat(response, before),
					},
				},
			],
		]),
	// `queued` or `duplicate` instead where the platform answers so: successes too, said apart (answerOf).
	successStatus: { word: SENT },
	itemResult: (_, [{ piece, outcome }]) => [answerOf(piece.subject ?? {}, outcome.ok ? (outcome.data ?? {}) : {})],
});

/**
 * The item's answer: `sent`; `queued` where the platform still queues it; `duplicate` where the platform
 * already had an email under this External Send ID from before this run and sent nothing now.
 */
function answerOf(subject: IDataObject, data: IDataObject): IDataObject {
	const { duplicate, queued, ...dispatch } = data;
	if (duplicate === true) {
		const since = receivedAt(dispatch.metadata);
		return {
			status: 'duplicate',
			...subject,
			...(queued !== true && dispatch),
			note: `Not sent again: the platform already had this email under the same External Send ID${since ? `, received ${since}` : ', still being queued'}, and sends one per ID within 24 hours. To send an identical email again on purpose, give it an External Send ID of your own.`,
		};
	}
	if (queued === true)
		return {
			status: 'queued',
			...subject,
			note: 'The platform received this email and is queueing it; its status arrives by postback. Do not run this item again: the External Send ID keeps it from being sent twice within 24 hours, not after.',
		};
	return { status: SENT, ...subject, ...dispatch };
}

const QUEUED = /external reference has been queued/i;

function isQueued(response: ApiResponse): boolean {
	return response.statusCode === 400 && typeof response.body.message === 'string' && QUEUED.test(response.body.message);
}

/**
 * Whether the answer reports an email the platform had before this run sent it: the first answer said
 * the ID was being queued, or the answer gives a send further on than a new one (the spec shows the
 * status as "current"; a new send is answered `queued`, as a well-known platform does, so a later status
 * is an earlier send's). Not where an earlier attempt of this run may have made it (an answer lost, a
 * 5xx): that send is this run's own. A repeat answered while the first is still `queued` cannot be told
 * from a new send, and is answered `sent`: the platform holds one email either way.
 */
function isRepeat(response: ApiResponse, before: EarlierAttempts): boolean {
	if (before.mayHaveApplied) return false;
	if (before.askedAgainFirst) return true;
	return response.statusCode < 300 && typeof response.body.status === 'string' && response.body.status !== 'queued';
}

/** When the platform received the earlier send, where its answer says (metadata's `received_at`, as the postbacks give it). */
function receivedAt(metadata: unknown): string | undefined {
	const at = (metadata as IDataObject | undefined)?.received_at;
	return typeof at === 'string' && at !== '' ? at : undefined;
}

/**
 * One per email, whoever runs it: the n8n instance, the workflow and the node, with the input item as it
 * came in (its fields and the node's parameters as written: shared/engine/asItCame.ts) and how many identical
 * items this node read before it in this execution. The same item run again within the platform's 24
 * hours (Retry On Fail, Executions → Retry with the saved or the current workflow, the failed step run
 * again in the editor, the same webhook delivered twice, a sub-workflow called again) derives the same
 * ID and is sent once, whatever `{{ $now }}` or a random value in its fields evaluate to then; a
 * different order is a different email; two identical items are two emails, in one run or in two passes
 * of a loop; two instances sharing a workflow's and node's IDs (staging and production) never derive the
 * same one.
 */
function derivedSendId(item: ItemReader): string {
	const { context } = item;
	const asItCame = item.asItCame();
	const where = [context.getInstanceId?.() ?? '', context.getWorkflow().id ?? '', context.getNode().id];
	return createHash('sha256')
		.update(JSON.stringify([...where, asItCame, identicalBefore(item, asItCame)]))
		.digest('base64url')
		.slice(0, 32);
}

/**
 * A field mapped with a value that changes every run (`{{ $now }}`, a random number) does not make the
 * same item another email: said once a run, since a marketer may expect the new value to go.
 */
function changingValueHint(item: ItemReader): void {
	item.forRun('changingValue', () => {
		const found = changingValueIn(item.context.getNode().parameters ?? {});
		return {
			hint: () =>
				found && {
					message: `"${item.labelOf(found.parameter)}" reads ${found.reads}, which changes every run: the External Send ID derived for each email comes from the input item, not from that value, so the same item run again within 24 hours is the same email, sent once (answered "duplicate"). To send an identical email again on purpose, map an External Send ID of your own.`,
					type: 'info' as const,
					location: 'outputPane' as const,
				},
		};
	});
}

/**
 * How many identical items this node read before this one in the execution: in earlier runs of it
 * (Loop Over Items, merged branches: each run has its own run index) and earlier in this run. Kept in the
 * node's context by run, so that the same run read again (Retry On Fail, Executions → Retry from the
 * saved context) counts as it did; a new execution starts from none.
 */
function identicalBefore(item: ItemReader, asItCame: string): number {
	const context = item.context.getContext('node');
	const byRun = (context.identicalItems ??= {}) as Record<string, Record<string, number>>;
	const run = runIndexOf(item.context);
	const inThisRun = item.earlierInRun(asItCame);
	let inEarlierRuns = 0;
	for (const other in byRun) if (Number(other) < run) inEarlierRuns += byRun[other][asItCame] ?? 0;
	(byRun[run] ??= {})[asItCame] = inThisRun + 1;
	return inEarlierRuns + inThisRun;
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
