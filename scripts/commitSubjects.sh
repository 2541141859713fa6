#!/usr/bin/env bash
# Commit subjects of at most 72 characters, with the why in the body (CONTRIBUTING.md, Commits), so that
# `git log --oneline` can be read. With a file (the commit-msg hook, .githooks/): that message's subject;
# without (npm run lint, CI): every commit since the rule began. Earlier history stays as it is.
set -euo pipefail
limit=72
# The last commit before the rule: the subjects after it are checked.
rule_began=0917378ebadffeb391ecac7df5c4ce46d484acc9

if [ $# -gt 0 ]; then
	subjects=$(grep -v '^#' "$1" | head -n 1)
elif git rev-parse -q --verify "$rule_began^{commit}" >/dev/null; then
	subjects=$(git log --format='%s' "$rule_began..HEAD")
else
	# A shallow clone without that commit: the newest commit alone.
	subjects=$(git log -1 --format='%s')
fi

# Characters, not bytes: a dash or an arrow is one.
export LC_ALL=C.UTF-8
long=$(printf '%s\n' "$subjects" | while IFS= read -r subject; do
	if [ "${#subject}" -gt "$limit" ]; then echo "${#subject} characters: $subject"; fi
done)
if [ -n "$long" ]; then
	echo "Commit subjects must be at most $limit characters, the why in the body (CONTRIBUTING.md, Commits):" >&2
	printf '%s\n' "$long" >&2
	exit 1
fi
