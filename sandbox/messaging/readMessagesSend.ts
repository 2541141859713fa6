import type { UserAlias } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { readAudience, type AudienceNode } from './readAudience';
import { MAX_RECIPIENTS } from './readTriggerRecipients';

const CHANNEL_KEYS = [
	'android_push',
	'apple_push',
	'content_card',
	'email',
	'kindle_push',
	'web_push',
	'webhook',
	'whats_app',
	'sms',
];
const SUBSCRIPTION_STATES = ['opted_in', 'subscribed', 'all'] as const;
export type RecipientSubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export interface MessagesSendRequest {
	broadcast: boolean;
	externalUserIds: string[];
	userAliases: UserAlias[];
	segmentId?: string;
	audience?: AudienceNode;
	campaignId?: string;
	sendId?: string;
	overrideFrequencyCapping: boolean;
	recipientSubscriptionState: RecipientSubscriptionState;
	messages: Record<string, unknown>;
}

const FIELDS = [
	'broadcast',
	'external_user_ids',
	'user_aliases',
	'segment_id',
	'audience',
	'campaign_id',
	'send_id',
	'override_frequency_capping',
	'recipient_subscription_state',
	'messages',
];

/** Checks a /messages/send body; any problem refuses the whole request. */
export function readMessagesSend(body: unknown): Checked<MessagesSendRequest> {
	if (!isPlainObject(body))
		return refuse(
			'Request body must be a JSON object with messages and a target (segment_id, external_user_ids or audience)',
		);
	const unknown = unknownFieldsProblem(body, FIELDS);
	if (unknown) return refuse(unknown);

	const messages = readMessages(body.messages);
	if (!messages.ok) return messages;
	const externalUserIds = readExternalUserIds(body.external_user_ids);
	if (!externalUserIds.ok) return externalUserIds;
	const userAliases = readUserAliases(body.user_aliases);
	if (!userAliases.ok) return userAliases;
	const request: MessagesSendRequest = {
		broadcast: false,
		externalUserIds: externalUserIds.value,
		userAliases: userAliases.value,
		overrideFrequencyCapping: false,
		recipientSubscriptionState: 'subscribed',
		messages: messages.value,
	};

	for (const field of ['segment_id', 'campaign_id', 'send_id'] as const) {
		if (body[field] !== undefined && !isNonEmptyString(body[field]))
			return refuse(`${field} must be a non-empty string`);
	}
	request.segmentId = body.segment_id as string | undefined;
	request.campaignId = body.campaign_id as string | undefined;
	// Not shown what a send_id looks like: any non-empty string.
	request.sendId = body.send_id as string | undefined;
	if (body.audience !== undefined) {
		const audience = readAudience(body.audience);
		if (!audience.ok) return audience;
		request.audience = audience.value;
	}

	const hasUsers = request.externalUserIds.length > 0 || request.userAliases.length > 0;
	if (!hasUsers && request.segmentId === undefined && request.audience === undefined) {
		return refuse('At least one of segment_id, external_user_ids (or user_aliases) or audience is required');
	}
	if (body.broadcast !== undefined && typeof body.broadcast !== 'boolean') return refuse('broadcast must be a boolean');
	request.broadcast = body.broadcast === true;
	// Spec: broadcast (default false) must be true when no external_user_ids or aliases are given; as for
	// the trigger endpoints, users cannot be given with a broadcast.
	if (!hasUsers && !request.broadcast) {
		return refuse(
			'broadcast must be true when no external_user_ids or user_aliases are given (a message to a whole segment or audience must be asked for explicitly)',
		);
	}
	if (hasUsers && request.broadcast)
		return refuse('external_user_ids and user_aliases cannot be included when broadcast is true');

	if (body.override_frequency_capping !== undefined) {
		if (typeof body.override_frequency_capping !== 'boolean')
			return refuse('override_frequency_capping must be a boolean');
		request.overrideFrequencyCapping = body.override_frequency_capping;
	}
	if (body.recipient_subscription_state !== undefined) {
		if (!(SUBSCRIPTION_STATES as readonly unknown[]).includes(body.recipient_subscription_state)) {
			return refuse(
				`recipient_subscription_state must be one of ${SUBSCRIPTION_STATES.join(', ')}; got ${JSON.stringify(body.recipient_subscription_state)}`,
			);
		}
		request.recipientSubscriptionState = body.recipient_subscription_state as RecipientSubscriptionState;
	}
	return accept(request);
}

/**
 * Keys among the spec's channel keys, each a channel message object. Their fields are not shown, so
 * their contents are not checked. An empty `messages` is refused: it would send nothing.
 */
function readMessages(value: unknown): Checked<Record<string, unknown>> {
	if (!isPlainObject(value))
		return refuse(`messages is required: an object with one or more of ${CHANNEL_KEYS.join(', ')}`);
	const keys = Object.keys(value);
	if (keys.length === 0) return refuse(`messages must contain at least one of ${CHANNEL_KEYS.join(', ')}`);
	const unknown = keys.find((key) => !CHANNEL_KEYS.includes(key));
	if (unknown !== undefined)
		return refuse(`messages: unknown channel '${unknown}'; accepted: ${CHANNEL_KEYS.join(', ')}`);
	const notObject = keys.find((key) => !isPlainObject(value[key]));
	if (notObject !== undefined) return refuse(`messages.${notObject} must be a channel message object`);
	return accept(value);
}

function readExternalUserIds(value: unknown): Checked<string[]> {
	if (value === undefined) return accept([]);
	if (!Array.isArray(value)) return refuse(`external_user_ids must be an array of at most ${MAX_RECIPIENTS} strings`);
	if (value.length > MAX_RECIPIENTS)
		return refuse(`external_user_ids may contain at most ${MAX_RECIPIENTS} IDs per request; received ${value.length}`);
	const bad = value.findIndex((id) => !isNonEmptyString(id));
	if (bad !== -1) return refuse(`external_user_ids[${bad}] must be a non-empty string`);
	return accept(value as string[]);
}

// Not shown: a limit on user_aliases. Braze counts them with the external IDs; the sandbox caps them at 50 too.
function readUserAliases(value: unknown): Checked<UserAlias[]> {
	if (value === undefined) return accept([]);
	if (!Array.isArray(value)) return refuse('user_aliases must be an array of {alias_name, alias_label}');
	if (value.length > MAX_RECIPIENTS)
		return refuse(`user_aliases may contain at most ${MAX_RECIPIENTS} aliases per request; received ${value.length}`);
	const aliases: UserAlias[] = [];
	for (const [i, alias] of value.entries()) {
		if (!isPlainObject(alias) || !isNonEmptyString(alias.alias_name) || !isNonEmptyString(alias.alias_label)) {
			return refuse(`user_aliases[${i}] must be an object with non-empty strings alias_name and alias_label`);
		}
		aliases.push({ alias_name: alias.alias_name, alias_label: alias.alias_label });
	}
	return accept(aliases);
}
