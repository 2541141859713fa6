import type { CampaignView, CanvasView, SeedCampaign, SeedCanvas } from '../adminApiTypes';
import type { PlatformState } from './platformState';

/**
 * A message_variation_id used twice across campaigns and canvases, or a step_id used twice across
 * canvases (the platform's are UUIDs, unique in the workspace), as a problem. Counts what the seed
 * brings and what is stored and not replaced by it. Call after the shapes are checked.
 */
export function messageIdsInUseProblem(
	state: PlatformState,
	campaigns: SeedCampaign[],
	canvases: SeedCanvas[],
): string | undefined {
	const seededCampaignIds = new Set(campaigns.map(({ id }) => id));
	const seededCanvasIds = new Set(canvases.map(({ id }) => id));
	const keptCampaigns = [...state.campaigns.values()].filter(({ id }) => !seededCampaignIds.has(id));
	const keptCanvases = [...state.canvases.values()].filter(({ id }) => !seededCanvasIds.has(id));
	const messageIds = new Set<string>();
	const stepIds = new Set<string>();
	const campaignMessages = (campaign: SeedCampaign | CampaignView) => campaign.messages ?? [];
	const canvasSteps = (canvas: SeedCanvas | CanvasView) => canvas.steps ?? [];

	for (const campaign of [...keptCampaigns, ...campaigns]) {
		for (const { message_variation_id: id } of campaignMessages(campaign)) {
			if (!claim(messageIds, id)) return `message_variation_id '${id}' is used twice (campaign '${campaign.id}')`;
		}
	}
	for (const canvas of [...keptCanvases, ...canvases]) {
		for (const step of canvasSteps(canvas)) {
			if (!claim(stepIds, step.step_id)) return `step_id '${step.step_id}' is used twice (canvas '${canvas.id}')`;
			for (const { message_variation_id: id } of step.messages) {
				if (!claim(messageIds, id)) return `message_variation_id '${id}' is used twice (canvas '${canvas.id}')`;
			}
		}
	}
	return undefined;
}

/** Adds the UUID (any case); false when it was already there. */
function claim(ids: Set<string>, id: string): boolean {
	const key = id.toLowerCase();
	if (ids.has(key)) return false;
	ids.add(key);
	return true;
}
