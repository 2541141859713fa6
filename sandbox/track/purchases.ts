import type { StoredPurchase } from '../adminApiTypes';
import { isNonEmptyString, isoDatetimeProblem, characters } from '../formats';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { accept, refuse, type Checked } from './checked';
import { readIdentifier, readUpdateExistingOnly, type Identifier } from './identifiers';
import { unknownFieldProblem } from './knownFields';
import { propertiesProblem } from './properties';

export interface PurchaseOccurrence {
	identifier: Identifier;
	updateExistingOnly: boolean | undefined;
	productId: string;
	currency: string;
	price: number;
	quantity: number;
	time: string;
	appId?: string;
	properties?: Record<string, unknown>;
}

// Spec: a purchase is addressed by external_id, user_alias or email (service_id and phone, which events
// take, are refused by readIdentifier). We also take `_update_existing_only`, with its meaning on events.
const PURCHASE_FIELDS = new Set([
	'external_id',
	'user_alias',
	'email',
	'app_id',
	'product_id',
	'currency',
	'price',
	'quantity',
	'time',
	'properties',
	'_update_existing_only',
]);
const MAX_PRODUCT_ID_LENGTH = 255;
const MAX_QUANTITY = 100;

/**
 * Which purchase fields are required is not shown. As Braze: product_id, currency (three letters, ISO
 * 4217; any case, stored upper case), price (any finite number) and time are required; quantity is
 * optional, an integer from 1 to 100, default 1.
 */
export function readPurchaseObject(object: Record<string, unknown>): Checked<PurchaseOccurrence> {
	// The identifier first, so service_id and phone are answered as identifiers, not unknown fields.
	const identifier = readIdentifier(object, 'purchases');
	if (!identifier.ok) return identifier;
	const unknown = unknownFieldProblem(object, PURCHASE_FIELDS, 'purchase');
	if (unknown) return unknown;
	const updateExistingOnly = readUpdateExistingOnly(object);
	if (!updateExistingOnly.ok) return updateExistingOnly;
	const { product_id: productId, currency, price, quantity = 1, time, app_id: appId, properties } = object;
	if (!isNonEmptyString(productId) || characters(productId) > MAX_PRODUCT_ID_LENGTH) {
		return refuse(`product_id is required: a non-empty string of at most ${MAX_PRODUCT_ID_LENGTH} characters`);
	}
	if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) {
		return refuse('currency is required: a three-letter ISO 4217 code such as USD');
	}
	if (typeof price !== 'number' || !Number.isFinite(price)) return refuse('price is required: a number');
	if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > MAX_QUANTITY) {
		return refuse(`quantity must be an integer from 1 to ${MAX_QUANTITY}`);
	}
	// Spec: "ISO 8601 datetime"; the alternate format is the event object's alone.
	const timeProblem = isoDatetimeProblem('time', time);
	if (timeProblem) return refuse(timeProblem);
	if (appId !== undefined && typeof appId !== 'string') return refuse('app_id must be a string');
	if (properties !== undefined) {
		const problem = propertiesProblem(properties);
		if (problem) return refuse(problem);
	}
	return accept({
		identifier: identifier.value,
		updateExistingOnly: updateExistingOnly.value,
		productId,
		currency: currency.toUpperCase(),
		price,
		quantity: quantity as number,
		time: time as string,
		appId,
		properties: properties as Record<string, unknown> | undefined,
	});
}

export function recordPurchase(
	state: PlatformState,
	profile: Profile,
	purchase: PurchaseOccurrence,
	now: Date,
): StoredPurchase {
	const stored: StoredPurchase = {
		id: state.ids.next(now),
		service_id: profile.service_id,
		product_id: purchase.productId,
		currency: purchase.currency,
		price: purchase.price,
		quantity: purchase.quantity,
		time: purchase.time,
		received_at: now.toISOString(),
	};
	if (purchase.properties !== undefined) stored.properties = purchase.properties;
	if (purchase.appId !== undefined) stored.app_id = purchase.appId;
	state.purchases.push(stored);
	state.profiles.touch(profile, now);
	return stored;
}
