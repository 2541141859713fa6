/**
 * Shapes that cross the admin API (`/_admin/...`): what tests, benchmarks and demos send to the sandbox
 * and what they read back. Shared by the server and by SandboxClient, which may run in another process.
 */

export type SubscriptionState = 'subscribed' | 'unsubscribed';
export type EmailSubscribeState = 'opted_in' | 'subscribed' | 'unsubscribed';
export type SeedName = 'empty' | 'demo';

export interface UserAlias {
	alias_name: string;
	alias_label: string;
}

/** `'*'` means the key may call every endpoint. */
export type ApiKeyPermissions = string[] | '*';

export interface RateLimit {
	limit: number;
	windowMs: number;
}

export interface SandboxConfigPatch {
	latencyMs?: number;
	logBodies?: boolean;
	/** Per rate-limit group; `null` turns that group's limit off. Groups not named keep their limit. */
	rateLimits?: Record<string, RateLimit | null>;
	retryAfterOn429?: boolean;
}

export interface SandboxConfigView {
	latencyMs: number;
	logBodies: boolean;
	rateLimits: Record<string, RateLimit | null>;
	retryAfterOn429: boolean;
}

export type FaultKind = 'status' | 'reset-before' | 'reset-after' | 'slow';

export interface FaultRule {
	method?: string;
	/** Exact request path, e.g. '/users/track'. */
	path: string;
	/** Applies to the next `times` matching requests. */
	times: number;
	kind: FaultKind;
	/** For 'status': e.g. 429, 500, 502, 503, 504. */
	status?: number;
	/** Adds a Retry-After header to a 429. */
	retryAfterSeconds?: number;
	/** Sets X-RateLimit-Reset to now + N seconds on the fault response. */
	rateLimitResetInSeconds?: number;
	/** For 'slow': the request is processed, and answered only after this delay. */
	delayMs?: number;
}

export interface RecordedRequest {
	seq: number;
	method: string;
	path: string;
	query: Record<string, string>;
	/** Lower-case names; the Authorization value is redacted to 'Bearer ***'. */
	headers: Record<string, string>;
	/** Parsed JSON (raw text when it was not JSON); undefined when logBodies is false. */
	body: unknown;
	/**
	 * Status the sandbox computed. 0 when the socket was reset before processing; for 'reset-after'
	 * it is the status of the answer that was never sent.
	 */
	status: number;
	/** Parsed body of the answer; undefined when logBodies is false or nothing was answered. */
	response: unknown;
	fault?: FaultKind;
	/** Epoch milliseconds. */
	receivedAt: number;
}

export interface RequestFilter {
	path?: string;
	method?: string;
}

export interface ProfileView {
	service_id: string;
	external_id?: string;
	deprecated_external_ids: string[];
	user_aliases: UserAlias[];
	email?: string;
	phone?: string;
	email_subscribe?: EmailSubscribeState;
	/** Built-in attributes other than email and phone: first_name, last_name, country, ... */
	standard_attributes: Record<string, unknown>;
	custom_attributes: Record<string, unknown>;
	/** This profile's state in each subscription group it has one in. */
	subscription_groups: Record<string, SubscriptionState>;
	created_at: string;
	updated_at: string;
}

export interface StoredEvent {
	id: string;
	service_id: string;
	name: string;
	/** As sent (ISO 8601 or yyyy-MM-dd'T'HH:mm:ss:SSSZ). */
	time: string;
	properties?: Record<string, unknown>;
	app_id?: string;
	received_at: string;
}

export interface StoredPurchase {
	id: string;
	service_id: string;
	product_id: string;
	/** Upper case. */
	currency: string;
	price: number;
	quantity: number;
	time: string;
	properties?: Record<string, unknown>;
	app_id?: string;
	received_at: string;
}

export interface StateView {
	profiles: ProfileView[];
	events: StoredEvent[];
	purchases: StoredPurchase[];
	/** group id → profile service_id → state. */
	subscriptionGroups: Record<string, Record<string, SubscriptionState>>;
}

export interface StatsView {
	profiles: number;
	events: number;
	purchases: number;
	requests: number;
	/** Status code (as a string) → count; 'reset' counts sockets destroyed by a fault. */
	responsesByStatus: Record<string, number>;
}

export interface SeedProfile {
	external_id?: string;
	deprecated_external_ids?: string[];
	user_aliases?: UserAlias[];
	email?: string;
	phone?: string;
	email_subscribe?: EmailSubscribeState;
	standard_attributes?: Record<string, unknown>;
	custom_attributes?: Record<string, unknown>;
	subscription_groups?: Record<string, SubscriptionState>;
	/** Stored as they are, under this profile (time: ISO 8601 or yyyy-MM-dd'T'HH:mm:ss:SSSZ). */
	events?: SeedEvent[];
	purchases?: SeedPurchase[];
}

export interface SeedEvent {
	name: string;
	time: string;
	properties?: Record<string, unknown>;
	app_id?: string;
}

export interface SeedPurchase {
	product_id: string;
	/** Stored upper case. */
	currency: string;
	price: number;
	/** Default 1. */
	quantity?: number;
	time: string;
	properties?: Record<string, unknown>;
	app_id?: string;
}

export interface SeedData {
	profiles?: SeedProfile[];
	/** Group ids that exist before anyone is subscribed to them. */
	subscriptionGroups?: string[];
	apiKeys?: Array<{ key: string; permissions: ApiKeyPermissions }>;
}

export interface SeedResult {
	/** The seeded profiles, in the order given, with their service_id. */
	profiles: ProfileView[];
}
