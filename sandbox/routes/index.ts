import { readdirSync } from 'node:fs';
import path from 'node:path';

import type { RouteDeclaration } from '../core/route';

/**
 * Every API endpoint the sandbox serves: the route declarations the files of this folder export, found
 * when the sandbox starts. A new endpoint is one file in this folder and nothing else (README.md, Adding
 * an endpoint); a file here that exports no declaration stops the sandbox, as it would serve nothing.
 */
export const API_ROUTES: readonly RouteDeclaration[] = routesIn(__dirname);

function routesIn(folder: string): RouteDeclaration[] {
	return readdirSync(folder)
		.filter((name) => /\.[jt]s$/.test(name) && !name.endsWith('.d.ts') && path.parse(name).name !== 'index')
		.sort()
		.flatMap((file) => {
			// Required by its path: ts-node and ts-jest, which run the sandbox, compile it on the way.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(path.join(folder, file)) as Record<string, unknown>;
			const routes = Object.values(exported).filter(isRouteDeclaration);
			if (routes.length === 0) {
				throw new Error(`sandbox: routes/${file} exports no route declaration (sandbox/README.md, Adding an endpoint)`);
			}
			return routes;
		});
}

function isRouteDeclaration(value: unknown): value is RouteDeclaration {
	if (typeof value !== 'object' || value === null) return false;
	const { method, path: routePath, handle } = value as Partial<RouteDeclaration>;
	return typeof method === 'string' && typeof routePath === 'string' && typeof handle === 'function';
}
