import type { ProfileView, StateView } from '../adminApiTypes';
import { scimUserView } from '../scim/scimUserView';
import { catalogView } from './catalogStore';
import type { PlatformState } from './platformState';
import type { Profile } from './profileStore';

export function stateView(state: PlatformState): StateView {
	return {
		profiles: [...state.profiles.all()].map((profile) => profileView(state, profile)),
		events: state.events,
		purchases: state.purchases,
		subscriptionGroups: state.subscriptionGroups.toJSON(),
		subscriptionGroupNames: state.subscriptionGroups.names(),
		campaigns: [...state.campaigns.values()],
		canvases: [...state.canvases.values()],
		segments: [...state.segments.values()],
		canvasSchedules: [...state.canvasSchedules.values()],
		dispatches: state.dispatches,
		transactionalSends: state.transactionalSends
			.all()
			.map(({ acceptedAtMs: _accepted, answeredAtMs: _answered, ...send }) => ({
				...send,
				statuses: [...send.statuses],
			})),
		postbacks: state.postbacks,
		catalogs: [...state.catalogs.values()].map(catalogView),
		preferenceCenters: [...state.preferenceCenters.values()].map((center) => structuredClone(center)),
		multiLanguage: state.multiLanguage ?? null,
		dashboardUsers: state.dashboardUsers.all().map(scimUserView),
		dashboardDirectory: state.dashboardDirectory.view(),
	};
}

/** A copy of the profile, identifiers first; absent identifiers are left out. */
export function profileView(state: PlatformState, profile: Profile): ProfileView {
	const view: ProfileView = {
		service_id: profile.service_id,
		external_id: profile.external_id,
		deprecated_external_ids: [...profile.deprecated_external_ids],
		user_aliases: profile.user_aliases.map((alias) => ({ ...alias })),
		email: profile.email,
		phone: profile.phone,
		email_subscribe: profile.email_subscribe,
		standard_attributes: { ...profile.standard_attributes },
		custom_attributes: { ...profile.custom_attributes },
		subscription_groups: state.subscriptionGroups.statesOf(profile.service_id),
		created_at: profile.created_at,
		updated_at: profile.updated_at,
	};
	for (const key of ['external_id', 'email', 'phone', 'email_subscribe'] as const) {
		if (view[key] === undefined) delete view[key];
	}
	return view;
}
