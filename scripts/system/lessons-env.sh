# lessons-env.sh: the environment of Go and GoNB for every user of a shared
# install of the perceptron lessons (scripts/setup.sh --system). It is sourced
# (POSIX sh) by the kernel wrapper gonb-kernel and by perceptron-lessons-init;
# setup.sh writes @PREFIX@ and @GOROOT@.
LESSONS_PREFIX='@PREFIX@'
# The install's bin first: its go (scripts/system/go) runs the Go of
# @GOROOT@ with the builds' collector off below 256 MiB.
PATH="$LESSONS_PREFIX/bin:@GOROOT@/bin:$PATH"
# The module cache is shared and read-only: it holds every module the lessons
# use, checked against go.sum and sum.golang.org when set-up downloaded them,
# so nothing is downloaded (GOPROXY=off) or looked up (GOSUMDB=off), and
# nothing is written there.
GOMODCACHE="$LESSONS_PREFIX/gomodcache"
GOPROXY=off
GOSUMDB=off
GOTOOLCHAIN=local
# Each user's own build cache (Go's default place unless GOCACHE is set); the
# first kernel copies the shared prebuilt one into it (lessons_seed_gocache).
GOCACHE="${GOCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/go-build}"
export PATH GOMODCACHE GOPROXY GOSUMDB GOTOOLCHAIN GOCACHE LESSONS_PREFIX
# The flags of every build of the lessons' Go code in the shared install:
# the kernels' cells, perceptron-lessons-init's build and set-up's prebuild
# of the shared cache. -trimpath keys a compiled package by its module path
# rather than its folder, so the packages of each user's own copy of the
# lessons are the prebuilt ones (without it every student's first server
# start compiled the module again: 2 s of CPU each, at the moment a whole
# class logs in); a panic then names a cell's file as gonb_ID/main.go.
# -ldflags=-s and -mod=mod: see the kernel wrapper of scripts/setup.sh.
# The user's own GOFLAGS come after them, and win.
LESSONS_GOFLAGS="-trimpath -ldflags=-s -mod=mod"
GOFLAGS="$LESSONS_GOFLAGS $(go env GOFLAGS)"
export GOFLAGS

# lessons_cache_dir prints a folder of the user's own for GoNB's log:
# ~/.cache/perceptron-lessons, or /tmp/perceptron-lessons-UID without a
# writable home.
lessons_cache_dir() {
	d="${XDG_CACHE_HOME:-$HOME/.cache}/perceptron-lessons"
	if mkdir -p "$d" 2>&- && [ -w "$d" ]; then
		printf '%s\n' "$d"
		return
	fi
	d="${TMPDIR:-/tmp}/perceptron-lessons-$(id -u)"
	mkdir -p -m 700 "$d" && printf '%s\n' "$d"
}

# lessons_seed_gocache links the shared prebuilt build cache into the user's
# GOCACHE, so that the user's first lesson finds gonum, gonum/plot and the
# lessons' packages compiled: a symbolic link per entry (cp -s), about 10 MB
# of folders and links a student where a copy took 140 MB and ten times the
# time, at the moment a whole class logs in. Go reads an entry through its
# link, and writes only entries of its own (a name is the hash of its
# content, so it never rewrites a linked one). Done once per version of the
# shared cache (its stamp), and again if the links are gone (the entry named
# in gocache.sentinel: set-up dates the shared entries in the future so that
# Go's trim keeps them). Entries already there are kept.
# A lock keeps two kernels of one user from seeding at the same time.
lessons_seed_gocache() {
	seed="$LESSONS_PREFIX/gocache"
	# (Files are tested before they are read: no redirection to /dev/null,
	# which some containers do not let users write.)
	[ -r "$LESSONS_PREFIX/gocache.stamp" ] || return 0
	stamp=$(cat "$LESSONS_PREFIX/gocache.stamp")
	sentinel=
	[ -r "$LESSONS_PREFIX/gocache.sentinel" ] && sentinel=$(cat "$LESSONS_PREFIX/gocache.sentinel")
	lessons_seeded() {
		[ -r "$GOCACHE/perceptron-lessons.stamp" ] && [ "$(cat "$GOCACHE/perceptron-lessons.stamp")" = "$stamp" ] &&
			{ [ -z "$sentinel" ] || [ -e "$GOCACHE/$sentinel" ]; }
	}
	lessons_seeded && return 0
	mkdir -p "$GOCACHE" || return 1
	(
		flock 9
		if ! lessons_seeded; then
			# Links whose entry the shared cache no longer has go first: Go
			# would try to write a new entry through them, and fail.
			find "$GOCACHE" -xtype l -delete
			cp -R -s -n "$seed/." "$GOCACHE/" && printf '%s\n' "$stamp" >"$GOCACHE/perceptron-lessons.stamp"
		fi
	) 9>"$GOCACHE/perceptron-lessons.lock"
}

# lessons_seed_goplscache links the shared prebuilt gopls cache
# (goplscache/, set-up's `gopls check` of a program that imports every
# package of the lessons) into the user's own gopls cache, as
# lessons_seed_gocache does for Go's: gopls then finds the type information
# of gonum, gonum/plot and the standard library there instead of computing
# it from their source at the user's first completion (about 15-20 s of CPU
# and 150 MB for lesson 00, against well under a second; docs/
# instructor.md, "Completion, one student's cost"). Nobody else can write
# the user's cache: the shared entries are root's and read-only, and gopls
# checks each entry's SHA-256 as it reads it. gopls's own cache folder is
# GOPLSCACHE, else the user's cache folder, plus /gopls; the wrapper
# scripts/gopls calls this at gopls's start, so a student who never asks
# for completion pays nothing. Done once per version of the shared cache
# (its stamp), and again if the links are gone (the entry named in
# goplscache.sentinel: gopls removes links it has not used for 5 days).
lessons_seed_goplscache() {
	seed="$LESSONS_PREFIX/goplscache/gopls"
	[ -r "$LESSONS_PREFIX/goplscache.stamp" ] && [ -d "$seed" ] || return 0
	stamp=$(cat "$LESSONS_PREFIX/goplscache.stamp")
	sentinel=
	[ -r "$LESSONS_PREFIX/goplscache.sentinel" ] && sentinel=$(cat "$LESSONS_PREFIX/goplscache.sentinel")
	dir="${GOPLSCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}}/gopls"
	lessons_gopls_seeded() {
		[ -r "$dir/perceptron-lessons.stamp" ] && [ "$(cat "$dir/perceptron-lessons.stamp")" = "$stamp" ] &&
			{ [ -z "$sentinel" ] || [ -e "$dir/$sentinel" ]; }
	}
	lessons_gopls_seeded && return 0
	mkdir -p -m 700 "$dir" || return 1
	(
		flock 9
		if ! lessons_gopls_seeded; then
			# Links to entries of an older shared cache go first.
			find "$dir" -xtype l -delete
			cp -R -s -n "$seed/." "$dir/" && printf '%s\n' "$stamp" >"$dir/perceptron-lessons.stamp"
		fi
	) 9>"$dir/perceptron-lessons.lock"
}

# lessons_seed_goimports gives the user gopls's index of the shared module
# cache (goimports/, made at set-up by lessons_index_modcache): the
# exported names of every package in GOMODCACHE, which gopls needs to
# complete a package the cell has not imported yet. Without it each
# student's gopls built it at its start by parsing every Go file of the
# module cache (gonum's tables among them): 2.7 s of CPU, half of what a
# student's gopls cost for lesson 00 (docs/instructor.md, "Completion, one
# student's cost"). gopls keeps the index in the user's cache folder
# (${XDG_CACHE_HOME:-~/.cache}/goimports) as a payload file and a small
# link file naming it (golang.org/x/tools/internal/modindex); the user gets
# a copy of the link file (gopls rewrites it when it updates the index) and
# a symbolic link to the shared payload (read-only, root's). A user's index
# whose payload is there is kept: gopls updates it itself with what is
# newer in the module cache than the index. Called by the wrapper
# scripts/gopls at gopls's start.
lessons_seed_goimports() {
	seed="$LESSONS_PREFIX/goimports"
	[ -d "$seed" ] || return 0
	dir="${XDG_CACHE_HOME:-$HOME/.cache}/goimports"
	for link in "$seed"/index-name-*; do
		[ -f "$link" ] || continue
		name=${link##*/}
		if [ -f "$dir/$name" ] && [ -f "$dir/$(cat "$dir/$name")" ]; then
			continue
		fi
		payload=$(cat "$link")
		[ -n "$payload" ] && [ -f "$seed/$payload" ] || continue
		mkdir -p "$dir" &&
			ln -sfn "$seed/$payload" "$dir/$payload" &&
			cp "$link" "$dir/$name.tmp.$$" &&
			mv -f "$dir/$name.tmp.$$" "$dir/$name" || return 1
	done
}

# lessons_index_modcache DEST builds gopls's index of the module cache
# GOMODCACHE into the folder DEST (set-up, as root, for
# lessons_seed_goimports) with GOMODINDEX, the index command of the
# golang.org/x/tools that gopls is built with
# (golang.org/x/tools/internal/modindex/gomodindex: the same index format).
# The payload gets a fixed name, so that the users' links to it stay valid
# when set-up makes it again.
lessons_index_modcache() {
	dest=$1
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-lessons-goimports.XXXXXX") || return 1
	(
		XDG_CACHE_HOME="$scratch" "$GOMODINDEX" update || exit 1
		set -- "$scratch"/goimports/index-name-*
		[ $# = 1 ] && [ -f "$1" ] || { echo "lessons_index_modcache: expected one index of $GOMODCACHE in $scratch/goimports, found: $*" >&2; exit 1; }
		payload=$(cat "$1")
		fixed="${payload%-*}-perceptron-lessons"
		[ -f "$scratch/goimports/$payload" ] || { echo "lessons_index_modcache: the index names a payload $payload that is not there" >&2; exit 1; }
		rm -rf "$dest.new" && mkdir -p "$dest.new" &&
			mv "$scratch/goimports/$payload" "$dest.new/$fixed" &&
			printf '%s' "$fixed" >"$dest.new/${1##*/}" &&
			chmod -R a+rX,go-w "$dest.new" &&
			rm -rf "$dest" && mv "$dest.new" "$dest"
	)
	status=$?
	rm -rf "$scratch"
	return $status
}

# lessons_go_sources prints the SHA-256 of every Go file of the module in
# folder $1 (*.go, go.mod, go.sum; those of folders Go ignores too), one
# "HASH  ./path" a line in a fixed order: two copies of the lessons whose
# lists are equal compile to the same packages.
lessons_go_sources() {
	(cd "$1" && find . \( -name '*.go' -o -name go.mod -o -name go.sum \) -type f | LC_ALL=C sort | tr '\n' '\0' | xargs -0 -r sha256sum)
}

# lessons_build_as_cells compiles every package of the lessons' module in
# folder $1 as the kernels' cells compile them: as a dependency of another
# module that requires github.com/perceptron-go/lessons v0.0.0 and replaces
# it by $1 (what the notebooks' setup cell does), with GOFLAGS as above. With
# -trimpath Go keys a package by its module path and version, and the module
# being built (version "") is not the dependency the cells use (v0.0.0), so
# a build inside $1 would fill the cache with entries no cell finds.
lessons_build_as_cells() {
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-lessons-build.XXXXXX") || return 1
	(
		cd "$scratch" &&
			printf 'module gonb_lessons_build\n\ngo %s\n' "$(cd "$1" && go list -m -f '{{.GoVersion}}')" >go.mod &&
			go mod edit -require=github.com/perceptron-go/lessons@v0.0.0 -replace=github.com/perceptron-go/lessons="$1" &&
			cp "$1/go.sum" . &&
			go build github.com/perceptron-go/lessons/...
	)
	status=$?
	rm -rf "$scratch"
	return $status
}
