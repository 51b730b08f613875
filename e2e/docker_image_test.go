//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// TestDockerImage builds the repository's Dockerfile, the one users and
// Binder get, and runs the image as a student would:
//
//  1. debootstrap --variant=minbase bookworm makes a Debian 12 root file
//     system, from the Debian mirror this machine's apt uses; it is built
//     fresh on every run (about a minute) and removed afterwards;
//  2. podman imports it and buildah tags it docker.io/library/debian:bookworm-slim,
//     so that the Dockerfile's unchanged FROM finds it, in a container store
//     of the test's own (buildah --root), never the machine's;
//  3. buildah bud --pull=never --isolation chroot builds the Dockerfile with
//     the build arguments repo2docker passes (NB_USER=jovyan, NB_UID=1000);
//  4. in a fresh container of the image, buildah run --user 1000 starts the
//     image's own command (its CMD, with 127.0.0.1 and a free port instead of
//     0.0.0.0:8888: the container shares the host's network);
//  5. lesson 00 runs through that server (its REST API and the kernel's
//     websocket, as a browser's notebook page drives it): no cell may fail,
//     every kind of output of the committed notebook must come back, and the
//     figure must be the committed one, pixel for pixel;
//  6. the image is built warm: in the fresh container, before the lesson
//     runs, a build of lesson 00's cells as GoNB makes it (warmCheckModule)
//     compiles nothing but the cell; both runs' times are logged;
//  7. the image's front end is JupyterLab: in headless Chromium, lesson 00
//     opens at /lab/tree/notebooks/00_start_here.ipynb of that server and
//     runs (runInLab: every cell, the committed figures, the math typeset);
//  8. Binder: in a second fresh container, the image is started as
//     BinderHub starts it (binderCommand: its launch script, restated, and
//     its arguments, under a base URL), which must choose JupyterLab; lesson
//     00 then runs in Chromium at BASE/doc/tree/notebooks/00_start_here.ipynb,
//     where the README's labpath= link lands.
//
// Everything it made (containers, images, the container store, the base file
// system) is removed at the end. It skips only when it cannot run: not root
// (debootstrap and buildah's chroot isolation need root), or buildah, podman
// or debootstrap missing (`scripts/setup.sh --with-buildah` installs them, and
// scripts/test.sh asks for it).
func TestDockerImage(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("TestDockerImage needs root: debootstrap and buildah --isolation chroot run as root (CI runs as root)")
	}
	for _, tool := range []string{"buildah", "podman", "debootstrap"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed, so the image cannot be built here: run scripts/setup.sh --with-buildah (scripts/test.sh does), which installs buildah, podman and debootstrap with apt-get", tool)
		}
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	started := time.Now()

	work, err := os.MkdirTemp("", "perceptron-docker-")
	if err != nil {
		t.Fatal(err)
	}
	b := &buildah{t: t, ctx: ctx, root: filepath.Join(work, "storage"), runroot: filepath.Join(work, "run"), logs: filepath.Join(work, "logs")}
	if err := os.MkdirAll(b.logs, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.removeAll(work) })

	// 1. The base.
	mirror, err := repo.AptMirror("/etc/apt", "bookworm")
	if err != nil {
		t.Fatalf("reading this machine's apt sources: %v", err)
	}
	rootfs := filepath.Join(work, "rootfs")
	t0 := time.Now()
	b.cmd("debootstrap.log", "debootstrap", "--variant=minbase", "bookworm", rootfs, mirror)
	t.Logf("base: debootstrap --variant=minbase bookworm from %s: %.0f s", mirror, time.Since(t0).Seconds())
	// The base is this machine's Debian: its mirror, and the certificate
	// authorities it adds locally (a proxy that inspects TLS, as on CI's
	// machines), which the image's ca-certificates then trusts as Debian's
	// update-ca-certificates does. A real debian:bookworm-slim has none.
	if err := copyLocalCAs("/usr/local/share/ca-certificates", filepath.Join(rootfs, "usr/local/share/ca-certificates")); err != nil {
		t.Fatalf("base: %v", err)
	}

	// 2. Imported and tagged as the Dockerfile's FROM.
	t0 = time.Now()
	tarball := filepath.Join(work, "rootfs.tar")
	b.cmd("tar.log", "tar", "-C", rootfs, "--numeric-owner", "-cf", tarball, ".")
	if err := os.RemoveAll(rootfs); err != nil {
		t.Fatal(err)
	}
	b.podman("import.log", "import", tarball, "localhost/perceptron-test-base")
	os.Remove(tarball)
	b.run("tag.log", "tag", "localhost/perceptron-test-base", "docker.io/library/debian:bookworm-slim")
	t.Logf("base: imported and tagged docker.io/library/debian:bookworm-slim: %.0f s", time.Since(t0).Seconds())

	// 3. The Dockerfile, built as Binder and users build it.
	const image = "localhost/perceptron-lessons:test"
	t0 = time.Now()
	// The build arguments repo2docker passes to a repository's Dockerfile
	// (BinderHub runs it with user jovyan, UID 1000).
	b.run("build.log", "bud", "--pull=never", "--isolation", "chroot", "--layers=false",
		"--build-arg", "NB_USER=jovyan", "--build-arg", "NB_UID=1000",
		"-f", filepath.Join(root, "Dockerfile"), "-t", image, root)
	buildTime := time.Since(t0)
	size := b.output("images", "--format", "{{.Size}}", image)
	t.Logf("image: built in %.1f min (cold, the base excluded); size %s", buildTime.Minutes(), strings.TrimSpace(size))

	var config struct {
		OCIv1 struct {
			Config struct {
				User       string   `json:"User"`
				Cmd        []string `json:"Cmd"`
				WorkingDir string   `json:"WorkingDir"`
			} `json:"config"`
		} `json:"OCIv1"`
	}
	if err := json.Unmarshal([]byte(b.output("inspect", "--type", "image", image)), &config); err != nil {
		t.Fatalf("buildah inspect %s: %v", image, err)
	}
	if u := config.OCIv1.Config.User; u != "1000" && u != "jovyan" {
		t.Errorf("the image runs as user %q, want the notebook user (UID 1000), as Binder does", u)
	}

	// 4. A fresh container; the image's command on a free port of 127.0.0.1.
	port, err := localhub.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cmdline, err := repo.LocalCommand(config.OCIv1.Config.Cmd, port)
	if err != nil {
		t.Fatalf("image CMD %q: %v", config.OCIv1.Config.Cmd, err)
	}
	// The test's browser driver reaches JupyterLab through its application
	// object.
	cmdline = append(cmdline, "--LabApp.expose_app_in_browser=True")
	ctr := strings.TrimSpace(b.output("from", "--pull=never", "--name", "perceptron-test-run", image))

	// The image's own files, as students get them: jovyan's home (the
	// repository as the build context held it; its Go build cache and bin/
	// aside) and the shared install's lessons, copied out of the container
	// and checked as TestImageFilesStudentSafe checks the list computed from
	// the Dockerfile and .dockerignore.
	files := filepath.Join(work, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(work, "files.tar")
	if err := os.WriteFile(archive, []byte(b.output("run", "--isolation", "chroot", ctr, "--", "tar", "-C", "/", "-cf", "-",
		"--exclude=home/jovyan/.cache", "--exclude=home/jovyan/bin",
		"home/jovyan", "usr/local/lib/perceptron-lessons/lessons")), 0o644); err != nil {
		t.Fatal(err)
	}
	b.cmd("files-untar.log", "tar", "-C", files, "-xf", archive)
	os.Remove(archive)
	secrets := repo.LoadSecrets(t, root)
	for _, dir := range []string{"home/jovyan", "usr/local/lib/perceptron-lessons/lessons"} {
		list := repo.FilesUnder(t, filepath.Join(files, dir))
		secrets.CheckTree(t, "the image's /"+dir, filepath.Join(files, dir), list, nil)
		t.Logf("image: /%s holds %d files (its .cache and bin/ aside), none a student may not have", dir, len(list))
	}
	os.RemoveAll(files)

	srv := b.serve(ctr, cmdline, port, "/", newToken(), "jupyter.log")

	const lesson = "notebooks/00_start_here.ipynb"
	committed, err := notebook.Read(filepath.Join(root, lesson))
	if err != nil {
		t.Fatal(err)
	}
	// 6. The image is built warm: in this fresh container, a build of the
	// lesson's cells as GoNB makes it compiles nothing but the cell.
	check := filepath.Join(b.logs, "gonbcheck")
	if err := os.MkdirAll(check, 0o755); err != nil {
		t.Fatal(err)
	}
	imports := warmCheckModule(t, check, root, "/home/jovyan", filepath.Join(root, lesson))
	b.run("gonbcheck-copy.log", "copy", "--chown", "1000:1000", ctr, check, "/tmp/gonbcheck")
	out := b.output("run", "--isolation", "chroot", "--user", "1000", ctr, "--", "sh", "-c",
		". /usr/local/lib/perceptron-lessons/lib/lessons-env.sh && cd /tmp/gonbcheck && go build -v -o /dev/null . 2>&1")
	if extra := compiledBesides(out, warmCheckPath); len(extra) > 0 {
		t.Errorf("in a fresh container, a build of %s's cells compiles %d packages besides the cell, which the image should hold compiled: %v", lesson, len(extra), extra)
	} else {
		t.Logf("in a fresh container, a build of %s's cells (%d imports) compiles only the cell: the image is warm", lesson, len(imports))
	}

	// 5. Lesson 00 through the server, twice (the times are logged).
	var runs [2]executorReport
	for i := range runs {
		dst := filepath.Join(b.logs, fmt.Sprintf("run%d.ipynb", i+1))
		runs[i] = runThroughServer(t, ctx, srv, filepath.Join(root, lesson), lesson, dst)
		if runs[i].Failure != "" {
			t.Fatalf("run %d of %s in the container: cell %d: %s", i+1, lesson, runs[i].FailedCell, runs[i].Failure)
		}
		got := repo.ReadNotebook(t, dst)
		for _, p := range checkExecuted(committed, got) {
			t.Errorf("run %d of %s in the container: %s", i+1, lesson, p)
		}
		if err := sameFigures(committed, got); err != nil {
			t.Errorf("run %d of %s in the container: %v", i+1, lesson, err)
		}
		t.Logf("%s in the container, run %d: %.1f s (slowest cells: %s)", lesson, i+1, runs[i].Seconds, runs[i].slowest(3))
	}
	if t.Failed() {
		return
	}

	// 7. The image's front end is JupyterLab: lesson 00 in Chromium, in the
	// same container, through the image's own command.
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("Chromium not found (%v): %s", err, browserSetupHint)
	}
	bctx := startChromium(t, browserContext(t), chromium)
	shots := filepath.Join(b.logs, "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("JupyterLab", func(t *testing.T) {
		runInLab(t, bctx, srv, lesson, committed, shots)
	})

	// 8. Binder: a fresh container started as BinderHub starts it.
	t.Run("Binder", func(t *testing.T) {
		b := *b
		b.t = t
		port, err := localhub.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		const base = "/user/binder-test/"
		token := newToken()
		ctr := strings.TrimSpace(b.output("from", "--pull=never", "--name", "perceptron-test-binder", image))
		srv := b.serve(ctr, binderCommand(port, base, token), port, base, token, "binder.log")
		if log := repo.ReadFile(filepath.Join(b.logs, "binder.log")); !strings.Contains(log, "binder test: launching jupyter-lab") {
			t.Fatalf("the Binder launch did not find JupyterLab (jupyterlab.labapp, version 3 or later) and would serve the classic Notebook:\n%s", repo.Tail(log, 20))
		}
		// labpath=notebooks/00_start_here.ipynb in the README's link opens
		// BASE/doc/tree/notebooks/00_start_here.ipynb.
		srv.labMode = "doc/tree"
		shots := filepath.Join(shots, "binder")
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
		runInLab(t, bctx, srv, lesson, committed, shots)
	})
	t.Logf("test total %.1f min", time.Since(started).Minutes())
}

// newToken returns a fresh token for a Jupyter server.
func newToken() string {
	return fmt.Sprintf("%x", time.Now().UnixNano()) + strconv.Itoa(os.Getpid())
}

// binderLaunch is what BinderHub's chart runs as each user's command
// (singleuser.cmd in its values.yaml), restated: JupyterLab when the image's
// python3 imports jupyterlab.labapp with jupyterlab.__version__ 3 or later,
// else the classic Notebook, with BinderHub's arguments.
const binderLaunch = `import os, sys
try:
    import jupyterlab, jupyterlab.labapp
    lab = int(jupyterlab.__version__.split(".", 1)[0]) >= 3
except Exception as e:
    print("binder test: cannot import jupyterlab.labapp:", e, file=sys.stderr)
    lab = False
exe = "jupyter-lab" if lab else "jupyter-notebook"
print("binder test: launching", exe, file=sys.stderr, flush=True)
os.execvp(exe, [exe] + sys.argv[1:])
`

// binderCommand returns the command BinderHub starts an image with (its
// BinderSpawner's arguments, each NotebookApp option repeated for
// ServerApp), on 127.0.0.1:port rather than 0.0.0.0 (the test's container
// shares the host's network) under base, with token.
func binderCommand(port int, base, token string) []string {
	args := []string{"python3", "-c", binderLaunch, "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--LabApp.expose_app_in_browser=True"} // for the test's browser driver
	for _, app := range []string{"NotebookApp", "ServerApp"} {
		args = append(args, "--"+app+".base_url="+base, "--"+app+".token="+token, "--"+app+".trust_xheaders=True")
	}
	return args
}

// buildah runs buildah and podman on a container store of its own (root,
// runroot), so the test neither sees nor touches the machine's images.
type buildah struct {
	t             *testing.T
	ctx           context.Context
	root, runroot string
	logs          string // folder for the commands' output
}

func (b *buildah) global() []string { return []string{"--root", b.root, "--runroot", b.runroot} }

// cmd runs name with args, its output in the file log of b.logs, and fails
// the test with the output's tail if it fails.
func (b *buildah) cmd(log string, name string, args ...string) {
	b.t.Helper()
	path := filepath.Join(b.logs, log)
	f, err := os.Create(path)
	if err != nil {
		b.t.Fatal(err)
	}
	c := exec.CommandContext(b.ctx, name, args...)
	c.Stdout, c.Stderr = f, f
	err = c.Run()
	f.Close()
	if err != nil {
		b.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, repo.Tail(repo.ReadFile(path), 60))
	}
}

func (b *buildah) run(log string, args ...string) {
	b.t.Helper()
	b.cmd(log, "buildah", append(b.global(), args...)...)
}

func (b *buildah) podman(log string, args ...string) {
	b.t.Helper()
	b.cmd(log, "podman", append(b.global(), args...)...)
}

// output runs buildah with args and returns its standard output.
func (b *buildah) output(args ...string) string {
	b.t.Helper()
	out, err := exec.CommandContext(b.ctx, "buildah", append(b.global(), args...)...).Output()
	if err != nil {
		b.t.Fatalf("buildah %s: %v\n%s", strings.Join(args, " "), err, stderrOf(err))
	}
	return string(out)
}

// serve starts cmdline in the container ctr as UID 1000 with buildah run,
// waits until the Jupyter server it starts answers on port, and registers
// its shutdown.
func (b *buildah) serve(ctr string, cmdline []string, port int, basePath, token, logName string) *jupyterServer {
	t := b.t
	t.Helper()
	srv := &jupyterServer{base: fmt.Sprintf("http://127.0.0.1:%d%s", port, strings.TrimSuffix(basePath, "/")), token: token, shots: "lab_"}
	logPath := filepath.Join(b.logs, logName)
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := append(b.global(), "run", "--isolation", "chroot", "--user", "1000", "--env", "JUPYTER_TOKEN="+srv.token, ctr, "--")
	cmd := exec.Command("buildah", append(args, cmdline...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		t.Fatalf("buildah run: %v", err)
	}
	exited := waitClose(cmd, logFile)
	t.Cleanup(func() {
		srv.shutdownKernels(t)
		stopGroup(cmd.Process.Pid, exited, 15*time.Second)
		if t.Failed() {
			t.Logf("Jupyter server log, in the container (%s):\n%s", logPath, repo.Tail(repo.ReadFile(logPath), 40))
		}
	})
	srv.waitReady(t, b.ctx, 2*time.Minute, fmt.Sprintf("the image's command %q", cmdline), cmd, exited, logPath)
	return srv
}

// removeAll removes the test's containers and images, its container store
// and the folder work that holds it all.
func (b *buildah) removeAll(work string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"rm", "--all"}, {"rmi", "--all", "--force"}} {
		if out, err := exec.CommandContext(ctx, "buildah", append(b.global(), args...)...).CombinedOutput(); err != nil {
			b.t.Errorf("cleaning up: buildah %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The overlay driver keeps its folder mounted on itself: unmount it
	// (and anything left under the store) before removing the files.
	if mounts, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		var under []string
		for _, line := range strings.Split(string(mounts), "\n") {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], work+"/") {
				under = append(under, f[4])
			}
		}
		slices.Sort(under)
		for _, m := range slices.Backward(under) {
			if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil {
				b.t.Errorf("cleaning up: unmounting %s: %v", m, err)
			}
		}
	}
	if err := os.RemoveAll(work); err != nil {
		b.t.Errorf("cleaning up: %v", err)
	}
}

// sameFigures checks that every PNG figure of the committed notebook comes
// back, in the same cell, with the same pixels.
func sameFigures(committed, got *notebook.Notebook) error {
	n := 0
	for i, c := range committed.Cells {
		want := pngsOf(c)
		if len(want) == 0 {
			continue
		}
		have := pngsOf(got.Cells[i])
		if len(have) != len(want) {
			return fmt.Errorf("cell %d: %d PNG figures, want %d as committed", i, len(have), len(want))
		}
		for j := range want {
			if err := samePixels(want[j], have[j]); err != nil {
				return fmt.Errorf("cell %d, figure %d: %v", i, j, err)
			}
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("the committed notebook has no PNG figure to compare")
	}
	return nil
}

// pngsOf returns the base64 image/png outputs of c, in order.
func pngsOf(c *notebook.Cell) []string {
	var out []string
	for _, o := range c.Outputs {
		if raw, ok := o.Data["image/png"]; ok {
			s, err := notebook.Multiline(raw)
			if err != nil {
				s = string(raw) // not a base64 string: compared as it is
			}
			out = append(out, strings.ReplaceAll(s, "\n", ""))
		}
	}
	return out
}

// samePixels decodes two base64 PNGs and compares them pixel by pixel.
func samePixels(want64, got64 string) error {
	decode := func(s string) (image.Image, error) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, err
		}
		return png.Decode(bytes.NewReader(b))
	}
	want, err := decode(want64)
	if err != nil {
		return fmt.Errorf("committed figure: %v", err)
	}
	got, err := decode(got64)
	if err != nil {
		return fmt.Errorf("figure is not a PNG: %v", err)
	}
	if want.Bounds() != got.Bounds() {
		return fmt.Errorf("figure is %v, committed %v", got.Bounds(), want.Bounds())
	}
	diff := 0
	r := want.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			r2, g2, b2, a2 := got.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	if diff > 0 {
		return fmt.Errorf("figure differs from the committed one in %d of %d pixels", diff, r.Dx()*r.Dy())
	}
	return nil
}

// serverRunner executes a notebook through a running Jupyter server as a
// browser's notebook page does: it opens a session (POST /api/sessions,
// which starts the kernel in the notebook's folder), sends each code cell as
// an execute_request over the kernel's websocket and collects the outputs
// from the iopub messages, then deletes the session. Its report on stdout
// is the executor's JSON (see notebooks_test.go); the time runs from the
// session request to the last cell's reply, the kernel's start included.
const serverRunner = `
import asyncio, json, sys, time, uuid
import nbformat
from nbformat.v4 import new_output
from tornado import ioloop
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

base, token, src, path, dst, timeout = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
auth = {"Authorization": "token " + token}
session = uuid.uuid4().hex
report = {"failed_cell": -1, "failure": "", "cells": []}

def message(msg_type, content):
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session,
                                  "username": "test", "date": "", "version": "5.3"},
                       "parent_header": {}, "metadata": {}, "content": content, "channel": "shell", "buffers": []})

async def reply_to(ws, msg, deadline, outputs=None):
    """Sends msg and reads until its shell reply and its iopub idle status."""
    msg_id = json.loads(msg)["header"]["msg_id"]
    await ws.write_message(msg)
    reply, idle = None, False
    while reply is None or not idle:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no reply within %d s" % timeout)
        raw = await asyncio.wait_for(ws.read_message(), left)
        if raw is None:
            raise ConnectionError("the kernel's websocket closed")
        m = json.loads(raw)
        if m.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        t, c = m["header"]["msg_type"], m["content"]
        if m.get("channel") == "shell":
            reply = c
        elif t == "status" and c.get("execution_state") == "idle":
            idle = True
        elif outputs is not None and t in ("stream", "display_data", "execute_result", "error"):
            fields = {k: c[k] for k in ("name", "text", "data", "metadata", "execution_count", "ename", "evalue", "traceback") if k in c}
            outputs.append(new_output(t, **fields))
        elif outputs is not None and t == "clear_output":
            outputs.clear()
    return reply

async def main():
    nb = nbformat.read(src, as_version=4)
    http = AsyncHTTPClient()
    start = time.monotonic()
    body = json.dumps({"path": path, "name": path.rsplit("/", 1)[-1], "type": "notebook", "kernel": {"name": "gonb"}})
    r = await http.fetch(HTTPRequest(base + "/api/sessions", method="POST", headers=auth, body=body, request_timeout=120))
    sess = json.loads(r.body)
    kernel = sess["kernel"]["id"]
    ws_url = base.replace("http", "ws", 1) + "/api/kernels/%s/channels?session_id=%s" % (kernel, session)
    index = -1
    try:
        ws = await websocket_connect(HTTPRequest(ws_url, headers=auth), max_message_size=1 << 30)
        # The kernel is ready when a kernel_info request gets its shell
        # reply and its iopub idle status. A status published before the
        # server's iopub subscription joins may be lost (ZeroMQ's slow
        # joiner; a loaded machine once waited 120 s here for nothing):
        # ask again every 10 s, as nbclient's wait_for_ready does, up to
        # 120 s.
        ready = time.monotonic() + 120
        while True:
            try:
                await reply_to(ws, message("kernel_info_request", {}), min(ready, time.monotonic() + 10))
                break
            except (TimeoutError, asyncio.TimeoutError):
                if time.monotonic() >= ready:
                    raise
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            t = time.monotonic()
            cell.outputs = []
            reply = await reply_to(ws, message("execute_request", {"code": cell.source, "silent": False,
                "store_history": True, "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}),
                t + timeout, cell.outputs)
            cell.execution_count = reply.get("execution_count")
            report["cells"].append([index, time.monotonic() - t])
            if reply.get("status") != "ok":
                report.update(failed_cell=index, failure="%s: %s" % (reply.get("ename", reply.get("status")), reply.get("evalue", "")))
                break
        report["seconds"] = time.monotonic() - start
        ws.close()
    except Exception as e:
        report.update(failed_cell=index, failure="%s: %s" % (type(e).__name__, e))
    finally:
        await http.fetch(HTTPRequest(base + "/api/sessions/" + sess["id"], method="DELETE", headers=auth), raise_error=False)
    nbformat.write(nb, dst)

ioloop.IOLoop.current().run_sync(main)
print(json.dumps(report))
`

// runThroughServer runs the notebook at src (path is its path on the
// server) through srv with serverRunner, writes the executed copy to dst and
// returns the report.
func runThroughServer(t *testing.T, ctx context.Context, srv *jupyterServer, src, path, dst string) executorReport {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	python := filepath.Join(root, "bin", "jupyter-python")
	cmd := exec.CommandContext(ctx, python, "-c", serverRunner, srv.base, srv.token, src, path, dst, strconv.Itoa(int(cellTimeout.Seconds())))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running %s through the server: %v\n%s", path, err, repo.Tail(stderr.String(), 30))
	}
	var r executorReport
	if err := json.Unmarshal(bytes.TrimSpace(lastLine(out)), &r); err != nil {
		t.Fatalf("running %s through the server: report %q: %v\n%s", path, out, err, repo.Tail(stderr.String(), 30))
	}
	return r
}

// copyLocalCAs copies the certificates (*.crt) of the folder src, Debian's
// folder of locally added certificate authorities, into dst.
func copyLocalCAs(src, dst string) error {
	crts, err := filepath.Glob(filepath.Join(src, "*.crt"))
	if err != nil || len(crts) == 0 {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, c := range crts {
		b, err := os.ReadFile(c)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(c)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
