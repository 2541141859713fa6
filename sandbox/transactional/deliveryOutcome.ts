import type { Profile } from '../state/profileStore';

type PostbackStatus = 'sent' | 'processed' | 'delivered' | 'bounced' | 'aborted';

export interface DeliveryStep {
	status: PostbackStatus;
	reason?: string;
}

/** Addresses at this domain bounce, so clients can test their bounce handling. */
const BOUNCING_DOMAIN = 'bounce.example.com';
const BOUNCE_REASON = '550 5.1.1 mailbox unavailable';
const NO_EMAIL_REASON = 'User has no email address';

/**
 * The status changes a transactional email goes through (transitions not shown; Braze's order):
 * - no email address: aborted, nothing is handed to the sending partner;
 * - an address at bounce.example.com: sent, processed, then bounced by the inbox provider;
 * - otherwise: sent, processed, delivered.
 * Subscription state is not consulted: transactional email reaches unsubscribed users too.
 */
export function deliveryOutcome(profile: Profile): DeliveryStep[] {
	if (profile.email === undefined) return [{ status: 'aborted', reason: NO_EMAIL_REASON }];
	const domain = profile.email.slice(profile.email.lastIndexOf('@') + 1).toLowerCase();
	const last: DeliveryStep =
		domain === BOUNCING_DOMAIN ? { status: 'bounced', reason: BOUNCE_REASON } : { status: 'delivered' };
	return [{ status: 'sent' }, { status: 'processed' }, last];
}
