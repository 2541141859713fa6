/**
 * A clock for sequences that meet waits of seconds (429s, backoff, "queued, ask again") but must run
 * a thousand of them in minutes. The node's and the in-process sandbox's `Date` read virtual time:
 * real time plus what the sleeps skipped. A sleep of `ms` sleeps `ms * scale` for real, then moves the
 * clock on to where the full sleep would have ended (never back: sleeps that overlap end at the latest
 * one's end, as they would). Time that passes without a sleep (a request, a tight loop) passes at its
 * real pace, so a request rate measured on this clock is the rate the node would have in production.
 *
 * The state lives on globalThis: jest's module factory (the n8n-workflow mock) and the test file may
 * each load this module.
 */
const KEY = Symbol.for('engagement-platform.virtual-clock');

interface ClockState {
	offset: number;
	realNow: () => number;
	realSleep: (ms: number) => Promise<void>;
	installed: boolean;
}

function state(): ClockState {
	const holder = globalThis as unknown as Record<symbol, ClockState | undefined>;
	holder[KEY] ??= {
		offset: 0,
		realNow: Date.now.bind(Date),
		realSleep: async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms)),
		installed: false,
	};
	return holder[KEY];
}

export function virtualNow(): number {
	const clock = state();
	return clock.realNow() + clock.offset;
}

/** Moves the clock on to `at` (epoch ms), if it is not there already. */
function advanceTo(at: number): void {
	const clock = state();
	const now = virtualNow();
	if (at > now) clock.offset += at - now;
}

/** n8n-workflow's `sleep`, on the virtual clock: `ms` of virtual time, `ms * scale` of real time. */
export function virtualSleep(scale: number): (ms: number) => Promise<void> {
	return async (ms: number) => {
		const wakeAt = virtualNow() + Math.max(0, ms);
		await state().realSleep(Math.ceil(Math.max(0, ms) * scale));
		advanceTo(wakeAt);
	};
}

/** Replaces the global Date with one that reads the virtual clock (`Date.now()` and `new Date()`). */
export function installVirtualClock(): void {
	const clock = state();
	if (clock.installed) return;
	const RealDate = Date;
	class VirtualDate extends RealDate {
		constructor(...args: unknown[]) {
			if (args.length === 0) super(virtualNow());
			else super(...(args as [string | number | Date]));
		}

		static now(): number {
			return virtualNow();
		}
	}
	globalThis.Date = VirtualDate as DateConstructor;
	clock.installed = true;
}

/** Moves the virtual clock on by `ms` at once: a schedule's days pass between two runs. */
export function moveClockBy(ms: number): void {
	advanceTo(virtualNow() + Math.max(0, ms));
}
