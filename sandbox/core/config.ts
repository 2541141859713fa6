import type { RateLimit, SandboxConfigPatch, SandboxConfigView } from '../adminApiTypes';
import { defaultPreferenceCenterMethods, preferenceCenterMethodsProblem } from '../preferenceCenters/methodsConfig';
import { DEFAULT_RATE_LIMITS } from '../rateLimits';
import { defaultPostbackConfig, postbackConfigFrom, postbackConfigProblem } from '../transactional/postbackConfig';

/** What the sandbox was started with; a reset returns to these. */
export interface StartupDefaults {
	latencyMs: number;
	logBodies: boolean;
}

export function defaultConfig(defaults: StartupDefaults): SandboxConfigView {
	return {
		latencyMs: defaults.latencyMs,
		logBodies: defaults.logBodies,
		rateLimits: { ...DEFAULT_RATE_LIMITS },
		// The platform documents X-RateLimit-Reset; Retry-After is opt-in so clients are tested without it.
		retryAfterOn429: false,
		postbacks: defaultPostbackConfig(),
		preferenceCenterMethods: defaultPreferenceCenterMethods(),
	};
}

/** Applies a patch in place; returns the problem instead when any part of it is invalid (nothing applied). */
export function applyConfigPatch(config: SandboxConfigView, patch: SandboxConfigPatch): string | undefined {
	const problem = configPatchProblem(patch);
	if (problem) return problem;
	if (patch.latencyMs !== undefined) config.latencyMs = patch.latencyMs;
	if (patch.logBodies !== undefined) config.logBodies = patch.logBodies;
	if (patch.retryAfterOn429 !== undefined) config.retryAfterOn429 = patch.retryAfterOn429;
	if (patch.postbacks !== undefined) config.postbacks = postbackConfigFrom(patch.postbacks);
	if (patch.preferenceCenterMethods !== undefined) config.preferenceCenterMethods = [...patch.preferenceCenterMethods];
	for (const [group, limit] of Object.entries(patch.rateLimits ?? {})) {
		config.rateLimits[group] = limit === null ? null : { limit: limit.limit, windowMs: limit.windowMs };
	}
	return undefined;
}

function configPatchProblem(patch: SandboxConfigPatch): string | undefined {
	if (typeof patch !== 'object' || patch === null) return 'config must be an object';
	if (patch.latencyMs !== undefined && !(typeof patch.latencyMs === 'number' && patch.latencyMs >= 0)) {
		return 'latencyMs must be a number of at least 0';
	}
	if (patch.logBodies !== undefined && typeof patch.logBodies !== 'boolean') return 'logBodies must be a boolean';
	if (patch.retryAfterOn429 !== undefined && typeof patch.retryAfterOn429 !== 'boolean')
		return 'retryAfterOn429 must be a boolean';
	if (patch.postbacks !== undefined) {
		const problem = postbackConfigProblem(patch.postbacks);
		if (problem) return problem;
	}
	if (patch.preferenceCenterMethods !== undefined) {
		const problem = preferenceCenterMethodsProblem(patch.preferenceCenterMethods);
		if (problem) return problem;
	}
	for (const [group, limit] of Object.entries(patch.rateLimits ?? {})) {
		if (limit !== null && !isRateLimit(limit)) {
			return `rateLimits.${group} must be null or { limit: integer >= 0, windowMs: number > 0 }`;
		}
	}
	return undefined;
}

function isRateLimit(value: unknown): value is RateLimit {
	const candidate = value as RateLimit;
	return (
		typeof value === 'object' &&
		value !== null &&
		Number.isInteger(candidate.limit) &&
		candidate.limit >= 0 &&
		typeof candidate.windowMs === 'number' &&
		candidate.windowMs > 0
	);
}
