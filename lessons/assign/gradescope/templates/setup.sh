#!/usr/bin/env bash
# Gradescope autograder set-up for {{.Assignment}}, written by
# "go run ./lessons/assign gradescope". Runs once, as root, with the network.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
GO_VERSION={{.GoVersion}}
GO_SHA256={{.GoSHA256}}

apt-get update -q
apt-get install -y -q --no-install-recommends bubblewrap ca-certificates curl unzip util-linux

# Go {{.GoVersion}}, the release go.mod names, as the Go module proxy serves it
# (module golang.org/toolchain), checked by its SHA-256.
curl -fsSL -o /tmp/go.zip "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-amd64.zip"
echo "${GO_SHA256}  /tmp/go.zip" | sha256sum -c -
rm -rf /usr/local/go /tmp/go
unzip -q /tmp/go.zip -d /tmp/go
mv "/tmp/go/golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-amd64" /usr/local/go
chmod a+x /usr/local/go/bin/* /usr/local/go/pkg/tool/linux_amd64/*
rm -rf /tmp/go /tmp/go.zip
export PATH=/usr/local/go/bin:$PATH GOTOOLCHAIN=local

# Every module go.sum names, now: grading runs with GOPROXY=off.
cd "$ROOT/source"
go mod download
# The hidden tests are root's alone (the weaker sandbox level runs each
# test's student process as a uid of its own, which must not read them,
# even where no mount namespace hides them).
chmod -R go-rwx "$ROOT/source"
# Warm the build cache with the blank student notebook (every test fails).
if [ -f "$ROOT/source/lessons/{{.Assignment}}/student.ipynb" ]; then
	sandbox=bwrap
	bwrap --unshare-all --uid 65534 --gid 65534 --ro-bind / / true 2>/dev/null || sandbox=setpriv
	"$ROOT/assign" grade -repo "$ROOT/source" -assignment {{.Assignment}} -sandbox "$sandbox" -accept-weaker \
		-out /tmp/warm "$ROOT/source/lessons/{{.Assignment}}/student.ipynb" >/dev/null || true
	rm -rf /tmp/warm
fi
