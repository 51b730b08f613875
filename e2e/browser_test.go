//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// browserNotebooks are the lessons TestBrowser runs in the Jupyter UI: the
// first lesson and a heavier one with several figures.
var browserNotebooks = []string{
	"notebooks/00_start_here.ipynb",
	"notebooks/09_dual_kernel.ipynb",
}

// widgetNotebook is the lesson with the live cell that TestJupyterHub
// moves: a slider over the updates of an online perceptron run (view.Stepper,
// built on view.Explore). widgetMarker is the text that marks that cell.
// liveNotebooks are the lessons with live figures whose first live cell
// (marked by the text) TestBrowser and TestJupyterLab move after Run All.
const (
	widgetNotebook = "notebooks/03_online_perceptron.ipynb"
	widgetMarker   = "view.StepperAlt("
)

// liveCall matches a cell that shows a live figure: view.Explore,
// view.ExploreAlt, view.Stepper or view.StepperAlt.
var liveCall = regexp.MustCompile(`\bview\.(Explore|Stepper)(Alt)?\(`)

var liveNotebooks = []struct{ path, marker string }{
	{widgetNotebook, widgetMarker},
	{"notebooks/04_batch_pla.ipynb", "view.ExploreAlt("},
	{"notebooks/05_convergence_theorem.ipynb", "view.ExploreAlt("},
}

// browserBaseURL is the base URL the test's Jupyter server runs under, as
// JupyterHub serves a user's server: GoNB's own widget connection ignores
// it, so the widget test fails unless view.Explore mends it.
const browserBaseURL = "/user/u1/"

var (
	browserTimeout = flag.Duration("browser.timeout", 8*time.Minute,
		"time limit for the whole browser test (warm it takes about half a minute; a cold machine first compiles gonum/plot)")
	browserChromium = flag.String("browser.chromium", "chromium",
		"Chromium binary (a name on PATH or a path) for the browser test")
	browserShots = flag.String("browser.screenshots", "",
		"folder for the browser test's screenshots (default: a new temporary folder, kept after the test)")
)

// shotsDir returns the folder of a test's screenshots, -browser.screenshots
// (made if missing) or a new temporary folder named for what, kept after
// the test, and logs it.
func shotsDir(t *testing.T, what string) string {
	t.Helper()
	shots, err := *browserShots, error(nil)
	if shots == "" {
		shots, err = os.MkdirTemp("", "perceptron-"+what+"-test-")
	} else {
		err = os.MkdirAll(shots, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots go to %s", shots)
	return shots
}

// browserSetupHint is the fix for a missing browser.
const browserSetupHint = "install it with `bash scripts/setup.sh --with-chromium` (scripts/test.sh does), or pass -browser.chromium=PATH"

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
	// labMode is the page of a notebook, before its path: "lab/tree"
	// (JupyterLab, the default), "doc/tree" (JupyterLab's single-document
	// mode, where Binder's labpath= links land) or "notebooks" (Notebook 7).
	labMode string
	// shots starts the file names of screenshots: "lab_", "nb7_".
	shots string
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
	port, err := localhub.FreePort()
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
	exited := waitClose(cmd, logFile)
	t.Cleanup(func() {
		srv.shutdownKernels(t)
		stopGroup(cmd.Process.Pid, exited, 15*time.Second)
		if t.Failed() {
			t.Logf("%s log (%s):\n%s", spec.what, logPath, repo.Tail(repo.ReadFile(logPath), 40))
			t.Logf("GoNB log (%s):\n%s", rt.logs, repo.Tail(ansi.ReplaceAllString(repo.ReadFile(rt.logs), ""), 40))
		}
	})

	srv.waitReady(t, ctx, 90*time.Second, spec.what, cmd, exited, logPath)
	return srv
}

// waitReady waits until the server answers its REST API, at most for
// within; it fails the test, with the tail of the server's log, if the
// server's command (what) exits first, which closes exited, or if the time
// runs out.
func (srv *jupyterServer) waitReady(t *testing.T, ctx context.Context, within time.Duration, what string, cmd *exec.Cmd, exited <-chan struct{}, logPath string) {
	t.Helper()
	ready, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for {
		if err := srv.get(ready, "/api/status", nil); err == nil {
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before the server answered (%v):\n%s", what, cmd.ProcessState, repo.Tail(repo.ReadFile(logPath), 40))
		case <-ready.Done():
			t.Fatalf("%s: no server on %s within %v:\n%s", what, srv.base, within, repo.Tail(repo.ReadFile(logPath), 40))
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
	_, err := localhub.API{Base: s.base, Token: s.token}.Do(ctx, method, path, nil, v)
	return err
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

// waitClose waits for the started cmd in the background and then closes its
// log; the channel it returns is closed once cmd has exited (for stopGroup).
func waitClose(cmd *exec.Cmd, log io.Closer) <-chan struct{} {
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		log.Close()
		close(exited)
	}()
	return exited
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
			repo.Tail(output.String(), 20), browserSetupHint)
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

// widgetState is what the page shows of the live cell (the code cell
// holding the marker): its live figure's first slider, caption and image.
type widgetState struct {
	Found    bool     `json:"found"`    // the cell is in the notebook
	Slider   bool     `json:"slider"`   // the live figure shows an <input type="range">
	Value    int      `json:"value"`    // the slider's value (an index into its positions)
	Min      int      `json:"min"`      // its minimum
	Max      int      `json:"max"`      // and maximum
	Control  string   `json:"control"`  // the slider's name
	Label    string   `json:"label"`    // the value it shows
	Values   string   `json:"values"`   // the caption's values ("name = value, ...")
	Frame    int      `json:"frame"`    // the frame shown (-1 before the first move)
	Caption  string   `json:"caption"`  // the caption's text
	Image    string   `json:"image"`    // length and hash of the cell's figure's data URL
	Alt      string   `json:"alt"`      // the figure's alt text
	Complete bool     `json:"complete"` // the browser has decoded it
	PNGs     []string `json:"pngs"`     // length and hash of each image of the cell
}

// liveCells counts the code cells of nb that open live controls in a
// browser (view.Explore or view.Stepper).
func liveCells(nb *notebook.Notebook) int {
	n := 0
	for _, c := range nb.Cells {
		src := c.Source
		if c.Type == "code" && liveCall.MatchString(src) {
			n++
		}
	}
	return n
}

// labLiveJS counts the code cells of the notebook %s (JSON) that show a
// live figure's controls.
const labLiveJS = `(() => {` + labPanelJS + `
	if (!panel) return 0;
	return panel.content.widgets.filter(c => c.model.type === 'code' && c.node.querySelector('.plots-explore-controls')).length;
})()`

// checkLive fails the test unless every live cell of the committed
// notebook (view.Explore, view.Stepper) shows its controls after Run All: Run
// All went past it with no click, and it still answers its sliders.
func checkLive(t *testing.T, ctx context.Context, rel string, committed *notebook.Notebook) {
	t.Helper()
	want := liveCells(committed)
	relJSON, _ := json.Marshal(rel)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(labLiveJS, relJSON)))
	switch {
	case err != nil:
		t.Errorf("%s: counting the live figures: %v", rel, err)
	case got != want:
		t.Errorf("%s: %d cells show a live figure's controls after Run All, want the %d live cells (view.Explore/Stepper)", rel, got, want)
	case want > 0:
		t.Logf("%s: all %d live figures show their controls after Run All", rel, want)
	}
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
		t.Errorf("%s: cell %d shows an error:\n%s", rel, c, repo.Tail(strings.Join(texts, "\n"), 30))
	}
	for _, i := range res.Unexecuted {
		t.Errorf("%s: cell %d has no execution count after Run All", rel, i)
	}
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

// newTab opens a new tab of the browser bctx for the notebook rel. It
// returns the tab (no time limit), ctx, the tab until 20 s before the
// browser's own deadline (the test's), so that a failure screenshot can still
// be taken after a wait on ctx timed out, and the function that closes the
// tab.
func newTab(t *testing.T, bctx context.Context, rel string) (tab, ctx context.Context, closeTab func()) {
	t.Helper()
	tab, closeBrowserTab := chromedp.NewContext(bctx)
	// Open the tab with no time limit: the first run on a chromedp context
	// ties the tab's life to that run's context, and the failure screenshot
	// needs the tab after the time-limited context has ended.
	if err := chromedp.Do(tab); err != nil {
		closeBrowserTab()
		t.Fatalf("%s: opening a browser tab: %v", rel, err)
	}
	ctx, cancel := context.WithCancel(tab)
	if d, ok := tab.Deadline(); ok {
		ctx, cancel = context.WithDeadline(tab, d.Add(-20*time.Second))
	}
	return tab, ctx, func() { cancel(); closeBrowserTab() }
}
