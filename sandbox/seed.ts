import type { SeedData } from './adminApiTypes';
import { DEMO_DASHBOARD_SEED } from './demoDashboard';

export { DEMO_DASHBOARD } from './demoDashboard';

/** Subscription groups of the demo workspace (the platform identifies groups by UUID). */
export const DEMO_SUBSCRIPTION_GROUPS = {
	weeklyNewsletter: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b01',
	productUpdates: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b02',
	smsAlerts: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b03',
} as const;

/** The names the dashboard shows for the demo's subscription groups (`npm run dev` prints them). */
export const DEMO_SUBSCRIPTION_GROUP_NAMES: Record<string, string> = {
	[DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter]: 'Weekly newsletter',
	[DEMO_SUBSCRIPTION_GROUPS.productUpdates]: 'Product updates',
	[DEMO_SUBSCRIPTION_GROUPS.smsAlerts]: 'SMS alerts',
};

/** Dashboard objects of the demo workspace, for the messaging endpoints. */
export const DEMO_MESSAGING = {
	campaigns: {
		welcome: 'welcome-campaign',
		paused: 'paused-campaign',
		archived: 'archived-campaign',
		orderReceipt: 'order-receipt',
	},
	canvases: { onboarding: 'onboarding-canvas', paused: 'paused-canvas', archived: 'archived-canvas' },
	segments: { loyaltyMembers: 'loyalty-members' },
	canvasSchedules: { onboardingReminder: 'onboarding-reminder-schedule' },
} as const;

/**
 * Multi-language settings of the demo workspace and its translated messages (UUIDs, as the platform's).
 * The welcome campaign has an email translated into fr-FR and es-MX (not de-DE) and a push message; a
 * step of the onboarding canvas has an email translated into fr-FR and de-DE (not es-MX).
 */
export const DEMO_TRANSLATIONS = {
	locales: {
		frFR: { id: 'a3f1c2d4-5e6b-4c7d-8e9f-0a1b2c3d4e01', name: 'fr-FR', country: 'FR', language: 'fr' },
		deDE: { id: 'a3f1c2d4-5e6b-4c7d-8e9f-0a1b2c3d4e02', name: 'de-DE', country: 'DE', language: 'de' },
		esMX: { id: 'a3f1c2d4-5e6b-4c7d-8e9f-0a1b2c3d4e03', name: 'es-MX', country: 'MX', language: 'es' },
	},
	campaign: {
		id: DEMO_MESSAGING.campaigns.welcome,
		emailMessage: 'b4e2d3c5-6f7a-4b8c-9d0e-1f2a3b4c5d01',
		pushMessage: 'b4e2d3c5-6f7a-4b8c-9d0e-1f2a3b4c5d02',
	},
	canvas: {
		id: DEMO_MESSAGING.canvases.onboarding,
		step: 'c5f3e4d6-7a8b-4c9d-8e1f-2a3b4c5d6e01',
		emailMessage: 'd6a4f5e7-8b9c-4dae-9f20-3b4c5d6e7f01',
	},
} as const;

/** Preference centers of the demo workspace, by external ID (also their API IDs). */
export const DEMO_PREFERENCE_CENTERS = {
	newsletter: 'newsletter-preferences',
	smsAlerts: 'sms-alerts-preferences',
} as const;

const { frFR, deDE, esMX } = DEMO_TRANSLATIONS.locales;

/**
 * A small workspace to look at: identified users (one with a deprecated external ID), an alias-only
 * visitor, email-only and phone-only profiles, and two profiles sharing an email (spec rule 1). The
 * alias-only and email-only profiles have events to try /users/identify on (e.g. identify the visitor
 * as demo-user-3 with merge_behavior merge, then export demo-user-3's custom_events).
 */
export const DEMO_SEED: SeedData = {
	subscriptionGroups: Object.values(DEMO_SUBSCRIPTION_GROUPS).map((id) => ({
		id,
		name: DEMO_SUBSCRIPTION_GROUP_NAMES[id],
	})),
	// SCIM: two app groups (one with two teams), a role, a permission set and two dashboard users (DEMO_DASHBOARD).
	...DEMO_DASHBOARD_SEED,
	// Messaging: an active API-triggered campaign, a paused and an archived one, a transactional one;
	// an active, a paused and an archived canvas; a segment of demo-user-1 and demo-user-2; one scheduled
	// send of the onboarding canvas; translations (DEMO_TRANSLATIONS) and preference centers. Transactional sends to demo-user-4 bounce (bounce.example.com); to
	// the alias-only web visitor, who has no email, they are aborted.
	campaigns: [
		{
			id: DEMO_MESSAGING.campaigns.welcome,
			messages: [
				{
					message_variation_id: DEMO_TRANSLATIONS.campaign.emailMessage,
					channel: 'email',
					translations: {
						[frFR.id]: { id_0: 'Bienvenue !', id_1: 'Merci de vous être inscrit.' },
						[esMX.id]: { id_0: '¡Bienvenido!', id_1: 'Gracias por registrarte.' },
					},
				},
				{ message_variation_id: DEMO_TRANSLATIONS.campaign.pushMessage, channel: 'push' },
			],
		},
		{ id: DEMO_MESSAGING.campaigns.paused, state: 'paused' },
		{ id: DEMO_MESSAGING.campaigns.archived, state: 'archived' },
		{ id: DEMO_MESSAGING.campaigns.orderReceipt, kind: 'transactional' },
	],
	canvases: [
		{
			id: DEMO_MESSAGING.canvases.onboarding,
			steps: [
				{
					step_id: DEMO_TRANSLATIONS.canvas.step,
					messages: [
						{
							message_variation_id: DEMO_TRANSLATIONS.canvas.emailMessage,
							channel: 'email',
							translations: {
								[frFR.id]: { id_0: 'Complétez votre profil', id_1: 'Il ne reste qu’une étape.' },
								[deDE.id]: { id_0: 'Vervollständigen Sie Ihr Profil', id_1: 'Nur noch ein Schritt.' },
							},
						},
					],
				},
			],
		},
		{ id: DEMO_MESSAGING.canvases.paused, state: 'paused' },
		{ id: DEMO_MESSAGING.canvases.archived, state: 'archived' },
	],
	multiLanguage: { locales: [frFR, deDE, esMX] },
	preferenceCenters: [
		{
			external_id: DEMO_PREFERENCE_CENTERS.newsletter,
			name: 'Newsletter preferences',
			preference_center_title: 'Choose your newsletters',
			preference_center_page_html: '<html><body><h1>Choose your newsletters</h1></body></html>',
			confirmation_page_html: '<html><body><p>Your preferences are saved.</p></body></html>',
			state: 'active',
			options: {
				'meta-viewport-content': 'width=device-width, initial-scale=1',
				'links-tags': [{ rel: 'icon', type: 'image/png', sizes: '32x32', href: 'https://example.com/favicon-32.png' }],
			},
			created_at: '2024-03-01T09:00:00Z',
		},
		{
			external_id: DEMO_PREFERENCE_CENTERS.smsAlerts,
			name: 'SMS alert preferences',
			preference_center_title: 'SMS alerts',
			state: 'draft',
			created_at: '2024-03-15T09:00:00Z',
		},
	],
	segments: [{ id: DEMO_MESSAGING.segments.loyaltyMembers, external_ids: ['demo-user-1', 'demo-user-2'] }],
	canvasSchedules: [
		{
			canvas_id: DEMO_MESSAGING.canvases.onboarding,
			schedule_id: DEMO_MESSAGING.canvasSchedules.onboardingReminder,
			schedule: { time: '2030-01-15T09:00:00Z', in_local_time: true },
			trigger_properties: { reminder: 'finish-your-profile' },
		},
	],
	profiles: [
		{
			external_id: 'demo-user-1',
			email: 'ada@example.com',
			phone: '+14155550101',
			email_subscribe: 'opted_in',
			standard_attributes: { first_name: 'Ada', last_name: 'Lovelace', country: 'GB', language: 'en' },
			custom_attributes: { loyalty_tier: 'gold', favorite_categories: ['books', 'science'], lifetime_orders: 12 },
			events: [
				{ name: 'viewed_product', time: '2024-04-02T09:15:00Z', properties: { product_id: 'analytical-engine' } },
				{ name: 'viewed_product', time: '2024-04-20T18:40:00Z', properties: { product_id: 'difference-engine' } },
			],
			purchases: [
				{ product_id: 'analytical-engine', currency: 'GBP', price: 49.5, quantity: 2, time: '2024-04-21T10:05:00Z' },
			],
			subscription_groups: {
				[DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter]: 'subscribed',
				[DEMO_SUBSCRIPTION_GROUPS.smsAlerts]: 'subscribed',
			},
		},
		{
			external_id: 'demo-user-2',
			deprecated_external_ids: ['legacy-crm-0002'],
			email: 'grace@example.com',
			email_subscribe: 'subscribed',
			standard_attributes: { first_name: 'Grace', last_name: 'Hopper', country: 'US', time_zone: 'America/New_York' },
			custom_attributes: { loyalty_tier: 'silver', newsletter_source: 'checkout' },
			subscription_groups: {
				[DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter]: 'unsubscribed',
				[DEMO_SUBSCRIPTION_GROUPS.productUpdates]: 'subscribed',
			},
		},
		{
			external_id: 'demo-user-3',
			email: 'alan@example.com',
			email_subscribe: 'unsubscribed',
			standard_attributes: { first_name: 'Alan', last_name: 'Turing', country: 'GB' },
			custom_attributes: { loyalty_tier: 'bronze' },
			events: [{ name: 'viewed_product', time: '2024-03-30T12:00:00Z', properties: { product_id: 'enigma' } }],
		},
		{
			user_aliases: [{ alias_label: 'web_visitor', alias_name: 'visitor-7f3a9c' }],
			standard_attributes: { home_city: 'Manchester' },
			custom_attributes: { landing_page: '/pricing' },
			events: [
				{ name: 'viewed_product', time: '2024-03-28T08:30:00Z', properties: { product_id: 'enigma' } },
				{ name: 'started_checkout', time: '2024-03-28T08:42:00Z' },
			],
		},
		{
			email: 'newsletter-fan@example.com',
			email_subscribe: 'subscribed',
			subscription_groups: { [DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter]: 'subscribed' },
			events: [{ name: 'opened_newsletter', time: '2024-04-05T07:00:00Z' }],
		},
		{
			// Shares demo-user-1's email: updates by that email go to demo-user-1 (the identified one).
			email: 'ada@example.com',
			custom_attributes: { signup_form: 'footer' },
		},
		{
			phone: '+442071838750',
			subscription_groups: { [DEMO_SUBSCRIPTION_GROUPS.smsAlerts]: 'subscribed' },
		},
		{
			// Transactional email to this address bounces.
			external_id: 'demo-user-4',
			email: 'mailbox-full@bounce.example.com',
			standard_attributes: { first_name: 'Bounce', last_name: 'Tester' },
		},
	],
};
