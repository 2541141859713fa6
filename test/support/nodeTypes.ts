/**
 * Our eight nodes as tests name them: each node's type, what a workflow says a node is, and its name,
 * its description's `displayName` (which is also the name n8n gives the node when it is added). A test
 * reads a node's output by that name: `result.output(TRANSLATION)`.
 */
import { loadPackageNodeTypes } from '../harness/package-types';

export const USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformUser';
export const SUBSCRIPTION_NODE = 'n8n-nodes-engagement-platform.engagementPlatformSubscription';
export const MESSAGE_NODE = 'n8n-nodes-engagement-platform.engagementPlatformMessage';
export const TRIGGER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformTrigger';
export const CATALOG_NODE = 'n8n-nodes-engagement-platform.engagementPlatformCatalog';
export const PREFERENCE_CENTER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformPreferenceCenter';
export const TRANSLATION_NODE = 'n8n-nodes-engagement-platform.engagementPlatformTranslation';
export const DASHBOARD_USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformDashboardUser';

export const USER = 'Engagement Platform User';
export const SUBSCRIPTION = 'Engagement Platform Subscription';
export const MESSAGE = 'Engagement Platform Message';
export const TRIGGER = 'Engagement Platform Trigger';
export const CATALOG = 'Engagement Platform Catalog';
export const PREFERENCE_CENTER = 'Engagement Platform Preference Center';
export const TRANSLATION = 'Engagement Platform Translation';
export const DASHBOARD_USER = 'Engagement Platform Dashboard User';

const NAMES: Record<string, string> = {
	[USER_NODE]: USER,
	[SUBSCRIPTION_NODE]: SUBSCRIPTION,
	[MESSAGE_NODE]: MESSAGE,
	[TRIGGER_NODE]: TRIGGER,
	[CATALOG_NODE]: CATALOG,
	[PREFERENCE_CENTER_NODE]: PREFERENCE_CENTER,
	[TRANSLATION_NODE]: TRANSLATION,
	[DASHBOARD_USER_NODE]: DASHBOARD_USER,
};

/**
 * The name of a node of this type, checked against the node's own description: a node renamed there
 * fails here, by name, instead of leaving every `output(…)` empty.
 */
export function nodeName(type: string): string {
	const name = NAMES[type];
	if (name === undefined)
		throw new Error(`test support: "${type}" is not one of our node types (test/support/nodeTypes.ts)`);
	const described = loadPackageNodeTypes()[type]?.description.displayName;
	if (described !== name) {
		throw new Error(
			`test support: ${type} is named "${described}" by its description, not "${name}" (test/support/nodeTypes.ts)`,
		);
	}
	return name;
}
