import type { ApiKeyPermissions, FaultRule, SandboxConfigPatch, SeedData } from '../adminApiTypes';
import type { HttpMethod } from '../core/route';
import type { SandboxRuntime } from '../core/runtime';
import { faultRuleProblem } from '../core/faults';
import { scimTokenProblem } from '../core/scimTokenStore';
import { isNonEmptyString, isPlainObject } from '../formats';
import { SeedError } from '../state/applySeed';
import { stateView } from '../state/stateView';

export const ADMIN_PREFIX = '/_admin/';

export interface AdminRoute {
	method: HttpMethod;
	/** Path after the admin prefix, e.g. 'reset'. */
	path: string;
	handle(runtime: SandboxRuntime, input: { body: unknown; query: Record<string, string> }): unknown;
}

/** Bad admin input: answered 400 with this message. */
export class AdminInputError extends Error {}

function fail(message: string): never {
	throw new AdminInputError(message);
}

/** The control surface for tests, benchmarks and demos. Not logged, not rate limited, not delayed. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
	{
		method: 'POST',
		path: 'reset',
		handle(runtime, { body }) {
			const seed = isPlainObject(body) ? body.seed : undefined;
			if (seed !== undefined && seed !== 'empty' && seed !== 'demo') fail("seed must be 'empty' or 'demo'");
			runtime.reset(seed);
			return { ok: true };
		},
	},
	{
		method: 'POST',
		path: 'api-keys',
		handle(runtime, { body }) {
			const { key, permissions } = isPlainObject(body) ? body : fail('body must be { key, permissions }');
			if (!isNonEmptyString(key)) fail('key must be a non-empty string');
			if (permissions !== '*' && !(Array.isArray(permissions) && permissions.every((p) => typeof p === 'string'))) {
				fail("permissions must be an array of permission names or '*'");
			}
			runtime.apiKeys.set(key, permissions as ApiKeyPermissions);
			return { ok: true };
		},
	},
	{
		method: 'POST',
		path: 'scim-tokens',
		handle(runtime, { body }) {
			const problem = scimTokenProblem(body);
			if (problem) fail(`body must be { token, origin }: ${problem}`);
			const { token, origin } = body as { token: string; origin: string };
			runtime.scimTokens.set(token, origin);
			return { ok: true };
		},
	},
	{
		method: 'GET',
		path: 'config',
		handle: (runtime) => runtime.config,
	},
	{
		method: 'POST',
		path: 'config',
		handle(runtime, { body }) {
			const problem = runtime.configure((body ?? {}) as SandboxConfigPatch);
			if (problem) fail(problem);
			return runtime.config;
		},
	},
	{
		method: 'POST',
		path: 'faults',
		handle(runtime, { body }) {
			const rules = isPlainObject(body) ? body.rules : undefined;
			if (!Array.isArray(rules)) fail('body must be { rules: FaultRule[] }');
			rules.forEach((rule, i) => {
				const problem = faultRuleProblem(rule);
				if (problem) fail(`rules[${i}]: ${problem}`);
			});
			runtime.faults.add(rules as FaultRule[]);
			return { pending: runtime.faults.pending };
		},
	},
	{
		method: 'POST',
		path: 'faults/clear',
		handle(runtime) {
			runtime.faults.clear();
			return { pending: runtime.faults.pending };
		},
	},
	{
		method: 'GET',
		path: 'requests',
		handle: (runtime, { query }) => runtime.requestLog.list({ path: query.path, method: query.method }),
	},
	{
		method: 'GET',
		path: 'state',
		handle: (runtime) => stateView(runtime.state),
	},
	{
		method: 'GET',
		path: 'stats',
		handle: (runtime) => runtime.stats(),
	},
	{
		method: 'POST',
		path: 'seed',
		handle(runtime, { body }) {
			if (!isPlainObject(body))
				fail(
					'body must be seed data: { profiles?, subscriptionGroups?, apiKeys?, campaigns?, canvases?, segments?, canvasSchedules?, catalogs?, preferenceCenters?, multiLanguage?, scimTokens?, dashboardDirectory?, dashboardUsers? }',
				);
			try {
				return runtime.seed(body as SeedData);
			} catch (error) {
				if (error instanceof SeedError) fail(error.message);
				throw error;
			}
		},
	},
];
