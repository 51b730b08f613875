#!/usr/bin/env bash
# prebuild.sh compiles the lessons' Go code ahead of time, so that the first
# lesson runs warm: every package of the module and all their dependencies
# (gonum, gonum/plot, GoNB's gonbui, the standard library) go into Go's build
# cache (GOCACHE), where GoNB's cell builds find them.
#
# Usage: scripts/prebuild.sh [MODULE_DIR]   (default: the repository)
#
# GoNB builds each cell with a plain `go build` in a temporary module that
# requires this one (the notebooks' setup cell), with the kernel's environment.
# Go keys a compiled package by its source, its directory, the compiler and its
# flags, none of which depend on that temporary module, so the packages built
# here are the ones the cells reuse. Only the cell's own code is compiled and
# linked at run time. The same Go, GOCACHE, GOMODCACHE and GOFLAGS as the
# kernel's must be in effect (scripts/setup.sh sees to that).
#
# While it compiles it says so and counts the packages: on a terminal in one
# line, otherwise every 25 packages. When the cache is already warm it takes
# about a second and says so.
set -euo pipefail

dir=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$dir"
say() { printf 'setup: %s\n' "$*"; }

# Every package a build of ./... compiles (the standard library's included).
total=$(go list -deps ./... | wc -l)
start=$(date +%s)
n=0
tty=0
[[ -t 1 ]] && tty=1
announced=0
# `go build -v` prints each package as it compiles it (nothing comes from the
# cache silently); stderr carries the same names and any error.
while IFS= read -r line; do
	if [[ $line != *" "* && $line != *:* ]]; then
		if ((announced == 0)); then
			say "compiling the lessons' Go packages into the Go build cache ($(go env GOCACHE)),"
			say "once, so that the first lesson runs warm (about 1 to 3 minutes on a new machine)"
			announced=1
		fi
		n=$((n + 1))
		if ((tty)); then
			printf '\rsetup: compiled %d of at most %d packages (%s)\033[K' "$n" "$total" "$line"
		elif ((n % 25 == 0)); then
			say "compiled $n of at most $total packages"
		fi
	else
		printf '%s\n' "$line" >&2
	fi
done < <(go build -v ./... 2>&1)
((tty && announced)) && printf '\n'
# The build's exit status, from a second build (instant once all is compiled);
# its errors were printed above.
if ! go build ./... >/dev/null 2>&1; then
	echo "setup: ERROR: compiling the lessons' Go packages failed (above)" >&2
	exit 1
fi
if ((announced)); then
	say "compiled $n packages in $(($(date +%s) - start)) s: the lessons will run warm"
else
	say "Go build cache: warm (all $total packages of the lessons are compiled)"
fi
