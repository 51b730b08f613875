#!/usr/bin/env bash
# site.sh builds the lessons' web site into _site/ (not committed): a
# static site of the 11 executed lessons, as committed in notebooks/, that a
# browser opens from a file (_site/index.html) or from any static server
# (for example `python3 -m http.server -d _site`), with no internet and no
# kernel:
#
#   - each lesson's page: its math (KaTeX), every figure with its alt text,
#     the learning goals, the exercises (stubs and checks as text, worked
#     solutions collapsed), the code and its outputs; a table of contents
#     (the lessons, and the sections of the page) and a search of every
#     lesson; a light and a dark theme; readable from 375 px wide up;
#   - the live figures move as in Jupyter, with no kernel: every position
#     of every slider and choice is drawn ahead, by each live cell's own Go
#     code run natively (scripts/site/live.go), and the controls answer to
#     the mouse and to the keyboard (arrows, Home, End);
#   - each page links to a live copy: Binder (JupyterLab) and, once an
#     instructor sets the class hub's address in scripts/site/site.yaml, an nbgitpuller
#     link to the hub; and to the notebook itself.
#
# What it uses: nbconvert (scripts/requirements/jupyter.txt, in .venv: set-up makes
# it when missing), KaTeX from npm (scripts/site/package-lock.json, npm ci;
# Debian's nodejs and npm from apt when node is missing) and Go. Why not
# Jupyter Book 2 / mystmd: scripts/site/main.go.
#
# Usage: bash scripts/site.sh [--config FILE] [--out DIR] [--jobs N]
#   --config FILE  the site's configuration (default scripts/site/site.yaml)
#   --out DIR      where to build it (default _site; made anew)
#   --jobs N       processes drawing the live figures at a time (default: the CPUs)
#   --no-cache     draw every frame again: by default the frames of the last
#                  build are kept (~/.cache/perceptron-lessons/site-frames,
#                  about 70 MB) and a build whose live cells, packages and Go
#                  are unchanged takes them from there
#   --no-apt       (or LESSONS_NO_APT=1) never call apt-get: fail with the command to run
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
say() { printf 'site: %s\n' "$*"; }
die() { printf 'site: ERROR: %s\n' "$*" >&2; exit 1; }

args=()
no_apt=${LESSONS_NO_APT:-0}
while [[ $# -gt 0 ]]; do
	case "$1" in
	--config | --out | --jobs)
		[[ $# -ge 2 ]] || die "$1 needs a value"
		args+=("-${1#--}" "$2")
		shift 2
		;;
	--config=* | --out=* | --jobs=*) args+=("-${1#--}"); shift ;;
	--no-apt) no_apt=1; shift ;;
	--no-cache) args+=(-cache ""); shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done

command -v go >/dev/null 2>&1 || die "Go is missing: install Go 1.26 (README, Quick start)"

# nbconvert, at the pins of scripts/requirements/jupyter.txt.
if ! .venv/bin/python -c 'import nbconvert' >/dev/null 2>&1; then
	say "no Jupyter environment in .venv: running scripts/setup.sh"
	setup_args=()
	[[ $no_apt == 1 ]] && setup_args+=(--no-apt)
	bash scripts/setup.sh "${setup_args[@]}"
fi

# KaTeX, at the pins of scripts/site/package-lock.json.
if ! command -v npm >/dev/null 2>&1; then
	cmd="apt-get update && apt-get install -y --no-install-recommends nodejs npm"
	if [[ $no_apt == 1 || ${EUID:-$(id -u)} -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
		die "npm is missing (it installs KaTeX, which renders the math). Install it as root, then run this script again:
    $cmd"
	fi
	say "installing nodejs and npm from apt (for KaTeX)"
	sh -c "$cmd"
fi
# npm ci again only when the lock file changed since the last one.
if ! cmp -s scripts/site/package-lock.json scripts/site/node_modules/.site-lock 2>/dev/null; then
	say "npm ci in scripts/site (KaTeX)"
	(cd scripts/site && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error &&
		cp package-lock.json node_modules/.site-lock)
fi

bin_dir=$(mktemp -d); trap 'rm -rf "$bin_dir"' EXIT
(cd scripts/site && go build -o "$bin_dir/site" .)
"$bin_dir/site" -python .venv/bin/python -katex scripts/site/node_modules/katex/dist "${args[@]}"
