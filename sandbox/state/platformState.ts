import type { StoredEvent, StoredPurchase } from '../adminApiTypes';
import { IdGenerator } from './ids';
import { ProfileStore } from './profileStore';
import { SubscriptionGroupStore } from './subscriptionGroups';

/** Everything the platform knows. A reset replaces the whole object. */
export class PlatformState {
	readonly ids = new IdGenerator();
	readonly profiles = new ProfileStore(this.ids);
	readonly events: StoredEvent[] = [];
	readonly purchases: StoredPurchase[] = [];
	readonly subscriptionGroups = new SubscriptionGroupStore();
}
