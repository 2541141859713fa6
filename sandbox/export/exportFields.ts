/**
 * The fields of the spec's "User export object", in its order: the names `fields_to_export` may use.
 * The spec does not list the allowed values; we take exactly the export object's fields, as Braze does.
 */
export const EXPORT_FIELDS = [
	'created_at',
	'external_id',
	'user_aliases',
	'service_id',
	'random_bucket',
	'first_name',
	'last_name',
	'email',
	'home_city',
	'time_zone',
	'phone',
	'dob',
	'country',
	'language',
	'last_coordinates',
	'gender',
	'total_revenue',
	'attributed_campaign',
	'attributed_source',
	'attributed_adgroup',
	'attributed_ad',
	'push_subscribe',
	'email_subscribe',
	'push_opted_in_at',
	'custom_attributes',
	'custom_events',
	'purchases',
	'devices',
	'push_tokens',
	'apps',
	'campaigns_received',
	'canvases_received',
	'cards_clicked',
] as const;

export type ExportField = (typeof EXPORT_FIELDS)[number];

const KNOWN: ReadonlySet<string> = new Set(EXPORT_FIELDS);

export function isExportField(name: unknown): name is ExportField {
	return typeof name === 'string' && KNOWN.has(name);
}
