import type { StoredEvent } from '../adminApiTypes';
import { isDatetimeString, isNonEmptyString, characters } from '../formats';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { accept, refuse, type Checked } from './checked';
import { readIdentifier, readUpdateExistingOnly, type Identifier } from './identifiers';
import { unknownFieldProblem } from './knownFields';
import { propertiesProblem } from './properties';

export interface EventOccurrence {
	identifier: Identifier;
	updateExistingOnly: boolean | undefined;
	name: string;
	time: string;
	appId?: string;
	properties?: Record<string, unknown>;
}

const EVENT_FIELDS = new Set([
	'external_id',
	'user_alias',
	'service_id',
	'email',
	'phone',
	'app_id',
	'name',
	'time',
	'properties',
	'_update_existing_only',
]);
// Not in the spec; Braze limits event names to 255 characters like other names.
const MAX_NAME_LENGTH = 255;

export function readEventObject(object: Record<string, unknown>): Checked<EventOccurrence> {
	const unknown = unknownFieldProblem(object, EVENT_FIELDS, 'event');
	if (unknown) return unknown;
	const identifier = readIdentifier(object, 'events');
	if (!identifier.ok) return identifier;
	const updateExistingOnly = readUpdateExistingOnly(object);
	if (!updateExistingOnly.ok) return updateExistingOnly;
	const { name, time, app_id: appId, properties } = object;
	if (!isNonEmptyString(name) || characters(name) > MAX_NAME_LENGTH) {
		return refuse(`name is required: a non-empty string of at most ${MAX_NAME_LENGTH} characters`);
	}
	// Spec: "ISO 8601 datetime, or the format yyyy-MM-dd'T'HH:mm:ss:SSSZ" (events only).
	const timeProblem = eventTimeProblem(time);
	if (timeProblem) return refuse(timeProblem);
	if (appId !== undefined && typeof appId !== 'string') return refuse('app_id must be a string');
	if (properties !== undefined) {
		const problem = propertiesProblem(properties);
		if (problem) return refuse(problem);
	}
	return accept({
		identifier: identifier.value,
		updateExistingOnly: updateExistingOnly.value,
		name,
		time: time as string,
		appId,
		properties: properties as Record<string, unknown> | undefined,
	});
}

function eventTimeProblem(time: unknown): string | undefined {
	if (time === undefined || time === null)
		return "time is required: an ISO 8601 datetime or yyyy-MM-dd'T'HH:mm:ss:SSSZ";
	if (!isDatetimeString(time)) {
		return `time ${JSON.stringify(time)} is not an ISO 8601 datetime (e.g. 2024-05-01T10:00:00Z) or yyyy-MM-dd'T'HH:mm:ss:SSSZ`;
	}
	return undefined;
}

/** Stores the occurrence under its own id: repeated events are separate events. */
export function recordEvent(state: PlatformState, profile: Profile, event: EventOccurrence, now: Date): StoredEvent {
	const stored: StoredEvent = {
		id: state.ids.next(now),
		service_id: profile.service_id,
		name: event.name,
		time: event.time,
		received_at: now.toISOString(),
	};
	if (event.properties !== undefined) stored.properties = event.properties;
	if (event.appId !== undefined) stored.app_id = event.appId;
	state.events.push(stored);
	state.profiles.touch(profile, now);
	return stored;
}
