const { src, dest } = require('gulp');

/** Copies the icons next to the compiled nodes and credentials, where their `file:` paths point. */
function buildIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = buildIcons;
