const { src, dest, parallel } = require('gulp');

/** Copies the icons next to the compiled nodes and credentials, where their `file:` paths point. */
function buildIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

/** Copies each node's codex file (categories, documentation links) beside its compiled node. */
function buildCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(buildIcons, buildCodex);
