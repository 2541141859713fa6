import type { CanvasState } from '../adminApiTypes';

// Not shown: the exact wording. The spec: a paused canvas's notice advises resuming it, an archived
// one's unarchiving it; stopped canvases do not send either (Braze answers them the same way).
const NOTICES: Record<Exclude<CanvasState, 'active'>, string> = {
	paused: 'The Canvas is paused. Resume the Canvas in order for trigger requests to take effect.',
	archived: 'The Canvas is archived. Unarchive the Canvas in order for trigger requests to take effect.',
	stopped: 'The Canvas is stopped. A stopped Canvas does not send; trigger requests will not take effect.',
};

export const CANVAS_DOES_NOT_EXIST = 'Canvas does not exist';

/** The `notice` of a 201 for a canvas that sends nothing, or undefined for an active one. */
export function canvasNotice(state: CanvasState): string | undefined {
	return state === 'active' ? undefined : NOTICES[state];
}
