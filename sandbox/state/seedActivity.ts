import type { SeedEvent, SeedPurchase } from '../adminApiTypes';
import { isDatetimeString, isNonEmptyString } from '../formats';
import type { PlatformState } from './platformState';
import type { Profile } from './profileStore';

/** What is wrong with a seed profile's events and purchases, or undefined (checked before anything is stored). */
export function seedActivityProblem(
	events: readonly SeedEvent[],
	purchases: readonly SeedPurchase[],
): string | undefined {
	for (const [i, event] of events.entries()) {
		if (!isNonEmptyString(event.name) || !isDatetimeString(event.time))
			return `events[${i}] needs a name and a datetime time`;
	}
	for (const [i, purchase] of purchases.entries()) {
		if (
			!isNonEmptyString(purchase.product_id) ||
			typeof purchase.currency !== 'string' ||
			typeof purchase.price !== 'number'
		) {
			return `purchases[${i}] needs product_id, currency and price`;
		}
		if (!isDatetimeString(purchase.time)) return `purchases[${i}] needs a datetime time`;
	}
	return undefined;
}

/** Stores seed events and purchases under the profile, bypassing /users/track's rules. */
export function seedActivity(
	state: PlatformState,
	profile: Profile,
	events: readonly SeedEvent[],
	purchases: readonly SeedPurchase[],
	now: Date,
): void {
	const receivedAt = now.toISOString();
	for (const event of events) {
		state.events.push({ ...event, id: state.ids.next(now), service_id: profile.service_id, received_at: receivedAt });
	}
	for (const purchase of purchases) {
		state.purchases.push({
			...purchase,
			id: state.ids.next(now),
			service_id: profile.service_id,
			currency: purchase.currency.toUpperCase(),
			quantity: purchase.quantity ?? 1,
			received_at: receivedAt,
		});
	}
}
