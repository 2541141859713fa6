import type { DispatchRecipientView, DispatchView } from '../adminApiTypes';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';

export interface DispatchRecipient {
	profile: Profile;
	properties?: Record<string, unknown>;
}

/** Stores one accepted messaging request with the users it reached; returns it (its dispatch_id is the answer's). */
export function recordDispatch(
	state: PlatformState,
	fields: Omit<DispatchView, 'dispatch_id' | 'created_at' | 'recipients'>,
	recipients: readonly DispatchRecipient[],
	now: Date,
): DispatchView {
	const dispatch: DispatchView = {
		// Not shown what a dispatch ID looks like: the sandbox's 24-hex IDs, unique within a run.
		dispatch_id: state.ids.next(now),
		...withoutUndefined(fields),
		recipients: recipients.map(recipientView),
		created_at: now.toISOString(),
	};
	state.dispatches.push(dispatch);
	return dispatch;
}

function recipientView({ profile, properties }: DispatchRecipient): DispatchRecipientView {
	const view: DispatchRecipientView = { service_id: profile.service_id };
	if (profile.external_id !== undefined) view.external_id = profile.external_id;
	if (properties !== undefined) view.properties = properties;
	return view;
}

function withoutUndefined<T extends object>(fields: T): T {
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
