import type { StoredEvent, StoredPurchase } from '../adminApiTypes';
import { parseDatetime } from '../formats';

/** One `custom_events` or `purchases` entry of the export object. */
export interface ActivitySummary {
	name: string;
	/** Earliest occurrence, ISO 8601 UTC. */
	first: string;
	/** Latest occurrence, ISO 8601 UTC. */
	last: string;
	count: number;
}

interface Occurrence {
	name: string;
	time: string;
}

/** Custom events summarised by name, in the order each name first appears in the store. */
export function summariseEvents(events: readonly StoredEvent[]): ActivitySummary[] {
	return summarise(events);
}

/** Purchases summarised by product_id (the export's `name`); a purchase of quantity 3 counts once, as one purchase. */
export function summarisePurchases(purchases: readonly StoredPurchase[]): ActivitySummary[] {
	return summarise(purchases.map((purchase) => ({ name: purchase.product_id, time: purchase.time })));
}

/**
 * Sum of price × quantity, rounded to cents. Braze converts every currency to USD first; the sandbox
 * has no exchange rates, so amounts are added as they are, whatever their currency.
 */
export function totalRevenue(purchases: readonly StoredPurchase[]): number {
	const cents = purchases.reduce((sum, purchase) => sum + Math.round(purchase.price * purchase.quantity * 100), 0);
	return cents / 100;
}

function summarise(occurrences: readonly Occurrence[]): ActivitySummary[] {
	const byName = new Map<string, { firstMs: number; lastMs: number; count: number }>();
	for (const { name, time } of occurrences) {
		const ms = parseDatetime(time) ?? Number.NaN;
		const summary = byName.get(name);
		if (!summary) {
			byName.set(name, { firstMs: ms, lastMs: ms, count: 1 });
			continue;
		}
		summary.count++;
		if (ms < summary.firstMs) summary.firstMs = ms;
		if (ms > summary.lastMs) summary.lastMs = ms;
	}
	return [...byName].map(([name, { firstMs, lastMs, count }]) => ({
		name,
		first: new Date(firstMs).toISOString(),
		last: new Date(lastMs).toISOString(),
		count,
	}));
}
