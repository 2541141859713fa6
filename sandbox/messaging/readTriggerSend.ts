import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { readAttachments, type Attachment } from './readAttachments';
import { readAudience, type AudienceNode } from './readAudience';
import { readTriggerRecipients, type TriggerRecipient } from './readTriggerRecipients';
import { triggerPropertiesProblem, type PropertiesField } from './triggerProperties';

export type TriggerKind = 'campaign' | 'canvas';

export interface TriggerSendRequest {
	/** campaign_id or canvas_id. */
	targetId: string;
	sendId?: string;
	/** trigger_properties or canvas_entry_properties of the request. */
	properties?: Record<string, unknown>;
	broadcast: boolean;
	audience?: AudienceNode;
	/** Undefined for a broadcast. */
	recipients?: TriggerRecipient[];
	attachments?: Attachment[];
}

const SHAPES: Record<TriggerKind, { idField: string; propertiesField: PropertiesField; fields: string[] }> = {
	campaign: {
		idField: 'campaign_id',
		propertiesField: 'trigger_properties',
		fields: ['campaign_id', 'send_id', 'trigger_properties', 'broadcast', 'audience', 'recipients', 'attachments'],
	},
	canvas: {
		idField: 'canvas_id',
		propertiesField: 'canvas_entry_properties',
		fields: ['canvas_id', 'canvas_entry_properties', 'broadcast', 'audience', 'recipients'],
	},
};

/** Checks a /campaigns/trigger/send or /canvas/trigger/send body; any problem refuses the whole request. */
export function readTriggerSend(body: unknown, kind: TriggerKind): Checked<TriggerSendRequest> {
	const shape = SHAPES[kind];
	if (!isPlainObject(body)) return refuse(`Request body must be a JSON object with ${shape.idField}`);
	const unknown = unknownFieldsProblem(body, shape.fields);
	if (unknown) return refuse(unknown);

	const targetId = body[shape.idField];
	if (!isNonEmptyString(targetId)) return refuse(`${shape.idField} is required: a non-empty string`);
	const request: TriggerSendRequest = { targetId, broadcast: false };

	// Not shown what a send_id looks like (it comes from a send-ID endpoint the spec does not cover): any non-empty string.
	if (body.send_id !== undefined) {
		if (!isNonEmptyString(body.send_id)) return refuse('send_id must be a non-empty string');
		request.sendId = body.send_id;
	}
	const properties = body[shape.propertiesField];
	if (properties !== undefined) {
		const problem = triggerPropertiesProblem(shape.propertiesField, properties, shape.propertiesField);
		if (problem) return refuse(problem);
		request.properties = properties as Record<string, unknown>;
	}
	if (body.broadcast !== undefined && typeof body.broadcast !== 'boolean') return refuse('broadcast must be a boolean');
	request.broadcast = body.broadcast === true;
	if (body.audience !== undefined) {
		const audience = readAudience(body.audience);
		if (!audience.ok) return audience;
		request.audience = audience.value;
	}

	// Spec: broadcast (default false) must be true when recipients is omitted; when true, recipients cannot be included.
	if (body.recipients === undefined && !request.broadcast) {
		return refuse(
			'broadcast must be true when recipients is omitted (a message to the whole targeted audience must be asked for explicitly)',
		);
	}
	if (body.recipients !== undefined && request.broadcast)
		return refuse('recipients cannot be included when broadcast is true');
	if (body.recipients !== undefined) {
		const recipients = readTriggerRecipients(body.recipients, {
			propertiesField: shape.propertiesField,
			subscriptionGroups: kind === 'campaign',
		});
		if (!recipients.ok) return recipients;
		request.recipients = recipients.value;
	}
	if (body.attachments !== undefined) {
		const attachments = readAttachments(body.attachments);
		if (!attachments.ok) return attachments;
		request.attachments = attachments.value;
	}
	return accept(request);
}
