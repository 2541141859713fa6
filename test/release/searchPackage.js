/**
 * Loads the package in the current folder with n8n-core's own PackageDirectoryLoader (the loader
 * n8n runs for a community package: it reads each node's codex file beside the compiled node, and
 * keeps its categories, subcategories, alias and documentation links). Prints, as JSON, what n8n's
 * node panel searches for each node: its display name and its codex alias.
 * Run as a plain Node process by pack.test.ts: jest's module loader does not see dist/.
 */
const { PackageDirectoryLoader } = require('n8n-core');

(async () => {
	const loader = new PackageDirectoryLoader(process.cwd());
	await loader.loadAll();
	const nodes = Object.values(loader.nodeTypes).map(({ type }) => ({
		displayName: type.description.displayName,
		alias: type.description.codex?.alias ?? [],
	}));
	process.stdout.write(JSON.stringify(nodes));
})().catch((error) => {
	process.stderr.write(String(error?.stack ?? error));
	process.exit(1);
});
