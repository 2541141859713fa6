import type { SandboxClient } from '../../../sandbox';
import { DEMO_SUBSCRIPTION_GROUPS } from '../../../sandbox';
import type { MarketerDriver, TaskWorkflow } from './marketerTasks';
import { OUTPUT_FIELD } from '../../support/nodeWords';
import { taskWorkflow } from './marketerTasks';

/**
 * Three tasks a marketer does with the package, as data arriving as text (a shop's order export,
 * a sheet of contacts with the sheet's headers, a list of opt-outs), each node added from the node
 * panel, previewed (Options → Preview (Send Nothing)) and then run for real.
 */
export const TIMEZONE = 'Europe/Berlin';

export interface MarketerTask {
	/** Used in file names: screenshots/tasks/<line>/<id>-<step>.png. */
	id: string;
	title: string;
	/** The workflow imported before the task: the input. */
	workflow(): TaskWorkflow;
	/** Sandbox data the task needs before it runs. */
	prepare(client: SandboxClient): Promise<void>;
	/** The action picked in the node panel: n8n 2.x names the node added through it by it. */
	action: string;
	/** Adds the node from the panel and fills it, with counted actions. */
	drive(driver: MarketerDriver): Promise<void>;
	/** The one endpoint the real run sends to, in one request. */
	endpoint: string;
	/** The item's external ID: the one request carries it. */
	itemId: string;
	/** What the preview answers the item: what it would send (the request's body with the item's part). */
	previewSends(): Record<string, unknown>;
	/** What the sandbox stored, in the shape `expected` gives. */
	stored(client: SandboxClient): Promise<Record<string, unknown>>;
	expected(): Record<string, unknown>;
	/** What the node's output item of the run holds (read from the execution through n8n's REST API). */
	output(): ExpectedOutput;
	/** A field whose help (hint or description) the panel shows after the drive, and what it says. */
	help?: { parameter: string; says: string };
}

interface ExpectedOutput {
	/** Keys and values the item has (others may be there too). */
	fields: Record<string, unknown>;
	/** Keys the item has, whatever their value (the row's fields, kept as they came). */
	keys?: string[];
	/** Hints of the node's run (runData[node][0].hints) saying these, one each. */
	hints?: RegExp[];
}

const USER_NODE = 'Engagement Platform User';
const SUBSCRIPTION_NODE = 'Engagement Platform Subscription';

/** An order as a shop's sheet exports it: the time with a space and no seconds, no zone. */
const ORDER = {
	order_id: 'o-1001',
	customer_id: 'c-1',
	sku: 'sku-9',
	price: '59.90',
	currency: 'eur',
	ordered_at: '2026-12-01 10:00',
};

const trackPurchase: MarketerTask = {
	id: 'track-purchase',
	title: 'Track a purchase from an order',
	workflow: () => taskWorkflow({ name: 'Orders to purchases', inputName: 'Orders', rows: [ORDER], timezone: TIMEZONE }),
	prepare: async () => undefined,
	action: 'Track a purchase',
	async drive(driver) {
		await driver.addNodeFromPanel('purchase', USER_NODE, this.action);
		await driver.drag('customer_id', driver.parameter('externalId'), 'customer_id onto External ID');
		await driver.drag('sku', driver.parameter('productId'), 'sku onto Product ID');
		// Currency, Price and Time start empty (empty Time is the time of the run), so a dropped field is all they hold.
		await driver.drag('currency', driver.parameter('currency'), 'currency onto Currency');
		await driver.drag('price', driver.parameter('price'), 'price onto Price');
		await driver.drag('ordered_at', driver.parameter('time'), 'ordered_at onto Time');
	},
	endpoint: '/users/track',
	itemId: 'c-1',
	previewSends: () => ({
		purchases: [
			expect.objectContaining({
				external_id: 'c-1',
				product_id: 'sku-9',
				currency: 'EUR',
				price: 59.9,
				time: '2026-12-01T10:00:00+01:00',
			}),
		],
	}),
	async stored(client) {
		const { purchases, profiles } = await client.state();
		const purchase = purchases.at(-1);
		const profile = profiles.find((candidate) => candidate.service_id === purchase?.service_id);
		return {
			purchases: purchases.length,
			external_id: profile?.external_id,
			product_id: purchase?.product_id,
			price: purchase?.price,
			currency: purchase?.currency,
			quantity: purchase?.quantity,
			time: purchase?.time,
			instant: purchase ? new Date(purchase.time).toISOString() : undefined,
		};
	},
	expected: () => ({
		purchases: 1,
		external_id: 'c-1',
		product_id: 'sku-9',
		price: 59.9,
		currency: 'EUR',
		quantity: 1,
		// The sheet's "2026-12-01 10:00", read in the workflow's timezone.
		time: '2026-12-01T10:00:00+01:00',
		// 10:00 in Berlin (UTC+1 in December).
		instant: '2026-12-01T09:00:00.000Z',
	}),
	output: () => ({
		// The item keeps the order's fields and says what happened in words.
		fields: {
			order_id: 'o-1001',
			[OUTPUT_FIELD]: expect.objectContaining({ status: 'tracked', purchases_tracked: 1 }),
		},
		keys: Object.keys(ORDER),
		// The time had no zone: the run says which zone it was read in, and where that is set.
		hints: [/Europe\/Berlin/],
	}),
};

/** A row of a contact sheet, under the sheet's own headers. */
const CONTACT = {
	'External ID': 'c-2',
	'First Name': 'Ada',
	Email: 'ada@example.com',
	// As a sheet writes a country: its name, sent as its ISO code (DE).
	Country: 'Germany',
	'Lifetime Value': '120.5',
	VIP: 'true',
	// As a sheet writes a date and time: dragged onto Custom Attributes, it stays a String entry.
	'Signed Up': '2026-03-01 10:00',
};
/**
 * What the node sets: First Name, Email and Country mapped automatically by the standard attributes'
 * labels, Lifetime Value, VIP and Signed Up dragged onto Custom Attributes (named as the sheet names them).
 */
const ATTRIBUTES_SET = 6;

const syncAttributes: MarketerTask = {
	id: 'sync-attributes',
	title: 'Sync contact attributes from a sheet',
	workflow: () =>
		taskWorkflow({ name: 'Sheet to attributes', inputName: 'Contacts', rows: [CONTACT], timezone: TIMEZONE }),
	prepare: async () => undefined,
	action: 'Update user attributes',
	async drive(driver) {
		await driver.addNodeFromPanel('attribute', USER_NODE, this.action);
		await driver.drag('External ID', driver.parameter('externalId'), 'External ID onto External ID');
		// Standard Attributes map the input's fields automatically from the start: no Mapping Column Mode to pick.
		const dropArea = driver.page.locator('[data-test-id="assignment-collection-drop-area"]').first();
		const typeOf = (index: number) =>
			driver.page.locator('[data-test-id="assignment"]').nth(index).locator('[data-test-id="assignment-type-select"]');
		await driver.drag('Lifetime Value', dropArea, 'Lifetime Value onto Custom Attributes');
		await driver.choose(typeOf(0), 'Number', 'type of Lifetime Value');
		await driver.drag('VIP', dropArea, 'VIP onto Custom Attributes');
		await driver.choose(typeOf(1), 'Boolean', 'type of VIP');
		// Left String, as dragged: a text that is a date and time is sent as an instant in the workflow's timezone.
		await driver.drag('Signed Up', dropArea, 'Signed Up onto Custom Attributes');
	},
	endpoint: '/users/track',
	itemId: 'c-2',
	previewSends: () => ({
		attributes: [
			expect.objectContaining({
				external_id: 'c-2',
				first_name: 'Ada',
				email: 'ada@example.com',
				country: 'DE',
				'Lifetime Value': 120.5,
				VIP: true,
				'Signed Up': '2026-03-01T10:00:00+01:00',
			}),
		],
	}),
	async stored(client) {
		const { profiles } = await client.state();
		const profile = profiles.find((candidate) => candidate.external_id === 'c-2');
		return {
			found: Boolean(profile),
			first_name: profile?.standard_attributes.first_name,
			email: profile?.email,
			country: profile?.standard_attributes.country,
			lifetime_value: profile?.custom_attributes['Lifetime Value'],
			vip: profile?.custom_attributes.VIP,
			signed_up: profile?.custom_attributes['Signed Up'],
		};
	},
	expected: () => ({
		found: true,
		first_name: 'Ada',
		email: 'ada@example.com',
		country: 'DE',
		lifetime_value: 120.5,
		vip: true,
		signed_up: '2026-03-01T10:00:00+01:00',
	}),
	output: () => ({
		fields: { [OUTPUT_FIELD]: expect.objectContaining({ status: 'updated', attributes_set: ATTRIBUTES_SET }) },
		keys: Object.keys(CONTACT),
		hints: [
			// Signed Up had no zone either.
			/Europe\/Berlin/,
			// The sheet's headers matched by the standard attributes' labels, and no column left out without a word.
			/^Map Automatically sent "First Name" as first_name, "Email" as email, "Country" as country \(standard attributes\)\.$/,
		],
	}),
};

const OPT_OUT = { external_id: 'c-3', email: 'grace@example.com', reason: 'newsletter opt-out' };
const NEWSLETTER = DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter;

const optOut: MarketerTask = {
	id: 'opt-out',
	title: 'Opt contacts out of a newsletter',
	workflow: () =>
		taskWorkflow({
			name: 'Opt-outs to the newsletter group',
			inputName: 'Opt-outs',
			rows: [OPT_OUT],
			timezone: TIMEZONE,
		}),
	async prepare(client) {
		await client.seed({
			subscriptionGroups: [NEWSLETTER],
			profiles: [{ external_id: 'c-3', email: OPT_OUT.email, subscription_groups: { [NEWSLETTER]: 'subscribed' } }],
		});
	},
	action: 'Unsubscribe users from a subscription group',
	async drive(driver) {
		await driver.addNodeFromPanel('unsubscribe', SUBSCRIPTION_NODE, this.action);
		await driver.type(
			driver.parameter('subscriptionGroupId').locator('input').first(),
			NEWSLETTER,
			'Subscription Group ID',
		);
		await driver.drag('external_id', driver.parameter('externalId'), 'external_id onto External ID');
	},
	endpoint: '/v2/subscription/status/set',
	itemId: 'c-3',
	previewSends: () => ({
		subscription_groups: [
			{ subscription_group_id: NEWSLETTER, subscription_state: 'unsubscribed', external_ids: ['c-3'] },
		],
	}),
	async stored(client) {
		const { profiles, subscriptionGroups } = await client.state();
		const profile = profiles.find((candidate) => candidate.external_id === 'c-3');
		return {
			profile: profile?.subscription_groups[NEWSLETTER],
			group: profile ? subscriptionGroups[NEWSLETTER]?.[profile.service_id] : undefined,
		};
	},
	expected: () => ({ profile: 'unsubscribed', group: 'unsubscribed' }),
	output: () => ({
		fields: { reason: OPT_OUT.reason, [OUTPUT_FIELD]: expect.objectContaining({ status: 'unsubscribed' }) },
		keys: Object.keys(OPT_OUT),
	}),
	// Where the marketer finds the ID: the field says so (its hint under it, or its description on the (?)).
	help: { parameter: 'subscriptionGroupId', says: 'Audience → Subscriptions' },
};

export const MARKETER_TASKS: MarketerTask[] = [trackPurchase, syncAttributes, optOut];
