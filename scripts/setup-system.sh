# setup-system.sh is the system-wide part of `scripts/setup.sh --system`, which
# sources it (bash) after installing Jupyter and building GoNB and goimports
# into <repo>/bin ($repo, $bin, $py, $goroot, say, die and gonb_install come
# from there).
# It installs, as root, one shared copy of the lessons for every user of the
# server (a class on JupyterHub):
#
#   $prefix (LESSONS_PREFIX, default /usr/local/lib/perceptron-lessons)
#     bin/gonb, bin/goimports       GoNB and goimports, as go.mod pins them
#     bin/gonb-kernel               the kernel command: Go's environment, the
#                                   user's GOCACHE filled from gocache/ on first
#                                   use, GoNB's log in ~/.cache/perceptron-lessons
#     bin/perceptron-lessons-init   a user's own copy of the lessons, warm
#     bin/lessons-singleuser        JupyterHub's single-user server, after init
#     lib/lessons-env.sh            the environment both share
#     lessons/                      the lessons and their Go module (read-only)
#     gomodcache/                   the Go module cache (read-only, offline)
#     gocache/, gocache.stamp       a prebuilt Go build cache of the lessons
#     jupyterhub_config.py          a JupyterHub configuration to start from
#   /usr/local/share/jupyter/kernels/gonb/    the kernel spec, for every user
#   /usr/local/etc/jupyter/{jupyter_notebook,jupyter_server}_config.json
#       MultiKernelManager.default_kernel_name = gonb: the default kernel of
#       new notebooks (other settings in those files are kept)
#
# With --lab (the lessons' JupyterLab, built in <repo>/lab/build by then),
# also:
#     bin/jupyter-lab               JupyterLab 4 for the lessons, as
#                                   `jupyter lab` starts it (the Docker image's
#                                   command, and Binder's)
#   SITE/perceptron_lessons_lab.pth  SITE: the system Python's first site
#                                   folder (/usr/local/lib/python3.X/dist-packages):
#                                   makes lessons/lab/perceptron_lab importable
#   /usr/local/etc/jupyter/jupyter_server_config.d/perceptron_lab.json
#       enables it in every jupyter_server, JupyterHub's single-user servers
#       included (lessons-singleuser then starts jupyter_server, not Notebook 6)
# Without --lab these three are removed if an earlier --lab installed them.
#
# Running it again updates the copy and compiles only what changed.

prefix=${LESSONS_PREFIX:-/usr/local/lib/perceptron-lessons}
[[ $prefix == /* ]] || die "LESSONS_PREFIX must be an absolute path, got $prefix"
jupyter_data=${LESSONS_JUPYTER_DATA:-/usr/local/share/jupyter}
jupyter_config=${LESSONS_JUPYTER_CONFIG:-/usr/local/etc/jupyter}

[[ ${EUID:-$(id -u)} -eq 0 ]] || die "--system installs for every user of this machine: run it as root (sudo bash scripts/setup.sh --system)."

# Every user's kernel runs this Go: it must be readable and runnable by all.
if command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	runuser -u nobody -- "$goroot/bin/go" version >/dev/null 2>&1 ||
		die "Go at $goroot cannot be run by other users (user nobody tried): install Go where every user can read it, such as /usr/local/go."
fi

say "installing the lessons for every user into $prefix"
umask 022
install -d "$prefix/bin" "$prefix/lib"
install -m 755 "$bin/gonb" "$bin/goimports" "$prefix/bin/"
for f in gonb-kernel perceptron-lessons-init lessons-singleuser lessons-env.sh jupyterhub_config.py; do
	case $f in
	*.sh) dst="$prefix/lib/$f" mode=644 ;;
	*.py) dst="$prefix/$f" mode=644 ;;
	*) dst="$prefix/bin/$f" mode=755 ;;
	esac
	sed -e "s|@PREFIX@|$prefix|g" -e "s|@GOROOT@|$goroot|g" \
		-e "s|/usr/local/lib/perceptron-lessons|$prefix|g" "$repo/scripts/system/$f" >"$dst.tmp"
	chmod "$mode" "$dst.tmp"
	mv -f "$dst.tmp" "$dst"
done

# The lessons: the repository without bin/ and .git, replaced as a whole.
rm -rf "$prefix/lessons.new"
mkdir "$prefix/lessons.new"
# npm's packages (lab/node_modules) only build lab/build, which the copy keeps.
tar -C "$repo" --exclude=./bin --exclude=./.git --exclude=.ipynb_checkpoints --exclude=./lab/node_modules -cf - . | tar -C "$prefix/lessons.new" -xf -
chmod -R a+rX,go-w "$prefix/lessons.new"
if [[ -d $prefix/lessons ]] && diff -r -q "$prefix/lessons" "$prefix/lessons.new" >/dev/null 2>&1; then
	rm -rf "$prefix/lessons.new"
else
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
	user_flags=$(go env GOFLAGS)
	user_sumdb=$(go env GOSUMDB)
	# shellcheck source=/dev/null
	. "$prefix/lib/lessons-env.sh"
	export GOCACHE="$prefix/gocache" GOSUMDB="$user_sumdb" GOFLAGS="$user_flags"
	export GOPROXY="file://$user_modcache/cache/download,$user_proxy"
	cd "$prefix/lessons"
	say "downloading the Go modules into $GOMODCACHE (shared, read-only)"
	go mod download
	go list -deps ./... >/dev/null
	chmod -R a+rX "$GOMODCACHE"
	GOPROXY=off bash "$repo/scripts/prebuild.sh" "$prefix/lessons"
	chmod -R a+rX "$GOCACHE"
	# The stamp changes when the cache gains entries; users' kernels then
	# copy what is new.
	(cd "$GOCACHE" && find . -name '*-[ad]' | LC_ALL=C sort | sha256sum | cut -c1-16) >"$prefix/gocache.stamp.tmp"
	mv -f "$prefix/gocache.stamp.tmp" "$prefix/gocache.stamp"
	say "prebuilt Go build cache: $GOCACHE ($(du -sh "$GOCACHE" | cut -f1), copied into each user's GOCACHE by their first kernel)"
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

# gonb as the default kernel of new notebooks, in Jupyter's system
# configuration: jupyter_notebook_config.json (Notebook 6, the single-user
# servers of JupyterHub 3.0) and jupyter_server_config.json (jupyter_server:
# JupyterLab, Notebook 7). Other settings in those files are kept.
install -d "$jupyter_config"
for app in jupyter_notebook jupyter_server; do
	"$py" - "$jupyter_config/${app}_config.json" <<'PY'
import json, os, sys
path = sys.argv[1]
config = {}
if os.path.exists(path):
    with open(path) as f:
        config = json.load(f)
config.setdefault("MultiKernelManager", {})["default_kernel_name"] = "gonb"
with open(path + ".tmp", "w") as f:
    json.dump(config, f, indent=1)
    f.write("\n")
os.chmod(path + ".tmp", 0o644)
os.replace(path + ".tmp", path)
PY
done
say "default kernel for new notebooks: gonb ($jupyter_config/jupyter_notebook_config.json, jupyter_server_config.json)"

# JupyterLab (--lab): the extension importable by the system Python, enabled
# for every jupyter_server, and the jupyter-lab command.
site=$("$py" -c 'import site; print(site.getsitepackages()[0])')
lab_pth="$site/perceptron_lessons_lab.pth"
lab_conf="$jupyter_config/jupyter_server_config.d/perceptron_lab.json"
if [[ $with_lab == 1 ]]; then
	[[ -f $prefix/lessons/lab/build/bundle.js ]] || die "--lab: $prefix/lessons/lab/build/bundle.js is missing (scripts/setup-lab.sh should have built lab/build)"
	install -d "$site" "$(dirname "$lab_conf")"
	echo "$prefix/lessons/lab" >"$lab_pth.tmp"
	chmod 644 "$lab_pth.tmp"
	mv -f "$lab_pth.tmp" "$lab_pth"
	printf '{\n "ServerApp": {\n  "jpserver_extensions": {\n   "perceptron_lab": true\n  }\n }\n}\n' >"$lab_conf.tmp"
	chmod 644 "$lab_conf.tmp"
	mv -f "$lab_conf.tmp" "$lab_conf"
	sed -e "s|@PREFIX@|$prefix|g" "$repo/scripts/system/jupyter-lab" >"$prefix/bin/jupyter-lab.tmp"
	chmod 755 "$prefix/bin/jupyter-lab.tmp"
	mv -f "$prefix/bin/jupyter-lab.tmp" "$prefix/bin/jupyter-lab"
	(cd / && "$py" -c 'import perceptron_lab, sys; sys.exit(0 if perceptron_lab.BUILD.startswith(sys.argv[1]) else "perceptron_lab is imported from " + perceptron_lab.BUILD)' "$prefix/") ||
		die "--lab: the system Python does not import the shared perceptron_lab (see above)"
	say "JupyterLab for every user: $prefix/bin/jupyter-lab, the perceptron_lab extension of jupyter_server ($lab_pth, $lab_conf)"
else
	rm -f "$lab_pth" "$lab_conf" "$prefix/bin/jupyter-lab"
fi
say "done. Each user gets their copy with $prefix/bin/perceptron-lessons-init; JupyterHub: $prefix/jupyterhub_config.py (README, \"A class on one server\")"
