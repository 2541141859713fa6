import type { SandboxClient } from '../../../sandbox';
import { DEMO_SUBSCRIPTION_GROUPS } from '../../../sandbox';
import type { MarketerDriver, TaskWorkflow } from './marketerTasks';
import { SUBSCRIPTION_NODE_TYPE, USER_NODE_TYPE, taskWorkflow } from './marketerTasks';

/**
 * Three tasks a marketer does with the package, as data arriving as text (a shop's order export,
 * a sheet of contacts, a list of opt-outs), each done with the node's version 1 (as 1.0 showed it:
 * key/value pairs, Currency starting at USD and Price at 0) and version 2 (what the node panel adds).
 */

export type NodeVersion = 1 | 2;
export const TIMEZONE = 'Europe/Berlin';

export interface MarketerTask {
	/** Used in file names: screenshots/tasks/<line>/<id>-<step>.png. */
	id: string;
	title: string;
	/** The workflow imported before the task: the input, and for version 1 the node as 1.0 saved it. */
	workflow(version: NodeVersion): TaskWorkflow;
	/** Sandbox data the task needs before it runs. */
	prepare(client: SandboxClient): Promise<void>;
	/** Adds (version 2) or opens (version 1) the node and fills its panel, with counted actions. */
	drive(driver: MarketerDriver, version: NodeVersion): Promise<void>;
	/** What the sandbox stored, in the shape `expected` gives. */
	stored(client: SandboxClient): Promise<Record<string, unknown>>;
	expected(version: NodeVersion): Record<string, unknown>;
	/** What the node's output item of the run holds (read from the execution through n8n's REST API). */
	output(version: NodeVersion): ExpectedOutput;
	/** A field whose help (hint or description) the panel shows after the drive, and what it says (version 2). */
	help?: { parameter: string; says: string };
}

export interface ExpectedOutput {
	/** Keys and values the item has (others may be there too). */
	fields: Record<string, unknown>;
	/** Keys the item has, whatever their value (the row's fields kept: the node's own keys win on a clash). */
	keys?: string[];
	/** A hint of the node's run (runData[node][0].hints) says this. */
	hint?: RegExp;
}

const USER_NODE = 'Engagement Platform User';
const SUBSCRIPTION_NODE = 'Engagement Platform Subscription';

/** A version 1 node of the package, as 1.0 saved it: the operation picked, the rest at its defaults. */
function version1Node(type: string, name: string, operation: string) {
	return { name, type, typeVersion: 1, parameters: { operation } };
}

/** An order as a shop's sheet exports it: the time with a space and no seconds, no zone. */
const ORDER = {
	order_id: 'o-1001',
	customer_id: 'c-1',
	sku: 'sku-9',
	price: '59.90',
	currency: 'eur',
	ordered_at: '2026-12-01 10:00',
};
/**
 * Version 1's row keeps the ISO form with a T: its drive reads the time with the expression
 * DateTime.fromISO, which does not read the sheet's space form (it gives null; version 1 does not
 * change, and the space form is version 2's to read).
 */
const ORDER_V1 = { ...ORDER, ordered_at: '2026-12-01T10:00:00' };

export const trackPurchase: MarketerTask = {
	id: 'track-purchase',
	title: 'Track a purchase from an order',
	workflow: (version) =>
		taskWorkflow({
			name: `Orders to purchases (node version ${version})`,
			inputName: 'Orders',
			rows: [version === 1 ? ORDER_V1 : ORDER],
			timezone: TIMEZONE,
			node: version === 1 ? version1Node(USER_NODE_TYPE, USER_NODE, 'trackPurchase') : undefined,
		}),
	prepare: async () => undefined,
	async drive(driver, version) {
		if (version === 2) await driver.addNodeFromPanel('purchase', USER_NODE, 'Track a purchase');
		else await driver.openNode(USER_NODE);
		await driver.drag('customer_id', driver.parameter('externalId'), 'customer_id onto External ID');
		await driver.drag('sku', driver.parameter('productId'), 'sku onto Product ID');
		// Version 1's Currency starts at USD, and a dropped field is added to what a field holds ("USD eur").
		if (version === 1) await driver.clearText('currency');
		await driver.drag('currency', driver.parameter('currency'), 'currency onto Currency');
		// Version 2's Time starts empty (empty is the time of the run), so the dropped field is all it holds.
		if (version === 2) {
			await driver.drag('price', driver.parameter('price'), 'price onto Price');
			await driver.drag('ordered_at', driver.parameter('time'), 'ordered_at onto Time');
			return;
		}
		// Version 1's Price is a number field: the text "59.90" fails ("Price" must be a number), and a
		// time without a zone is sent as it is (read as UTC): both need an expression written by hand.
		await driver.typeExpression(driver.parameter('price'), '{{ Number($json.price) }}', 'Price');
		await driver.typeExpression(
			driver.parameter('time'),
			`{{ DateTime.fromISO($json.ordered_at, { zone: '${TIMEZONE}' }).toISO() }}`,
			'Time',
			false,
		);
	},
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
	expected: (version) => ({
		purchases: 1,
		external_id: 'c-1',
		product_id: 'sku-9',
		price: 59.9,
		currency: 'EUR',
		quantity: 1,
		// Version 1 sends what the expression gives (Luxon's toISO, with milliseconds); version 2 reads
		// the sheet's "2026-12-01 10:00" in the workflow's timezone.
		time: version === 1 ? '2026-12-01T10:00:00.000+01:00' : '2026-12-01T10:00:00+01:00',
		// 10:00 in Berlin (UTC+1 in December).
		instant: '2026-12-01T09:00:00.000Z',
	}),
	output: (version) =>
		version === 2
			? {
					// Version 2's item keeps the order's fields and says what happened in words.
					fields: { order_id: 'o-1001', status: 'tracked', purchases_tracked: 1 },
					keys: Object.keys(ORDER),
					// The time had no zone: the run says which zone it was read in, and where that is set.
					hint: /Europe\/Berlin/,
				}
			: { fields: { status: 'processed' } },
};

const CONTACT = {
	external_id: 'c-2',
	first_name: 'Ada',
	email: 'ada@example.com',
	country: 'DE',
	lifetime_value: '120.5',
	vip: 'true',
	// As a sheet writes a date and time: dragged onto Custom Attributes, it stays a String entry.
	signed_up: '2026-03-01 10:00',
};
/** What version 2 sets: first_name, email and country mapped automatically, lifetime_value, vip and signed_up dragged. */
const ATTRIBUTES_SET = 6;

export const syncAttributes: MarketerTask = {
	id: 'sync-attributes',
	title: 'Sync contact attributes from a sheet',
	workflow: (version) =>
		taskWorkflow({
			name: `Sheet to attributes (node version ${version})`,
			inputName: 'Contacts',
			rows: [CONTACT],
			timezone: TIMEZONE,
			node: version === 1 ? version1Node(USER_NODE_TYPE, USER_NODE, 'updateAttributes') : undefined,
		}),
	prepare: async () => undefined,
	async drive(driver, version) {
		if (version === 2) {
			await driver.addNodeFromPanel('attribute', USER_NODE, 'Update user attributes');
			await driver.drag('external_id', driver.parameter('externalId'), 'external_id onto External ID');
			// Standard Attributes map the input's fields automatically from the start: no Mapping Column Mode to pick.
			const dropArea = driver.page.locator('[data-test-id="assignment-collection-drop-area"]').first();
			const typeOf = (index: number) =>
				driver.page
					.locator('[data-test-id="assignment"]')
					.nth(index)
					.locator('[data-test-id="assignment-type-select"]');
			await driver.drag('lifetime_value', dropArea, 'lifetime_value onto Custom Attributes');
			await driver.choose(typeOf(0), 'Number', 'type of lifetime_value');
			await driver.drag('vip', dropArea, 'vip onto Custom Attributes');
			await driver.choose(typeOf(1), 'Boolean', 'type of vip');
			// Left String, as dragged: a text that is a date and time is sent as an instant in the workflow's timezone.
			await driver.drag('signed_up', dropArea, 'signed_up onto Custom Attributes');
			return;
		}
		await driver.openNode(USER_NODE);
		await driver.drag('external_id', driver.parameter('externalId'), 'external_id onto External ID');
		// Version 1: one key/value pair per attribute; the value is text, a number or boolean needs an expression.
		const pairs: Array<[string, { field: string } | { expression: string }]> = [
			['first_name', { field: 'first_name' }],
			['email', { field: 'email' }],
			['country', { field: 'country' }],
			['lifetime_value', { expression: '{{ Number($json.lifetime_value) }}' }],
			['vip', { expression: "{{ $json.vip === 'true' }}" }],
		];
		for (const [index, [name, value]] of pairs.entries()) {
			const pair = (parameter: string) =>
				driver.page.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"]`).nth(index);
			await driver.addEntry(driver.page.getByRole('button', { name: 'Add Attribute' }), pair('key'), 'Add Attribute');
			await driver.type(pair('key').locator('input').first(), name, `name ${name}`);
			if ('field' in value) await driver.drag(value.field, pair('value'), `${value.field} onto Value`);
			// Typing {{ switches the field to an expression.
			else await driver.type(pair('value').locator('input').first(), value.expression, `value of ${name}`);
			await driver.page.waitForTimeout(300);
		}
	},
	async stored(client) {
		const { profiles } = await client.state();
		const profile = profiles.find((candidate) => candidate.external_id === 'c-2');
		return {
			found: Boolean(profile),
			first_name: profile?.standard_attributes.first_name,
			email: profile?.email,
			country: profile?.standard_attributes.country,
			lifetime_value: profile?.custom_attributes.lifetime_value,
			vip: profile?.custom_attributes.vip,
			signed_up: profile?.custom_attributes.signed_up,
		};
	},
	expected: (version) => ({
		found: true,
		first_name: 'Ada',
		email: 'ada@example.com',
		country: 'DE',
		lifetime_value: 120.5,
		vip: true,
		// Version 1's drive does not set it (the row carries the column, no pair is added for it).
		signed_up: version === 2 ? '2026-03-01T10:00:00+01:00' : undefined,
	}),
	output: (version) =>
		version === 2
			? {
					fields: { status: 'updated', attributes_set: ATTRIBUTES_SET },
					keys: Object.keys(CONTACT),
					// signed_up had no zone either.
					hint: /Europe\/Berlin/,
				}
			: { fields: { status: 'processed' } },
};

const OPT_OUT = { external_id: 'c-3', email: 'grace@example.com', reason: 'newsletter opt-out' };
const NEWSLETTER = DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter;

export const optOut: MarketerTask = {
	id: 'opt-out',
	title: 'Opt contacts out of a newsletter',
	workflow: (version) =>
		taskWorkflow({
			name: `Opt-outs to the newsletter group (node version ${version})`,
			inputName: 'Opt-outs',
			rows: [OPT_OUT],
			timezone: TIMEZONE,
			node: version === 1 ? version1Node(SUBSCRIPTION_NODE_TYPE, SUBSCRIPTION_NODE, 'setGroupState') : undefined,
		}),
	async prepare(client) {
		await client.seed({
			subscriptionGroups: [NEWSLETTER],
			profiles: [{ external_id: 'c-3', email: OPT_OUT.email, subscription_groups: { [NEWSLETTER]: 'subscribed' } }],
		});
	},
	async drive(driver, version) {
		if (version === 2)
			await driver.addNodeFromPanel('unsubscribe', SUBSCRIPTION_NODE, 'Unsubscribe users from a subscription group');
		else await driver.openNode(SUBSCRIPTION_NODE);
		await driver.type(
			driver.parameter('subscriptionGroupId').locator('input').first(),
			NEWSLETTER,
			'Subscription Group ID',
		);
		// Version 2 has Unsubscribe as its own action; version 1's Set Group State needs its State picked.
		if (version === 1) await driver.choose(driver.parameter('subscriptionState'), 'Unsubscribed', 'State');
		await driver.drag('external_id', driver.parameter('externalId'), 'external_id onto External ID');
	},
	async stored(client) {
		const { profiles, subscriptionGroups } = await client.state();
		const profile = profiles.find((candidate) => candidate.external_id === 'c-3');
		return {
			profile: profile?.subscription_groups[NEWSLETTER],
			group: profile ? subscriptionGroups[NEWSLETTER]?.[profile.service_id] : undefined,
		};
	},
	expected: () => ({ profile: 'unsubscribed', group: 'unsubscribed' }),
	output: (version) =>
		version === 2
			? { fields: { status: 'unsubscribed', reason: OPT_OUT.reason }, keys: Object.keys(OPT_OUT) }
			: { fields: { status: 'set' } },
	// Where the marketer finds the ID: the field says so (its hint under it, or its description on the (?)).
	help: { parameter: 'subscriptionGroupId', says: 'Audience → Subscriptions' },
};

export const MARKETER_TASKS: MarketerTask[] = [trackPurchase, syncAttributes, optOut];
