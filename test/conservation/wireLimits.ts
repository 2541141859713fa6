/**
 * The spec's per-request limits, in one table keyed by method and path, written from the spec's own
 * words (quoted with each limit) and not from the nodes or the sandbox. Where the spec can be read two
 * ways the stricter reading is taken: a request within it is within every reading.
 *
 * Every endpoint the nodes may call has an entry, with no limits where the spec states none per
 * request; a request to an endpoint missing here is reported as over a limit (it is not in the spec).
 */
import type { RecordedRequest } from '../../sandbox';
import type { EndpointTemplate } from './endpoints';
import { endpointName, matchEndpoint } from './endpoints';

export interface WireLimit {
	/** The spec's words this limit is read from. */
	spec: string;
	/** What is over the limit in this request, or undefined. */
	over(body: Body, request: RecordedRequest): string | undefined;
}

export interface EndpointLimits extends EndpointTemplate {
	limits: WireLimit[];
}

type Body = Record<string, unknown>;

/** How many entries a field holds: an array's length, one for any other value, zero when absent. */
function count(value: unknown): number {
	if (value === undefined || value === null) return 0;
	return Array.isArray(value) ? value.length : 1;
}

const objects = (value: unknown): Body[] =>
	Array.isArray(value) ? value.filter((entry): entry is Body => typeof entry === 'object' && entry !== null) : [];

function atMost(max: number, fields: string[], spec: string): WireLimit {
	return {
		spec,
		over(body) {
			const total = fields.reduce((sum, field) => sum + count(body[field]), 0);
			return total > max ? `${fields.join(' + ')}: ${total} > ${max}` : undefined;
		},
	};
}

/** A field the spec allows once per request: one string, not a list. */
function single(field: string, spec: string): WireLimit {
	return {
		spec,
		over(body) {
			const value = body[field];
			return value !== undefined && typeof value !== 'string'
				? `${field}: ${count(value)} values, one allowed`
				: undefined;
		},
	};
}

/** "50 KB", read as 50,000 bytes of the value's JSON (UTF-8): the stricter of 50,000 and 51,200. */
const KB50 = 50_000;
const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

const SUBSCRIPTION_IDS = ['external_ids', 'emails', 'phones'];
const subscriptionLimits: WireLimit[] = [
	{
		spec: '/v2/subscription/status/set element: external_ids "up to 50", emails "at least 1, up to 50", phones "at least 1, up to 50"; Limits: "up to 50 ids per field"',
		over(body) {
			const problems = objects(body.subscription_groups).flatMap((element, index) =>
				SUBSCRIPTION_IDS.filter((field) => count(element[field]) > 50).map(
					(field) => `subscription_groups[${index}].${field}: ${count(element[field])} > 50`,
				),
			);
			return problems.length > 0 ? problems.join('; ') : undefined;
		},
	},
	{
		spec: 'What the service does: "set subscription-group state for up to 50 users per call (POST /v2/subscription/status/set)"',
		over(body) {
			const users = objects(body.subscription_groups).reduce(
				(sum, element) => sum + SUBSCRIPTION_IDS.reduce((n, field) => n + count(element[field]), 0),
				0,
			);
			return users > 50 ? `users in all elements: ${users} > 50` : undefined;
		},
	},
];

const MESSAGING_RECIPIENTS =
	'Limits: "/canvas/trigger/send, /campaigns/trigger/send, /messages/send ... with external IDs: up to 50 external IDs per request"';
const catalogItems = atMost(
	50,
	['items'],
	'Catalog items: "items (required array of up to 50 item objects)"; Limits: "catalog items: up to 50 items per request"',
);

export const WIRE_LIMITS: EndpointLimits[] = [
	{
		method: 'POST',
		path: '/users/track',
		limits: [
			atMost(
				75,
				['attributes'],
				'Limits: /users/track "per request up to 75 event, 75 attribute, 75 purchase objects"',
			),
			atMost(75, ['events'], 'Limits: /users/track "per request up to 75 event, 75 attribute, 75 purchase objects"'),
			atMost(75, ['purchases'], 'Limits: /users/track "per request up to 75 event, 75 attribute, 75 purchase objects"'),
		],
	},
	{ method: 'POST', path: '/v2/subscription/status/set', limits: subscriptionLimits },
	// Versioning: the earlier path coexists with v2; the same body is read the same way.
	{ method: 'POST', path: '/subscription/status/set', limits: subscriptionLimits },
	{
		method: 'POST',
		path: '/users/export/ids',
		limits: [
			// "up to 50 external_ids or user_aliases": read as both together, the stricter reading.
			atMost(
				50,
				['external_ids', 'user_aliases'],
				'Limits: /users/export/ids "up to 50 external_ids or user_aliases"; fields: external_ids "up to 50", user_aliases "up to 50"',
			),
			single(
				'device_id',
				'Limits: /users/export/ids "one each of device_id, email_address, phone"; device_id "one per request"',
			),
			single(
				'email_address',
				'Limits: /users/export/ids "one each of device_id, email_address, phone"; email_address "one per request"',
			),
			single(
				'phone',
				'Limits: /users/export/ids "one each of device_id, email_address, phone"; phone "one per request"',
			),
		],
	},
	{
		method: 'POST',
		path: '/messages/send',
		// external_user_ids "up to 50"; aliases address users too, so both count against the 50 per request.
		limits: [
			atMost(
				50,
				['external_user_ids', 'user_aliases'],
				`${MESSAGING_RECIPIENTS}; /messages/send external_user_ids "up to 50"`,
			),
		],
	},
	{
		method: 'POST',
		path: '/campaigns/trigger/send',
		limits: [atMost(50, ['recipients'], `${MESSAGING_RECIPIENTS}; /campaigns/trigger/send recipients "up to 50"`)],
	},
	{
		method: 'POST',
		path: '/canvas/trigger/send',
		limits: [
			atMost(50, ['recipients'], `${MESSAGING_RECIPIENTS}; /canvas/trigger/send recipients "up to 50"`),
			{
				spec: 'Limits: "canvas_entry_properties: at most 50 KB"; /canvas/trigger/send canvas_entry_properties "at most 50 KB"',
				over(body) {
					const sizes = [
						body.canvas_entry_properties,
						...objects(body.recipients).map((recipient) => recipient.canvas_entry_properties),
					]
						.filter((value) => value !== undefined)
						.map(bytes);
					const largest = Math.max(0, ...sizes);
					return largest > KB50 ? `canvas_entry_properties: ${largest} bytes > 50 KB` : undefined;
				},
			},
		],
	},
	{
		method: 'POST',
		path: '/transactional/v1/campaigns/{campaign_id}/send',
		limits: [
			{
				spec: 'Transactional send: "recipient (object, required): exactly one of external_user_id or user_alias"; "Exactly one user per request (1:1 alerts)"',
				over(body) {
					const recipient = body.recipient;
					if (body.recipients !== undefined) return `recipients: a list, one recipient allowed`;
					if (typeof recipient !== 'object' || recipient === null || Array.isArray(recipient))
						return `recipient: ${count(recipient)} recipients, exactly one allowed`;
					const identities = ['external_user_id', 'user_alias'].filter(
						(field) => (recipient as Body)[field] !== undefined,
					).length;
					return identities === 1 ? undefined : `recipient: ${identities} identifiers, exactly one allowed`;
				},
			},
		],
	},
	{
		method: 'POST',
		path: '/users/identify',
		limits: [
			atMost(
				50,
				['aliases_to_identify'],
				'/users/identify aliases_to_identify "up to 50 per request"; Limits: "up to 50 aliases per request"',
			),
			// Emails are not counted separately in the spec: read as 50 identifications in all, the stricter reading.
			atMost(
				50,
				['aliases_to_identify', 'emails_to_identify'],
				'Limits: /users/identify "up to 50 aliases per request" (emails_to_identify counted with them)',
			),
		],
	},
	{
		method: 'POST',
		path: '/users/external_ids/rename',
		limits: [
			atMost(
				50,
				['external_id_renames'],
				'/users/external_ids/rename external_id_renames "required array of up to 50 objects"; Limits: "up to 50 rename objects per request"',
			),
		],
	},
	{ method: 'PATCH', path: '/catalogs/{catalog_name}/items', limits: [catalogItems] },
	{ method: 'PUT', path: '/catalogs/{catalog_name}/items', limits: [catalogItems] },
	{ method: 'DELETE', path: '/catalogs/{catalog_name}/items', limits: [catalogItems] },
	// No per-request limit stated (rate limits only): one preference center, lookup, schedule or user per request by the path or body.
	{ method: 'PUT', path: '/preference_center/v1/{preferenceCenterExternalID}', limits: [] },
	{ method: 'POST', path: '/preference_center/v1/{preferenceCenterExternalID}', limits: [] },
	{ method: 'GET', path: '/campaigns/translations', limits: [] },
	{ method: 'GET', path: '/campaign/translations', limits: [] },
	{ method: 'GET', path: '/canvas/translations', limits: [] },
	{ method: 'POST', path: '/canvas/trigger/schedule/update', limits: [] },
	{ method: 'POST', path: '/canvas/trigger/schedule/delete', limits: [] },
	{ method: 'POST', path: '/scim/v2/Users', limits: [] },
	{ method: 'GET', path: '/scim/v2/Users', limits: [] },
	{ method: 'GET', path: '/scim/v2/Users/{id}', limits: [] },
	{ method: 'PUT', path: '/scim/v2/Users/{id}', limits: [] },
	{ method: 'DELETE', path: '/scim/v2/Users/{id}', limits: [] },
];

/** Each limit the request is over, as "METHOD /path: what (spec: ...)"; empty when within all. */
export function limitViolations(request: RecordedRequest): string[] {
	const match = matchEndpoint(WIRE_LIMITS, request);
	if (!match) return [`${request.method} ${request.path}: not an endpoint of the spec`];
	const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Body;
	return match.entry.limits.flatMap((limit) => {
		const over = limit.over(body, request);
		return over === undefined ? [] : [`${endpointName(match.entry)}: ${over} (spec: ${limit.spec})`];
	});
}
