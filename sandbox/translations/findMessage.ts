import type { CanvasStepView, MessageView } from '../adminApiTypes';
import { sameUuid } from '../formats';
import type { PlatformState } from '../state/platformState';

export type MessageOwner =
	{ kind: 'campaign'; campaignId: string } | { kind: 'canvas'; canvasId: string; stepId: string };

/** The message variation with this id in any campaign or canvas step (ids are unique in the workspace). */
export function findMessage(
	state: PlatformState,
	messageVariationId: string,
): { message: MessageView; owner: MessageOwner } | undefined {
	for (const campaign of state.campaigns.values()) {
		const message = messageIn(campaign.messages ?? [], messageVariationId);
		if (message) return { message, owner: { kind: 'campaign', campaignId: campaign.id } };
	}
	for (const canvas of state.canvases.values()) {
		for (const step of canvas.steps ?? []) {
			const message = messageIn(step.messages, messageVariationId);
			if (message) return { message, owner: { kind: 'canvas', canvasId: canvas.id, stepId: step.step_id } };
		}
	}
	return undefined;
}

export function findStep(state: PlatformState, stepId: string): CanvasStepView | undefined {
	for (const canvas of state.canvases.values()) {
		const step = (canvas.steps ?? []).find((candidate) => sameUuid(candidate.step_id, stepId));
		if (step) return step;
	}
	return undefined;
}

export function messageIn(messages: readonly MessageView[], messageVariationId: string): MessageView | undefined {
	return messages.find((message) => sameUuid(message.message_variation_id, messageVariationId));
}
