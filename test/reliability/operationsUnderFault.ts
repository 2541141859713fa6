import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SeedData, StateView } from '../../sandbox';
import {
	CATALOG_NODE,
	DASHBOARD_USER_NODE,
	MESSAGE_NODE,
	PREFERENCE_CENTER_NODE,
	SUBSCRIPTION_NODE,
	TRANSLATION_NODE,
	USER_NODE,
} from '../support/nodeTypes';

/**
 * Every operation, as the fault suite drives it: three valid items, what the sandbox must hold
 * first, where a fault hits the first request, whether docs/delivery.md (Retries and pacing) lets it be resent,
 * and how much of the three items' work the sandbox holds afterwards (which must never exceed
 * three: a count past it is data stored twice).
 */
export interface OperationUnderFault {
	name: string;
	nodeType: string;
	credential: 'api' | 'scim';
	parameters: INodeParameters;
	seed: SeedData;
	items: IDataObject[];
	/** Method and exact path of the first request the run sends. */
	firstRequest: { method: string; path: string };
	/** Each item sends its own request (the fault then concerns item 0 alone); otherwise one request carries all three. */
	requestPerItem: boolean;
	/** docs/delivery.md, Retries and pacing: resent after a 5xx, reset or timeout only where a resend cannot duplicate data. */
	resendsAfterServerError: boolean;
	/** How many of the items' changes the sandbox holds; absent for an operation that only reads. */
	applied?(state: StateView): number;
}

const ids = [0, 1, 2];
const userId = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const profiles = ids.map((i) => ({ external_id: `crm-${i}`, email: `crm${i}@example.com` }));
const crmItems = ids.map((i) => ({ id: `crm-${i}` }));
const track = { identifyBy: 'external_id', externalId: '={{ $json.id }}' };
const users = (state: StateView) => state.dashboardUsers as unknown as IDataObject[];
const dispatchedRecipients = (state: StateView) =>
	(state.dispatches as unknown as Array<{ recipients?: unknown[]; external_user_ids?: unknown[] }>).reduce(
		(sum, dispatch) => sum + (dispatch.recipients?.length ?? dispatch.external_user_ids?.length ?? 0),
		0,
	);
const catalog = (state: StateView) =>
	(state.catalogs as unknown as Array<{ name: string; items: IDataObject[] }>).find((c) => c.name === 'menu')?.items ??
	[];
const MENU = {
	name: 'menu',
	fields: [
		{ name: 'name', type: 'string' as const },
		{ name: 'tags', type: 'array' as const },
	],
};

/** Set Group State, and Subscribe and Unsubscribe (the same with one state and no State field), on the newsletter group. */
function groupStateUnderFault(operation: string, name: string, state: string): OperationUnderFault {
	return {
		name: `Subscription: ${name}`,
		nodeType: SUBSCRIPTION_NODE,
		credential: 'api',
		parameters: {
			operation,
			subscriptionGroupId: 'newsletter',
			...(operation === 'setGroupState' && { subscriptionState: state }),
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/v2/subscription/status/set' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (view) => Object.values(view.subscriptionGroups.newsletter ?? {}).filter((s) => s === state).length,
	};
}

export const OPERATIONS_UNDER_FAULT: OperationUnderFault[] = [
	{
		name: 'User: Track Event',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: { operation: 'trackEvent', ...track, eventName: 'fault_probe', time: '2026-11-01T12:00:00Z' },
		seed: {},
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/track' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) => state.events.filter((event) => event.name === 'fault_probe').length,
	},
	{
		name: 'User: Track Purchase',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: {
			operation: 'trackPurchase',
			...track,
			productId: 'sku-1',
			currency: 'EUR',
			price: 10,
			quantity: 1,
			time: '2026-11-01T12:00:00Z',
		},
		seed: {},
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/track' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) => state.purchases.length,
	},
	{
		name: 'User: Update Attributes',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: {
			operation: 'updateAttributes',
			...track,
			attributesInput: 'json',
			attributesJson: '{"plan": "gold"}',
		},
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/track' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => state.profiles.filter((profile) => profile.custom_attributes.plan === 'gold').length,
	},
	{
		name: 'User: Track User Data (attributes and an event)',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: {
			operation: 'trackUserData',
			...track,
			attributesInput: 'json',
			attributesJson: '{"plan": "gold"}',
			eventsJson: '[{"name": "fault_probe", "time": "2026-11-01T12:00:00Z"}]',
			purchasesJson: '[]',
		},
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/track' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) => state.events.filter((event) => event.name === 'fault_probe').length,
	},
	{
		name: 'User: Identify',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: {
			operation: 'identify',
			externalId: '={{ $json.id }}',
			identifyBy: 'user_alias',
			aliasName: '={{ $json.visitor }}',
			aliasLabel: 'web_visitor',
			mergeBehavior: 'merge',
		},
		seed: {
			profiles: ids.map((i) => ({ user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web_visitor' }] })),
		},
		items: ids.map((i) => ({ id: `crm-${i}`, visitor: `visitor-${i}` })),
		firstRequest: { method: 'POST', path: '/users/identify' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => state.profiles.filter((profile) => profile.external_id?.startsWith('crm-')).length,
	},
	{
		name: 'User: Rename External ID',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: {
			operation: 'renameExternalIds',
			currentExternalId: '={{ $json.id }}',
			newExternalId: '={{ $json.id + "-new" }}',
		},
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/external_ids/rename' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) => state.profiles.filter((profile) => profile.external_id?.endsWith('-new')).length,
	},
	{
		name: 'User: Export by external ID',
		nodeType: USER_NODE,
		credential: 'api',
		parameters: { operation: 'export', identifyBy: 'external_id', externalId: '={{ $json.id }}' },
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/users/export/ids' },
		requestPerItem: false,
		resendsAfterServerError: true,
	},
	groupStateUnderFault('setGroupState', 'Set Group State', 'subscribed'),
	groupStateUnderFault('subscribe', 'Subscribe', 'subscribed'),
	groupStateUnderFault('unsubscribe', 'Unsubscribe', 'unsubscribed'),
	{
		name: 'Message: Trigger Campaign',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: {
			operation: 'triggerCampaign',
			campaignId: 'welcome',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles, campaigns: [{ id: 'welcome' }] },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/campaigns/trigger/send' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	{
		name: 'Message: Trigger Canvas',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: {
			operation: 'triggerCanvas',
			canvasId: 'onboarding',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles, canvases: [{ id: 'onboarding' }] },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/canvas/trigger/send' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	{
		name: 'Message: Send Now',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: {
			operation: 'sendNow',
			sendTo: 'users',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			messages: '{"email": {"app_id": "app", "subject": "Hello", "body": "<p>Hi</p>"}}',
		},
		seed: { profiles },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/messages/send' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	{
		name: 'Message: Send Transactional Email',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: {
			operation: 'sendTransactionalEmail',
			campaignId: 'receipt',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] },
		items: crmItems,
		firstRequest: { method: 'POST', path: '/transactional/v1/campaigns/receipt/send' },
		requestPerItem: true,
		// Each send carries an external_send_id, so the platform deduplicates a resend.
		resendsAfterServerError: true,
		applied: (state) => state.transactionalSends.length,
	},
	{
		name: 'Message: Update Scheduled Canvas',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: {
			operation: 'updateScheduledCanvas',
			canvasId: 'onboarding',
			scheduleId: '={{ $json.id }}',
			time: '2026-12-02T10:00:00Z',
		},
		seed: {
			canvases: [{ id: 'onboarding' }],
			canvasSchedules: ids.map((i) => ({
				canvas_id: 'onboarding',
				schedule_id: `s-${i}`,
				schedule: { time: '2026-12-01T09:00:00Z' },
			})),
		},
		items: ids.map((i) => ({ id: `s-${i}` })),
		firstRequest: { method: 'POST', path: '/canvas/trigger/schedule/update' },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) =>
			(state.canvasSchedules as unknown as Array<{ schedule: { time: string } }>).filter(
				(s) => s.schedule.time === '2026-12-02T10:00:00Z',
			).length,
	},
	{
		name: 'Message: Delete Scheduled Canvas',
		nodeType: MESSAGE_NODE,
		credential: 'api',
		parameters: { operation: 'deleteScheduledCanvas', canvasId: 'onboarding', scheduleId: '={{ $json.id }}' },
		seed: {
			canvases: [{ id: 'onboarding' }],
			canvasSchedules: ids.map((i) => ({
				canvas_id: 'onboarding',
				schedule_id: `s-${i}`,
				schedule: { time: '2026-12-01T09:00:00Z' },
			})),
		},
		items: ids.map((i) => ({ id: `s-${i}` })),
		firstRequest: { method: 'POST', path: '/canvas/trigger/schedule/delete' },
		requestPerItem: true,
		// A resend after a lost answer would meet 404 for a schedule it did delete.
		resendsAfterServerError: false,
		applied: (state) => 3 - state.canvasSchedules.length,
	},
	{
		name: 'Catalog: Replace Items',
		nodeType: CATALOG_NODE,
		credential: 'api',
		parameters: {
			operation: 'replaceItems',
			catalogName: 'menu',
			itemId: '={{ $json.id }}',
			fieldsInput: 'json',
			fieldsJson: '{"name": "Soup", "tags": ["hot"]}',
		},
		seed: { catalogs: [MENU] },
		items: ids.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'PUT', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => catalog(state).length,
	},
	{
		name: 'Catalog: Edit Items ($add)',
		nodeType: CATALOG_NODE,
		credential: 'api',
		parameters: {
			operation: 'editItems',
			catalogName: 'menu',
			itemId: '={{ $json.id }}',
			fieldsInput: 'json',
			fieldsJson: '{"tags": {"$add": ["vegan"]}}',
		},
		seed: { catalogs: [{ ...MENU, items: ids.map((i) => ({ id: `dish-${i}`, name: 'Soup', tags: ['hot'] })) }] },
		items: ids.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'PATCH', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) =>
			catalog(state).reduce((sum, item) => sum + (item.tags as string[]).filter((tag) => tag === 'vegan').length, 0),
	},
	{
		name: 'Catalog: Delete Items',
		nodeType: CATALOG_NODE,
		credential: 'api',
		parameters: { operation: 'deleteItems', catalogName: 'menu', itemId: '={{ $json.id }}' },
		seed: { catalogs: [{ ...MENU, items: ids.map((i) => ({ id: `dish-${i}`, name: 'Soup', tags: [] })) }] },
		items: ids.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'DELETE', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => 3 - catalog(state).length,
	},
	{
		name: 'Preference Center: Update',
		nodeType: PREFERENCE_CENTER_NODE,
		credential: 'api',
		parameters: {
			operation: 'update',
			preferenceCenterId: '={{ $json.id }}',
			updateFields: { preference_center_title: 'Your choices' },
		},
		seed: { preferenceCenters: ids.map((i) => ({ external_id: `pc-${i}`, name: `pc-${i}` })) },
		items: ids.map((i) => ({ id: `pc-${i}` })),
		firstRequest: { method: 'PUT', path: '/preference_center/v1/pc-0' },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) =>
			(state.preferenceCenters as unknown as IDataObject[]).filter(
				(center) => center.preference_center_title === 'Your choices',
			).length,
	},
	{
		name: 'Translation: Get Campaign Translations',
		nodeType: TRANSLATION_NODE,
		credential: 'api',
		parameters: {
			operation: 'getCampaignTranslations',
			campaignId: 'welcome',
			messageVariationId: '={{ $json.message }}',
			localeName: '',
		},
		seed: {
			multiLanguage: { locales: [{ id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' }] },
			campaigns: [
				{
					id: 'welcome',
					messages: ids.map((i) => ({
						message_variation_id: uuid(10 + i),
						channel: 'email',
						translations: { [uuid(1)]: { subject: 'Bonjour' } },
					})),
				},
			],
		},
		items: ids.map((i) => ({ message: uuid(10 + i) })),
		firstRequest: { method: 'GET', path: '/campaigns/translations' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	{
		name: 'Translation: Get Canvas Translations',
		nodeType: TRANSLATION_NODE,
		credential: 'api',
		parameters: {
			operation: 'getCanvasTranslations',
			stepId: uuid(20),
			messageVariationId: '={{ $json.message }}',
			localeId: uuid(1),
		},
		seed: {
			multiLanguage: { locales: [{ id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' }] },
			canvases: [
				{
					id: 'onboarding',
					steps: [
						{
							step_id: uuid(20),
							messages: ids.map((i) => ({
								message_variation_id: uuid(30 + i),
								channel: 'email',
								translations: { [uuid(1)]: { subject: 'Bonjour' } },
							})),
						},
					],
				},
			],
		},
		items: ids.map((i) => ({ message: uuid(30 + i) })),
		firstRequest: { method: 'GET', path: '/canvas/translations' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	{
		name: 'Dashboard User: Create',
		nodeType: DASHBOARD_USER_NODE,
		credential: 'scim',
		parameters: {
			operation: 'create',
			email: '={{ $json.email }}',
			givenName: 'New',
			familyName: 'User',
			department: 'marketing',
			companyPermissions: 'basic_access',
		},
		seed: {},
		items: ids.map((i) => ({ email: `new${i}@example.com` })),
		firstRequest: { method: 'POST', path: '/scim/v2/Users' },
		requestPerItem: true,
		resendsAfterServerError: false,
		applied: (state) => users(state).length,
	},
	{
		name: 'Dashboard User: Get',
		nodeType: DASHBOARD_USER_NODE,
		credential: 'scim',
		parameters: { operation: 'get', userId: '={{ $json.id }}' },
		seed: { dashboardUsers: ids.map((i) => ({ id: userId(i), userName: `u${i}@example.com` })) },
		items: ids.map((i) => ({ id: userId(i) })),
		firstRequest: { method: 'GET', path: `/scim/v2/Users/${userId(0)}` },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	{
		name: 'Dashboard User: Update',
		nodeType: DASHBOARD_USER_NODE,
		credential: 'scim',
		parameters: {
			operation: 'update',
			userId: '={{ $json.id }}',
			givenName: 'Mia',
			familyName: 'Chen',
			department: 'support',
			companyPermissions: 'basic_access',
		},
		seed: { dashboardUsers: ids.map((i) => ({ id: userId(i), userName: `u${i}@example.com`, department: 'sales' })) },
		items: ids.map((i) => ({ id: userId(i) })),
		firstRequest: { method: 'PUT', path: `/scim/v2/Users/${userId(0)}` },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) => users(state).filter((user) => user.department === 'support').length,
	},
	{
		name: 'Dashboard User: Find by Email',
		nodeType: DASHBOARD_USER_NODE,
		credential: 'scim',
		parameters: { operation: 'findByEmail', email: '={{ $json.email }}' },
		seed: { dashboardUsers: ids.map((i) => ({ id: userId(i), userName: `u${i}@example.com` })) },
		items: ids.map((i) => ({ email: `u${i}@example.com` })),
		firstRequest: { method: 'GET', path: '/scim/v2/Users' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	{
		name: 'Dashboard User: Delete',
		nodeType: DASHBOARD_USER_NODE,
		credential: 'scim',
		parameters: { operation: 'delete', userId: '={{ $json.id }}' },
		seed: { dashboardUsers: ids.map((i) => ({ id: userId(i), userName: `u${i}@example.com` })) },
		items: ids.map((i) => ({ id: userId(i) })),
		firstRequest: { method: 'DELETE', path: `/scim/v2/Users/${userId(0)}` },
		requestPerItem: true,
		// A resend after a lost answer would meet 404 for a user it did delete.
		resendsAfterServerError: false,
		applied: (state) => 3 - users(state).length,
	},
];
