import type {
	CampaignView,
	CanvasScheduleView,
	CanvasView,
	DispatchView,
	MultiLanguageView,
	PostbackView,
	PreferenceCenterView,
	SegmentView,
	StoredEvent,
	StoredPurchase,
} from '../adminApiTypes';
import type { Catalog } from './catalogStore';
import { DashboardDirectory } from './dashboardDirectory';
import { DashboardUserStore } from './dashboardUserStore';
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
	/** Seeded preference centers by external_id. */
	readonly preferenceCenters = new Map<string, PreferenceCenterView>();
	/** The dashboard's multi-language settings; undefined until seeded (multi-language not enabled). */
	multiLanguage: MultiLanguageView | undefined;
	/** App groups, teams, roles and permission sets (seeded) that SCIM permissions name. */
	dashboardDirectory = new DashboardDirectory();
	/** Dashboard user accounts (SCIM). */
	readonly dashboardUsers = new DashboardUserStore();
}
