# setup-system.sh is the system-wide part of `scripts/setup.sh --system`, which
# sources it (bash) after installing Jupyter and building GoNB, goimports and gopls
# into <repo>/bin ($repo, $bin, $py, $goroot, say, die and gonb_install come
# from there; setup.sh has made the Jupyter environment $prefix/venv).
# It installs, as root, one shared copy of the lessons for every user of the
# server (a class on JupyterHub):
#
#   $prefix (LESSONS_PREFIX, default /usr/local/lib/perceptron-lessons)
#     bin/gonb, bin/goimports,      GoNB (with scripts/gonb-patches), goimports
#     gopls/gopls, gopls/gopls.bin  and gopls (completion and contextual help;
#                                   gopls is the wrapper scripts/gopls), as
#                                   go.mod pins them
#     bin/gonb-kernel               the kernel command: Go's environment, the
#                                   user's GOCACHE filled from gocache/ on first
#                                   use, GoNB's log in ~/.cache/perceptron-lessons
#     bin/perceptron-lessons-init   a user's own copy of the lessons, warm
#     bin/lessons-singleuser        JupyterHub's single-user server, after init
#     venv/                         the Jupyter environment (scripts/requirements/
#                                   jupyter.txt: JupyterLab, Notebook 7,
#                                   JupyterHub, nbgitpuller...), made by setup.sh;
#                                   its etc/jupyter/jupyter_server_config.json
#                                   makes gonb the default kernel
#     proxy/                        JupyterHub's configurable-http-proxy, from
#                                   npm (scripts/requirements/package-lock.json), unless
#                                   --no-hub
#     lib/lessons-env.sh            the environment both share
#     lib/lessons-sync.sh           the copy and update of the lessons (also scripts/lessons.sh's)
#     lib/python/lessons_spawner.py JupyterHub's spawner of the class, which
#     lib/python/lessons_forkserver.py  starts the students' servers from a
#                                   fork server (docs/instructor.md, "The
#                                   login storm")
#     lessons/                      the lessons and their Go module, as
#                                   students get them (read-only): the
#                                   student release, no source.ipynb, hidden
#                                   tests or unreleased solution.ipynb
#     released-solutions            the assignments whose solutions are
#                                   released (--release-solutions)
#     gomodcache/                   the Go module cache (read-only, offline)
#     gocache/, gocache.stamp,      a prebuilt Go build cache of the lessons,
#     gocache.sentinel              linked into each user's GOCACHE
#     goplscache/, goplscache.stamp, gopls's cache of the same packages,
#     goplscache.sentinel           linked into each user's gopls cache
#     goimports/                    gopls's index of gomodcache/, linked
#                                   into each user's ~/.cache/goimports
#     jupyterhub_config.py          the class's JupyterHub configuration
#                                   (replaced by each update), which loads
#   $config_dir (LESSONS_CONFIG_DIR, default /etc/perceptron-lessons)
#     jupyterhub_config.local.py    the instructor's settings, last: written
#                                   once, never overwritten
#     roster.json                   the class (assign roster), which
#                                   jupyterhub_config.py reads
#   /usr/local/share/jupyter/kernels/gonb/    the kernel spec, for every user
#
# What an install of an earlier version put elsewhere (the hand-built
# JupyterLab's extension and its command) is removed.
#
# Running it again updates the copy, compiles only what changed and prints
# what it changed.

prefix=${LESSONS_PREFIX:-/usr/local/lib/perceptron-lessons}
[[ $prefix == /* ]] || die "LESSONS_PREFIX must be an absolute path, got $prefix"
jupyter_data=${LESSONS_JUPYTER_DATA:-/usr/local/share/jupyter}
jupyter_config=${LESSONS_JUPYTER_CONFIG:-/usr/local/etc/jupyter}
config_dir=${LESSONS_CONFIG_DIR:-/etc/perceptron-lessons}
[[ $config_dir == /* ]] || die "LESSONS_CONFIG_DIR must be an absolute path, got $config_dir"
[[ $venv == "$prefix/venv" ]] || die "the shared install's Jupyter environment is $venv, want $prefix/venv"

[[ ${EUID:-$(id -u)} -eq 0 ]] || die "--system installs for every user of this machine: run it as root (sudo bash scripts/setup.sh --system)."

# Every user's kernel runs this Go: it must be readable and runnable by all.
if command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	runuser -u nobody -- "$goroot/bin/go" version >/dev/null 2>&1 ||
		die "Go at $goroot cannot be run by other users (user nobody tried): install Go where every user can read it, such as /usr/local/go."
fi

# system_hub_config_migrate OLD NEW: before NEW replaces the installed
# JupyterHub configuration OLD, keep what the instructor changed in OLD. The
# hash of the file set-up last installed is in OLD.installed; an OLD that
# differs from it (or, from an install that kept no hash, from NEW) was
# edited: it is kept as $config_dir/jupyterhub_config.py.edited-DATE and,
# when there is no local file yet, its one-line settings (c.X = ...) that
# NEW does not have become the local file's first settings. The local file
# is written once, from scripts/system/jupyterhub_config.local.py, and never
# again.
system_hub_config_migrate() {
	local old=$1 new=$2 local_file="$config_dir/jupyterhub_config.local.py" edited=0 saved
	install -d -m 755 "$config_dir"
	if [[ -f $old ]]; then
		if [[ -f $old.installed ]]; then
			[[ $(sha256sum "$old" | cut -d' ' -f1) == "$(cat "$old.installed")" ]] || edited=1
		elif ! cmp -s "$old" "$new"; then
			edited=1
		fi
	fi
	if [[ $edited == 1 ]]; then
		saved="$config_dir/jupyterhub_config.py.edited-$(date +%Y-%m-%d-%H%M%S)"
		install -m 600 "$old" "$saved"
		changed+=("kept your edited $old as $saved")
		say "WARNING: $old had your edits; set-up replaces that file at every update. Your edited copy is $saved; your settings belong in $local_file, which set-up never overwrites."
	fi
	if [[ ! -e $local_file ]]; then
		sed -e "s|@PREFIX@|$prefix|g" "$repo/scripts/system/jupyterhub_config.local.py" >"$local_file.tmp"
		if [[ $edited == 1 ]]; then
			"$py" - "$old" "$new" >>"$local_file.tmp" <<'PY' || die "reading your settings from $old failed (above)"
import sys
old, new = (open(p).read().splitlines() for p in sys.argv[1:3])
# The example class of earlier versions' file, which the roster replaces.
earlier = {'c.Authenticator.allowed_users = {"student1", "student2"}', 'c.Authenticator.admin_users = {"teacher"}'}
kept = []
for line in old:
    if line.startswith("c.") and line not in new and line not in earlier:
        try:
            compile(line, "setting", "exec")
        except SyntaxError:
            continue
        kept.append(line)
if kept:
    print("\n# Your settings, taken from the jupyterhub_config.py you had edited:")
    print("\n".join(kept))
PY
		fi
		chmod 644 "$local_file.tmp"
		mv -f "$local_file.tmp" "$local_file"
		changed+=("wrote $local_file (your settings; never overwritten)")
	fi
}

say "installing the lessons for every user into $prefix"
umask 022
install -d "$prefix/bin" "$prefix/lib" "$prefix/gopls"
install -m 755 "$bin/gonb" "$bin/goimports" "$prefix/bin/"
# gopls has a folder of its own, which the kernel puts on PATH unless the
# class turns completion off (LESSONS_COMPLETION=off, see gonb-kernel).
# (gopls is the wrapper scripts/gopls, which runs gopls.bin beside it.)
install -m 755 "$bin/gopls" "$bin/gopls.bin" "$prefix/gopls/"
rm -f "$prefix/bin/gopls"
# changed: what this update changed, printed at the end (.update-changes:
# what subshells found).
changed=()
rm -f "$prefix/.update-changes"
install -d -m 755 "$prefix/lib/python"
for f in go gonb-kernel perceptron-lessons-init lessons-singleuser lessons-env.sh lessons-sync.sh lessons_spawner.py lessons_forkserver.py jupyterhub_config.py; do
	case $f in
	*.sh) dst="$prefix/lib/$f" mode=644 ;;
	lessons_*.py) dst="$prefix/lib/python/$f" mode=644 ;;
	*.py) dst="$prefix/$f" mode=644 ;;
	*) dst="$prefix/bin/$f" mode=755 ;;
	esac
	sed -e "s|@PREFIX@|$prefix|g" -e "s|@GOROOT@|$goroot|g" -e "s|@CONFIG@|$config_dir|g" \
		-e "s|/usr/local/lib/perceptron-lessons|$prefix|g" "$repo/scripts/system/$f" >"$dst.tmp"
	chmod "$mode" "$dst.tmp"
	if [[ ! -e $dst ]]; then
		changed+=("installed ${dst#"$prefix/"}")
	elif ! cmp -s "$dst" "$dst.tmp"; then
		changed+=("updated ${dst#"$prefix/"}")
	fi
	if [[ $f == jupyterhub_config.py ]]; then
		system_hub_config_migrate "$dst" "$dst.tmp"
	fi
	mv -f "$dst.tmp" "$dst"
done
sha256sum "$prefix/jupyterhub_config.py" | cut -d' ' -f1 >"$prefix/jupyterhub_config.py.installed"

# The lessons: the student release of the repository (scripts/student-release.sh:
# no bin/ or .git, no assignment's source.ipynb, hidden tests or grader, and
# only the released solutions), replaced as a whole. The released
# assignments are --release-solutions's, kept in $prefix/released-solutions
# for the next run without the flag ("none" releases none).
released=${release_solutions:-$(cat "$prefix/released-solutions" 2>/dev/null || true)}
rm -rf "$prefix/lessons.new"
bash "$repo/scripts/student-release.sh" --release-solutions "${released:-none}" "$prefix/lessons.new" >/dev/null ||
	die "the student release of $repo failed (above)"
printf '%s\n' "${released:-none}" >"$prefix/released-solutions.tmp"
[[ -f $prefix/released-solutions ]] && ! cmp -s "$prefix/released-solutions.tmp" "$prefix/released-solutions" &&
	changed+=("released solutions: $(cat "$prefix/released-solutions") -> ${released:-none}")
mv -f "$prefix/released-solutions.tmp" "$prefix/released-solutions"
say "the students' lessons: $prefix/lessons (released solutions: ${released:-none})"
chmod -R a+rX,go-w "$prefix/lessons.new"
if [[ -d $prefix/lessons ]] && diff -r -q "$prefix/lessons" "$prefix/lessons.new" >/dev/null 2>&1; then
	rm -rf "$prefix/lessons.new"
else
	if [[ -d $prefix/lessons ]]; then
		lessons_diff=$(diff -r -q "$prefix/lessons" "$prefix/lessons.new" 2>/dev/null |
			sed -e "s|^Files $prefix/lessons/\([^ ]*\) and .* differ\$|changed \1|" \
				-e "s|^Only in $prefix/lessons.new\(/*\)\([^:]*\): \(.*\)|added \2\1\3|" \
				-e "s|^Only in $prefix/lessons\(/*\)\([^:]*\): \(.*\)|removed \2\1\3|" | sed 's|^\([a-z]*\) /|\1 |' || true)
		while IFS= read -r line; do
			[[ -n $line ]] && changed+=("lessons: $line")
		done <<<"$lessons_diff"
	else
		changed+=("installed the lessons")
	fi
	rm -rf "$prefix/lessons.old"
	[[ -d $prefix/lessons ]] && mv "$prefix/lessons" "$prefix/lessons.old"
	mv "$prefix/lessons.new" "$prefix/lessons"
	rm -rf "$prefix/lessons.old"
fi

# The module cache, and the build cache compiled in the shared copy with the
# very environment of the kernels (lessons-env.sh) but writable modules: the
# modules are downloaded from this user's own module cache when it has them
# (set-up just built GoNB from it), else from GOPROXY, and checked against
# go.sum and the checksum database. Go writes module files read-only.
(
	user_proxy=$(go env GOPROXY)
	user_modcache=$(go env GOMODCACHE)
	user_sumdb=$(go env GOSUMDB)
	# shellcheck source=/dev/null
	. "$prefix/lib/lessons-env.sh"
	export GOCACHE="$prefix/gocache" GOSUMDB="$user_sumdb"
	export GOPROXY="file://$user_modcache/cache/download,$user_proxy"
	cd "$prefix/lessons"
	say "downloading the Go modules into $GOMODCACHE (shared, read-only)"
	go mod download
	go list -deps ./... >/dev/null
	chmod -R a+rX "$GOMODCACHE"
	GOPROXY=off bash "$repo/scripts/prebuild.sh" "$prefix/lessons"
	# ... and the lessons' own packages once more as the cells build them,
	# a dependency of GoNB's module (lessons-env.sh says why).
	GOPROXY=off lessons_build_as_cells "$prefix/lessons" || die "compiling the lessons' packages as the cells do failed (above)"
	chmod -R a+rX "$GOCACHE"
	# Users' caches link to these entries, and Go's daily trim of a user's
	# cache removes a link whose entry is older than 5 days (it reads the
	# entry's time through the link, and cannot touch root's file to mark it
	# used): the entries get a time far in the future, which the trim never
	# reaches and Go does not reset (the Dockerfile does the same for the
	# image's own cache).
	find "$GOCACHE" -type f -name '*-[ad]' -exec touch -c -m -d '2100-01-01 00:00:00' {} +
	# The stamp changes when the cache gains entries; users' kernels then
	# copy what is new.
	(cd "$GOCACHE" && find . -name '*-[ad]' | LC_ALL=C sort | sha256sum | cut -c1-16) >"$prefix/gocache.stamp.tmp"
	cmp -s "$prefix/gocache.stamp.tmp" "$prefix/gocache.stamp" || echo "the prebuilt Go build cache" >>"$prefix/.update-changes"
	# One entry, whose link in a user's cache tells that the links are
	# there (lessons-env.sh, lessons_seed_gocache).
	(cd "$GOCACHE" && find . -name '*-a' | LC_ALL=C sort | sed -n '1s|^\./||p') >"$prefix/gocache.sentinel"
	mv -f "$prefix/gocache.stamp.tmp" "$prefix/gocache.stamp"
	say "prebuilt Go build cache: $GOCACHE ($(du -sh "$GOCACHE" | cut -f1), linked into each user's GOCACHE at their first login)"
)

# The prebuilt gopls cache: the type information gopls computes for the
# packages the lessons import (gonum, gonum/plot, the standard library),
# made by the installed gopls itself (its cache is keyed by its own
# executable's hash) checking a program that imports every package of the
# lessons, with the kernels' environment, so that its entries are those a
# student's gopls looks for. Each user's gopls cache links to it at their
# first completion (lessons-env.sh, lessons_seed_goplscache). Made again
# at each set-up (about 7 s of CPU): links into the old one are dropped
# by the next seeding.
(
	# shellcheck source=/dev/null
	. "$prefix/lib/lessons-env.sh"
	GOFLAGS="-gcflags=-e $GOFLAGS" # as gonb-kernel runs the cells
	export GOFLAGS GOPLSCACHE="$prefix/goplscache.new"
	rm -rf "$GOPLSCACHE"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-lessons-gopls.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	cd "$scratch"
	printf 'module gonb_lessons_gopls\n\ngo %s\n' "$(cd "$prefix/lessons" && go list -m -f '{{.GoVersion}}')" >go.mod
	go mod edit -require=github.com/perceptron-go/lessons@v0.0.0 -replace=github.com/perceptron-go/lessons="$prefix/lessons"
	cp "$prefix/lessons/go.sum" .
	# Every importable package of the lessons: not a command, not internal,
	# not only tests.
	pkgs=$(go list -f '{{if and (ne .Name "main") (.GoFiles)}}{{.ImportPath}}{{end}}' github.com/perceptron-go/lessons/... | grep -v '/internal\(/\|$\)')
	[[ -n $pkgs ]] || die "no package of the lessons to prebuild gopls's cache with"
	{
		printf 'package main\n\nimport (\n'
		printf '\t_ "%s"\n' $pkgs
		printf ')\n\nfunc main() {}\n'
	} >main.go
	# gopls check prints the diagnostics it finds (none, in the lessons) and
	# fills the cache as it type-checks.
	diags=$("$prefix/gopls/gopls.bin" check main.go 2>&1) || die "gopls check for the prebuilt gopls cache failed: $diags"
	[[ -z $diags ]] || die "gopls check of the lessons' packages reported problems (the prebuilt gopls cache would be wrong): $diags"
	[[ -d $GOPLSCACHE/gopls ]] || die "gopls check wrote no cache into $GOPLSCACHE"
	# Dated in the future, as the Go cache's entries: gopls marks an entry
	# used by its time and cannot on root's files (nor tries, on these).
	find "$GOPLSCACHE" -type f -exec touch -c -m -d '2100-01-01 00:00:00' {} +
	chmod -R a+rX,go-w "$GOPLSCACHE"
	(cd "$GOPLSCACHE/gopls" && find . -type f | LC_ALL=C sort | sha256sum | cut -c1-16) >"$prefix/goplscache.stamp.tmp"
	(cd "$GOPLSCACHE/gopls" && find . -type f -name '*-cas' | LC_ALL=C sort | sed -n '1s|^\./||p') >"$prefix/goplscache.sentinel"
	rm -rf "$prefix/goplscache"
	mv "$GOPLSCACHE" "$prefix/goplscache"
	cmp -s "$prefix/goplscache.stamp.tmp" "$prefix/goplscache.stamp" || echo "the prebuilt gopls cache" >>"$prefix/.update-changes"
	mv -f "$prefix/goplscache.stamp.tmp" "$prefix/goplscache.stamp"
	say "prebuilt gopls cache: $prefix/goplscache ($(du -sh "$prefix/goplscache" | cut -f1), linked into each user's gopls cache at their first completion)"
)

# gopls's index of the shared module cache (the exported names of its
# packages, for completing a package a cell has not imported), made once
# here rather than by each student's gopls at its start (2.7 s of CPU
# each): goimports/, which the gopls wrapper links into each user's cache
# (lessons-env.sh, lessons_seed_goimports). The index command is built
# from the golang.org/x/tools that gopls is built with (go.mod), so the
# format is gopls's own.
(
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/perceptron-lessons-modindex.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	(cd "$repo" && go build -o "$scratch/gomodindex" golang.org/x/tools/internal/modindex/gomodindex) ||
		die "building the module cache index command (golang.org/x/tools/internal/modindex/gomodindex) failed (above)"
	# shellcheck source=/dev/null
	. "$prefix/lib/lessons-env.sh"
	GOMODINDEX="$scratch/gomodindex" lessons_index_modcache "$prefix/goimports" ||
		die "indexing the module cache $GOMODCACHE for gopls failed (above)"
	say "gopls's index of the module cache: $prefix/goimports ($(du -sh "$prefix/goimports" | cut -f1), linked into each user's cache at their first completion)"
)

# The kernel spec, in Jupyter's system data folder: GoNB writes it (and its
# logo), then it is pointed at the wrapper.
say "registering the Jupyter kernel \"gonb\" for every user in $jupyter_data/kernels/gonb"
JUPYTER_DATA_DIR=$jupyter_data gonb_install "$prefix/bin/gonb"
"$py" - "$jupyter_data/kernels/gonb/kernel.json" "$prefix/bin/gonb-kernel" <<'PY'
import json, sys
path, wrapper = sys.argv[1], sys.argv[2]
with open(path) as f:
    spec = json.load(f)
spec["argv"] = [wrapper, "--kernel", "{connection_file}"]
spec["env"] = {}
spec["display_name"] = "Go (gonb)"
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
    f.write("\n")
PY
chmod -R a+rX "$jupyter_data/kernels/gonb"

chmod -R a+rX "$venv"

# JupyterHub's proxy, from npm at the versions of scripts/requirements/package-lock.json
# (npm ci), unless --no-hub; skipped while it is current.
if [[ $no_hub == 0 ]]; then
	proxy="$prefix/proxy"
	proxy_sum=$(cat "$repo/scripts/requirements/package.json" "$repo/scripts/requirements/package-lock.json" | sha256sum | cut -d' ' -f1)
	if [[ -x $proxy/node_modules/.bin/configurable-http-proxy && $(cat "$proxy/.perceptron-lessons-lock" 2>/dev/null) == "$proxy_sum" ]]; then
		say "JupyterHub's proxy: current ($proxy)"
	else
		say "JupyterHub's proxy: installing configurable-http-proxy with npm ci into $proxy"
		rm -rf "$proxy"
		install -d "$proxy"
		install -m 644 "$repo/scripts/requirements/package.json" "$repo/scripts/requirements/package-lock.json" "$proxy/"
		(cd "$proxy" && npm ci --omit=dev --no-audit --no-fund --loglevel=error) || die "npm ci of configurable-http-proxy in $proxy failed (above)"
		echo "$proxy_sum" >"$proxy/.perceptron-lessons-lock"
		changed+=("installed JupyterHub's proxy (scripts/requirements/package-lock.json)")
		chmod -R a+rX "$proxy"
	fi
	say "JupyterHub: $venv/bin/jupyterhub, proxy $("$proxy/node_modules/.bin/configurable-http-proxy" --version) on node $(node --version)"
fi

# Left by earlier versions of this install: the hand-built JupyterLab's
# extension and its command.
site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null || true)
[[ -n $site ]] && rm -f "$site/perceptron_lessons_lab.pth"
rm -f "$jupyter_config/jupyter_server_config.d/perceptron_lab.json" "$prefix/bin/jupyter-lab"
# What this update changed.
if [[ -s $prefix/.update-changes ]]; then
	while IFS= read -r line; do changed+=("updated $line"); done <"$prefix/.update-changes"
fi
rm -f "$prefix/.update-changes"
[[ ${venv_installed:-0} == 1 ]] && changed+=("installed the Jupyter environment (scripts/requirements/jupyter.txt)")
if [[ ${#changed[@]} -eq 0 ]]; then
	say "changed: nothing (the install was current)"
else
	say "changed (${#changed[@]}):"
	printf '  %s\n' "${changed[@]}"
fi
say "your JupyterHub settings: $config_dir/jupyterhub_config.local.py (kept); the class: $config_dir/roster.json (assign roster)"
say "done. Each user gets their copy with $prefix/bin/perceptron-lessons-init; JupyterHub: $prefix/jupyterhub_config.py (docs/instructor.md, \"A class on one server\")"
