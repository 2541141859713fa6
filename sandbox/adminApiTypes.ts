/**
 * Shapes that cross the admin API (`/_admin/...`): what tests, benchmarks and demos send to the sandbox
 * and what they read back. Shared by the server and by SandboxClient, which may run in another process.
 */
import type {
	DashboardDirectoryView,
	ScimUserView,
	SeedDashboardDirectory,
	SeedDashboardUser,
} from './dashboardApiTypes';

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

/** Where transactional status postbacks go (the dashboard's transactional event status postback setting). */
export interface PostbackConfigPatch {
	/** http(s) URL each status change is POSTed to; null: no postbacks. */
	url: string | null;
	/** Extra headers sent with every postback, e.g. a shared secret or `Authorization: Basic ...`. Default none. */
	headers?: Record<string, string>;
	/** Pause before each status change of a send (sent, processed, delivered, ...). Default 50. */
	delayMs?: number;
}

export interface PostbackConfigView {
	url: string | null;
	headers: Record<string, string>;
	delayMs: number;
}

export interface SandboxConfigPatch {
	latencyMs?: number;
	logBodies?: boolean;
	/** Per rate-limit group; `null` turns that group's limit off. Groups not named keep their limit. */
	rateLimits?: Record<string, RateLimit | null>;
	retryAfterOn429?: boolean;
	/** Replaces the whole postback setting (omitted headers and delayMs take their defaults). */
	postbacks?: PostbackConfigPatch;
	/** Methods the preference center update answers (default both); the other is answered 405. */
	preferenceCenterMethods?: PreferenceCenterMethod[];
}

export interface SandboxConfigView {
	latencyMs: number;
	logBodies: boolean;
	rateLimits: Record<string, RateLimit | null>;
	retryAfterOn429: boolean;
	postbacks: PostbackConfigView;
	preferenceCenterMethods: PreferenceCenterMethod[];
}

export type FaultKind = 'status' | 'reset-before' | 'reset-after' | 'slow' | 'unplaced-error' | 'answer' | 'headers';

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
	/**
	 * Adds this Retry-After header to a 429 as given: an HTTP date (RFC 9110 allows one, and a proxy's
	 * clock may put it in the past), a negative or a garbled value. Wins over `retryAfterSeconds`.
	 */
	retryAfter?: string;
	/** Sets X-RateLimit-Reset to now + N seconds on the fault response. */
	rateLimitResetInSeconds?: number;
	/** For 'slow': the request is processed, and answered only after this delay. */
	delayMs?: number;
	/**
	 * For 'reset-after' on a transactional send: the platform is still working on the send for this
	 * long after the lost answer, so a resend with the same external_send_id meets the spec's "The
	 * external reference has been queued. Please retry to obtain send_id." until then.
	 */
	queuedMs?: number;
	/**
	 * For 'unplaced-error': the plain string the answer's `errors` holds. The request is NOT processed,
	 * yet answered 201 `{"message": "success", "errors": ["<message>"]}`: an error naming no object, as a
	 * proxy or a platform variant may answer. The spec's non-fatal errors are objects
	 * `{type, input_array, index}`, so a client cannot place this one, and must take the answer as
	 * proving nothing of what the request set.
	 */
	message?: string;
	/**
	 * For 'answer': nothing is processed, and the request is answered `status` (any, 2xx included) with
	 * this body: an object as JSON, a string as text (`contentType`, default text/html). What a proxy, a
	 * gateway or a failing platform may send where the spec promises `{"message": "success"}`.
	 */
	answerBody?: unknown;
	contentType?: string;
	/**
	 * For 'answer': headers to send with it, e.g. a Location for a 307 to another host. For 'headers':
	 * the request is processed as usual and its answer carries these headers over its own, as a gateway
	 * or a platform whose clock is behind ours may send (an X-RateLimit-Reset already past).
	 */
	answerHeaders?: Record<string, string>;
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

export type CampaignState = 'active' | 'paused' | 'archived';
export type CampaignKind = 'api_triggered' | 'transactional';
export type CanvasState = 'active' | 'paused' | 'archived' | 'stopped';

export interface CampaignView {
	id: string;
	state: CampaignState;
	kind: CampaignKind;
	/** Present when seeded: the campaign's message variations (translations endpoint). */
	messages?: MessageView[];
}

export interface CanvasView {
	id: string;
	state: CanvasState;
	/** Present when seeded: the canvas steps and their messages (translations endpoint). */
	steps?: CanvasStepView[];
}

export interface SegmentView {
	id: string;
	/** Members by external ID (primary or deprecated), resolved when a message is sent. */
	external_ids: string[];
}

export interface CanvasScheduleTime {
	/** ISO 8601 datetime. */
	time: string;
	/** false (or absent in a seed): delivery at `time` in UTC. */
	in_local_time?: boolean;
	/** Braze's third schedule field; stored when sent (the spec shows only time and in_local_time). */
	at_optimal_time?: boolean;
}

export interface CanvasScheduleView {
	canvas_id: string;
	schedule_id: string;
	schedule: CanvasScheduleTime;
	trigger_properties?: Record<string, unknown>;
}

type DispatchEndpoint = '/messages/send' | '/campaigns/trigger/send' | '/canvas/trigger/send';

export interface DispatchRecipientView {
	service_id: string;
	external_id?: string;
	/** trigger_properties (campaign) or canvas_entry_properties (canvas): the request's, overridden by the recipient's. */
	properties?: Record<string, unknown>;
}

/** One accepted request of a messaging endpoint: who the message went to. */
export interface DispatchView {
	dispatch_id: string;
	endpoint: DispatchEndpoint;
	campaign_id?: string;
	canvas_id?: string;
	send_id?: string;
	recipients: DispatchRecipientView[];
	broadcast: boolean;
	/** Set when an inactive canvas was triggered: nothing was sent. */
	notice?: string;
	/** /messages/send: the channel message objects as sent. */
	messages?: Record<string, unknown>;
	/** /campaigns/trigger/send: the attachments as sent. */
	attachments?: Array<{ file_name: string; url: string }>;
	created_at: string;
}

/** sent, processed, delivered, bounced, aborted, preceded by 'queued' (the send's answer). */
type TransactionalStatus = 'queued' | 'sent' | 'processed' | 'delivered' | 'bounced' | 'aborted';

export interface TransactionalSendView {
	dispatch_id: string;
	campaign_id: string;
	external_send_id?: string;
	service_id: string;
	/** Every status so far, oldest first; the last is the current one. */
	statuses: TransactionalStatus[];
}

export interface PostbackView {
	url: string;
	body: unknown;
	/** null when no answer came (connection refused, timeout, reset). */
	responseStatus: number | null;
	/** Why no answer came, when responseStatus is null. */
	error?: string;
	/** ISO 8601: when the POST started. */
	sentAt: string;
}

/** Declared type of a catalog field (Braze's catalog field types; catalog definition is not in the spec). */
export type CatalogFieldType = 'string' | 'number' | 'boolean' | 'time' | 'array' | 'object';

export interface CatalogField {
	name: string;
	type: CatalogFieldType;
}

/** A catalog as seeded; every item carries a string `id` plus declared fields. */
export interface SeedCatalog {
	/** Letters, numbers, hyphens, underscores (as item IDs). */
	name: string;
	fields: CatalogField[];
	items?: Array<Record<string, unknown>>;
}

export interface CatalogView {
	name: string;
	fields: CatalogField[];
	/** In creation order; an item replaced by PUT keeps its place. */
	items: Array<Record<string, unknown>>;
}

export interface StateView {
	profiles: ProfileView[];
	events: StoredEvent[];
	purchases: StoredPurchase[];
	/** group id → profile service_id → state. */
	subscriptionGroups: Record<string, Record<string, SubscriptionState>>;
	/** group id → the name the dashboard shows (the ID where none was seeded). */
	subscriptionGroupNames: Record<string, string>;
	campaigns: CampaignView[];
	canvases: CanvasView[];
	segments: SegmentView[];
	canvasSchedules: CanvasScheduleView[];
	/** /messages/send, /campaigns/trigger/send, /canvas/trigger/send, oldest first. */
	dispatches: DispatchView[];
	transactionalSends: TransactionalSendView[];
	/** Postbacks whose POST has finished (answered or failed), in order. */
	postbacks: PostbackView[];
	/** Catalogs (seeded) with their items as the catalog item endpoints left them. */
	catalogs: CatalogView[];
	/** Seeded preference centers as the update endpoint left them, in creation order. */
	preferenceCenters: PreferenceCenterView[];
	/** The workspace's multi-language settings; null when never seeded. */
	multiLanguage: MultiLanguageView | null;
	/** Dashboard user accounts as the SCIM endpoints answer them, in creation order. */
	dashboardUsers: ScimUserView[];
	/** App groups with their teams, roles and permission sets, every id filled in. */
	dashboardDirectory: DashboardDirectoryView;
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

export interface SeedCampaign {
	id: string;
	/** Default 'active'. */
	state?: CampaignState;
	/** Default 'api_triggered'. */
	kind?: CampaignKind;
	messages?: SeedMessage[];
}

export interface SeedCanvas {
	id: string;
	/** Default 'active'. */
	state?: CanvasState;
	steps?: SeedCanvasStep[];
}

interface SeedCanvasSchedule {
	/** A canvas seeded in this call or before. */
	canvas_id: string;
	schedule_id: string;
	schedule: { time: string; in_local_time?: boolean };
	trigger_properties?: object;
}

export type PreferenceCenterMethod = 'PUT' | 'POST';
export type PreferenceCenterState = 'active' | 'draft';
export type PreferenceCenterLinkRel = 'icon' | 'shortcut icon' | 'apple-touch-icon';
export type PreferenceCenterLinkType =
	'image/png' | 'image/svg' | 'image/gif' | 'image/x-icon' | 'image/svg+xml' | 'mask-icon';

/** An element of `options.links-tags`: a `<link>` tag of the preference center page. */
export interface PreferenceCenterLinkTag {
	rel: PreferenceCenterLinkRel;
	type?: PreferenceCenterLinkType;
	sizes?: string;
	/** Only with type mask-icon. */
	color?: string;
	href: string;
}

export interface PreferenceCenterOptions {
	/** Only the `content` value of the meta tag. */
	'meta-viewport-content'?: string;
	'links-tags'?: PreferenceCenterLinkTag[];
}

/** The fields the update endpoint sets (each one replaces the stored one; options whole). */
export interface PreferenceCenterFields {
	name?: string;
	preference_center_title?: string;
	preference_center_page_html?: string;
	confirmation_page_html?: string;
	state?: PreferenceCenterState;
	options?: PreferenceCenterOptions;
}

export interface SeedPreferenceCenter extends PreferenceCenterFields {
	external_id: string;
	name: string;
	/** ISO 8601; default: when seeded. */
	created_at?: string;
}

/** A preference center; fields never set are absent. */
export interface PreferenceCenterView extends PreferenceCenterFields {
	external_id: string;
	/** The external_id: the update path names a preference center by this id. */
	preference_center_api_id: string;
	name: string;
	created_at: string;
	updated_at: string;
}

/** Channels a seeded message may have; only email can be translated. */
export type MessageChannel = 'email' | 'push' | 'sms' | 'in_app' | 'content_card' | 'webhook' | 'whatsapp';

/** A message variation of a campaign or canvas step, with its translations. */
export interface SeedMessage {
	/** A UUID, unique across campaigns and canvases. */
	message_variation_id: string;
	channel: MessageChannel;
	/** Multi-language turned on for this message. Default true for email, false otherwise. */
	multi_language?: boolean;
	/** locale id → translation_map (string id → translated text). */
	translations?: Record<string, Record<string, string>>;
}

export interface MessageView {
	message_variation_id: string;
	channel: MessageChannel;
	multi_language: boolean;
	translations: Record<string, Record<string, string>>;
}

export interface SeedCanvasStep {
	/** A UUID, unique across canvases. */
	step_id: string;
	messages: SeedMessage[];
}

export interface CanvasStepView {
	step_id: string;
	messages: MessageView[];
}

/** A locale of the workspace's multi-language settings. */
export interface WorkspaceLocale {
	/** A UUID: the `locale_id` of the translation endpoints. */
	id: string;
	/** e.g. fr-FR. */
	name: string;
	country: string;
	language: string;
}

export interface SeedMultiLanguage {
	/** Default true. */
	enabled?: boolean;
	/** In the order the dashboard lists them (the order of translation answers). */
	locales: WorkspaceLocale[];
}

export interface MultiLanguageView {
	enabled: boolean;
	locales: WorkspaceLocale[];
}

/**
 * Campaigns, canvases, segments and schedules are created in the dashboard, which the sandbox lacks: a
 * seed creates them, and seeding an existing id again replaces it (e.g. to pause a campaign mid-test).
 */
interface SeedSubscriptionGroup {
	id: string;
	name: string;
}

export interface SeedData {
	profiles?: SeedProfile[];
	/**
	 * The workspace's subscription groups (created in the dashboard, which the sandbox lacks): an ID, or
	 * an ID and the name the dashboard shows. Only these groups, and those a seeded profile is in, take
	 * states; the endpoints refuse any other ID. A group seeded again is renamed.
	 */
	subscriptionGroups?: Array<string | SeedSubscriptionGroup>;
	apiKeys?: Array<{ key: string; permissions: ApiKeyPermissions }>;
	campaigns?: SeedCampaign[];
	canvases?: SeedCanvas[];
	segments?: Array<{ id: string; external_ids: string[] }>;
	canvasSchedules?: SeedCanvasSchedule[];
	/** Catalog definition is not in the spec: a seed creates catalogs (a name seeded again is replaced). */
	catalogs?: SeedCatalog[];
	/** Preference center creation is not in the spec: a seed creates them (an external_id seeded again is replaced). */
	preferenceCenters?: SeedPreferenceCenter[];
	/** The workspace's multi-language settings (dashboard); seeded again, replaced whole. */
	multiLanguage?: SeedMultiLanguage;
	/** SCIM tokens and the X-Request-Origin each must come with (added to the demo token). */
	scimTokens?: Array<{ token: string; origin: string }>;
	/** The dashboard's app groups, teams, roles and permission sets that SCIM permissions name; replaced whole. */
	dashboardDirectory?: SeedDashboardDirectory;
	/** Dashboard user accounts (SCIM); an id seeded again is replaced. */
	dashboardUsers?: SeedDashboardUser[];
}

export interface SeedResult {
	/** The seeded profiles, in the order given, with their service_id. */
	profiles: ProfileView[];
}
