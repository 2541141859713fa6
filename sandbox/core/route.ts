import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxConfigView } from '../adminApiTypes';
import type { PlatformState } from '../state/platformState';
import type { BackgroundTasks } from './backgroundTasks';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** 'rest': `Authorization: Bearer <API key>` plus the route's permission. 'scim': see core/auth.ts. */
type AuthScheme = 'rest' | 'scim';

export interface RouteContext {
	/** Parsed JSON body; undefined when the request had none. */
	body: unknown;
	/** Values of `{name}` segments of the route's path. */
	params: Record<string, string>;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	state: PlatformState;
	now: Date;
	/** The current configuration (postback settings, ...); read it, do not change it. */
	config: Readonly<SandboxConfigView>;
	/** For work that outlives the answer; stopped by a reset. */
	tasks: BackgroundTasks;
	/** How long after the answer the platform is still working on what it accepted (a 'reset-after' fault's queuedMs). */
	stillWorkingMs: number;
}

export interface RouteResult {
	status: number;
	/** A string when `format` is 'text'. */
	body: unknown;
	headers?: Record<string, string>;
	/** 'text': the body is sent as it is, text/plain (the spec's plain-text error samples). Default 'json'. */
	format?: 'json' | 'text';
}

/** One endpoint of the platform. A file in routes/ exports one of these; the core knows nothing more. */
export interface RouteDeclaration {
	method: HttpMethod;
	/** e.g. '/users/track' or '/catalogs/{catalog_name}/items'. */
	path: string;
	auth: AuthScheme;
	/** Permission the API key needs (ignored for 'scim'). */
	permission: string;
	/**
	 * Group whose limit this request counts against (see rateLimits.ts), or null for none. A function
	 * when the group depends on the body (messaging: segment versus external IDs).
	 */
	rateLimitGroup: string | null | ((body: unknown) => string | null);
	/**
	 * What the platform's gateway answers before credentials are read (e.g. 405 for a method the
	 * configuration turns off), or undefined to go on. Such an answer counts against no rate limit.
	 */
	gatewayAnswer?(config: Readonly<SandboxConfigView>): RouteResult | undefined;
	handle(context: RouteContext): RouteResult | Promise<RouteResult>;
}

export interface RouteMatch {
	route: RouteDeclaration;
	params: Record<string, string>;
}

interface CompiledRoute {
	route: RouteDeclaration;
	segments: string[];
}

/** Finds the declaration for a method and path. Exact paths are a map lookup; templated paths a scan. */
export class RouteTable {
	private readonly exact = new Map<string, RouteDeclaration>();
	private readonly templated: CompiledRoute[] = [];

	/** Throws where two declarations share a method and path: the second would never be reached. */
	constructor(routes: readonly RouteDeclaration[]) {
		const declared = new Set<string>();
		for (const route of routes) {
			const path = normalizePath(route.path);
			const key = `${route.method} ${path}`;
			if (declared.has(key)) throw new Error(`sandbox: two routes declare ${key}`);
			declared.add(key);
			if (path.includes('{')) {
				this.templated.push({ route, segments: path.split('/') });
			} else {
				this.exact.set(key, route);
			}
		}
	}

	match(method: string, rawPath: string): RouteMatch | undefined {
		const path = normalizePath(rawPath);
		const exact = this.exact.get(`${method} ${path}`);
		if (exact) return { route: exact, params: {} };
		const segments = path.split('/');
		for (const candidate of this.templated) {
			if (candidate.route.method !== method) continue;
			const params = matchSegments(candidate.segments, segments);
			if (params) return { route: candidate.route, params };
		}
		return undefined;
	}

	/** Any route at all for this path, whatever the method (fault headers need its group). */
	matchAnyMethod(rawPath: string): RouteMatch | undefined {
		for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
			const found = this.match(method, rawPath);
			if (found) return found;
		}
		return undefined;
	}
}

// The spec writes some paths with a trailing slash (`/canvas/translations/?locale_id=`): both forms match.
function normalizePath(path: string): string {
	return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function matchSegments(template: string[], actual: string[]): Record<string, string> | undefined {
	if (template.length !== actual.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < template.length; i++) {
		const part = template[i];
		if (part.startsWith('{') && part.endsWith('}')) {
			const value = decodeSegment(actual[i]);
			if (!value) return undefined;
			params[part.slice(1, -1)] = value;
		} else if (part !== actual[i]) {
			return undefined;
		}
	}
	return params;
}

function decodeSegment(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}
