import type { StoredEvent, StoredPurchase } from '../adminApiTypes';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { summariseEvents, summarisePurchases, totalRevenue } from './activitySummaries';
import { EXPORT_FIELDS, type ExportField } from './exportFields';
import { randomBucketOf } from './randomBucket';

interface ExportSource {
	profile: Profile;
	/** Only what is stored under this profile: events orphaned by an identify are not its own. */
	events: () => StoredEvent[];
	purchases: () => StoredPurchase[];
}

type FieldValue = (source: ExportSource) => unknown;

const standard =
	(name: string): FieldValue =>
	({ profile }) =>
		profile.standard_attributes[name];

const nonEmpty = <T>(values: T[]): T[] | undefined => (values.length > 0 ? values : undefined);

/**
 * How each export field is read from stored state; undefined means "no such data", and the field is
 * left out (spec: only data that exists is included). The sandbox records no devices, push tokens,
 * apps, message history, card clicks, install attribution or push opt-in time, so those fields are
 * valid to request but never appear.
 */
const FIELD_VALUES: Readonly<Record<ExportField, FieldValue>> = {
	created_at: ({ profile }) => profile.created_at,
	external_id: ({ profile }) => profile.external_id,
	user_aliases: ({ profile }) => nonEmpty(profile.user_aliases.map((alias) => ({ ...alias }))),
	service_id: ({ profile }) => profile.service_id,
	random_bucket: ({ profile }) => randomBucketOf(profile.service_id),
	first_name: standard('first_name'),
	last_name: standard('last_name'),
	email: ({ profile }) => profile.email,
	home_city: standard('home_city'),
	time_zone: standard('time_zone'),
	phone: ({ profile }) => profile.phone,
	dob: standard('dob'),
	country: standard('country'),
	language: standard('language'),
	// [lon, lat], from the current_location attribute {latitude, longitude}.
	last_coordinates: ({ profile }) => {
		const location = profile.standard_attributes.current_location as
			{ latitude: number; longitude: number } | undefined;
		return location ? [location.longitude, location.latitude] : undefined;
	},
	gender: standard('gender'),
	total_revenue: ({ purchases }) => {
		const own = purchases();
		return own.length > 0 ? totalRevenue(own) : undefined;
	},
	attributed_campaign: () => undefined,
	attributed_source: () => undefined,
	attributed_adgroup: () => undefined,
	attributed_ad: () => undefined,
	push_subscribe: standard('push_subscribe'),
	email_subscribe: ({ profile }) => profile.email_subscribe,
	push_opted_in_at: () => undefined,
	custom_attributes: ({ profile }) =>
		Object.keys(profile.custom_attributes).length > 0 ? structuredClone(profile.custom_attributes) : undefined,
	custom_events: ({ events }) => nonEmpty(summariseEvents(events())),
	purchases: ({ purchases }) => nonEmpty(summarisePurchases(purchases())),
	devices: () => undefined,
	push_tokens: () => undefined,
	apps: () => undefined,
	campaigns_received: () => undefined,
	canvases_received: () => undefined,
	cards_clicked: () => undefined,
};

/** The user export object of one profile, holding only the requested fields that have data. */
export function buildExportObject(
	state: PlatformState,
	profile: Profile,
	fields: ReadonlySet<ExportField>,
): Record<string, unknown> {
	const source: ExportSource = {
		profile,
		events: once(() => state.events.filter((event) => event.service_id === profile.service_id)),
		purchases: once(() => state.purchases.filter((purchase) => purchase.service_id === profile.service_id)),
	};
	const exported: Record<string, unknown> = {};
	for (const field of EXPORT_FIELDS) {
		if (!fields.has(field)) continue;
		const value = FIELD_VALUES[field](source);
		if (value !== undefined && value !== null) exported[field] = value;
	}
	return exported;
}

function once<T>(compute: () => T): () => T {
	let cached: { value: T } | undefined;
	return () => (cached ??= { value: compute() }).value;
}
