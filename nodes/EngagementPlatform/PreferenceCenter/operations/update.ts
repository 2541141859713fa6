import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ItemReader, Piece } from '../../shared/engine';
import { declareOperation, ItemInputError, onlyPiece, refuseRepeatedKeys } from '../../shared/engine';
import { collection, pathSegment } from '../../shared/fields/inputs';
import { linkTagsField, readLinkTags } from '../shared/linkTags';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a preference center',
	description: 'Change the name, title, pages, state or icons of a preference center',
	builderHint: {
		propertyHint:
			'The only operation: it changes the name, title, page and confirmation HTML, state or icons of one preference center per input item.',
	},
};

/** The fields sent as they are, under their names, in the order they are checked. */
const TEXT_FIELDS = ['name', 'preference_center_title', 'preference_center_page_html', 'confirmation_page_html'];

const ID = pathSegment({
	displayName: 'Preference Center ID',
	name: 'preferenceCenterId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. newsletter-preferences',
	description: "The preference center's API ID, as the platform lists it",
	builderHint: {
		propertyHint:
			"The preference center's API ID as the platform lists it. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
	},
});

const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'Confirmation Page HTML',
			name: 'confirmation_page_html',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			description: 'HTML of the page shown after saving',
		},
		linkTagsField,
		{
			displayName: 'Meta Viewport Content',
			name: 'meta_viewport_content',
			type: 'string',
			default: '',
			placeholder: 'width=device-width, initial-scale=1',
			description: 'Only the content value of the viewport meta tag',
		},
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		{
			displayName: 'Page HTML',
			name: 'preference_center_page_html',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			description: 'HTML of the preference center page',
		},
		{
			displayName: 'State',
			name: 'state',
			type: 'options',
			// The spec shows only "active"; "draft" is the platform's other state for a preference center.
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'Draft', value: 'draft' },
			],
			default: 'active',
		},
		{
			displayName: 'Title',
			name: 'preference_center_title',
			type: 'string',
			default: '',
			description: 'Title of the page',
		},
	],
};

const UPDATE_FIELDS = collection(updateFields);

/** The label of each of the collection's fields (its display name), and as errors name it: "Update Fields.Title". */
const LABELS: Readonly<Record<string, string>> = Object.fromEntries(
	(updateFields.options as INodeProperties[]).map((option) => [option.name, option.displayName]),
);
const inUpdateFields = (name: string) => `${UPDATE_FIELDS.label}.${LABELS[name]}`;

export const description: INodeProperties[] = [...ID.properties, ...UPDATE_FIELDS.properties];

/** The preference center a request updates: the path's. */
interface PreferenceCenter {
	preference_center_id: string;
}

const UPDATED = 'updated';

export const operation = declareOperation<PreferenceCenter, IDataObject>({
	// PUT, as the endpoint's heading says: it names the resource in the path and replaces the
	// fields given, so a resend changes nothing more. The spec's sample writes POST, so a 405
	// to PUT switches the run to POST (see MethodChoice).
	endpoint: {
		method: 'PUT',
		fallbackMethod: 'POST',
		path: '/preference_center/v1/{preferenceCenterExternalID}',
		rateLimit: 'preference_center',
		permission: 'preference_center.update',
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	},
	// One preference center per request, at the spec's 10 per minute: the pacer waits (and logs the wait).
	shape: {
		slots: { fields: { form: 'fields', max: 1 } },
		groupKey: (group) => group.preference_center_id,
		pathParams: (group) => ({ preferenceCenterExternalID: group.preference_center_id }),
	},
	readItem: (item) => [readUpdate(item)],
	checkAcrossItems: onePerPreferenceCenter,
	isSafeToResend: () => true,
	readResponse: (response, request) =>
		new Map([
			[
				onlyPiece(request),
				{
					ok: true,
					data: {
						preference_center_api_id: response.body.preference_center_api_id,
						created_at: response.body.created_at,
						updated_at: response.body.updated_at,
					},
				},
			],
		]),
	successStatus: { word: UPDATED },
	itemResult: (_, [{ piece, outcome }]) => [{ status: UPDATED, ...piece.subject, ...(outcome.ok ? outcome.data : {}) }],
});

function readUpdate(item: ItemReader): Piece<PreferenceCenter> {
	const id = ID.read(item);
	const fields = UPDATE_FIELDS.read(item);
	const body: IDataObject = {};
	for (const name of TEXT_FIELDS) {
		const value = fields[name];
		if (value === undefined || value === '') continue;
		if (typeof value !== 'string')
			throw new ItemInputError(inUpdateFields(name), 'must be text', 'Map a text value into this field.');
		body[name] = value;
	}
	if (fields.state !== undefined) body.state = fields.state;
	const options: IDataObject = {};
	const viewportValue = fields.meta_viewport_content;
	const viewport = typeof viewportValue === 'string' ? viewportValue.trim() : '';
	if (viewport) options['meta-viewport-content'] = viewport;
	const linkTags = readLinkTags(fields.links_tags);
	if (linkTags) options['links-tags'] = linkTags;
	// The platform replaces Options whole: one part sent alone clears the other (the stored favicons).
	// The spec has no way to read the preference center first, so a part alone is refused, saying so.
	if (Object.keys(options).length === 1) {
		const [given, missing] = viewport
			? ['meta_viewport_content', 'links_tags']
			: ['links_tags', 'meta_viewport_content'];
		throw new ItemInputError(
			inUpdateFields(missing),
			`is needed with ${LABELS[given]}: the platform replaces the options as a whole, so ${LABELS[missing]} would be cleared`,
			`Add ${LABELS[missing]} with the value it should keep (its current one if it does not change), or leave both out.`,
		);
	}
	if (Object.keys(options).length > 0) body.options = options;
	if (Object.keys(body).length === 0) {
		throw UPDATE_FIELDS.problem(
			'is empty, so there is nothing to update',
			`Add at least one field under "${UPDATE_FIELDS.label}".`,
		);
	}
	return {
		itemIndex: item.itemIndex,
		slot: 'fields',
		group: { preference_center_id: id },
		payload: body,
		subject: { preference_center_id: id },
	};
}

/** Two updates of one preference center in one run would race; the later item could lose. */
function onePerPreferenceCenter(pieces: Array<Piece<PreferenceCenter>>): Map<number, ItemInputError> {
	return refuseRepeatedKeys(
		pieces,
		(piece) => piece.group.preference_center_id,
		(piece, first) =>
			ID.problem(
				`"${piece.group.preference_center_id}" is also updated by row ${first + 1} (item ${first}), and the two updates would race`,
				'Merge the two items into one.',
			),
	);
}
