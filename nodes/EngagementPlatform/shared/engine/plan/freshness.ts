import { createHash } from 'node:crypto';

/**
 * Resend Everything Every (Days): each contact's values are sent again at least once in N days,
 * whatever the schedule, as a fact kept per contact rather than a calendar turn.
 *
 * Time is cut into slices of N/4 days, offset per contact. When the platform accepts a contact's values,
 * the contact is due again in a slice: N days later after a resend, and after a first or changed send
 * at a point of the second half of the period chosen by a hash of the contact, so that contacts first
 * sent together come due over two weeks of a 30-day period rather than on one night. A run leaves a
 * contact out only if its due slice comes after the slice the NEXT run falls in (now plus the longest
 * interval between recent runs); otherwise that run could come too late, and the contact is sent now.
 * So each contact is sent again at most N days after its last send whenever the runs come no further
 * apart than they recently did. The interval is read when the contact is checked, not when it was sent,
 * so a schedule learnt after the first run holds for the contacts it sent. Measured over 120 days with
 * N = 30 (test/integration/resendBound.test.ts): about five resends per contact where four would do,
 * the longest wait 26–29 days.
 *
 * The due slice is kept in n8n's store with the contact's values, by execution (see sentBefore.ts): a run
 * reads it from the execution before and writes it again into its own, so it moves forward with every
 * run and never ages out of History Size while the contact keeps coming. n8n's store is a set, so a run
 * reads it by asking for each slice it can be (`dueCandidates`): four entries. What is known of the
 * schedule is kept as registers: when this workflow's last execution ran, and its last three intervals.
 * An interval over half of N is a pause, not a schedule (its contacts are stale and sent at once), so it
 * is not counted.
 */

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1_440;
/** Without a recorded interval (a first run, or after everything was forgotten), runs are taken as daily. */
const ASSUMED_INTERVAL_MINUTES = DAY_MINUTES;
const BUCKETS_PER_BOUND = 4;

/** A contact's fixed share of [0, 1), from a hash: where its slices start and where a first send falls due. */
function shareOf(contact: string): number {
	return createHash('sha256').update(contact).digest().readUInt32BE(0) / 2 ** 32;
}

export const SCHEDULE_REGISTERS = ['lastRun', 'interval1', 'interval2', 'interval3'] as const;
type ScheduleRegister = (typeof SCHEDULE_REGISTERS)[number];
export type Schedule = Partial<Record<ScheduleRegister, number>>;

export interface Freshness {
	/**
	 * The slices a contact's due slice can be for it to be left out now: every slice after the one the
	 * next run falls in, up to the furthest a send up to now can be due in.
	 */
	dueCandidates(contact: string): number[];
	/**
	 * The slice a contact accepted now is due again in. `resent`: sent because it was due (its values
	 * unchanged); otherwise a new or changed contact.
	 */
	dueOfSend(contact: string, resent: boolean): number;
	/** The registers to keep for the next execution's run. */
	scheduleAfter(): Schedule;
}

export function freshnessOf(everyDays: number, schedule: Schedule, now: number, newExecution: boolean): Freshness {
	const nowMinutes = Math.floor(now / MINUTE_MS);
	const boundMinutes = everyDays * DAY_MINUTES;
	const counted = (interval: number | undefined) =>
		interval !== undefined && interval >= 0 && interval <= boundMinutes / 2 ? interval : undefined;
	const sinceLast = newExecution && schedule.lastRun !== undefined ? counted(nowMinutes - schedule.lastRun) : undefined;
	const intervals = [sinceLast, schedule.interval1, schedule.interval2, schedule.interval3].filter(
		(interval): interval is number => counted(interval) !== undefined,
	);
	const longest = intervals.length > 0 ? Math.max(...intervals) : ASSUMED_INTERVAL_MINUTES;
	const nextRunMs = Math.min(longest, boundMinutes / 2) * MINUTE_MS;
	const bucketMs = (boundMinutes * MINUTE_MS) / BUCKETS_PER_BOUND;

	const boundMs = boundMinutes * MINUTE_MS;
	// The slices' start and the first due point are drawn apart, so that the slices do not gather them again.
	const bucketOf = (contact: string, at: number) =>
		Math.floor((at - shareOf(`${contact}\u0000slices`) * bucketMs) / bucketMs);

	return {
		dueCandidates(contact) {
			// A send at or before now is due at most a whole period after now: BUCKETS_PER_BOUND slices on.
			const next = bucketOf(contact, now + nextRunMs);
			const furthest = bucketOf(contact, now + boundMs);
			return Array.from({ length: Math.max(0, furthest - next) }, (_, offset) => next + 1 + offset);
		},
		dueOfSend(contact, resent) {
			// A new or changed contact is due at a point of the second half chosen by its hash, so contacts first
			// sent together spread out; a resent one after the whole period, keeping its place.
			return bucketOf(contact, now + (resent ? boundMs : boundMs * (0.5 + 0.5 * shareOf(contact))));
		},
		scheduleAfter() {
			if (!newExecution) return schedule;
			if (sinceLast === undefined) return { ...schedule, lastRun: nowMinutes };
			return {
				lastRun: nowMinutes,
				interval1: sinceLast,
				interval2: schedule.interval1,
				interval3: schedule.interval2,
			};
		},
	};
}
