import type {
	CampaignView,
	CanvasScheduleView,
	CanvasView,
	DispatchView,
	PostbackView,
	SegmentView,
	StoredEvent,
	StoredPurchase,
} from '../adminApiTypes';
import type { Catalog } from './catalogStore';
import { IdGenerator } from './ids';
import { ProfileStore } from './profileStore';
import { SubscriptionGroupStore } from './subscriptionGroups';
import { TransactionalSendStore } from './transactionalSends';

/** Everything the platform knows. A reset replaces the whole object. */
export class PlatformState {
	readonly ids = new IdGenerator();
	readonly profiles = new ProfileStore(this.ids);
	readonly events: StoredEvent[] = [];
	readonly purchases: StoredPurchase[] = [];
	readonly subscriptionGroups = new SubscriptionGroupStore();
	/** Dashboard objects (seeded): by id. */
	readonly campaigns = new Map<string, CampaignView>();
	readonly canvases = new Map<string, CanvasView>();
	readonly segments = new Map<string, SegmentView>();
	/** By schedule_id (the platform's schedule IDs are unique across canvases). */
	readonly canvasSchedules = new Map<string, CanvasScheduleView>();
	/** What the messaging endpoints sent, oldest first. */
	readonly dispatches: DispatchView[] = [];
	readonly transactionalSends = new TransactionalSendStore();
	readonly postbacks: PostbackView[] = [];
	/** Seeded catalogs by name, with their items. */
	readonly catalogs = new Map<string, Catalog>();
}
