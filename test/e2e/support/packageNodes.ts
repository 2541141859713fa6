import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from './n8nApp';

/** One value of a node's `operation` parameter, as the editor lists it. */
export interface NodeOperation {
	value: string;
	/** The option's label in the Operation dropdown. */
	name: string;
	/** The option's `action`: the label of the entry in the node creator's actions list. */
	action?: string;
	/** When the operation belongs to a resource (`displayOptions.show.resource`), its value. */
	resource?: string;
	/** That resource's label in the Resource dropdown. */
	resourceName?: string;
}

/** A node of this package as n8n loads it: read from the built file listed in package.json. */
export interface PackageNode {
	/** The dist path from package.json `n8n.nodes`. */
	file: string;
	/** `description.name`, e.g. `engagementPlatformUser`. */
	name: string;
	/** The node type as n8n registers it: `<package name>.<name>`. */
	type: string;
	displayName: string;
	/** The node's name on the canvas when added (`defaults.name`, else the display name). */
	defaultName: string;
	version: number;
	/** Empty for a node without an `operation` parameter. */
	operations: NodeOperation[];
}

interface Description {
	name: string;
	displayName: string;
	/** Each node of the package has one version (CONTRIBUTING.md, Node versions). */
	version: number;
	defaults?: { name?: string };
	properties?: Array<{
		name: string;
		type?: string;
		options?: Array<{ name?: unknown; value?: unknown; action?: unknown }>;
		displayOptions?: { show?: Record<string, unknown[] | undefined> };
	}>;
}

function operationsOf(description: Description): NodeOperation[] {
	const operations: NodeOperation[] = [];
	const resourceOptions = description.properties?.find((property) => property.name === 'resource')?.options ?? [];
	for (const property of description.properties ?? []) {
		if (property.name !== 'operation' || property.type !== 'options' || !property.options) continue;
		const resources = property.displayOptions?.show?.resource;
		for (const resource of resources?.length ? resources.map(String) : [undefined]) {
			for (const option of property.options) {
				// n8n leaves these out of its lists.
				if (option.value === undefined || ['*', '', ' '].includes(String(option.name))) continue;
				const value = String(option.value);
				if (operations.some((known) => known.value === value && known.resource === resource)) continue;
				operations.push({
					value,
					name: option.name === undefined ? '' : String(option.name),
					action: typeof option.action === 'string' ? option.action : undefined,
					resource,
					resourceName:
						resource === undefined
							? undefined
							: String(resourceOptions.find((candidate) => String(candidate.value) === resource)?.name ?? resource),
				});
			}
		}
	}
	return operations;
}

interface Manifest {
	name: string;
	n8n?: { nodes?: string[] };
}

function readManifest(): Manifest {
	return JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Manifest;
}

/** The package's name, the prefix of its node types in n8n. */
export function packageName(): string {
	return readManifest().name;
}

/** Every node listed in package.json `n8n.nodes`, from `dist/` (run `npm run build` first). */
export function loadPackageNodes(): PackageNode[] {
	const manifest = readManifest();
	return (manifest.n8n?.nodes ?? []).map((file) => {
		let exported: Record<string, unknown>;
		try {
			exported = require(path.join(PROJECT_ROOT, file)) as Record<string, unknown>;
		} catch (error) {
			throw new Error(`cannot load ${file} (run npm run build first): ${(error as Error).message}`);
		}
		const NodeClass = Object.values(exported).find(
			(value): value is new () => { description: Description } => typeof value === 'function',
		);
		if (!NodeClass) throw new Error(`${file} exports no node class`);
		const { description } = new NodeClass();
		return {
			file,
			name: description.name,
			type: `${manifest.name}.${description.name}`,
			displayName: description.displayName,
			defaultName: description.defaults?.name ?? description.displayName,
			version: description.version,
			operations: operationsOf(description),
		};
	});
}

/** lodash's startCase, as n8n applies it to operation names: "getMany" → "Get Many". */
function startCase(text: string): string {
	return text
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.split(/[^A-Za-z\d]+/)
		.filter(Boolean)
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');
}

/**
 * The entry n8n's node creator lists for an operation in the node's actions: the option's `action`,
 * else its name in start case, preceded by the resource's name when the node has resources.
 */
export function actionLabel(operation: NodeOperation): string {
	if (operation.action) return operation.action;
	return operation.resourceName ? `${operation.resourceName} ${startCase(operation.name)}` : startCase(operation.name);
}
