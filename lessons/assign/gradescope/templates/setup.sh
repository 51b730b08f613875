#!/usr/bin/env bash
# Gradescope autograder set-up for {{.Assignment}}, written by
# "go run ./lessons/assign gradescope".
#
# Where it runs (Gradescope's "Autograder Specifications",
# https://gradescope-autograders.readthedocs.io/en/latest/specs/, and the
# Dockerfile of their manual_docker sample): Gradescope unzips the autograder
# zip into /autograder/source, copies run_autograder to
# /autograder/run_autograder and runs `bash /autograder/source/setup.sh` once,
# as root, with the network, while it builds the autograder's Docker image on
# its Ubuntu base image. Every submission is then graded in a fresh container
# of that image.
#
# What it changes on the machine (meant for that throwaway image; do NOT run
# it on a workstation: it refuses to run anywhere but /autograder/source):
#   1. apt-get installs bubblewrap, ca-certificates, curl, unzip, util-linux;
#   2. puts Go {{.GoVersion}} in /autograder/go, a folder of its own: no other
#      Go (/usr/local/go, a distribution's golang) is touched or removed;
#   3. fills root's Go module cache and build cache (/root/go, /root/.cache/go-build)
#      with what grading needs: grading runs offline;
#   4. makes /autograder/source root's alone (chmod -R go-rwx): the hidden
#      tests are there;
#   5. in a throwaway container only (detected as run_autograder does: root,
#      this script at /autograder/source/setup.sh, and Docker's /.dockerenv or
#      podman's /run/.containerenv), removes write permission for "others" from
#      every folder and file of the image (/tmp, /var/tmp, /run/lock...), so
#      that a test's process, which runs as a uid of its own, can write only
#      in its own folder. Root, which runs everything else there, is not bound
#      by these permissions.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$SRC")
GO_VERSION={{.GoVersion}}
GO_SHA256={{.GoSHA256}}
say() { printf 'setup.sh: %s\n' "$*"; }
# lockdown removes write permission for others from every folder, file,
# socket and pipe of every file system but the kernel's (proc, sysfs,
# cgroup, devpts...): /dev/null and the other devices keep theirs.
lockdown() {
	local dev mnt fstype rest
	while read -r dev mnt fstype rest; do
		case "$fstype" in proc | sysfs | cgroup | cgroup2 | devpts | securityfs | debugfs | tracefs | fusectl | configfs | bpf | pstore | binfmt_misc | hugetlbfs | autofs | nsfs) continue ;; esac
		mnt=$(printf '%b' "$mnt")
		find "$mnt" -xdev \( -type d -o -type f -o -type s -o -type p \) -perm -0002 -exec chmod o-w {} + 2>/dev/null || true
	done </proc/self/mounts
}

if [ "$(id -u)" != 0 ]; then
	say "must run as root, as Gradescope runs it"; exit 1
fi
if [ "$SRC" != /autograder/source ]; then
	say "this is Gradescope's set-up: it runs from /autograder/source/setup.sh (the zip unpacked there), not from $SRC"
	exit 1
fi
throwaway=false
if [ "$SRC" = /autograder/source ] && { [ -e /.dockerenv ] || [ -e /run/.containerenv ]; }; then
	throwaway=true
fi

say "installing with apt-get: bubblewrap ca-certificates curl unzip util-linux"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends bubblewrap ca-certificates curl unzip util-linux

# Go {{.GoVersion}}, the release go.mod's toolchain line names, as the Go module
# proxy serves it: module golang.org/toolchain is Go's official linux-amd64
# release, the download the go command itself makes for GOTOOLCHAIN switches.
# The same URL answers on Gradescope (the internet) and on machines that reach
# only package registries; GOPROXY (its first http(s) entry) points it at a
# mirror. Whatever serves it, the SHA-256 below decides: the gradescope command
# computed it from the zip the go command verified with the Go checksum database.
proxy=https://proxy.golang.org
for p in $(printf '%s' "${GOPROXY:-}" | tr ',|' '  '); do
	case "$p" in http://* | https://*) proxy=${p%/}; break ;; esac
done
say "installing Go $GO_VERSION in $ROOT/go from $proxy (module golang.org/toolchain), SHA-256 $GO_SHA256"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/go.zip" "$proxy/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-amd64.zip"
echo "${GO_SHA256}  $tmp/go.zip" | sha256sum -c -
unzip -q "$tmp/go.zip" -d "$tmp/go"
rm -rf "$ROOT/go"
mv "$tmp/go/golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-amd64" "$ROOT/go"
chmod -R a+rX "$ROOT/go"
chmod a+x "$ROOT/go/bin/"* "$ROOT/go/pkg/tool/linux_amd64/"*
export PATH="$ROOT/go/bin:$PATH" GOTOOLCHAIN=local GOFLAGS=-mod=readonly
go version

# The modules that the bundled packages and any allowed import (gonum,
# gonum/plot) need, now: grading runs with GOPROXY=off.
say "downloading the Go modules grading needs into $(go env GOMODCACHE)"
(cd "$SRC/repo" && go list -deps ./... gonum.org/v1/gonum/... gonum.org/v1/plot/... >/dev/null)

say "making $SRC root's alone (chmod -R go-rwx): it holds the hidden tests"
chmod -R go-rwx "$SRC"

if $throwaway; then
	say "throwaway container (/.dockerenv or /run/.containerenv): removing write permission for others everywhere"
	lockdown
fi

# Warm the build cache with the blank student notebook (every test fails
# "not implemented"), at the level run_autograder will use; it must grade.
say "warming the build cache: grading the blank student notebook"
"$SRC/assign" grade -repo "$SRC/repo" -assignment {{.Assignment}} -sandbox auto -accept-weaker \
	-out "$tmp/warm" -results "$tmp/warm.json" "$SRC/repo/lessons/{{.Assignment}}/student.ipynb" >"$tmp/warm.log" 2>&1 || {
	cat "$tmp/warm.log"; say "the warm-up grade failed"; exit 1; }
grep -m1 '^Isolation:' "$tmp/warm/student.report.txt" || true
say "done"
