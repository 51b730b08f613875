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
)

// browserNotebooks are the lessons TestBrowser runs in the Jupyter UI: the
// first lesson and a heavier one with several figures.
var browserNotebooks = []string{
	"notebooks/00_start_here.ipynb",
	"notebooks/09_dual_kernel.ipynb",
}

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
// scripts/setup.sh), opens each of browserNotebooks in headless Chromium,
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
// The issue also asks to move a GoNB widget and see the figure change: no
// lesson has a widget cell (widgets and input requests hang when notebooks
// run headless, as TestNotebooks runs them), so the "widget" subtest checks
// that this is still true and skips.
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

	deadline := time.Now().Add(*browserTimeout)
	if d, ok := t.Deadline(); ok && d.Add(-45*time.Second).Before(deadline) {
		// Stop early enough to clean up before go test panics on its -timeout.
		deadline = d.Add(-45 * time.Second)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	t.Cleanup(cancel)

	// Copies of the notebooks, below the repository root.
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	work, err := os.MkdirTemp(filepath.Join(root, "bin"), "browser-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeAllRetry(t, work) })
	for _, nb := range browserNotebooks {
		b, err := os.ReadFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, filepath.Base(nb)), b, 0o644); err != nil {
			t.Fatal(err)
		}
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
					t.Errorf("%s: cell %d uses a GoNB widget: TestBrowser must move it and check that the figure changes", p, i)
				}
			}
		}
		if t.Failed() {
			return
		}
		t.Skip("no lesson has a GoNB widget cell (lessons must run headless, where widgets hang): nothing to move")
	})
}

// jupyterServer is a running Jupyter Notebook server.
type jupyterServer struct {
	base  string // http://127.0.0.1:PORT
	token string
}

// startJupyterServer starts Jupyter Notebook on root, on 127.0.0.1 and a
// free port, with a random token and the test copy of the gonb kernel spec,
// waits until it answers, and registers its shutdown (kernels first, then the
// server's process group) with t.Cleanup.
func startJupyterServer(t *testing.T, ctx context.Context, rt *jupyterRuntime, root string) *jupyterServer {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatalf("browser test: no free port: %v", err)
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
	srv := &jupyterServer{base: fmt.Sprintf("http://127.0.0.1:%d", port), token: fmt.Sprintf("%x", tokenBytes)}

	tmp := t.TempDir()
	logPath := filepath.Join(tmp, "jupyter.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-m", "notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--port-retries=0", "--notebook-dir=" + root, "--NotebookApp.token=" + srv.token,
		"--NotebookApp.password="}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	cmd := exec.Command(rt.python, args...)
	cmd.Dir = root
	// The user's Jupyter configuration, data and runtime files stay out of
	// the test (the gonb kernel spec comes from rt's JUPYTER_PATH).
	cmd.Env = append(slices.Clone(rt.env), "JUPYTER_CONFIG_DIR="+filepath.Join(tmp, "config"),
		"JUPYTER_DATA_DIR="+filepath.Join(tmp, "data"), "JUPYTER_RUNTIME_DIR="+filepath.Join(tmp, "runtime"))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group, so that the cleanup stops the server and what it
	// started; SIGTERM (the server then shuts its kernels down) if this test
	// process dies first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("browser test: starting Jupyter Notebook (%s -m notebook): %v: %s", rt.python, err, notebookSetupHint)
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
			t.Logf("Jupyter server log (%s):\n%s", logPath, tail(readFile(logPath), 40))
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
			t.Fatalf("browser test: Jupyter Notebook exited before it answered (%v):\n%s", cmd.ProcessState, tail(readFile(logPath), 40))
		case <-ready.Done():
			t.Fatalf("browser test: Jupyter Notebook did not answer on %s within 90 s:\n%s", srv.base, tail(readFile(logPath), 40))
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
	tab, closeTab := chromedp.NewContext(bctx)
	defer closeTab()
	// Open the tab with no time limit: the first run on a chromedp context
	// ties the tab's life to that run's context, and the failure screenshot
	// below needs the tab after the time-limited context has ended.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("%s: opening a browser tab: %v", rel, err)
	}
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	start := time.Now()

	// screenshot saves the whole page; on failure it is the evidence.
	screenshot := func(suffix string) {
		ctx, cancel := context.WithTimeout(tab, 30*time.Second)
		defer cancel()
		png, err := fullPage(ctx)
		if err != nil {
			t.Logf("%s: screenshot: %v", rel, err)
			return
		}
		savePNG(t, filepath.Join(shots, name+suffix+".png"), png)
	}
	shot := false // the whole page has been saved
	defer func() {
		if !shot {
			screenshot("_failure")
		}
	}()

	// Stop waiting 20 s before the browser's own deadline (the test's), so
	// that the failure screenshot can still be taken.
	ctx, cancel := context.WithCancel(tab)
	if d, ok := tab.Deadline(); ok {
		ctx, cancel = context.WithDeadline(tab, d.Add(-20*time.Second))
	}
	defer cancel()
	pageURL := srv.base + "/notebooks/" + (&url.URL{Path: rel}).EscapedPath() + "?token=" + srv.token
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

	// Every non-empty code cell was sent and has finished, none is marked
	// running and the kernel is idle, twice in a row (the kernel is idle for
	// a moment between two cells).
	stable := 0
	st, err = waitState(ctx, func(s pageState) (bool, error) {
		if s.Dialog != "" {
			return false, fmt.Errorf("a dialog is open: %q", s.Dialog)
		}
		if s.Dead {
			return false, errors.New("the kernel died: see README, Troubleshooting")
		}
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
	t.Logf("%s: Run All finished in %.1fs (%d code cells)", rel, time.Since(runStart).Seconds(), st.Code)

	// Read the result, waiting a little for the images to be decoded.
	var res pageResult
	for i := 0; ; i++ {
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

// fullPage takes a PNG screenshot of the whole notebook. The notebook UI
// scrolls inside its own panel, so the viewport is first made as tall as
// the notebook (the UI then draws it all), and set back afterwards.
func fullPage(ctx context.Context) ([]byte, error) {
	h, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const header = document.querySelector('#header');
		const nb = document.querySelector('#notebook');
		return (header ? header.offsetHeight : 0) + (nb ? nb.scrollHeight : document.body.scrollHeight) + 40;
	})()`))
	if err != nil {
		return nil, err
	}
	h = min(max(h, 1000), maxShotHeight)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, int64(h))); err != nil {
		return nil, err
	}
	// Let the UI resize its panel to the new window height.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.dispatchEvent(new Event('resize')), true)`)); err != nil {
		return nil, err
	}
	time.Sleep(500 * time.Millisecond)
	return chromedp.Run(ctx, chromedp.FullScreenshot(100))
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
