/**
 * Loads the package in the current folder as n8n's loader does: each file package.json lists under
 * `n8n.nodes` and `n8n.credentials` is required and its class (named after the file) instantiated.
 * Prints, as JSON, each one's icon files and codex file, and every file under dist/ the requires
 * reached. Run as a plain Node process by pack.test.ts: jest's module loader does not see dist/.
 */
const path = require('path');

const root = process.cwd();
const { n8n } = require(path.join(root, 'package.json'));

/** `file:` icons, as n8n resolves them: relative to the folder of the file that declares them. */
function iconFiles(file, icon) {
	const icons = typeof icon === 'string' ? [icon] : Object.values(icon ?? {});
	return icons
		.filter((value) => value.startsWith('file:'))
		.map((value) => path.posix.join(path.posix.dirname(file), value.slice('file:'.length)));
}

function load(file, suffix) {
	const exported = require(path.join(root, file))[path.basename(file, suffix)];
	return new exported();
}

const nodes = n8n.nodes.map((file) => ({
	file,
	icons: iconFiles(file, load(file, '.node.js').description.icon),
	// n8n reads a node's codex from the same path with .json for .js.
	codex: `${file}on`,
}));
const credentials = n8n.credentials.map((file) => ({
	file,
	icons: iconFiles(file, load(file, '.credentials.js').icon),
}));
const required = Object.keys(require.cache)
	.filter((file) => file.startsWith(path.join(root, 'dist') + path.sep))
	.map((file) => path.relative(root, file).split(path.sep).join('/'));

process.stdout.write(JSON.stringify({ nodes, credentials, required }));
