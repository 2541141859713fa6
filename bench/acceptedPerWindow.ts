import type { RecordedRequest } from '../sandbox';

export interface WindowUse {
	/** Windows wholly between the first and the last request. */
	fullWindows: number;
	meanAccepted: number;
	minAccepted: number;
	maxAccepted: number;
}

/**
 * Accepted (2xx) requests in each rate-limit window the run spans whole, the windows aligned to
 * multiples of `windowMs` since the epoch as the sandbox's limiter aligns them. A request is placed
 * by its arrival time, a few milliseconds before the limiter counts it, so one arriving just before a
 * reset may be placed a window early. `undefined` when the run spans no whole window.
 */
export function acceptedPerWindow(requests: RecordedRequest[], windowMs: number): WindowUse | undefined {
	if (requests.length === 0) return undefined;
	const arrivals = requests.map((request) => request.receivedAt);
	const firstWindow = Math.ceil(Math.min(...arrivals) / windowMs);
	const endWindow = Math.floor(Math.max(...arrivals) / windowMs);
	if (endWindow <= firstWindow) return undefined;

	const accepted = new Array<number>(endWindow - firstWindow).fill(0);
	for (const request of requests) {
		const window = Math.floor(request.receivedAt / windowMs) - firstWindow;
		if (window >= 0 && window < accepted.length && request.status >= 200 && request.status < 300) accepted[window]++;
	}
	return {
		fullWindows: accepted.length,
		meanAccepted: accepted.reduce((sum, count) => sum + count, 0) / accepted.length,
		minAccepted: Math.min(...accepted),
		maxAccepted: Math.max(...accepted),
	};
}
