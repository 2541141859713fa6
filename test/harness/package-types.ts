/**
 * Loads this package's node and credential types the way n8n loads a community package, but from the
 * TypeScript sources instead of `dist/`, so tests run against the code as written (no build step).
 *
 * The lists come from package.json `n8n.nodes` / `n8n.credentials`; every entry
 * `dist/<dir>/<Name>.node.js` maps to `<dir>/<Name>.node.ts` and its class `<Name>` (n8n's own
 * convention: the class name is the file name without `.node.js` / `.credentials.js`).
 * Files are required lazily, when a type is first asked for, so a listed file that does not exist yet
 * does not break runs that never use it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

export type AnyNodeType = INodeType | IVersionedNodeType;

export interface PackageInfo {
	root: string;
	name: string;
	nodes: string[];
	credentials: string[];
}

let cachedRoot: string | undefined;

/** The directory holding this project's package.json (the one with an `n8n` section). */
function packageRoot(): string {
	if (cachedRoot) return cachedRoot;
	let dir = __dirname;
	for (;;) {
		const candidate = path.join(dir, 'package.json');
		if (existsSync(candidate)) {
			const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { n8n?: unknown };
			if (pkg.n8n) {
				cachedRoot = dir;
				return dir;
			}
		}
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error('test harness: no package.json with an "n8n" section above ' + __dirname);
		dir = parent;
	}
}

/** package.json is re-read on every call: nodes and credentials added later are picked up. */
export function readPackageInfo(): PackageInfo {
	const root = packageRoot();
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		name: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	return {
		root,
		name: pkg.name,
		nodes: pkg.n8n?.nodes ?? [],
		credentials: pkg.n8n?.credentials ?? [],
	};
}

/** `dist/nodes/X/Y.node.js` → `<root>/nodes/X/Y.node.ts` */
function sourcePathFor(root: string, distPath: string): string {
	const relative = distPath.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts');
	return path.join(root, relative);
}

function classNameFor(distPath: string, suffix: '.node.js' | '.credentials.js'): string {
	return path.basename(distPath, suffix);
}

/** Requires a source file and instantiates its exported class (by n8n's naming convention, else the
 * first exported class whose instance looks right). */
function instantiate<T>(sourcePath: string, className: string, looksRight: (instance: unknown) => instance is T): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require(sourcePath) as Record<string, unknown>;
	const candidates: unknown[] = [mod[className], mod.default, ...Object.values(mod)];
	for (const candidate of candidates) {
		if (typeof candidate !== 'function') continue;
		let instance: unknown;
		try {
			instance = new (candidate as new () => unknown)();
		} catch {
			continue;
		}
		if (looksRight(instance)) return instance;
	}
	throw new Error(`test harness: ${sourcePath} exports no class "${className}" (nor any other usable class)`);
}

const isNodeType = (value: unknown): value is AnyNodeType =>
	typeof value === 'object' &&
	value !== null &&
	'description' in value &&
	typeof (value as { description?: { name?: unknown } }).description?.name === 'string';

const isCredentialType = (value: unknown): value is ICredentialType =>
	typeof value === 'object' &&
	value !== null &&
	typeof (value as { name?: unknown }).name === 'string' &&
	Array.isArray((value as { properties?: unknown }).properties);

export interface LoadReport {
	/** listed in package.json but whose TypeScript source does not exist (yet) */
	missing: string[];
}

/**
 * The package's node types keyed both as n8n names them for a community package
 * (`n8n-nodes-engagement-platform.<description.name>`) and by the bare `<description.name>`.
 * Listed files that do not exist are skipped (reported in `report.missing`); a file that exists but
 * fails to load throws.
 */
export function loadPackageNodeTypes(report?: LoadReport): Record<string, AnyNodeType> {
	const info = readPackageInfo();
	const result: Record<string, AnyNodeType> = {};
	for (const distPath of info.nodes) {
		const sourcePath = sourcePathFor(info.root, distPath);
		if (!existsSync(sourcePath)) {
			report?.missing.push(sourcePath);
			continue;
		}
		const nodeType = instantiate(sourcePath, classNameFor(distPath, '.node.js'), isNodeType);
		const name = nodeType.description.name;
		result[`${info.name}.${name}`] = nodeType;
		result[name] = nodeType;
	}
	return result;
}

/** The package's credential types keyed by their `name` (e.g. `engagementPlatformApi`). */
export function loadPackageCredentialTypes(report?: LoadReport): Record<string, ICredentialType> {
	const info = readPackageInfo();
	const result: Record<string, ICredentialType> = {};
	for (const distPath of info.credentials) {
		const sourcePath = sourcePathFor(info.root, distPath);
		if (!existsSync(sourcePath)) {
			report?.missing.push(sourcePath);
			continue;
		}
		const credentialType = instantiate(sourcePath, classNameFor(distPath, '.credentials.js'), isCredentialType);
		result[credentialType.name] = credentialType;
	}
	return result;
}
