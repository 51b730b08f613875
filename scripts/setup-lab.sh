#!/usr/bin/env bash
# setup-lab.sh builds the lessons' JupyterLab 4 (lab/) when its build is not
# current; scripts/setup.sh --lab runs it after installing node and npm
# (Debian's nodejs and npm when missing) and Debian's jupyter_server and
# jupyterlab_server.
#
#   1. npm ci --legacy-peer-deps in lab/ (the exact packages of
#      lab/package-lock.json: every @jupyterlab package at the 4.6.4 release,
#      see "overrides" in lab/package.json), skipped when lab/node_modules
#      was installed from the same lock file;
#   2. npm run build: lab/assets.js (settings schemas, themes, styles) and
#      rspack (lab/build/bundle.js), skipped when the sources are unchanged.
#
# Cold, it downloads about 150 MB from npm and takes a few minutes on two
# cores; warm it takes a second. Usage: scripts/setup-lab.sh [--force]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lab="$repo/lab"
say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }
force=0
[[ ${1:-} == --force ]] && force=1

command -v node >/dev/null 2>&1 || die "node is not on PATH: run scripts/setup.sh --lab (it installs Debian's nodejs and npm)"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH: run scripts/setup.sh --lab (it installs Debian's nodejs and npm)"
# rspack 1.7 needs Node 18.12 or later (Debian bookworm has 18.20).
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 18)) || die "node $(node --version) is too old to build JupyterLab: Node 18.12 or later is needed"

# hash prints one digest of the given files' contents.
hash() { (cd "$lab" && cat "$@") | sha256sum | cut -d' ' -f1; }

lock_sum=$(hash package.json package-lock.json)
lock_stamp="$lab/node_modules/.perceptron-lock.sha256"
if [[ $force == 0 && -f $lock_stamp && $(cat "$lock_stamp") == "$lock_sum" ]]; then
	say "JupyterLab: npm packages current (lab/node_modules)"
else
	say "JupyterLab: installing npm packages (npm ci, exact versions of lab/package-lock.json; a few minutes the first time)"
	start=$SECONDS
	# npm retries each request itself; a whole new attempt covers a stalled
	# download (seen here: "Idle timeout reached for host").
	for attempt in 1 2 3; do
		(cd "$lab" && npm ci --legacy-peer-deps --no-audit --no-fund --fetch-retries=5 --fetch-timeout=600000 --loglevel=error) && break
		((attempt < 3)) || die "npm ci in lab/ failed 3 times (see the npm errors above)"
		say "JupyterLab: npm ci failed (attempt $attempt of 3); trying again"
	done
	echo "$lock_sum" >"$lock_stamp"
	say "JupyterLab: npm packages installed in $((SECONDS - start)) s"
fi

build_sum=$(hash package.json package-lock.json index.js assets.js rspack.config.js)
build_stamp="$lab/build/.perceptron-build.sha256"
if [[ $force == 0 && -f $build_stamp && -f $lab/build/bundle.js && $(cat "$build_stamp") == "$build_sum" ]]; then
	say "JupyterLab: build current (lab/build)"
else
	say "JupyterLab: building lab/build with rspack (a minute or two)"
	start=$SECONDS
	(cd "$lab" && npm run --silent build)
	echo "$build_sum" >"$build_stamp"
	say "JupyterLab: built in $((SECONDS - start)) s"
fi
