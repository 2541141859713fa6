import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';

import { isJsonObject } from '../../shared/schemas/parse';

/** The statuses of a transactional send, in the order they usually arrive (spec: "Transactional email status postback"). */
export const POSTBACK_STATUSES = ['sent', 'processed', 'delivered', 'bounced', 'aborted'] as const;

export type PostbackStatus = (typeof POSTBACK_STATUSES)[number];

export function isKnownStatus(status: string): status is PostbackStatus {
	return (POSTBACK_STATUSES as readonly string[]).includes(status);
}

/** The metadata field that holds the time of each status. */
const STATUS_TIME_FIELD: Record<PostbackStatus, string> = {
	sent: 'sent_at',
	processed: 'processed_at',
	delivered: 'delivered_at',
	bounced: 'bounced_at',
	aborted: 'aborted_at',
};

const postbackSchema = z.object({
	dispatch_id: z
		.string({
			error: (issue) => (issue.input === undefined ? 'dispatch_id is missing' : 'dispatch_id must be a string'),
		})
		.min(1, 'dispatch_id is empty'),
	// Any status: the spec does not promise these five are all, and a receiver that refuses what it
	// does not know invites retries or a disabled endpoint. receivePostback decides what starts a run.
	status: z
		.string({ error: (issue) => (issue.input === undefined ? 'status is missing' : 'status must be a string') })
		.min(1, 'status is empty'),
	metadata: z.record(z.string(), z.unknown(), {
		error: (issue) => (issue.input === undefined ? 'metadata is missing' : 'metadata must be a JSON object'),
	}),
});

export type Postback = z.infer<typeof postbackSchema>;

export type ParsedPostback = { ok: true; postback: Postback } | { ok: false; problem: string };

/** Checks a parsed request body against the spec's postback shape; `problem` says what is wrong, for the 400 answer. */
export function parsePostback(body: unknown): ParsedPostback {
	if (!isJsonObject(body)) return { ok: false, problem: 'The body must be a JSON object' };
	const result = postbackSchema.safeParse(body);
	if (result.success) return { ok: true, postback: result.data };
	return { ok: false, problem: result.error.issues[0].message };
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The trigger's output item: the fields a workflow branches on, flat, and the raw metadata
 * (which keeps every per-status datetime, e.g. received_at and enqueued_at of a "sent").
 */
export function postbackItem(postback: Postback): IDataObject {
	const { dispatch_id, status, metadata } = postback;
	// A status the spec does not list keeps its own time field by the same pattern, e.g. opened_at.
	const timeField = isKnownStatus(status) ? STATUS_TIME_FIELD[status] : `${status}_at`;
	return {
		dispatch_id,
		status,
		external_send_id: textOrNull(metadata.external_send_id),
		campaign_api_id: textOrNull(metadata.campaign_api_id),
		status_time: textOrNull(metadata[timeField]),
		reason: textOrNull(metadata.reason),
		metadata: metadata as IDataObject,
	};
}
