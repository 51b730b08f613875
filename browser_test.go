//go:build e2e

package lessons_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// browserNotebooks are the lessons TestBrowser runs in the Jupyter UI: the
// first lesson and a heavier one with several figures.
var browserNotebooks = []string{
	"notebooks/00_start_here.ipynb",
	"notebooks/09_dual_kernel.ipynb",
}

// widgetNotebook is the lesson with the live cell that TestBrowser moves: a
// slider over the updates of an online perceptron run (plots.Stepper, built
// on plots.Explore). Executed headless (TestNotebooks, CI) the same cell
// finds no browser and shows a still figure; in the browser it is live.
// widgetMarker is the text that marks that cell.
const (
	widgetNotebook = "notebooks/03_online_perceptron.ipynb"
	widgetMarker   = "plots.Stepper("
)

// browserBaseURL is the base URL the test's Jupyter server runs under, as
// JupyterHub serves a user's server: GoNB's own widget connection ignores
// it, so the widget test fails unless plots.Explore mends it.
const browserBaseURL = "/user/u1/"

var (
	browserTimeout = flag.Duration("browser.timeout", 8*time.Minute,
		"time limit for the whole browser test (warm it takes about half a minute; a cold machine first compiles gonum/plot)")
	browserChromium = flag.String("browser.chromium", "chromium",
		"Chromium binary (a name on PATH or a path) for the browser test")
	browserShots = flag.String("browser.screenshots", "",
		"folder for the browser test's screenshots (default: a new temporary folder, kept after the test)")
)

// browserSetupHint is the fix for a missing browser.
const browserSetupHint = "install it with `bash scripts/setup.sh --with-chromium` (scripts/test.sh does), or pass -browser.chromium=PATH"

// TestBrowser does what a student does: it starts Jupyter Notebook on
// 127.0.0.1 (a free port, a random token, the gonb kernel registered by
// scripts/setup.sh) under the base URL browserBaseURL, as JupyterHub and
// Binder serve it, opens each of browserNotebooks in headless Chromium,
// driven through the Chrome DevTools Protocol with chromedp, chooses
// Cell > Run All in the menu bar, and waits until every code cell has run and
// the kernel is idle. It fails when a cell shows an error (an error output,
// or a panic on stderr), or when a figure of the committed notebook is not
// in the page as an <img> with image/png data that the browser decoded to a
// non-zero size. It saves a screenshot of each whole page and one of the cell
// with its first figure, and prints their paths.
//
// The notebooks run as temporary copies in bin/browser-test-* (bin/ is
// ignored by git and Docker), below the repository root so that the setup
// cell finds go.mod; the committed notebooks are never opened by the server,
// so the autosave of the UI cannot change them. The Jupyter server, its
// kernels and the browser are stopped in every case: on failure, on the
// -browser.timeout and before go test's own -timeout.
//
// The "widget" subtest moves the live slider of widgetNotebook, the cell
// that TestNotebooks runs headless as a still figure, and checks that the
// figure changes with it (see runWidgetInBrowser). It also checks that no
// lesson uses GoNB's widgets directly: they wait forever headless, where
// plots.Explore falls back to a still figure.
//
// A missing or broken Chromium fails the test, with the command that
// installs it; it never skips.
func TestBrowser(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("browser test: Chromium not found (%v): %s", err, browserSetupHint)
	}
	rt := newJupyterRuntime(t)

	ctx := browserContext(t)
	work := workFolder(t, root, "browser-test-") // copies of the notebooks
	for _, nb := range browserNotebooks {
		b, err := os.ReadFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, filepath.Base(nb)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The widget lesson, as committed.
	widgetCopy := filepath.Join(work, filepath.Base(widgetNotebook))
	if b, err := os.ReadFile(widgetNotebook); err != nil {
		t.Fatal(err)
	} else if n := bytes.Count(b, []byte(widgetMarker)); n != 1 {
		t.Fatalf("%s: %q occurs %d times, want once (its live cell)", widgetNotebook, widgetMarker, n)
	} else if err := os.WriteFile(widgetCopy, b, 0o644); err != nil {
		t.Fatal(err)
	}

	srv := startJupyterServer(t, ctx, rt, root)
	bctx := startChromium(t, ctx, chromium)

	shots := *browserShots
	if shots == "" {
		shots, err = os.MkdirTemp("", "perceptron-browser-test-")
	} else {
		err = os.MkdirAll(shots, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots go to %s", shots)

	for _, nb := range browserNotebooks {
		t.Run(nb, func(t *testing.T) {
			rel, err := filepath.Rel(root, filepath.Join(work, filepath.Base(nb)))
			if err != nil {
				t.Fatal(err)
			}
			committed, err := readNotebook(nb)
			if err != nil {
				t.Fatal(err)
			}
			runInBrowser(t, bctx, srv, filepath.ToSlash(rel), committed, shots)
		})
	}

	t.Run("widget", func(t *testing.T) {
		// A raw GoNB widget would hang TestNotebooks: lessons use
		// plots.Explore (or Stepper), which falls back to a still figure.
		paths, err := filepath.Glob("notebooks/*.ipynb")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			nb, err := readNotebook(p)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range nb.Cells {
				if c.CellType == "code" && strings.Contains(multiline(c.Source), "gonbui/widgets") {
					t.Errorf("%s: cell %d uses GoNB's widgets directly, which wait forever when the notebook runs headless: use plots.Explore", p, i)
				}
			}
		}
		rel, err := filepath.Rel(root, widgetCopy)
		if err != nil {
			t.Fatal(err)
		}
		runWidgetInBrowser(t, bctx, srv, filepath.ToSlash(rel), shots)
	})
}

// browserContext returns the context of a browser test: it ends after
// -browser.timeout, or early enough to clean up before go test panics on
// its -timeout.
func browserContext(t *testing.T) context.Context {
	deadline := time.Now().Add(*browserTimeout)
	if d, ok := t.Deadline(); ok && d.Add(-45*time.Second).Before(deadline) {
		deadline = d.Add(-45 * time.Second)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx
}

// workFolder makes a temporary folder named prefix* in <root>/bin (below
// the repository root, so that the notebooks' setup cell finds go.mod) and
// removes it at the end of the test.
func workFolder(t *testing.T, root, prefix string) string {
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	work, err := os.MkdirTemp(filepath.Join(root, "bin"), prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeAllRetry(t, work) })
	return work
}

// jupyterServer is a running Jupyter Notebook server.
type jupyterServer struct {
	base  string // http://127.0.0.1:PORT and the base URL, with no final slash
	token string
	// labMode is how JupyterLab opens a notebook: "lab" (the default,
	// BASE/lab/tree/PATH) or "doc", its single-document mode
	// (BASE/doc/tree/PATH), where Binder's labpath= links land.
	labMode string
}

// startJupyterServer starts Jupyter Notebook on root, on 127.0.0.1 and a
// free port, under browserBaseURL, with a random token and the test copy of
// the gonb kernel spec (see startServer).
func startJupyterServer(t *testing.T, ctx context.Context, rt *jupyterRuntime, root string) *jupyterServer {
	t.Helper()
	return startServer(t, ctx, rt, root, serverSpec{
		what: "browser test: Jupyter Notebook", base: browserBaseURL, log: "jupyter.log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", "notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--notebook-dir=" + root, "--NotebookApp.token=" + token,
				"--NotebookApp.password=", "--NotebookApp.base_url=" + browserBaseURL}
		},
	})
}

// serverSpec says how to start one kind of Jupyter server for startServer.
type serverSpec struct {
	what string                                // who and what, for messages: "browser test: Jupyter Notebook"
	base string                                // the base URL, "/user/u1/"
	log  string                                // the server log's file name
	hint string                                // the fix when the server cannot start
	args func(port int, token string) []string // the arguments of rt.python
}

// startServer starts a Jupyter server as spec says, on 127.0.0.1 and a free
// port, with a random token, the test copy of the gonb kernel spec and
// Jupyter configuration, data and runtime folders of its own (so no saved
// workspace or setting of the user applies); it waits until the server
// answers its REST API and registers its shutdown (kernels first, then the
// server's process group) with t.Cleanup.
func startServer(t *testing.T, ctx context.Context, rt *jupyterRuntime, root string, spec serverSpec) *jupyterServer {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatalf("%s: no free port: %v", spec.what, err)
	}
	tokenBytes := make([]byte, 16)
	if f, err := os.Open("/dev/urandom"); err != nil {
		t.Fatal(err)
	} else {
		_, err = io.ReadFull(f, tokenBytes)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	srv := &jupyterServer{base: fmt.Sprintf("http://127.0.0.1:%d%s", port, strings.TrimSuffix(spec.base, "/")), token: fmt.Sprintf("%x", tokenBytes)}

	tmp := t.TempDir()
	logPath := filepath.Join(tmp, spec.log)
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := spec.args(port, srv.token)
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	cmd := exec.Command(rt.python, args...)
	cmd.Dir = root
	cmd.Env = append(slices.Clone(rt.env), "JUPYTER_CONFIG_DIR="+filepath.Join(tmp, "config"),
		"JUPYTER_DATA_DIR="+filepath.Join(tmp, "data"), "JUPYTER_RUNTIME_DIR="+filepath.Join(tmp, "runtime"))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group, so that the cleanup stops the server and what it
	// started; SIGTERM (the server then shuts its kernels down) if this test
	// process dies first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("%s: starting %s %s: %v: %s", spec.what, rt.python, args[0], err, spec.hint)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		srv.shutdownKernels(t)
		stopGroup(cmd.Process.Pid, exited, 15*time.Second)
		if t.Failed() {
			t.Logf("%s log (%s):\n%s", spec.what, logPath, tail(readFile(logPath), 40))
			t.Logf("GoNB log (%s):\n%s", rt.logs, tail(ansi.ReplaceAllString(readFile(rt.logs), ""), 40))
		}
	})

	// Wait until the server answers its REST API.
	ready, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for {
		if err := srv.get(ready, "/api/status", nil); err == nil {
			return srv
		}
		select {
		case <-exited:
			t.Fatalf("%s: the server exited before it answered (%v):\n%s", spec.what, cmd.ProcessState, tail(readFile(logPath), 40))
		case <-ready.Done():
			t.Fatalf("%s: the server did not answer on %s within 90 s:\n%s", spec.what, srv.base, tail(readFile(logPath), 40))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// get sends an authenticated GET to the server's path and decodes the JSON
// answer into v, unless v is nil.
func (s *jupyterServer) get(ctx context.Context, path string, v any) error {
	return s.do(ctx, http.MethodGet, path, v)
}

func (s *jupyterServer) do(ctx context.Context, method, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(body))
	}
	if v != nil {
		return json.Unmarshal(body, v)
	}
	return nil
}

// shutdownKernels asks the server to shut down every kernel it runs (a
// kernel runs in a session of its own, outside the server's process group).
func (s *jupyterServer) shutdownKernels(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var kernels []struct {
		ID string `json:"id"`
	}
	if err := s.get(ctx, "/api/kernels", &kernels); err != nil {
		t.Logf("browser test: listing kernels to shut down: %v", err)
		return
	}
	for _, k := range kernels {
		if err := s.do(ctx, http.MethodDelete, "/api/kernels/"+url.PathEscape(k.ID), nil); err != nil {
			t.Logf("browser test: shutting down kernel %s: %v", k.ID, err)
		}
	}
}

// stopGroup sends SIGTERM to the process group pgid and, if its leader has
// not exited (closed exited) within grace, SIGKILL.
func stopGroup(pgid int, exited <-chan struct{}, grace time.Duration) {
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(grace):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-exited
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startChromium starts headless Chromium for the test, with a fresh profile
// and with its background networking off (this machine's network is closed),
// and registers its shutdown with t.Cleanup. It fails the test when the
// browser does not start.
func startChromium(t *testing.T, ctx context.Context, chromium string) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "perceptron-browser-profile-")
	if err != nil {
		t.Fatal(err)
	}
	var output syncBuffer
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox cannot start
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.WindowSize(1280, 1000),
		chromedp.CombinedOutput(&output),
		// Chromium's singleton socket folder (org.chromium.Chromium.*) goes
		// into the profile, which the cleanup removes, not into /tmp, where a
		// stopped browser leaves it.
		chromedp.Env("TMPDIR=" + profile),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc() // stops the browser and waits for it
		removeAllRetry(t, profile)
	})
	// Start the browser with no action, so a failure is about the browser.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("browser test: Chromium (%s) did not start: %v\n%s\n%s", chromium, err,
			tail(output.String(), 20), browserSetupHint)
	}
	return bctx
}

// removeAllRetry removes dir; Chromium's helpers may still write in its
// profile for a moment after it exits, so it tries again for a few seconds.
func removeAllRetry(t *testing.T, dir string) {
	var err error
	for range 50 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("browser test: removing %s: %v", dir, err)
}

// pageState is what the page shows while the notebook runs.
type pageState struct {
	Loaded   bool   `json:"loaded"`   // the notebook and its kernel are ready
	Idle     bool   `json:"idle"`     // the kernel indicator shows idle
	Dead     bool   `json:"dead"`     // the kernel indicator shows a dead kernel
	Dialog   string `json:"dialog"`   // text of an open modal dialog
	Code     int    `json:"code"`     // non-empty code cells
	Started  int    `json:"started"`  // cells the UI sent for execution since Run All
	Finished int    `json:"finished"` // cells whose execution finished since Run All
	Running  int    `json:"running"`  // cells marked running ("In [*]")
}

// stateJS reads pageState. window.__e2e holds the counts of the
// execute.CodeCell and finished_execute.CodeCell events that the UI triggers,
// installed by installCountersJS before Run All.
const stateJS = `(() => {
	const nb = window.Jupyter && Jupyter.notebook;
	const modal = document.querySelector('.modal.in');
	const s = {loaded: false, idle: false, dead: false, dialog: modal ? modal.innerText.trim() : '',
		code: 0, started: 0, finished: 0, running: 0};
	if (!nb || !nb._fully_loaded) return s;
	s.loaded = !!(nb.kernel && nb.kernel.is_connected());
	s.idle = !!document.querySelector('#kernel_indicator_icon.kernel_idle_icon');
	s.dead = !!document.querySelector('#kernel_indicator_icon.kernel_dead_icon');
	s.code = nb.get_cells().filter(c => c.cell_type === 'code' && c.get_text().trim() !== '').length;
	s.running = document.querySelectorAll('.code_cell.running').length;
	if (window.__e2e) { s.started = __e2e.started; s.finished = __e2e.finished; }
	return s;
})()`

const installCountersJS = `(() => {
	window.__e2e = {started: 0, finished: 0};
	Jupyter.notebook.events.on('execute.CodeCell', () => { __e2e.started++; });
	Jupyter.notebook.events.on('finished_execute.CodeCell', () => { __e2e.finished++; });
	return true;
})()`

// pageResult is what the executed notebook shows.
type pageResult struct {
	Errors []struct {
		Cell  int    `json:"cell"`
		Text  string `json:"text"`
		Shown bool   `json:"shown"` // an error drawn in the page (the others are from the model)
	} `json:"errors"`
	Images []struct {
		Cell     int    `json:"cell"`
		Src      string `json:"src"` // the start of the data URL
		Complete bool   `json:"complete"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
	} `json:"images"`
	Unexecuted []int `json:"unexecuted"` // non-empty code cells with no execution count
}

// resultJS reads pageResult from the notebook model (errors, even those the
// UI does not draw, such as an error without a traceback after a panic) and
// from the page (drawn errors and images).
const resultJS = `(() => {
	const r = {errors: [], images: [], unexecuted: []};
	Jupyter.notebook.get_cells().forEach((c, i) => {
		if (c.cell_type !== 'code') return;
		if (c.get_text().trim() !== '' && typeof c.input_prompt_number !== 'number') r.unexecuted.push(i);
		(c.output_area.outputs || []).forEach(o => {
			if (o.output_type === 'error') {
				r.errors.push({cell: i, text: o.ename + ': ' + o.evalue + '\n' + (o.traceback || []).join('\n')});
			} else if (o.output_type === 'stream' && o.name === 'stderr' && /panic:/.test(o.text)) {
				r.errors.push({cell: i, text: 'stderr: ' + o.text});
			}
		});
		c.element[0].querySelectorAll('.output_error').forEach(e => {
			r.errors.push({cell: i, text: e.innerText, shown: true});
		});
		c.element[0].querySelectorAll('.output_png img').forEach(img => {
			r.images.push({cell: i, src: img.src.slice(0, 22), complete: img.complete,
				width: img.naturalWidth, height: img.naturalHeight});
		});
	});
	return r;
})()`

// runInBrowser opens the notebook at rel (a path below the server's root)
// in a new tab, runs it with Cell > Run All, checks what it shows against
// the committed notebook and saves screenshots into shots.
func runInBrowser(t *testing.T, bctx context.Context, srv *jupyterServer, rel string, committed *notebook, shots string) {
	tab, ctx, screenshot, closeTab := newTab(t, bctx, rel, shots)
	defer closeTab()
	start := time.Now()
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	shot := false // the whole page has been saved
	defer func() {
		if !shot {
			screenshot("_failure")
		}
	}()

	runStart := openAndRunAll(t, ctx, srv, rel, start)
	st, clicked := waitRunAll(t, ctx, rel)
	t.Logf("%s: Run All finished in %.1fs (%d code cells)", rel, time.Since(runStart).Seconds(), st.Code)
	checkLive(t, rel, committed, clicked)
	res := readResult(t, ctx, rel)
	reportErrors(t, rel, res)

	// Each figure (image/png output) of the committed notebook must be drawn
	// in its cell as a decoded PNG.
	drawn := map[int]int{}
	for _, img := range res.Images {
		switch {
		case img.Src != "data:image/png;base64,":
			t.Errorf("%s: cell %d: image source starts %q, want a data:image/png;base64 URL", rel, img.Cell, img.Src)
		case !img.Complete || img.Width == 0 || img.Height == 0:
			t.Errorf("%s: cell %d: image not decoded by the browser (complete %v, natural size %dx%d)", rel, img.Cell, img.Complete, img.Width, img.Height)
		default:
			drawn[img.Cell]++
		}
	}
	want := 0
	for i, c := range committed.Cells {
		n := 0
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/png"]; ok {
				n++
			}
		}
		want += n
		if drawn[i] < n {
			t.Errorf("%s: cell %d shows %d figures in the browser, the committed notebook has %d", rel, i, drawn[i], n)
		}
	}
	if want == 0 {
		t.Errorf("%s: the committed notebook has no figure to look for", rel)
	}
	t.Logf("%s: %d figures drawn as PNG images (committed: %d), %d errors", rel, len(res.Images), want, len(res.Errors))

	// Screenshots: the whole page, and the cell of the first figure.
	screenshot("")
	shot = true
	if len(res.Images) > 0 {
		sctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		png, err := chromedp.Run(sctx, chromedp.Screenshot(chromedp.CSS(".cell:has(.output_png img)")))
		if err != nil {
			t.Errorf("%s: screenshot of the first figure's cell: %v", rel, err)
		} else {
			savePNG(t, filepath.Join(shots, name+"_figure.png"), png)
		}
	}
}

// widgetState is what the page shows of the widget cell (the code cell
// holding widgetMarker).
type widgetState struct {
	Found    bool     `json:"found"`    // the cell is in the notebook
	Running  bool     `json:"running"`  // the cell is marked running
	Slider   bool     `json:"slider"`   // the cell shows an <input type="range">
	Value    int      `json:"value"`    // the slider's value
	Min      int      `json:"min"`      // its minimum
	Max      int      `json:"max"`      // and maximum
	Button   bool     `json:"button"`   // the cell shows a button (Done)
	Frame    int      `json:"frame"`    // the frame number in the values above the frame shown
	Caption  string   `json:"caption"`  // its text
	Image    string   `json:"image"`    // length and hash of the frame's data URL
	Complete bool     `json:"complete"` // the browser has decoded the frame
	PNGs     []string `json:"pngs"`     // length and hash of each image/png output of the cell
	Mended   string   `json:"mended"`   // the widget address rewrite, "from -> to" (plots.MendWidgetURLScript)
}

// widgetJS reads widgetState; the %s is the JSON string of widgetMarker.
const widgetJS = `(() => {
	const r = {found: false, running: false, slider: false, value: 0, min: 0, max: 0, button: false,
		frame: 0, caption: '', image: '', complete: false, pngs: [], mended: ''};
	const m = globalThis.__perceptronWidgetURL;
	if (m) r.mended = m.from + ' -> ' + m.to;
	const nb = window.Jupyter && Jupyter.notebook;
	if (!nb || !nb._fully_loaded) return r;
	const cell = nb.get_cells().find(c => c.cell_type === 'code' && c.get_text().includes(%s));
	if (!cell) return r;
	r.found = true;
	const el = cell.element[0];
	// Images are told apart by the length and a hash of their data URL.
	const id = src => {
		let h = 0;
		for (let i = 0; i < src.length; i++) h = (Math.imul(h, 31) + src.charCodeAt(i)) | 0;
		return src.length + ':' + (h >>> 0).toString(16);
	};
	r.running = el.classList.contains('running');
	const slider = el.querySelector('.output_area input[type=range]');
	if (slider) {
		r.slider = true;
		r.value = +slider.value; r.min = +slider.min; r.max = +slider.max;
	}
	r.button = !!el.querySelector('.output_area button[id^="gonb_button_"]');
	const frame = el.querySelector('.output_area .plots-explore-frame');
	if (frame) {
		const k = /frame = (\d+)/.exec(frame.dataset.values || '');
		r.frame = k ? +k[1] : 0;
		const caption = frame.querySelector('.plots-explore-caption');
		r.caption = caption ? caption.innerText.trim() : '';
		const img = frame.querySelector('img');
		if (img) {
			r.image = id(img.src);
			r.complete = img.complete && img.naturalWidth > 0;
		}
	}
	el.querySelectorAll('.output_png img').forEach(img => r.pngs.push(id(img.src)));
	return r;
})()`

// widgetCell selects the widget cell while it shows the slider.
const widgetCell = ".cell:has(.output_area input[type=range])"

// runWidgetInBrowser opens the copy of widgetNotebook at rel, runs it with Cell > Run All and waits for the
// slider and the frame it starts at. Then it moves the slider three times as
// a student would: a click in its middle, the left arrow key, and a drag to
// its start (value set, then the input and change events a drag fires). After
// each move the caption must name the slider's new value and the image must
// differ from the one before. It clicks Done, waits for the rest of the
// notebook to run, and checks that no cell shows an error and that the cell
// keeps the chosen frame as its figure. Screenshots: the widget cell before
// and after the moves, and the whole page at the end. The kernel is
// interrupted if the test ends while the widget still runs.
func runWidgetInBrowser(t *testing.T, bctx context.Context, srv *jupyterServer, rel, shots string) {
	tab, ctx, screenshot, closeTab := newTab(t, bctx, rel, shots)
	defer closeTab()
	start := time.Now()
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	served := true // the widget cell may still be serving the slider
	defer func() {
		if !served {
			return
		}
		// Stop the widget cell, so that the kernel (shut down with the
		// server) is not left waiting for the slider.
		ictx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if _, err := chromedp.Run(ictx, chromedp.Evaluate[bool](`(Jupyter.notebook.kernel.interrupt(), true)`)); err != nil {
			t.Logf("%s: interrupting the kernel: %v", rel, err)
		}
	}()
	shot := false // the whole page has been saved
	defer func() {
		if !shot {
			screenshot("_failure")
		}
	}()
	markerJSON, err := json.Marshal(widgetMarker)
	if err != nil {
		t.Fatal(err)
	}
	js := fmt.Sprintf(widgetJS, markerJSON)

	// waitWidget polls the widget cell until done says so; it fails the test
	// when a cell shows an error, the kernel dies, a dialog opens or ctx ends.
	waitWidget := func(ctx context.Context, what string, done func(widgetState) bool) widgetState {
		t.Helper()
		var w widgetState
		_, err := waitState(ctx, func(s pageState) (bool, error) {
			if s.Dialog != "" {
				return false, fmt.Errorf("a dialog is open: %q", s.Dialog)
			}
			if s.Dead {
				return false, errors.New("the kernel died: see README, Troubleshooting")
			}
			res, err := chromedp.Run(ctx, chromedp.Evaluate[pageResult](resultJS))
			if err != nil {
				return false, nil // the page is changing; read again
			}
			if len(res.Errors) > 0 {
				e := res.Errors[0]
				return false, fmt.Errorf("cell %d shows an error:\n%s", e.Cell, tail(strings.TrimSpace(ansi.ReplaceAllString(e.Text, "")), 30))
			}
			if w, err = chromedp.Run(ctx, chromedp.Evaluate[widgetState](js)); err != nil {
				return false, nil
			}
			return done(w), nil
		})
		if err != nil {
			t.Fatalf("%s: waiting for %s: %v (last widget state %+v)", rel, what, err, w)
		}
		return w
	}
	cellShot := func(suffix string) {
		sctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		png, err := chromedp.Run(sctx, chromedp.Screenshot(chromedp.CSS(widgetCell)))
		if err != nil {
			t.Errorf("%s: screenshot of the widget cell: %v", rel, err)
			return
		}
		savePNG(t, filepath.Join(shots, name+suffix+".png"), png)
	}
	// The slider's positions min..max stand for frames 1..max-min+1.
	shows := func(w widgetState) bool {
		return w.Slider && w.Button && w.Frame == w.Value-w.Min+1 && w.Complete &&
			strings.HasPrefix(w.Caption, fmt.Sprintf("Frame %d of %d", w.Frame, w.Max-w.Min+1))
	}

	runStart := openAndRunAll(t, ctx, srv, rel, start)
	w := waitWidget(ctx, "the slider and its first frame", shows)
	t.Logf("%s: slider (%d to %d) and frame %d shown %.1fs after Run All: %q", rel, w.Min, w.Max, w.Frame, time.Since(runStart).Seconds(), w.Caption)
	// Under a base URL the widgets work only through the mended address.
	basePath := browserBaseURL // the server's base URL (TestJupyterHub: /user/NAME/)
	if u, err := url.Parse(srv.base); err == nil && u.Path != "" {
		basePath = u.Path + "/"
	}
	if want := "/api/kernels/ -> ws://"; !strings.Contains(w.Mended, want) || !strings.Contains(w.Mended, basePath+"api/kernels/") {
		t.Errorf("%s: GoNB's widget address was rewritten %q, want the base URL %s in it", rel, w.Mended, basePath)
	} else {
		t.Logf("%s: widget address mended: %s", rel, w.Mended)
	}
	if w.Max-w.Min < 3 {
		t.Fatalf("%s: the slider runs from %d to %d: too few positions to move it three times", rel, w.Min, w.Max)
	}
	if err := wholeNotebook(ctx); err != nil {
		t.Fatalf("%s: making the viewport as tall as the notebook: %v", rel, err)
	}
	cellShot("_before")

	moves := []struct {
		how  string
		move func(ctx context.Context) error
	}{
		{"a click in the middle of the slider", func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(widgetCell+" input[type=range]")))
		}},
		{"the left arrow key", func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft))
		}},
		{"a drag to its start", func(ctx context.Context) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
				const s = document.querySelector('`+widgetCell+` input[type=range]');
				s.value = s.min;
				s.dispatchEvent(new Event('input', {bubbles: true}));
				s.dispatchEvent(new Event('change', {bubbles: true}));
				return true;
			})()`))
			return err
		}},
	}
	seen := map[string]int{w.Image: w.Frame} // frames by image
	for _, m := range moves {
		before := w
		if err := m.move(ctx); err != nil {
			t.Fatalf("%s: moving the slider by %s: %v", rel, m.how, err)
		}
		mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		w = waitWidget(mctx, "the frame after "+m.how, func(w widgetState) bool {
			return w.Value != before.Value && shows(w) && w.Image != before.Image
		})
		cancel()
		if f, ok := seen[w.Image]; ok && f != w.Frame {
			t.Errorf("%s: frames %d and %d show the same image", rel, f, w.Frame)
		}
		seen[w.Image] = w.Frame
		t.Logf("%s: %s moved the slider from %d to %d; the figure changed: %q", rel, m.how, before.Value, w.Value, w.Caption)
	}
	cellShot("_after")

	// Done: the cell keeps the chosen frame and the rest of the notebook runs.
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(widgetCell+` .output_area button[id^="gonb_button_"]`))); err != nil {
		t.Fatalf("%s: clicking Done: %v", rel, err)
	}
	// The rest of the notebook (a check cell) takes seconds.
	dctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	st, _ := waitRunAll(t, dctx, rel) // live cells after the widget cell are closed too
	served = false
	t.Logf("%s: Done clicked; Run All finished %.1fs after it was chosen (%d code cells)", rel, time.Since(runStart).Seconds(), st.Code)
	reportErrors(t, rel, readResult(t, ctx, rel))
	chosen := w
	w = waitWidget(dctx, "the chosen frame as the cell's figure", func(w widgetState) bool { return len(w.PNGs) > 0 })
	switch {
	case w.Slider || w.Button:
		t.Errorf("%s: the widget cell still shows its controls after Done (%+v)", rel, w)
	case len(w.PNGs) != 1:
		t.Errorf("%s: the widget cell shows %d figures after Done, want 1", rel, len(w.PNGs))
	case w.PNGs[0] != chosen.Image:
		t.Errorf("%s: the widget cell's figure after Done (%s) is not frame %d (%s)", rel, w.PNGs[0], chosen.Frame, chosen.Image)
	}
	screenshot("")
	shot = true
}

// newTab opens a new tab of the browser bctx for the notebook at rel. It
// returns the tab (no time limit), ctx, the tab until 20 s before the
// browser's own deadline (the test's), so that a failure screenshot can still
// be taken after a wait on ctx timed out, a function that saves a screenshot
// of the whole page into shots as <notebook name><suffix>.png, and the
// function that closes the tab.
func newTab(t *testing.T, bctx context.Context, rel, shots string) (tab, ctx context.Context, screenshot func(suffix string), closeTab func()) {
	t.Helper()
	tab, closeBrowserTab := chromedp.NewContext(bctx)
	// Open the tab with no time limit: the first run on a chromedp context
	// ties the tab's life to that run's context, and the failure screenshot
	// needs the tab after the time-limited context has ended.
	if err := chromedp.Do(tab); err != nil {
		closeBrowserTab()
		t.Fatalf("%s: opening a browser tab: %v", rel, err)
	}
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	screenshot = func(suffix string) {
		ctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		png, err := fullPage(ctx)
		if err != nil {
			t.Logf("%s: screenshot: %v", rel, err)
			return
		}
		savePNG(t, filepath.Join(shots, name+suffix+".png"), png)
	}
	ctx, cancel := context.WithCancel(tab)
	if d, ok := tab.Deadline(); ok {
		ctx, cancel = context.WithDeadline(tab, d.Add(-20*time.Second))
	}
	return tab, ctx, screenshot, func() { cancel(); closeBrowserTab() }
}

// openAndRunAll opens the notebook at rel in the tab of ctx, waits for it
// and an idle kernel, and chooses Cell > Run All in the menu bar; it returns
// when Run All was chosen. start is when the tab was opened.
func openAndRunAll(t *testing.T, ctx context.Context, srv *jupyterServer, rel string, start time.Time) time.Time {
	t.Helper()
	pageURL := srv.base + "/notebooks/" + (&url.URL{Path: rel}).EscapedPath()
	if srv.token != "" { // else the browser has signed in (TestJupyterHub)
		pageURL += "?token=" + srv.token
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatalf("%s: opening %s: %v", rel, srv.base+"/notebooks/"+rel, err)
	}

	// Wait for the notebook and its kernel.
	st, err := waitState(ctx, func(s pageState) (bool, error) {
		if s.Dialog != "" {
			return false, fmt.Errorf("a dialog is open: %q", s.Dialog)
		}
		if s.Dead {
			return false, errors.New("the kernel is dead: see README, Troubleshooting")
		}
		return s.Loaded && s.Idle, nil
	})
	if err != nil {
		t.Fatalf("%s: waiting for the notebook and an idle gonb kernel: %v (last state %+v)", rel, err, st)
	}
	t.Logf("%s: page and kernel ready in %.1fs", rel, time.Since(start).Seconds())

	// Cell > Run All, through the menu bar.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](installCountersJS)); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	runStart := time.Now()
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("celllink")),
		chromedp.WaitVisible(chromedp.CSS("#run_all_cells > a")),
		chromedp.Click(chromedp.CSS("#run_all_cells > a")),
	); err != nil {
		t.Fatalf("%s: choosing Cell > Run All: %v", rel, err)
	}

	return runStart
}

// clickDoneJS clicks, once each, the Done button of every live control
// (plots.Explore, plots.Stepper) that the outputs matching %s show, and
// returns how many it clicked. In a browser such a cell stays live, and
// keeps the kernel busy, until Done is clicked.
const clickDoneJS = `(() => {
	let n = 0;
	document.querySelectorAll(%q).forEach(b => {
		if (b.textContent.trim() === "Done" && !b.dataset.testClicked) {
			b.dataset.testClicked = "1";
			b.click();
			n++;
		}
	});
	return n;
})()`

// clickDone runs clickDoneJS for the output areas matched by area.
func clickDone(ctx context.Context, area string) int {
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(clickDoneJS, area+` button[id^="gonb_button_"]`)))
	if err != nil {
		return 0
	}
	return n
}

// liveCells counts the code cells of nb that open live controls in a
// browser (plots.Explore or plots.Stepper).
func liveCells(nb *notebook) int {
	n := 0
	for _, c := range nb.Cells {
		src := multiline(c.Source)
		if c.CellType == "code" && (strings.Contains(src, "plots.Explore(") || strings.Contains(src, "plots.Stepper(")) {
			n++
		}
	}
	return n
}

// checkLive reports how many of the committed notebook's live cells went
// live in the browser and were closed with Done. A live cell that fell back
// to its still figure is only logged: plots.Explore decides that no browser
// answers after a few seconds without a round trip, which a loaded machine
// can miss, and the still figure is then the right output. That a control
// does go live, and works, in each front end is what the widget subtests
// assert (lesson 03's slider, moved and closed with Done).
func checkLive(t *testing.T, rel string, committed *notebook, clicked int) {
	t.Helper()
	if want := liveCells(committed); clicked != want {
		t.Logf("%s: %d of the notebook's %d live cells (plots.Explore/Stepper) went live and were closed with Done; the others showed their still figure", rel, clicked, want)
	} else if want > 0 {
		t.Logf("%s: %d live controls appeared and were closed with Done", rel, want)
	}
}

// waitRunAll waits until Run All (chosen by openAndRunAll) has finished,
// clicking Done on every live control as it appears, and returns the last
// state and how many Done buttons it clicked.
func waitRunAll(t *testing.T, ctx context.Context, rel string) (pageState, int) {
	t.Helper()
	clicked := 0
	// Every non-empty code cell was sent and has finished, none is marked
	// running and the kernel is idle, twice in a row (the kernel is idle for
	// a moment between two cells).
	stable := 0
	st, err := waitState(ctx, func(s pageState) (bool, error) {
		if s.Dialog != "" {
			return false, fmt.Errorf("a dialog is open: %q", s.Dialog)
		}
		if s.Dead {
			return false, errors.New("the kernel died: see README, Troubleshooting")
		}
		clicked += clickDone(ctx, ".output_area")
		if s.Started == s.Code && s.Finished >= s.Started && s.Running == 0 && s.Idle {
			stable++
		} else {
			stable = 0
		}
		return stable >= 2, nil
	})
	if err != nil {
		t.Fatalf("%s: waiting for Run All to finish: %v (last state %+v: want started = finished = code cells, 0 running, idle)", rel, err, st)
	}

	return st, clicked
}

// readResult reads what the executed notebook shows, waiting a little for
// the images to be decoded.
func readResult(t *testing.T, ctx context.Context, rel string) pageResult {
	t.Helper()
	var res pageResult
	for i := 0; ; i++ {
		var err error
		res, err = chromedp.Run(ctx, chromedp.Evaluate[pageResult](resultJS))
		if err != nil {
			t.Fatalf("%s: reading the page: %v", rel, err)
		}
		complete := true
		for _, img := range res.Images {
			complete = complete && img.Complete
		}
		if complete || i == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}

	return res
}

// reportErrors fails the test for each cell that shows an error and each
// code cell that did not run.
func reportErrors(t *testing.T, rel string, res pageResult) {
	t.Helper()
	// One report per cell: its error outputs and panics, or else what the
	// page draws as an error.
	var errCells []int
	modelErrs, shownErrs := map[int][]string{}, map[int][]string{}
	for _, e := range res.Errors {
		if len(modelErrs[e.Cell])+len(shownErrs[e.Cell]) == 0 {
			errCells = append(errCells, e.Cell)
		}
		text := strings.TrimSpace(ansi.ReplaceAllString(e.Text, ""))
		if e.Shown {
			shownErrs[e.Cell] = append(shownErrs[e.Cell], text)
		} else {
			modelErrs[e.Cell] = append(modelErrs[e.Cell], text)
		}
	}
	for _, c := range errCells {
		texts := modelErrs[c]
		if len(texts) == 0 {
			texts = shownErrs[c]
		}
		t.Errorf("%s: cell %d shows an error:\n%s", rel, c, tail(strings.Join(texts, "\n"), 30))
	}
	for _, i := range res.Unexecuted {
		t.Errorf("%s: cell %d has no execution count after Run All", rel, i)
	}
}

// waitState polls the page state every 250 ms until done says so, returns
// an error, or ctx ends; it returns the last state read.
func waitState(ctx context.Context, done func(pageState) (bool, error)) (pageState, error) {
	var last pageState
	var lastErr error
	for {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS))
		if err == nil {
			last = s
			ok, err := done(s)
			if err != nil || ok {
				return s, err
			}
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return last, fmt.Errorf("%v (last page error: %v)", ctx.Err(), lastErr)
			}
			return last, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// maxShotHeight keeps a full-page screenshot within what Chromium can draw
// in one image.
const maxShotHeight = 16000

// fullPage takes a PNG screenshot of the whole notebook (see wholeNotebook).
func fullPage(ctx context.Context) ([]byte, error) {
	if err := wholeNotebook(ctx); err != nil {
		return nil, err
	}
	return chromedp.Run(ctx, chromedp.FullScreenshot(100))
}

// wholeNotebook makes the viewport as tall as the notebook (up to
// maxShotHeight): the notebook UI scrolls inside its own panel, and at that
// height it draws every cell with no scrolling, where screenshots of the page
// or of an element, and clicks at an element's place, see what a student sees.
func wholeNotebook(ctx context.Context) error {
	h, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const header = document.querySelector('#header');
		const nb = document.querySelector('#notebook');
		return (header ? header.offsetHeight : 0) + (nb ? nb.scrollHeight : document.body.scrollHeight) + 40;
	})()`))
	if err != nil {
		return err
	}
	h = min(max(h, 1000), maxShotHeight)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, int64(h))); err != nil {
		return err
	}
	// Let the UI resize its panel to the new window height.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.dispatchEvent(new Event('resize')), true)`)); err != nil {
		return err
	}
	time.Sleep(500 * time.Millisecond)
	return nil
}

// savePNG writes a screenshot and prints its path (in the test log and on
// stdout, which go test shows with -v).
func savePNG(t *testing.T, path string, png []byte) {
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("saving screenshot: %v", err)
		return
	}
	t.Logf("screenshot: %s", path)
	fmt.Printf("browser test screenshot: %s\n", path)
}
