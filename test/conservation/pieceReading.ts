/**
 * What reading the pieces of item data out of a request takes: the piece, the keys that name each
 * piece after the data that makes it unique to one input item (the conservation items carry a unique
 * marker: a `probe` property, an ID, an alias), and helpers for the bodies the spec gives each endpoint.
 * Each endpoint's own reader is declared with the endpoint, in the cases file of the rows that call it.
 */
export interface WirePiece {
	key: string;
	/** The data that must be the item's own. */
	value: unknown;
}

export type Body = Record<string, unknown>;
type Alias = { alias_name?: unknown; alias_label?: unknown };

/** The kinds of user identifier the spec names, whatever field holds them. */
const KIND_OF: Record<string, string> = {
	external_id: 'external_id',
	external_ids: 'external_id',
	external_user_id: 'external_id',
	external_user_ids: 'external_id',
	user_alias: 'alias',
	user_aliases: 'alias',
	email: 'email',
	emails: 'email',
	email_address: 'email',
	phone: 'phone',
	phones: 'phone',
	device_id: 'device_id',
	service_id: 'service_id',
};

/** `<scope>:<kind>:<value>`; an alias is `<label>/<name>`. */
export function userKey(scope: string, field: string, value: unknown): string {
	const kind = KIND_OF[field] ?? field;
	const text =
		kind === 'alias'
			? `${String((value as Alias)?.alias_label)}/${String((value as Alias)?.alias_name)}`
			: String(value);
	return `${scope}:${kind}:${text}`;
}

export const trackKey = (slot: string, probe: unknown): string => `track:${slot}:${String(probe)}`;
export const catalogKey = (catalog: string, id: unknown): string => `catalog:${catalog}/${String(id)}`;
export const scheduleKey = (canvasId: unknown, scheduleId: unknown): string =>
	`schedule:${String(canvasId)}/${String(scheduleId)}`;
export const broadcastKey = (target: unknown): string => `broadcast:${String(target)}`;
export const preferenceCenterKey = (id: string): string => `preference_center:${id}`;
export const translationKey = (messageVariationId: unknown): string => `translation:${String(messageVariationId)}`;
export const scimUserNameKey = (userName: unknown): string => `scim:userName:${String(userName)}`;
export const scimIdKey = (id: string): string => `scim:id:${id}`;

export const asBody = (value: unknown): Body =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : {};
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
export const without = (body: Body, ...keys: string[]): Body =>
	Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));

/** The one identifier field a recipient, identify or export object carries (the first present). */
export function identityOf(object: Body, fields: string[]): [string, unknown] | undefined {
	const field = fields.find((name) => object[name] !== undefined);
	return field === undefined ? undefined : [field, object[field]];
}
