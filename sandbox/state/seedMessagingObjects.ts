import type { CampaignKind, CampaignState, CanvasState, SeedData } from '../adminApiTypes';
import { isDatetimeString, isNonEmptyString, isPlainObject } from '../formats';
import { messageIdsInUseProblem } from './messageIdsInUse';
import type { PlatformState } from './platformState';
import { messagesSeedProblem, messageView, stepsSeedProblem, stepView } from './seedMessages';

type MessagingSeed = Pick<SeedData, 'campaigns' | 'canvases' | 'segments' | 'canvasSchedules'>;

const CAMPAIGN_STATES: readonly CampaignState[] = ['active', 'paused', 'archived'];
const CAMPAIGN_KINDS: readonly CampaignKind[] = ['api_triggered', 'transactional'];
const CANVAS_STATES: readonly CanvasState[] = ['active', 'paused', 'archived', 'stopped'];

/** What is wrong with the seed's campaigns, canvases, segments and schedules, or undefined (checked before anything is stored). */
export function messagingSeedProblem(state: PlatformState, data: MessagingSeed): string | undefined {
	for (const list of ['campaigns', 'canvases', 'segments', 'canvasSchedules'] as const) {
		if (data[list] !== undefined && !Array.isArray(data[list])) return `${list} must be an array`;
	}
	for (const [i, campaign] of listOf(data.campaigns).entries()) {
		if (!isPlainObject(campaign) || !isNonEmptyString(campaign.id))
			return `campaigns[${i}].id must be a non-empty string`;
		if (campaign.state !== undefined && !CAMPAIGN_STATES.includes(campaign.state))
			return `campaigns[${i}].state must be one of ${CAMPAIGN_STATES.join(', ')}`;
		if (campaign.kind !== undefined && !CAMPAIGN_KINDS.includes(campaign.kind))
			return `campaigns[${i}].kind must be one of ${CAMPAIGN_KINDS.join(', ')}`;
		const messagesProblem =
			campaign.messages === undefined ? undefined : messagesSeedProblem(`campaigns[${i}].messages`, campaign.messages);
		if (messagesProblem) return messagesProblem;
	}
	for (const [i, canvas] of listOf(data.canvases).entries()) {
		if (!isPlainObject(canvas) || !isNonEmptyString(canvas.id)) return `canvases[${i}].id must be a non-empty string`;
		if (canvas.state !== undefined && !CANVAS_STATES.includes(canvas.state))
			return `canvases[${i}].state must be one of ${CANVAS_STATES.join(', ')}`;
		const stepsProblem =
			canvas.steps === undefined ? undefined : stepsSeedProblem(`canvases[${i}].steps`, canvas.steps);
		if (stepsProblem) return stepsProblem;
	}
	const idsInUse = messageIdsInUseProblem(state, listOf(data.campaigns), listOf(data.canvases));
	if (idsInUse) return idsInUse;
	for (const [i, segment] of listOf(data.segments).entries()) {
		if (!isPlainObject(segment) || !isNonEmptyString(segment.id)) return `segments[${i}].id must be a non-empty string`;
		if (!Array.isArray(segment.external_ids) || !segment.external_ids.every(isNonEmptyString)) {
			return `segments[${i}].external_ids must be an array of non-empty strings`;
		}
	}
	const seededCanvases = new Set(listOf(data.canvases).map((canvas) => canvas.id));
	for (const [i, schedule] of listOf(data.canvasSchedules).entries()) {
		const path = `canvasSchedules[${i}]`;
		if (!isPlainObject(schedule)) return `${path} must be an object`;
		if (!isNonEmptyString(schedule.canvas_id)) return `${path}.canvas_id must be a non-empty string`;
		if (!seededCanvases.has(schedule.canvas_id) && !state.canvases.has(schedule.canvas_id)) {
			return `${path}.canvas_id '${schedule.canvas_id}' is not a seeded canvas (seed it in canvases)`;
		}
		if (!isNonEmptyString(schedule.schedule_id)) return `${path}.schedule_id must be a non-empty string`;
		if (!isPlainObject(schedule.schedule) || !isDatetimeString(schedule.schedule.time))
			return `${path}.schedule.time must be an ISO 8601 datetime`;
		const inLocalTime = schedule.schedule.in_local_time;
		if (inLocalTime !== undefined && typeof inLocalTime !== 'boolean')
			return `${path}.schedule.in_local_time must be a boolean`;
		if (schedule.trigger_properties !== undefined && !isPlainObject(schedule.trigger_properties))
			return `${path}.trigger_properties must be an object`;
	}
	return undefined;
}

/** Stores them (an id seeded again is replaced, messages and steps included). Call messagingSeedProblem first. */
export function seedMessagingObjects(state: PlatformState, data: MessagingSeed): void {
	// Messages and steps appear only when seeded, so campaigns and canvases seeded without them look as before.
	for (const { id, state: campaignState = 'active', kind = 'api_triggered', messages } of listOf(data.campaigns)) {
		state.campaigns.set(id, {
			id,
			state: campaignState,
			kind,
			...(messages === undefined ? {} : { messages: messages.map(messageView) }),
		});
	}
	for (const { id, state: canvasState = 'active', steps } of listOf(data.canvases)) {
		state.canvases.set(id, { id, state: canvasState, ...(steps === undefined ? {} : { steps: steps.map(stepView) }) });
	}
	for (const { id, external_ids } of listOf(data.segments))
		state.segments.set(id, { id, external_ids: [...external_ids] });
	for (const schedule of listOf(data.canvasSchedules)) {
		state.canvasSchedules.set(schedule.schedule_id, {
			canvas_id: schedule.canvas_id,
			schedule_id: schedule.schedule_id,
			schedule: { ...schedule.schedule },
			...(schedule.trigger_properties === undefined
				? {}
				: { trigger_properties: { ...(schedule.trigger_properties as Record<string, unknown>) } }),
		});
	}
}

function listOf<T>(value: T[] | undefined): T[] {
	return Array.isArray(value) ? value : [];
}
