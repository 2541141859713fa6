import type { UserAlias } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { readRecipientAttributes } from '../messaging/recipientAttributes';
import type { AttributeUpdate } from '../track/attributes';
import { accept, refuse, type Checked } from '../track/checked';

export const CAMPAIGN_ID_FORMAT_MESSAGE = 'campaign_id must be a string of the campaign api identifier';

// Not shown: the format of a campaign API identifier. The platform's are UUIDs; the sandbox seeds
// readable IDs (order-receipt), so it takes what both are made of: 1 to 128 letters, digits, hyphens,
// underscores. A space, a brace from an unfilled template (`{campaign_id}`) or a colon is refused.
const CAMPAIGN_API_ID = /^[A-Za-z0-9_-]{1,128}$/;

// Spec: Base64-compatible, one or more of letters, digits, hyphen, underscore, plus, slash, equals.
const EXTERNAL_SEND_ID = /^[A-Za-z0-9+/=_-]+$/;

type TransactionalRecipientIdentity =
	{ kind: 'external_user_id'; externalId: string } | { kind: 'user_alias'; alias: UserAlias };

export interface TransactionalRequest {
	externalSendId?: string;
	triggerProperties?: Record<string, unknown>;
	recipient: {
		identity: TransactionalRecipientIdentity;
		attributes?: AttributeUpdate;
		/** At least one attribute was sent: an unknown external ID is then created. */
		hasAttributes: boolean;
	};
}

export function isCampaignApiId(value: string): boolean {
	return CAMPAIGN_API_ID.test(value);
}

/** Checks the body of POST /transactional/v1/campaigns/{campaign_id}/send. */
export function readTransactionalRequest(body: unknown): Checked<TransactionalRequest> {
	if (!isPlainObject(body)) return refuse('Request body must be a JSON object with recipient');
	const unknown = unknownFieldsProblem(body, ['external_send_id', 'trigger_properties', 'recipient']);
	if (unknown) return refuse(unknown);
	const { external_send_id: externalSendId, trigger_properties: triggerProperties } = body;
	if (externalSendId !== undefined && !(typeof externalSendId === 'string' && EXTERNAL_SEND_ID.test(externalSendId))) {
		return refuse(
			'external_send_id must be Base64-compatible: one or more letters, digits, hyphens, underscores, plus signs, slashes or equals signs',
		);
	}
	if (triggerProperties !== undefined && !isPlainObject(triggerProperties))
		return refuse('trigger_properties must be an object of key-value pairs');
	const recipient = readRecipient(body.recipient);
	if (!recipient.ok) return recipient;
	return accept({ externalSendId, triggerProperties, recipient: recipient.value });
}

function readRecipient(value: unknown): Checked<TransactionalRequest['recipient']> {
	if (!isPlainObject(value))
		return refuse('recipient is required: an object with external_user_id or user_alias, and optional attributes');
	const unknown = unknownFieldsProblem(value, ['external_user_id', 'user_alias', 'attributes']);
	if (unknown) return refuse(`recipient: ${unknown}`);
	const identity = readIdentity(value);
	if (!identity.ok) return identity;
	if (value.attributes === undefined) return accept({ identity: identity.value, hasAttributes: false });
	const attributes = readRecipientAttributes(value.attributes, 'recipient.attributes', { subscriptionGroups: true });
	if (!attributes.ok) return attributes;
	return accept({
		identity: identity.value,
		attributes: attributes.value,
		hasAttributes: Object.keys(value.attributes as object).length > 0,
	});
}

function readIdentity(recipient: Record<string, unknown>): Checked<TransactionalRecipientIdentity> {
	const { external_user_id: externalId, user_alias: alias } = recipient;
	if ((externalId === undefined) === (alias === undefined)) {
		return refuse('recipient must have exactly one of external_user_id or user_alias (one user per request)');
	}
	if (externalId !== undefined) {
		if (!isNonEmptyString(externalId)) return refuse('recipient.external_user_id must be a non-empty string');
		return accept({ kind: 'external_user_id', externalId });
	}
	if (!isPlainObject(alias) || !isNonEmptyString(alias.alias_name) || !isNonEmptyString(alias.alias_label)) {
		return refuse('recipient.user_alias must be an object with non-empty strings alias_name and alias_label');
	}
	return accept({ kind: 'user_alias', alias: { alias_name: alias.alias_name, alias_label: alias.alias_label } });
}
