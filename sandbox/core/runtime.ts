import type {
	SandboxConfigPatch,
	SandboxConfigView,
	SeedData,
	SeedName,
	SeedResult,
	StatsView,
} from '../adminApiTypes';
import { DEMO_SEED } from '../seed';
import { applySeed, SeedError } from '../state/applySeed';
import { PlatformState } from '../state/platformState';
import { ApiKeyStore } from './auth';
import { BackgroundTasks } from './backgroundTasks';
import { applyConfigPatch, defaultConfig, type StartupDefaults } from './config';
import { FaultQueue } from './faults';
import { FixedWindowRateLimiter } from './rateLimiter';
import { RequestLog } from './requestLog';
import { ScimTokenStore, scimTokensProblem } from './scimTokenStore';

/** Everything one running sandbox holds. `reset` puts it back to how it started. */
export class SandboxRuntime {
	config: SandboxConfigView;
	state = new PlatformState();
	apiKeys = new ApiKeyStore();
	scimTokens = new ScimTokenStore();
	faults = new FaultQueue();
	requestLog = new RequestLog();
	tasks = new BackgroundTasks();
	readonly rateLimiter = new FixedWindowRateLimiter((group) => this.config.rateLimits[group]);

	constructor(
		private readonly defaults: StartupDefaults,
		seed: SeedName,
	) {
		this.config = defaultConfig(defaults);
		this.reset(seed);
	}

	reset(seed: SeedName = 'empty'): void {
		this.tasks.stop();
		this.tasks = new BackgroundTasks();
		this.config = defaultConfig(this.defaults);
		this.state = new PlatformState();
		this.apiKeys = new ApiKeyStore();
		this.scimTokens = new ScimTokenStore();
		this.faults = new FaultQueue();
		this.requestLog = new RequestLog();
		this.rateLimiter.clear();
		if (seed === 'demo') this.seed(DEMO_SEED);
	}

	/** Returns the problem when the patch is invalid. Changed limits start from fresh windows. */
	configure(patch: SandboxConfigPatch): string | undefined {
		const problem = applyConfigPatch(this.config, patch);
		if (!problem && patch.rateLimits) this.rateLimiter.clear();
		return problem;
	}

	seed(data: SeedData): SeedResult {
		const tokenProblem = scimTokensProblem(data.scimTokens);
		if (tokenProblem) throw new SeedError(tokenProblem);
		for (const { key, permissions } of data.apiKeys ?? []) this.apiKeys.set(key, permissions);
		for (const { token, origin } of data.scimTokens ?? []) this.scimTokens.set(token, origin);
		return applySeed(this.state, data, new Date());
	}

	/** Stops what endpoints left running (the sandbox is closing). */
	stopBackgroundTasks(): void {
		this.tasks.stop();
	}

	stats(): StatsView {
		return {
			profiles: this.state.profiles.size,
			events: this.state.events.length,
			purchases: this.state.purchases.length,
			requests: this.requestLog.requestCount,
			responsesByStatus: this.requestLog.responsesByStatus,
		};
	}
}
