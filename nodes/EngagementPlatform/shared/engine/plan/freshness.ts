import { createHash } from 'node:crypto';

/**
 * Resend Everything Every (Days): each contact's values are sent again at least once in N days,
 * whatever the schedule, as a fact kept per contact rather than a calendar turn.
 *
 * When the platform accepts a contact's values, the workflow marks the contact fresh, slice by slice
 * (N/4 days each, offset per contact), until it is due again: N days after a resend, and after a first
 * or changed send at a point of the second half of the period chosen by a hash of the contact, so that
 * contacts first sent together come due over two weeks of a 30-day period rather than on one night.
 * A run leaves a contact out only if it finds the mark of the slice the NEXT run falls in (now plus
 * the longest interval between recent runs); otherwise that run could come too late, and the contact
 * is sent now. So each contact is sent again at most N days after its last send whenever the runs
 * come no further apart than they recently did. The interval is read when the contact is checked, not
 * when it was sent, so a schedule learnt after the first run holds for the contacts it sent. A send
 * writes at most four marks. Measured over 120 days with N = 30 (test/integration/resendBound.test.ts):
 * about five resends per contact where four would do, the longest wait 26–29 days.
 *
 * What is known of the schedule is kept in n8n's store as registers (see sentBefore.ts): when this
 * workflow's last execution ran, and its last three intervals. An interval over half of N is a pause,
 * not a schedule (its contacts are stale and sent at once), so it is not counted.
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
export type ScheduleRegister = (typeof SCHEDULE_REGISTERS)[number];
export type Schedule = Partial<Record<ScheduleRegister, number>>;

export interface Freshness {
	/** The mark a contact needs to be left out now: fresh still when the next run comes. */
	freshUntilNextRun(contact: string): string;
	/**
	 * The marks an accepted send at `at` writes: every slice that ends before the contact is due again.
	 * `resent`: sent because it was due (its values unchanged); otherwise a new or changed contact.
	 */
	marksOfSend(contact: string, at: number, resent: boolean): string[];
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
	const entry = (contact: string, bucket: number) => `f\u0000${contact}\u0000${bucket}`;

	return {
		freshUntilNextRun: (contact) => entry(contact, bucketOf(contact, now + nextRunMs)),
		marksOfSend(contact, at, resent) {
			// Whole slices only: no mark outlives the send by N days. A new or changed contact is due again
			// at a point of the second half chosen by its hash, so contacts first sent together spread out;
			// a resent one after the whole period, keeping its place.
			const first = bucketOf(contact, at);
			const due = bucketOf(contact, at + (resent ? boundMs : boundMs * (0.5 + 0.5 * shareOf(contact))));
			return Array.from({ length: Math.max(0, due - first) }, (_, offset) => entry(contact, first + offset));
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
