import type { PlatformState } from '../state/platformState';
import { matchesAudience } from './matchAudience';
import type { TriggerSendRequest } from './readTriggerSend';
import type { DispatchRecipient } from './recordDispatch';
import { resolveTriggerRecipients } from './resolveTriggerRecipients';
import { mergedProperties } from './triggerProperties';

/**
 * Who a campaign or canvas trigger reaches: the recipients (attributes applied, unknown users skipped
 * or created) or, for a broadcast, every profile; then only those in the connected audience. Each with
 * the request's properties overridden by the recipient's.
 */
export function triggerTargets(state: PlatformState, request: TriggerSendRequest, now: Date): DispatchRecipient[] {
	const targets = request.recipients
		? resolveTriggerRecipients(state, request.recipients, now)
		: // Campaigns and canvases in the sandbox have no dashboard-targeted segment (not shown), so the
			// "whole targeted segment" of a broadcast is every profile.
			[...state.profiles.all()].map((profile) => ({ profile, properties: undefined }));
	const { audience } = request;
	return targets
		.filter(({ profile }) => audience === undefined || matchesAudience(profile, audience, now))
		.map(({ profile, properties }) => ({ profile, properties: mergedProperties(request.properties, properties) }));
}
