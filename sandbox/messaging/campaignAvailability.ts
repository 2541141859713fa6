import type { CampaignKind } from '../adminApiTypes';
import type { PlatformState } from '../state/platformState';

/** The spec's transactional-send messages about a campaign, also used by /campaigns/trigger/send. */
export const CAMPAIGN_MESSAGES = {
	doesNotExist: 'Campaign does not exist',
	notTransactional: 'The campaign is not a transactional campaign. Only transactional campaigns may use this endpoint',
	archived: 'The campaign is archived. Unarchive the campaign in order for trigger requests to take effect.',
	paused: 'The campaign is paused. Resume the campaign in order for trigger requests to take effect.',
	// Not shown: a transactional campaign sent through /campaigns/trigger/send. Braze keeps
	// transactional campaigns to their own endpoint; the sandbox refuses, saying where to go.
	transactionalElsewhere:
		'The campaign is a transactional campaign. Transactional campaigns are sent with POST /transactional/v1/campaigns/{campaign_id}/send',
} as const;

/**
 * Why the campaign cannot be triggered through an endpoint expecting `kind`, or undefined. Order:
 * existence, kind, then state (archived before paused: an archived campaign cannot be resumed).
 * The spec gives the paused and archived wording for transactional sends only; the campaign trigger
 * uses the same words (not shown for it; both are "trigger requests" in the spec's own text).
 */
export function campaignProblem(state: PlatformState, campaignId: string, kind: CampaignKind): string | undefined {
	const campaign = state.campaigns.get(campaignId);
	if (!campaign) return CAMPAIGN_MESSAGES.doesNotExist;
	if (campaign.kind !== kind)
		return kind === 'transactional' ? CAMPAIGN_MESSAGES.notTransactional : CAMPAIGN_MESSAGES.transactionalElsewhere;
	if (campaign.state === 'archived') return CAMPAIGN_MESSAGES.archived;
	if (campaign.state === 'paused') return CAMPAIGN_MESSAGES.paused;
	return undefined;
}
