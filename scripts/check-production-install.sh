#!/usr/bin/env bash
# A production install runs the command line: the packed package, with this lockfile, installed
# without devDependencies (as docs/production.md does it), answers `npx seaworthy --help`.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --ignore-scripts --silent --pack-destination "$work")
mkdir "$work/seaworthy"
tar -xzf "$work/$tarball" -C "$work/seaworthy" --strip-components=1
cp package-lock.json "$work/seaworthy/"
cd "$work/seaworthy"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
help=$(npx --no-install seaworthy --help)
grep -q '^Usage: seaworthy' <<<"$help" || { echo "npx seaworthy --help printed no usage:"; echo "$help"; exit 1; }
echo "production install: npx seaworthy --help works"
