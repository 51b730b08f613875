//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// labInspectorJS opens JupyterLab's Contextual Help panel (once) and
// returns its text.
const labInspectorJS = `(async () => {
	const app = window.jupyterapp;
	let node = document.querySelector('.jp-Inspector-content');
	if (!node) {
		const nb = app.shell.currentWidget;
		await app.commands.execute('inspector:open');
		if (nb) app.shell.activateById(nb.id);
		node = document.querySelector('.jp-Inspector-content');
	}
	return node ? node.innerText : '';
})()`

// labInspectJS sends the kernel of the notebook %s (JSON) the
// inspect_request the Contextual Help panel sends (detail level 0, the
// cursor at the end) for each code of %s (a JSON list), and returns the
// replies' data, as JSON.
const labInspectJS = `(async () => {` + labPanelJS + `
	const k = panel.sessionContext.session.kernel;
	const out = [];
	for (const code of %s) {
		const r = await k.requestInspect({code, cursor_pos: code.length, detail_level: 0});
		out.push(JSON.stringify(r.content.data || {}));
	}
	return out;
})()`

// labRunActiveJS runs the active cell of the notebook %s (JSON) and
// returns at once.
const labRunActiveJS = `(() => {` + labPanelJS + `
	app.shell.activateById(panel.id);
	app.commands.execute('notebook:run-cell');
	return true;
})()`

// labCellOutputJS returns the execution count and the output text of the
// notebook %s (JSON)'s cell %d.
const labCellOutputJS = `(() => {` + labPanelJS + `
	const c = panel.content.widgets[%d];
	return {count: c.model.executionCount || 0, text: c.outputArea ? c.outputArea.node.innerText : ''};
})()`

// TestGoEditorInLab does in JupyterLab 4.6, in a new notebook, what the
// student of issue 31 did (items 2, 4 and 8), with GoNB as the lessons
// install it (its HTML errors, not the tests' --raw_error):
//
//   - with the Contextual Help panel open, typing incomplete code shows no
//     raw error of GoNB or gopls, and a complete name shows its doc;
//   - a cell with two compile errors shows each once, by cell and line,
//     with no temporary file's path, and a summary;
//   - shutting the kernel down ends its gopls (started by the help).
func TestGoEditorInLab(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rt := newJupyterRuntimeRaw(t, false)
	bctx := browserContext(t)
	rel, relJSON := readyNotebook(t, root, "goeditor-test-", "editor.ipynb")
	fe := jupyterLab
	srv := startServer(t, bctx, rt, root, serverSpec{
		what: "Go editor test: JupyterLab", base: fe.base, log: "lab.log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", fe.module, "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--ServerApp.root_dir=" + root, "--IdentityProvider.token=" + token,
				"--ServerApp.password=", "--ServerApp.base_url=" + fe.base, "--" + fe.class + ".expose_app_in_browser=True"}
		},
	})
	srv.labMode, srv.shots = fe.prefix, fe.shots
	tab, ctx, closeTab := newTab(t, bctx, rel)
	defer closeTab()
	shots := t.TempDir()
	defer func() {
		if t.Failed() {
			labShot(t, tab, filepath.Join(shots, "goeditor_failure.png"), "")
			t.Logf("screenshot: %s", shots)
		}
	}()
	openInLab(t, ctx, srv, rel)

	typeCell := func(src string) {
		t.Helper()
		srcJSON, _ := json.Marshal(src)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labTypeJS, relJSON, srcJSON), chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("typing %q in a new cell: %v", src, err)
		}
	}
	inspector := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](labInspectorJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("reading the Contextual Help panel: %v", err)
		}
		return s
	}
	raw := []string{"gopls", "unexpected kind", "expected declaration", "/tmp/gonb", "main.go", "failed"}
	shown := map[string]bool{}
	checkHelp := func(seen string) {
		t.Helper()
		if !shown[seen] {
			shown[seen] = true
			t.Logf("the Contextual Help panel shows %q", firstLine(seen))
		}
		for _, r := range raw {
			if strings.Contains(seen, r) {
				t.Errorf("the Contextual Help panel showed %q (a raw error, issue 31 item 2; scripts/gonb-patches/0001): %q", r, seen)
			}
		}
	}

	// Item 2: incomplete code, typed key by key, with the help open. The
	// first request starts gopls, which then loads the module.
	inspector()
	typeCell("%%\n")
	for _, k := range []string{"x", " ", ":", "=", " ", "s", "t", "r", "i", "n", "g", "s", ".", "T", "o", "U", "p"} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		checkHelp(inspector())
	}
	// The code stays incomplete for 15 s, as when a student stops to
	// think: the panel shows the replies to the requests the edits sent
	// (the first starts gopls, which loads the module).
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); {
		time.Sleep(500 * time.Millisecond)
		checkHelp(inspector())
	}
	// ... and a complete name: its doc, once gopls has loaded.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("per")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var help string
	for {
		help = inspector()
		checkHelp(help)
		if strings.Contains(help, "ToUpper returns s with all Unicode letters mapped to their upper case") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Contextual Help panel did not show strings.ToUpper's doc within 60 s: %q", help)
		}
		// An edit sends the next inspect request.
		for _, k := range []string{" ", "\b"} {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(2 * time.Second)
	}
	t.Logf("Contextual Help of strings.ToUpper: %q", firstLine(help))
	// The panel shows the reply to the last of the requests an edit sends;
	// each request for code left incomplete, as the panel sends it, must
	// get the doc or nothing (GoNB v0.11.4 answered these with gopls's
	// errors, "gopls request returned 'hover' with unexpected kind" and
	// "expected declaration, found 'package'").
	incomplete := []string{"%%\nx := strings.ToUp", "%%\nx := ", "%%\nfmt.Println(strings.ToUpper(",
		"func f() {\n\treturn strings.", "%%\nfor i := 0; i < 3; i++ {\n\tfmt.", "%%\nx := 1 +"}
	codesJSON, _ := json.Marshal(incomplete)
	replies, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(labInspectJS, relJSON, codesJSON), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("inspect requests: %v", err)
	}
	for i, r := range replies {
		if r != "{}" && !strings.HasPrefix(r, `{"text/markdown"`) {
			t.Errorf("the inspect reply for %q is %s, want the doc (markdown) or nothing (issue 31 item 2; scripts/gonb-patches/0001)", incomplete[i], r)
		}
	}

	// Item 4: two compile errors, each once, by cell and line.
	typeCell("%%\nvar a int = \"first\"\nvar b int = \"second\"\n_, _ = a, b")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labRunActiveJS, relJSON))); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Count int    `json:"count"`
		Text  string `json:"text"`
	}
	deadline = time.Now().Add(90 * time.Second)
	for out.Count == 0 || out.Text == "" {
		if time.Now().After(deadline) {
			t.Fatalf("the cell with two compile errors did not finish within 90 s (output %q)", out.Text)
		}
		time.Sleep(500 * time.Millisecond)
		if out, err = chromedp.Run(ctx, chromedp.Evaluate[struct {
			Count int    `json:"count"`
			Text  string `json:"text"`
		}](fmt.Sprintf(labCellOutputJS, relJSON, 2))); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second) // the error that follows the report
	out, _ = chromedp.Run(ctx, chromedp.Evaluate[struct {
		Count int    `json:"count"`
		Text  string `json:"text"`
	}](fmt.Sprintf(labCellOutputJS, relJSON, 2)))
	t.Logf("output of the cell with two compile errors:\n%s", out.Text)
	labShot(t, tab, filepath.Join(shots, "goeditor_errors.png"), ".jp-OutputArea")
	for _, want := range []struct{ msg, where string }{{`"first"`, "Line 2"}, {`"second"`, "Line 3"}} {
		n := strings.Count(out.Text, want.msg)
		if n != 1 {
			t.Errorf("the error about %s shows %d times, want once (issue 31 item 4; scripts/gonb-patches/0002)", want.msg, n)
		}
		if line := lineWith(out.Text, want.msg); !strings.Contains(line, want.where) {
			t.Errorf("the error about %s is not given by its cell's %s: %q", want.msg, want.where, line)
		}
	}
	for _, bad := range []string{"/tmp/gonb", "main.go", "more errors", "too many errors"} {
		if strings.Contains(out.Text, bad) {
			t.Errorf("the errors show %q: %q", bad, out.Text)
		}
	}
	if !strings.Contains(out.Text, "2 errors, shown above by cell and line") {
		t.Errorf("the errors end without their summary: %q", out.Text)
	}

	// Item 8: the kernel's gopls ends with it.
	var sessions []struct {
		Path   string `json:"path"`
		Kernel struct {
			ID string `json:"id"`
		} `json:"kernel"`
	}
	if err := srv.get(ctx, "/api/sessions", &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %v (%d, want 1)", err, len(sessions))
	}
	kernel := sessions[0].Kernel.ID
	gopls := goplsOfKernel(kernel)
	if len(gopls) == 0 {
		t.Fatalf("no gopls runs under kernel %s after the contextual help used it", kernel)
	}
	if err := srv.do(ctx, http.MethodDelete, "/api/kernels/"+url.PathEscape(kernel), nil); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(20 * time.Second)
	for alive(gopls) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("gopls %v still runs 20 s after its kernel was shut down", alive(gopls))
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("kernel %s shut down: its gopls %v ended", kernel, gopls)
}

func firstLine(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }

// lineWith returns the first line of s that contains sub.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// goplsOfKernel returns the gopls processes below the kernel whose
// connection file names id.
func goplsOfKernel(id string) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	var roots, gopls []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i > 0 {
			if f := strings.Fields(s[i+1:]); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.Contains(string(cmd), "kernel-"+id+".json") {
			roots = append(roots, pid)
		}
		if strings.HasPrefix(filepath.Base(strings.SplitN(string(cmd), "\x00", 2)[0]), "gopls") {
			gopls = append(gopls, pid)
		}
	}
	var out []int
	for _, g := range gopls {
		for p := parent[g]; p > 1; p = parent[p] {
			if containsInt(roots, p) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// alive returns those of pids that still run.
func alive(pids []int) []int {
	var a []int
	for _, p := range pids {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p)); err == nil && !strings.Contains(string(b), ") Z ") {
			a = append(a, p)
		}
	}
	return a
}

// readyNotebook writes a notebook of one GoNB cell that prints "ready" into
// a new work folder under root (named with prefix), and returns its path
// relative to root, with slashes, and that path as JSON.
func readyNotebook(t *testing.T, root, prefix, name string) (rel string, relJSON []byte) {
	t.Helper()
	nb := filepath.Join(workFolder(t, root, prefix), name)
	if err := os.WriteFile(nb, []byte(`{"cells": [{"cell_type": "code", "execution_count": null, "id": "a1", "metadata": {}, "outputs": [], "source": ["%%\n", "fmt.Println(\"ready\")"]}], "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}}, "nbformat": 4, "nbformat_minor": 5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, nb)
	if err != nil {
		t.Fatal(err)
	}
	rel = filepath.ToSlash(rel)
	relJSON, _ = json.Marshal(rel)
	return rel, relJSON
}
