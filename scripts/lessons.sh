#!/usr/bin/env bash
# lessons.sh sets up (scripts/setup.sh) and starts Jupyter Notebook 7 (from
# the pinned Jupyter environment .venv) on the repository, opening notebooks/ (the lessons) with the GoNB kernel; lessons/
# (the assignments) is one folder up in the same server. It prints the URL with
# its token. On the first run set-up also compiles the lessons' Go packages
# (scripts/prebuild.sh: 1 to 3 minutes, with a progress count) before the
# server starts, so that the first lesson runs warm.
#
# The student works in my-lessons/, a git-ignored working copy of the
# lessons (notebooks/*.ipynb, the assignments' student.ipynb and
# docs/student.md) inside the repository, so that a notebook's setup cell
# still finds go.mod above it and `git pull` never conflicts with a run
# lesson. Every start makes the copy or brings into it what `git pull`
# changed, as a class server's perceptron-lessons-init does (the same
# function, scripts/system/lessons-sync.sh): a file the student never
# edited is replaced by its new version; an edited one is kept, its new
# version written beside it as NAME.updated-YYYY-MM-DD.ipynb.
#
# Usage: scripts/lessons.sh [--lab] [--port N] [--ip ADDR] [--no-browser] [--copy-only] [setup.sh flags]
#   --lab         serve JupyterLab 4.6 instead of Notebook 7 (the same
#                 server, notebooks and kernel)
#   --port N      port to listen on (default: $PORT, else 8888; Jupyter picks
#                 the next free one if it is taken)
#   --ip ADDR     address to bind (default 127.0.0.1; use 0.0.0.0 in Docker)
#   --no-browser  do not open a web browser (also: NO_BROWSER=1)
#   --copy-only   make or update my-lessons/ and stop (no set-up, no server)
# Any other flag is passed to scripts/setup.sh (e.g. --no-apt).
set -euo pipefail

port=${PORT:-8888}
ip=${IP:-127.0.0.1}
browser=1
lab=0
copy_only=0
[[ ${NO_BROWSER:-0} == 1 ]] && browser=0
setup_args=()
while (($# > 0)); do
	case "$1" in
	--port) port=${2:?--port needs a value}; shift ;;
	--port=*) port=${1#--port=} ;;
	--ip) ip=${2:?--ip needs a value}; shift ;;
	--ip=*) ip=${1#--ip=} ;;
	--no-browser) browser=0 ;;
	--lab) lab=1 ;;
	--copy-only) copy_only=1 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) setup_args+=("$1") ;;
	esac
	shift
done
[[ $port =~ ^[0-9]+$ ]] || { echo "lessons.sh: --port must be a number, got $port" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The working copy, made or brought up to date (the header says how).
say() { printf 'lessons.sh: %s\n' "$*"; }
# shellcheck source=system/lessons-sync.sh
. "$repo/scripts/system/lessons-sync.sh"
mine=my-lessons
copy_lessons() {
	local list first=0
	list=$(mktemp "${TMPDIR:-/tmp}/lessons-list.XXXXXX")
	(cd "$repo" && { ls notebooks/*.ipynb lessons/*/student.ipynb docs/student.md; } | sed 's|^|./|') >"$list"
	[[ -e $repo/$mine/.perceptron-lessons-copied ]] || first=1
	((first == 0)) || say "copying the lessons into $mine/, your working copy (git-ignored: git pull updates the lessons, the next start of lessons.sh brings the updates into it)"
	lessons_sync "$repo" "$repo/$mine" $first "$list"
	rm -f "$list"
}
at=$mine/
if mkdir -p "$repo/$mine" 2>/dev/null && [[ -w $repo/$mine ]]; then
	copy_lessons
else
	# A read-only clone: the lessons open where they are.
	say "could not make $repo/$mine; opening the lessons in notebooks/ instead" >&2
	at=
fi
((copy_only == 0)) || exit 0

bash "$repo/scripts/setup.sh" ${setup_args[@]+"${setup_args[@]}"}

# Without a display there is no browser to open.
if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} && $(uname) == Linux ]]; then browser=0; fi

# A fixed token, printed below, so the URL is known before Jupyter starts.
token=${JUPYTER_TOKEN:-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}
host=$ip
[[ $ip == 0.0.0.0 ]] && host=127.0.0.1
echo
if ((lab == 1)); then
	# ?reset: start from a clean workspace, not the notebooks left open last time.
	echo "Lessons (JupyterLab): http://$host:$port/lab/tree/$atnotebooks/00_start_here.ipynb?reset&token=$token"
else
	echo "Lessons: http://$host:$port/tree/$atnotebooks?token=$token"
	echo "First notebook: http://$host:$port/notebooks/$atnotebooks/00_start_here.ipynb?token=$token"
fi
echo "(If port $port is taken, Jupyter takes the next free one and prints its URL below.)"
echo "Stop the server with Ctrl-C."
echo

# The server's root is the repository, so my-lessons/notebooks/ and
# my-lessons/lessons/ are both reachable; each notebook's first cell finds
# the module from its own folder (go.mod is above my-lessons/).
cd "$repo"
export JUPYTER_TOKEN=$token # read by jupyter_server
args=(--ip="$ip" --port="$port")
((browser == 1)) || args+=(--no-browser)
if [[ ${EUID:-$(id -u)} -eq 0 ]]; then args+=(--allow-root); fi
export PYDEVD_DISABLE_FILE_VALIDATION=1
# The environment's own modules (`jupyter notebook` would look the command up
# on PATH, where another Jupyter may come first).
app=notebook
((lab == 1)) && app=jupyterlab
exec "$repo/bin/jupyter-python" -m "$app" --ServerApp.root_dir="$repo" "${args[@]}"
