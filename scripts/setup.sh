#!/usr/bin/env bash
# setup.sh installs what the lessons need, and only what is missing:
#
#   1. Jupyter, in a Python virtual environment of the repository (.venv):
#      JupyterLab 4.6, Notebook 7, jupyter_server 2, nbclient, nbconvert,
#      JupyterHub 5.5, jupyterhub-idle-culler and nbgitpuller, from PyPI at the
#      exact versions and hashes of scripts/requirements/jupyter.txt (pip install
#      --require-hashes; skipped while .venv matches that file). It is made
#      with Debian's or Ubuntu's own Python (/usr/bin/python3, or
#      LESSONS_PYTHON), whose venv module comes with the apt package
#      python3-venv: set-up installs it (apt-get, as root or through sudo)
#      when it is missing, and says so. The environment's Jupyter server
#      opens new notebooks with the gonb kernel (its
#      etc/jupyter/jupyter_server_config.json), and JupyterLab's completer
#      waits for gopls's first answer, code cells indent with tabs and
#      Shift+Alt+F formats a Go cell (jupyterlab-code-formatter, with the
#      formatter bin/gonbfmt, built from internal/cellfmt)
#      (share/jupyter/lab/settings/overrides.d/perceptron-lessons.json);
#   2. every Go module go.sum names, into Go's module cache (the grader
#      builds offline), and GoNB, goimports and gopls (GoNB's completion and
#      contextual help), built at the versions go.mod pins (its `tool` block)
#      into <repo>/bin, GoNB with our patches (scripts/gonb-patches; apt's
#      patch applies them) and gopls behind its wrapper (scripts/gopls);
#   3. the GoNB kernel ("gonb"), registered for the user running this script:
#      it runs <repo>/bin/gonb-kernel, which puts <repo>/bin and Go's bin
#      directory on the kernel's PATH and writes GoNB's own log to
#      ~/.cache/perceptron-lessons/gonb.log instead of the console;
#   4. the lessons' Go packages, compiled into Go's build cache (scripts/
#      prebuild.sh, with a progress count), so that the first lesson runs warm.
#
# A class on one server (JupyterHub):
#   --system         (or LESSONS_SYSTEM=1) as root, install for every user of
#                    the machine instead of steps 3 and 4: see
#                    scripts/setup-system.sh (what goes where; LESSONS_PREFIX,
#                    default /usr/local/lib/perceptron-lessons, whose venv/ is
#                    then the Jupyter environment) and docs/instructor.md, "A class on
#                    one server". JupyterHub's proxy, configurable-http-proxy,
#                    comes from npm (npm ci: the exact versions of
#                    scripts/requirements/package-lock.json; Debian's nodejs and npm
#                    from apt when node is missing) unless --no-hub (or
#                    LESSONS_NO_HUB=1).
#   --release-solutions LIST  (or LESSONS_RELEASE_SOLUTIONS=LIST) with
#                    --system: the assignments whose solution.ipynb students
#                    get (hw1,hw2; "none" takes them back from the install).
#                    Students never get an assignment's source.ipynb or hidden
#                    tests; the list is kept for the next run without the
#                    flag, and each student's copy gains the solutions at
#                    their server's next start (perceptron-lessons-init).
#
# Optional extras (apt packages, also only when missing):
#   --with-chromium  (or LESSONS_WITH_CHROMIUM=1)  chromium + chromium-driver,
#                    for the browser end-to-end tests (and bubblewrap, the
#                    grader's sandbox, for go test ./lessons/assign);
#   --with-sklearn   (or LESSONS_WITH_SKLEARN=1)   python3-sklearn, the oracle
#                    some scripts compare against (no test needs it).
#   --with-qemu      (or LESSONS_WITH_QEMU=1)      qemu-user, whose qemu-aarch64
#                    runs the arm64 build of the package's bit check
#                    (go test ./perceptron -run TestBuildsAgree).
#   --with-buildah   (or LESSONS_WITH_BUILDAH=1)   buildah, podman and
#                    debootstrap, with which TestDockerImage builds and runs
#                    the Dockerfile (as root; no Docker engine needed).
#   --no-apt         (or LESSONS_NO_APT=1)         never call apt-get: fail with
#                    the command to run instead.
#
# Running it again is cheap and changes nothing that is already in place.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

with_chromium=${LESSONS_WITH_CHROMIUM:-0}
with_sklearn=${LESSONS_WITH_SKLEARN:-0}
with_buildah=${LESSONS_WITH_BUILDAH:-0}
with_qemu=${LESSONS_WITH_QEMU:-0}
no_apt=${LESSONS_NO_APT:-0}
system=${LESSONS_SYSTEM:-0}
no_hub=${LESSONS_NO_HUB:-0}
release_solutions=${LESSONS_RELEASE_SOLUTIONS:-}
while [[ $# -gt 0 ]]; do
	arg=$1
	shift
	case "$arg" in
	--release-solutions) [[ $# -gt 0 ]] || { echo "setup.sh: --release-solutions needs a list: hw1,hw2 or none" >&2; exit 2; }; release_solutions=$1; shift ;;
	--release-solutions=*) release_solutions=${arg#*=} ;;
	--with-chromium) with_chromium=1 ;;
	--with-sklearn) with_sklearn=1 ;;
	--with-buildah) with_buildah=1 ;;
	--with-qemu) with_qemu=1 ;;
	--no-apt) no_apt=1 ;;
	--system) system=1 ;;
	--no-hub) no_hub=1 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "setup.sh: unknown argument $arg (see --help)" >&2; exit 2 ;;
	esac
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin="$repo/bin"
say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }
# gonb_install GONB: GoNB writes its kernel spec (into JUPYTER_DATA_DIR when
# set); its log is shown only if it fails (GoNB would otherwise write it
# into /tmp).
gonb_install() {
	local log
	log=$("$1" --install --force_deps --logtostderr 2>&1) || {
		printf '%s\n' "$log" >&2
		die "$1 --install failed"
	}
}

if [[ $system == 0 && ${EUID:-$(id -u)} -eq 0 && -n ${SUDO_USER:-} && ${SUDO_USER} != root ]]; then
	die "run this script as yourself, not with sudo: it registers the kernel for the user who runs it and calls sudo only for apt-get."
fi

[[ -z $release_solutions || $system == 1 ]] || die "--release-solutions is for the shared install (--system); for nbgitpuller, see scripts/student-release.sh"
# The Go that go.mod asks for (its go line), or later.
go_want=$(sed -n 's/^go \([0-9][0-9.]*\).*/\1/p' "$repo/go.mod" | head -n 1)
command -v go >/dev/null 2>&1 || die "go is not on PATH. The lessons need Go $go_want or later (go.mod): install it from https://go.dev/dl/ and add its bin directory to PATH."
go_have=$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null | sed -n 's/^go\([0-9][0-9.]*\).*/\1/p')
if [[ -z $go_have ]] || [[ $(printf '%s\n%s\n' "$go_want" "$go_have" | sort -V | head -n 1) != "$go_want" ]]; then
	die "$(command -v go) is Go ${go_have:-of an unknown version}; the lessons need Go $go_want or later (go.mod's go line). Install it from https://go.dev/dl/ and put its bin directory first on PATH."
fi
say "Go: $(command -v go) (go$go_have; go.mod needs $go_want or later)"
goroot=$(go env GOROOT)
gobin=$(go env GOBIN)
[[ -n $gobin ]] || gobin="$(go env GOPATH | cut -d: -f1)/bin"

# --- 1. system packages and the Jupyter environment ---------------------------

lock="$repo/scripts/requirements/jupyter.txt"
prefix=${LESSONS_PREFIX:-/usr/local/lib/perceptron-lessons}
if [[ $system == 1 ]]; then
	venv="$prefix/venv"
else
	venv="$repo/.venv"
fi
# The Python the environment is made from: LESSONS_PYTHON, else the
# distribution's own /usr/bin/python3 (never a pyenv or conda python3 that
# happens to be first on PATH: the environment must outlive it).
py_base=${LESSONS_PYTHON:-/usr/bin/python3}
# venv_ok: the base Python is 3.10 or later (JupyterHub 5.5 and JupyterLab 4.6
# need it) and can make a virtual environment with pip (Debian and Ubuntu
# ship venv's ensurepip in the package python3-venv).
venv_ok() {
	[[ -x $py_base ]] && "$py_base" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1
}

apt_pkgs=()
if venv_ok; then
	say "Python for the Jupyter environment: $py_base ($("$py_base" --version 2>&1))"
elif [[ -n ${LESSONS_PYTHON:-} ]]; then
	die "LESSONS_PYTHON=$LESSONS_PYTHON cannot make a virtual environment: Python 3.10 or later with the venv and ensurepip modules is needed"
else
	[[ -x /usr/bin/python3 ]] || apt_pkgs+=(python3)
	apt_pkgs+=(python3-venv)
fi
if [[ $with_chromium == 1 ]]; then
	if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
		say "chromium: found ($(command -v chromium))"
	else
		apt_pkgs+=(chromium chromium-driver)
	fi
	# bubblewrap: the grader's sandbox, which go test ./lessons/assign uses.
	command -v bwrap >/dev/null 2>&1 || apt_pkgs+=(bubblewrap)
fi
# patch: set-up applies our patches to GoNB's source (step 2).
command -v patch >/dev/null 2>&1 || apt_pkgs+=(patch)
if [[ $with_sklearn == 1 ]]; then
	if /usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1; then
		say "scikit-learn: found (/usr/bin/python3)"
	else
		apt_pkgs+=(python3-sklearn)
	fi
fi
if [[ $with_qemu == 1 ]]; then
	if command -v qemu-aarch64 >/dev/null 2>&1; then
		say "qemu-aarch64: found ($(command -v qemu-aarch64))"
	else
		apt_pkgs+=(qemu-user)
	fi
fi
# --system: JupyterHub's proxy runs on node and comes from npm.
if [[ $system == 1 && $no_hub == 0 ]]; then
	if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
		say "node: found ($(command -v node), $(node --version))"
	else
		apt_pkgs+=(nodejs npm)
	fi
fi

if [[ $with_buildah == 1 ]]; then
	for tool in buildah podman debootstrap; do
		if PATH=$PATH:/usr/sbin:/sbin command -v "$tool" >/dev/null 2>&1; then
			say "$tool: found"
		else
			apt_pkgs+=("$tool")
		fi
	done
fi

if ((${#apt_pkgs[@]} > 0)); then
	apt_cmd="apt-get update && apt-get install -y --no-install-recommends ${apt_pkgs[*]}"
	sudo=""
	if [[ ${EUID:-$(id -u)} -ne 0 ]]; then
		if command -v sudo >/dev/null 2>&1 && { sudo -n true 2>/dev/null || [[ -t 0 ]]; }; then
			sudo="sudo"
		else
			no_apt=1
		fi
	fi
	if [[ $no_apt == 1 ]] || ! command -v apt-get >/dev/null 2>&1; then
		run="sudo sh -c '$apt_cmd'"
		[[ ${EUID:-$(id -u)} -eq 0 ]] && run=$apt_cmd
		hint=""
		venv_ok || hint="
  (Without apt: set LESSONS_PYTHON to a Python 3.10 or later that has the venv module.)"
		die "missing system packages: ${apt_pkgs[*]}
  Install them as root, then run this script again:
    $run$hint"
	fi
	say "installing with apt-get: ${apt_pkgs[*]}"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${apt_pkgs[@]}"
	say "installed: ${apt_pkgs[*]}"
	venv_ok || die "$py_base still cannot make a virtual environment: Python 3.10 or later with venv and ensurepip is needed"
fi

# The Jupyter environment: made once, and made again only when the lock file
# or the base Python changes. pip's cache (~/.cache/pip) makes that quick on a
# machine that made one before.
venv_stamp="$venv/.perceptron-lessons-lock"
venv_sum="$(sha256sum "$lock" | cut -d' ' -f1) $("$py_base" -c 'import sys; print(sys.version.split()[0])')"
if [[ -f $venv_stamp && $(cat "$venv_stamp") == "$venv_sum" && -x $venv/bin/python ]]; then
	say "Jupyter environment: current ($venv, scripts/requirements/jupyter.txt)"
else
	if [[ -e $venv && ! -f $venv/pyvenv.cfg ]]; then
		die "$venv exists and is not a Python virtual environment: move it away and run this script again"
	fi
	say "Jupyter environment: installing scripts/requirements/jupyter.txt into $venv (pip, from PyPI; a minute or two the first time)"
	start=$SECONDS
	# --clear: a new environment each time the pins move, so that nothing of
	# an older set stays behind.
	"$py_base" -m venv --clear "$venv"
	# The distribution's certificate authorities rather than pip's own
	# copy: they include those a site adds (a proxy that inspects TLS), as
	# Debian's update-ca-certificates installs them. PIP_CERT, or pip's own
	# configuration, wins.
	pip_cert=()
	if [[ -z ${PIP_CERT:-} && -r /etc/ssl/certs/ca-certificates.crt ]] && ! "$venv/bin/python" -m pip config list 2>/dev/null | grep -q '\.cert='; then
		pip_cert=(--cert /etc/ssl/certs/ca-certificates.crt)
	fi
	"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps ${pip_cert[@]+"${pip_cert[@]}"} -r "$lock" ||
		die "pip could not install scripts/requirements/jupyter.txt into $venv (above)"
	"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null ||
		die "the Jupyter environment $venv is inconsistent: $("$venv/bin/python" -m pip check --disable-pip-version-check)"
	echo "$venv_sum" >"$venv_stamp"
	venv_installed=1
	say "Jupyter environment: installed in $((SECONDS - start)) s"
fi
# rfc3987-syntax (and lark, which only it uses) leave the environment: the
# lock has them because jupyter-events asks for jsonschema[format-nongpl],
# and jsonschema imports rfc3987-syntax, when it is there, to check the
# "iri" format, which no Jupyter schema uses; that import builds 35 Earley
# parsers, 2 s of CPU in every Python that imports jsonschema, so in every
# Jupyter server's start (docs/instructor.md, "The login storm";
# python-jsonschema/jsonschema#1428). Without it jsonschema leaves that one
# format unchecked; pip check still passes (extras are not checked).
if "$venv/bin/python" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("rfc3987_syntax") is None)' 2>/dev/null; then
	"$venv/bin/python" -m pip uninstall --quiet --yes --disable-pip-version-check rfc3987-syntax lark ||
		die "pip could not remove rfc3987-syntax and lark from $venv (above)"
	"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null ||
		die "the Jupyter environment $venv is inconsistent without rfc3987-syntax and lark: $("$venv/bin/python" -m pip check --disable-pip-version-check)"
	say "Jupyter environment: removed rfc3987-syntax and lark (2 s of CPU at each Jupyter server's start)"
fi
py="$venv/bin/python"
say "Jupyter: $("$py" -c 'from importlib.metadata import version as v; print(", ".join(n + " " + v(n) for n in ("jupyterlab", "notebook", "jupyter_server", "jupyterhub", "nbgitpuller")))') ($venv)"
# jupyter_server's settings for the lessons, in the environment's own
# configuration file, which JupyterLab, Notebook 7 and JupyterHub's
# single-user servers all read: new notebooks open with the gonb kernel; and
# the status messages of kernel_info requests count, so that JupyterLab shows
# a started GoNB kernel as idle (JupyterLab ignores the status messages of
# untracked requests, and GoNB answers JupyterLab's only other request at
# connection, history_request, without one). The rest of the list is
# jupyter_server's default.
default_kernel="$venv/etc/jupyter/jupyter_server_config.json"
default_kernel_json='{
 "MappingKernelManager": {
  "default_kernel_name": "gonb",
  "untracked_message_types": ["comm_info_request", "comm_info_reply", "shutdown_request", "shutdown_reply",
   "interrupt_request", "interrupt_reply", "debug_request", "debug_reply", "stream", "display_data",
   "update_display_data", "execute_input", "execute_result", "error", "status", "clear_output",
   "debug_event", "input_request", "input_reply"]
 }
}'
if [[ ! -f $default_kernel || $(cat "$default_kernel") != "$default_kernel_json" ]]; then
	mkdir -p "$(dirname "$default_kernel")"
	printf '%s\n' "$default_kernel_json" >"$default_kernel"
	chmod 644 "$default_kernel"
fi
# One kernel per notebook (a double-click in Notebook 7 opened three): the
# session manager of scripts/jupyter/jupyter_server_config.py, in the same
# configuration folder, which every server of the environment loads.
server_py="$venv/etc/jupyter/jupyter_server_config.py"
if ! cmp -s "$repo/scripts/jupyter/jupyter_server_config.py" "$server_py"; then
	install -D -m 644 "$repo/scripts/jupyter/jupyter_server_config.py" "$server_py"
fi
# JupyterLab's and Notebook 7's settings for the lessons, in the
# environment's own settings folder (share/jupyter/lab/settings/, which both
# read, and JupyterHub's single-user servers too), as a file of their
# overrides.d/ so that an overrides.json of the site's own still applies
# after it. The completer waits up to 30 s for the kernel's completions
# (providerTimeout, 1 s by default, drops every later reply, and gopls's
# first answer in a new kernel, while it loads the module, takes 5 to 16 s
# under load), so that the first Tab completes. Code cells (Go, in every
# lesson) indent with a tab, as gofmt does; the rest of codeCellConfig is
# its default. The format command (jupyterlab-code-formatter: Edit menu,
# command palette, and Shift+Alt+F, VS Code's key for it) formats a Go cell
# with gonbfmt (internal/cellfmt, built into the environment's bin/ below;
# jupyter_server_config.py registers it): gofmt's format, magics kept.
lab_settings="$venv/share/jupyter/lab/settings/overrides.d/perceptron-lessons.json"
lab_settings_json='{
 "@jupyterlab/completer-extension:manager": {
  "providerTimeout": 30000
 },
 "@jupyterlab/notebook-extension:tracker": {
  "codeCellConfig": {"lineNumbers": false, "lineWrap": false, "indentUnit": "Tab"}
 },
 "jupyterlab_code_formatter:settings": {
  "preferences": {"default_formatter": {"go": "gonbfmt"}}
 },
 "@jupyterlab/shortcuts-extension:shortcuts": {
  "shortcuts": [
   {"command": "jupyterlab_code_formatter:format", "keys": ["Shift Alt F"], "selector": ".jp-Notebook"}
  ]
 }
}'
if [[ ! -f $lab_settings || $(cat "$lab_settings") != "$lab_settings_json" ]]; then
	mkdir -p "$(dirname "$lab_settings")"
	printf '%s\n' "$lab_settings_json" >"$lab_settings"
	chmod 644 "$lab_settings"
fi

# --- 2. The Go modules, GoNB, goimports and gopls -------------------------------

mkdir -p "$bin"
# Every module go.sum names, into the Go module cache: the assignments' grader
# builds offline (GOPROXY=off), and a submission that imports a package no
# module provides makes the go command read the go.mod of every module in the
# graph, including those no lesson builds (without them it reports a missing
# module instead of the import). Quick when they are there already.
say "downloading the Go modules go.sum names (Go module cache: $(go env GOMODCACHE))"
(cd "$repo" && go mod download)
gonb_version=$(cd "$repo" && go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)
tools_version=$(cd "$repo" && go list -m -f '{{.Version}}' golang.org/x/tools)
gopls_version=$(cd "$repo" && go list -m -f '{{.Version}}' golang.org/x/tools/gopls)
# GoNB finds gopls on the kernel's PATH (exec.LookPath) and runs it in its
# temporary module folder: Tab completes and Shift+Tab (or the contextual help
# panel) shows a name's doc comment. Without it GoNB runs, with no help.
# GoNB is built with our patches (scripts/gonb-patches/*.patch, each says
# what and why; README.md there): its source is copied out of the module
# cache, patched, and built in its place (a replace directive in a copy of
# go.mod), so that every other module stays at go.mod's version.
say "building gonb $gonb_version (with scripts/gonb-patches), goimports (golang.org/x/tools $tools_version) and gopls $gopls_version, pinned by go.mod, into bin/"
gonb_dir=$(cd "$repo" && go list -m -f '{{.Dir}}' github.com/janpfeifer/gonb)
[[ -d $gonb_dir ]] || die "GoNB's source is not in the module cache (go list -m -f '{{.Dir}}' github.com/janpfeifer/gonb gave '$gonb_dir')"
gonb_patched=$(mktemp -d "${TMPDIR:-/tmp}/gonb-patched.XXXXXX")
trap 'rm -rf "$gonb_patched"' EXIT
cp -R "$gonb_dir/." "$gonb_patched/src"
chmod -R u+w "$gonb_patched/src"
for p in "$repo"/scripts/gonb-patches/*.patch; do
	patch -s -p1 -N -d "$gonb_patched/src" <"$p" >"$gonb_patched/patch.log" 2>&1 ||
		die "patch $(basename "$p") does not apply to GoNB $gonb_version ($gonb_dir): $(cat "$gonb_patched/patch.log") (scripts/gonb-patches/README.md)"
done
# The patched copy replaces the module in a copy of go.mod (go build
# -modfile), with go.sum's hashes for everything else.
cp "$repo/go.mod" "$gonb_patched/go.mod"
cp "$repo/go.sum" "$gonb_patched/go.sum"
(cd "$repo" && go mod edit -replace "github.com/janpfeifer/gonb=$gonb_patched/src" "$gonb_patched/go.mod" &&
	go build -modfile "$gonb_patched/go.mod" -o "$bin/" github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
# gopls is bin/gopls.bin, run by the wrapper bin/gopls (scripts/gopls: the
# memory limit, no telemetry child, an exit after its kernel).
(cd "$repo" && go build -o "$bin/gopls.bin" golang.org/x/tools/gopls)
install -m 755 "$repo/scripts/gopls" "$bin/gopls"
# gonbfmt formats a Go cell for the format command: in the environment's
# bin/, beside the Python of the Jupyter server that runs it.
(cd "$repo" && go build -o "$venv/bin/gonbfmt" ./internal/cellfmt/gonbfmt)

# bin/jupyter-python runs the Jupyter environment's Python, whatever python3
# is first on PATH; scripts/lessons.sh and the end-to-end tests use it.
wrapper="#!/bin/sh
# Written by scripts/setup.sh: the Python that runs Jupyter for these lessons.
exec \"$py\" \"\$@\"
"
if [[ ! -f $bin/jupyter-python ]] || [[ $(cat "$bin/jupyter-python") != "${wrapper%$'\n'}" ]]; then
	printf '%s' "$wrapper" >"$bin/jupyter-python"
	chmod +x "$bin/jupyter-python"
fi

# --- system-wide set-up (--system) ---------------------------------------------

if [[ $system == 1 ]]; then
	# shellcheck source=setup-system.sh
	. "$repo/scripts/setup-system.sh"
	exit 0
fi

# --- 3. the gonb kernel ---------------------------------------------------------

# bin/gonb-kernel starts GoNB with bin/ (gonb, goimports, gopls) and Go's bin
# directories in front of PATH, and GoNB's log in the user's cache folder
# (never in the repository, which another user may share): only fatal errors,
# such as `go` missing from PATH, reach the console. --force_deps only
# matters to GoNB's --install, which checks goimports and gopls on the PATH
# of whoever installs (bin/ has both). Both -log_file and
# -extra_log are needed: GoNB v0.11.4 replaces klog's file output with the
# -extra_log file, and with a nil file when that flag is not given. Flags
# after the wrapper's own (the kernel spec's, a test's) win. Cells link with
# -ldflags=-s (no symbol table, no DWARF: a third less CPU a build; a panic
# still names the cell's lines) and build with -mod=mod (a cell's build adds
# the requirements it needs, so a setup cell with %noautoget skips GoNB's
# `go get` of every cell; docs/performance.md) and report every compile
# error (-gcflags=-e: the compiler stops after 10 otherwise, "too many
# errors"; it applies to the cell's package only, so the build cache's
# entries of the packages it imports stay the same); the user's GOFLAGS win.
kernel_wrapper="#!/bin/sh
# Written by scripts/setup.sh: starts the GoNB kernel of these lessons.
PATH=\"$bin:$goroot/bin:$gobin:\$PATH\"
GOFLAGS=\"-gcflags=-e -ldflags=-s -mod=mod \$(go env GOFLAGS)\"
export PATH GOFLAGS
log_dir=\"\${XDG_CACHE_HOME:-\$HOME/.cache}/perceptron-lessons\"
mkdir -p \"\$log_dir\" 2>/dev/null && [ -w \"\$log_dir\" ] || { log_dir=\"\${TMPDIR:-/tmp}/perceptron-lessons-\$(id -u)\"; mkdir -p -m 700 \"\$log_dir\"; }
exec \"$bin/gonb\" --force_deps --logtostderr=false --alsologtostderr=false --stderrthreshold=FATAL \\
	--log_file=\"\$log_dir/gonb.log\" --extra_log=\"\$log_dir/gonb.log\" \"\$@\"
"
if [[ ! -f $bin/gonb-kernel ]] || [[ $(cat "$bin/gonb-kernel") != "${kernel_wrapper%$'\n'}" ]]; then
	printf '%s' "$kernel_wrapper" >"$bin/gonb-kernel"
	chmod +x "$bin/gonb-kernel"
fi

say "registering the Jupyter kernel \"gonb\" for user $(id -un)"
gonb_install "$bin/gonb"

# GoNB writes kernel.json with its own path: point it at the wrapper.
"$py" - "$bin/gonb-kernel" <<'PY'
import json, sys
from jupyter_client.kernelspec import KernelSpecManager
spec_dir = KernelSpecManager().get_kernel_spec("gonb").resource_dir
path = spec_dir + "/kernel.json"
with open(path) as f:
    spec = json.load(f)
spec["argv"] = [sys.argv[1], "--kernel", "{connection_file}"]
spec["env"] = {}
spec["display_name"] = "Go (gonb)"
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
    f.write("\n")
print("setup: kernel spec", path)
PY

# --- 4. the lessons' packages, compiled ahead --------------------------------------

bash "$repo/scripts/prebuild.sh" "$repo"

say "done. Kernels: $("$py" -m jupyter_client.kernelspecapp list 2>/dev/null | sed -n 's/^ *\([^ ]*\) .*/\1/p' | grep -v '^Available' | tr '\n' ' ')"
