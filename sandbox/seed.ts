import type { SeedData } from './adminApiTypes';

/** Subscription groups of the demo workspace (the platform identifies groups by UUID). */
export const DEMO_SUBSCRIPTION_GROUPS = {
	weeklyNewsletter: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b01',
	productUpdates: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b02',
	smsAlerts: '2f8c1a6e-5b7d-4c3e-9a10-0d1e2f3a4b03',
} as const;

/**
 * A small workspace to look at: identified users (one with a deprecated external ID), an alias-only
 * visitor, email-only and phone-only profiles, and two profiles sharing an email (spec rule 1).
 */
export const DEMO_SEED: SeedData = {
	subscriptionGroups: Object.values(DEMO_SUBSCRIPTION_GROUPS),
	profiles: [
		{
			external_id: 'demo-user-1',
			email: 'ada@example.com',
			phone: '+14155550101',
			email_subscribe: 'opted_in',
			standard_attributes: { first_name: 'Ada', last_name: 'Lovelace', country: 'GB', language: 'en' },
			custom_attributes: { loyalty_tier: 'gold', favorite_categories: ['books', 'science'], lifetime_orders: 12 },
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
		},
		{
			user_aliases: [{ alias_label: 'web_visitor', alias_name: 'visitor-7f3a9c' }],
			custom_attributes: { landing_page: '/pricing' },
		},
		{
			email: 'newsletter-fan@example.com',
			email_subscribe: 'subscribed',
			subscription_groups: { [DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter]: 'subscribed' },
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
	],
};
