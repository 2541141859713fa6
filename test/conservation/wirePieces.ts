/**
 * The pieces of item data in one recorded request, read from the body shapes the spec gives each
 * endpoint (not from the nodes): every object of /users/track's arrays, every ID of a subscription
 * element, every identifier of an export, every recipient of a send, every identify and rename
 * object, every catalog item, and the body of each one-per-request endpoint.
 *
 * Each piece gets a key naming the data that makes it unique to one input item (the conservation
 * items carry a unique marker: a `probe` property, an ID, an alias) and a value: the data that must
 * be the item's own.
 */
import type { RecordedRequest } from '../../sandbox';
import type { EndpointTemplate } from './endpoints';
import { matchEndpoint } from './endpoints';

export interface WirePiece {
	key: string;
	value: unknown;
}

type Body = Record<string, unknown>;
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

interface PieceReader extends EndpointTemplate {
	read(body: Body, params: Record<string, string>, request: RecordedRequest): WirePiece[];
}

const asBody = (value: unknown): Body =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const without = (body: Body, ...keys: string[]): Body =>
	Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));

/** The one identifier field a recipient, identify or export object carries (the first present). */
function identityOf(object: Body, fields: string[]): [string, unknown] | undefined {
	const field = fields.find((name) => object[name] !== undefined);
	return field === undefined ? undefined : [field, object[field]];
}

function track(body: Body): WirePiece[] {
	return ['attributes', 'events', 'purchases'].flatMap((slot) =>
		list(body[slot]).map((entry) => {
			const object = asBody(entry);
			const probe = slot === 'attributes' ? object.probe : asBody(object.properties).probe;
			return { key: trackKey(slot, probe), value: entry };
		}),
	);
}

function subscription(body: Body): WirePiece[] {
	return list(body.subscription_groups).flatMap((entry) => {
		const element = asBody(entry);
		return ['external_ids', 'emails', 'phones'].flatMap((field) =>
			list(element[field]).map((id) => ({
				key: userKey('subscription', field, id),
				value: {
					subscription_group_id: element.subscription_group_id,
					subscription_state: element.subscription_state,
					field,
					id,
				},
			})),
		);
	});
}

function exportIds(body: Body): WirePiece[] {
	const fields = body.fields_to_export;
	return ['external_ids', 'user_aliases', 'device_id', 'email_address', 'phone', 'service_id'].flatMap((field) =>
		list(body[field]).map((id) => ({
			key: userKey('export', field, id),
			value: { field, id, fields_to_export: fields },
		})),
	);
}

/** A send to named users: each recipient with the request's other fields; a broadcast: the whole body. */
function dispatch(listFields: string[], broadcastTarget: string) {
	return (body: Body): WirePiece[] => {
		const shared = without(body, ...listFields);
		if (body.broadcast === true) return [{ key: broadcastKey(body[broadcastTarget]), value: { request: body } }];
		return listFields.flatMap((field) =>
			list(body[field]).map((recipient) => {
				if (field !== 'recipients')
					return { key: userKey('recipient', field, recipient), value: { request: shared, field, recipient } };
				// The spec's default: send_to_existing_only true, the same as absent.
				const object = asBody(recipient);
				const normal = object.send_to_existing_only === true ? without(object, 'send_to_existing_only') : object;
				const identity = identityOf(object, ['external_user_id', 'user_alias', 'email']);
				return {
					key: identity ? userKey('recipient', ...identity) : 'recipient:?',
					value: { request: shared, recipient: normal },
				};
			}),
		);
	};
}

function transactional(body: Body, params: Record<string, string>): WirePiece[] {
	const identity = identityOf(asBody(body.recipient), ['external_user_id', 'user_alias']);
	return [
		{
			key: identity ? userKey('transactional', ...identity) : 'transactional:?',
			value: { campaign_id: params.campaign_id, body },
		},
	];
}

function identify(body: Body): WirePiece[] {
	return [
		...list(body.aliases_to_identify).map((entry) => ({
			key: userKey('identify', 'user_alias', asBody(entry).user_alias),
			value: { merge_behavior: body.merge_behavior, object: entry },
		})),
		...list(body.emails_to_identify).map((entry) => ({
			key: userKey('identify', 'email', asBody(entry).email),
			value: { merge_behavior: body.merge_behavior, object: entry },
		})),
	];
}

function catalog(method: string) {
	return (body: Body, params: Record<string, string>): WirePiece[] =>
		list(body.items).map((item) => ({
			key: catalogKey(params.catalog_name, asBody(item).id),
			value: { method, item },
		}));
}

function schedule(action: string) {
	return (body: Body): WirePiece[] => {
		// The spec: in_local_time omitted means UTC, the same as false.
		const scheduleObject = asBody(body.schedule);
		const normal =
			body.schedule === undefined
				? body
				: {
						...body,
						schedule:
							scheduleObject.in_local_time === false ? without(scheduleObject, 'in_local_time') : scheduleObject,
					};
		return [{ key: scheduleKey(body.canvas_id, body.schedule_id), value: { action, body: normal } }];
	};
}

const translation = (body: Body, params: Record<string, string>, request: RecordedRequest): WirePiece[] => [
	{ key: translationKey(request.query.message_variation_id), value: { query: request.query } },
];

/** RFC 7644 filter `userName eq "<json string>"`: the user name it asks for. */
function filteredUserName(filter: string | undefined): unknown {
	const match = /^userName eq (".*")$/.exec(filter ?? '');
	if (!match) return filter;
	try {
		return JSON.parse(match[1]) as unknown;
	} catch {
		return filter;
	}
}

const PIECE_READERS: PieceReader[] = [
	{ method: 'POST', path: '/users/track', read: track },
	{ method: 'POST', path: '/v2/subscription/status/set', read: subscription },
	{ method: 'POST', path: '/subscription/status/set', read: subscription },
	{ method: 'POST', path: '/users/export/ids', read: exportIds },
	{ method: 'POST', path: '/messages/send', read: dispatch(['external_user_ids', 'user_aliases'], 'segment_id') },
	{ method: 'POST', path: '/campaigns/trigger/send', read: dispatch(['recipients'], 'campaign_id') },
	{ method: 'POST', path: '/canvas/trigger/send', read: dispatch(['recipients'], 'canvas_id') },
	{ method: 'POST', path: '/transactional/v1/campaigns/{campaign_id}/send', read: transactional },
	{ method: 'POST', path: '/users/identify', read: identify },
	{
		method: 'POST',
		path: '/users/external_ids/rename',
		read: (body) =>
			list(body.external_id_renames).map((entry) => ({
				key: userKey('rename', 'external_id', asBody(entry).current_external_id),
				value: entry,
			})),
	},
	{ method: 'PATCH', path: '/catalogs/{catalog_name}/items', read: catalog('PATCH') },
	{ method: 'PUT', path: '/catalogs/{catalog_name}/items', read: catalog('PUT') },
	{ method: 'DELETE', path: '/catalogs/{catalog_name}/items', read: catalog('DELETE') },
	// The method is unresolved in the spec (PUT or POST): the body is the item's data either way.
	{
		method: 'PUT',
		path: '/preference_center/v1/{preferenceCenterExternalID}',
		read: (body, params) => [{ key: preferenceCenterKey(params.preferenceCenterExternalID), value: body }],
	},
	{
		method: 'POST',
		path: '/preference_center/v1/{preferenceCenterExternalID}',
		read: (body, params) => [{ key: preferenceCenterKey(params.preferenceCenterExternalID), value: body }],
	},
	{ method: 'GET', path: '/campaigns/translations', read: translation },
	{ method: 'GET', path: '/campaign/translations', read: translation },
	{ method: 'GET', path: '/canvas/translations', read: translation },
	{ method: 'POST', path: '/canvas/trigger/schedule/update', read: schedule('update') },
	{ method: 'POST', path: '/canvas/trigger/schedule/delete', read: schedule('delete') },
	{
		method: 'POST',
		path: '/scim/v2/Users',
		read: (body) => [{ key: scimUserNameKey(body.userName), value: { method: 'POST', body } }],
	},
	{
		method: 'GET',
		path: '/scim/v2/Users',
		read: (_, __, request) => [
			{
				key: scimUserNameKey(filteredUserName(request.query.filter)),
				value: { method: 'GET', filter: request.query.filter },
			},
		],
	},
	{
		method: 'GET',
		path: '/scim/v2/Users/{id}',
		read: (_, params) => [{ key: scimIdKey(params.id), value: { method: 'GET' } }],
	},
	{
		method: 'PUT',
		path: '/scim/v2/Users/{id}',
		read: (body, params) => [{ key: scimIdKey(params.id), value: { method: 'PUT', body } }],
	},
	{
		method: 'DELETE',
		path: '/scim/v2/Users/{id}',
		read: (_, params) => [{ key: scimIdKey(params.id), value: { method: 'DELETE' } }],
	},
];

/** Every piece of item data in the request; none for an endpoint the spec does not have. */
export function wirePieces(request: RecordedRequest): WirePiece[] {
	const match = matchEndpoint(PIECE_READERS, request);
	return match ? match.entry.read(asBody(request.body), match.params, request) : [];
}

/** The endpoints pieces are read from, for the guard. */
export const PIECE_ENDPOINTS: readonly EndpointTemplate[] = PIECE_READERS;
