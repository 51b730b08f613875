//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// formatDialogJS returns the text of the dialogs open on the page, and
// dismisses them.
const formatDialogJS = `(() => {
	const texts = [];
	document.querySelectorAll('.jp-Dialog').forEach(d => {
		texts.push(d.innerText.trim());
		const b = d.querySelector('.jp-Dialog-footer button');
		if (b) b.click();
	});
	return texts;
})()`

// formatCommandJS reports whether the format command is there, with its
// label, and the keys bound to it in notebooks.
const formatCommandJS = `(() => {
	const app = window.jupyterapp;
	const id = 'jupyterlab_code_formatter:format';
	const keys = app.commands.keyBindings.filter(b => b.command === id).map(b => b.keys.join(' ') + ' @ ' + b.selector);
	const gofmt = 'jupyterlab_code_formatter:gonbfmt';
	const others = app.commands.keyBindings.filter(b => b.command !== id && b.keys.join(' ') === 'Alt Shift F').map(b => b.command + ' @ ' + b.selector);
	return {has: app.commands.hasCommand(id), label: app.commands.hasCommand(id) ? app.commands.label(id) : '', keys,
		gofmt: app.commands.hasCommand(gofmt) ? app.commands.label(gofmt) : '', others};
})()`

// TestFormatCell does what a student does to format a Go cell (issue 31,
// item 5), in JupyterLab 4.6 and in Notebook 7: types a badly formatted
// cell, presses Shift+Alt+F (the binding of the format command that
// scripts/setup.sh writes in the environment's settings), and reads the
// cell back as gofmt formats it, its magic and shell lines as they were.
// Then a cell that does not parse: the key leaves it unchanged and shows
// the error, naming the cell's line, in one dialog.
func TestFormatCell(t *testing.T) {
	for _, fe := range []frontEnd{jupyterLab, notebook7} {
		t.Run(fe.name, func(t *testing.T) { testFormatCell(t, fe) })
	}
}

func testFormatCell(t *testing.T, fe frontEnd) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("Chromium not found (%v): %s", err, browserSetupHint)
	}
	rt := newJupyterRuntimeRaw(t, false)
	ctx0 := browserContext(t)
	rel, relJSON := readyNotebook(t, root, "format-test-", "format.ipynb")
	srv := startServer(t, ctx0, rt, root, serverSpec{
		what: "format test: " + fe.name, base: fe.base, log: fe.app + ".log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", fe.module, "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--ServerApp.root_dir=" + root, "--IdentityProvider.token=" + token,
				"--ServerApp.password=", "--ServerApp.base_url=" + fe.base, "--" + fe.class + ".expose_app_in_browser=True"}
		},
	})
	srv.labMode, srv.shots = fe.prefix, fe.shots
	bctx := startChromium(t, ctx0, chromium)
	tab, ctx, closeTab := newTab(t, bctx, rel)
	defer closeTab()
	shots := t.TempDir()
	defer func() {
		if t.Failed() {
			labShot(t, tab, filepath.Join(shots, fe.shots+"format_failure.png"), "")
			t.Logf("screenshot: %s", shots)
		}
	}()
	openInLab(t, ctx, srv, rel)

	var cmd struct {
		Has    bool     `json:"has"`
		Label  string   `json:"label"`
		Keys   []string `json:"keys"`
		Gofmt  string   `json:"gofmt"`
		Others []string `json:"others"`
	}
	// The formatters' own commands come once the server has listed them.
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		if cmd, err = chromedp.Run(ctx, chromedp.Evaluate[struct {
			Has    bool     `json:"has"`
			Label  string   `json:"label"`
			Keys   []string `json:"keys"`
			Gofmt  string   `json:"gofmt"`
			Others []string `json:"others"`
		}](formatCommandJS)); err != nil {
			t.Fatal(err)
		}
		if cmd.Gofmt != "" || time.Now().After(end) {
			break
		}
	}
	t.Logf("%s: the format command %q, bound to %v; the Edit menu's %q", fe.name, cmd.Label, cmd.Keys, cmd.Gofmt)
	if !cmd.Has {
		t.Fatalf("%s has no command jupyterlab_code_formatter:format (jupyterlab-code-formatter, scripts/requirements/jupyter.in: %s)", fe.name, notebookSetupHint)
	}
	if len(cmd.Others) > 0 {
		t.Errorf("%s: Shift+Alt+F is bound to other commands too: %v", fe.name, cmd.Others)
	}
	// The Edit menu's and command palette's entry of the formatter that
	// scripts/jupyter/jupyter_server_config.py registers, as the student's
	// guide names it.
	if cmd.Gofmt != "Apply gofmt (Go cell)" {
		t.Errorf("%s: the command of the formatter gonbfmt is %q, want \"Apply gofmt (Go cell)\" (docs/student.md)", fe.name, cmd.Gofmt)
	}

	format := func(src string) (string, []string) {
		t.Helper()
		srcJSON, _ := json.Marshal(src)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labTypeJS, relJSON, srcJSON), chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("typing %q in a new cell: %v", src, err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent("F", chromedp.KeyModifiers(chromedp.ModifierShift|chromedp.ModifierAlt))); err != nil {
			t.Fatal(err)
		}
		// The request goes to the server and back: wait for the cell to
		// change or a dialog to open, up to 20 s.
		var got string
		var dialogs []string
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
			time.Sleep(250 * time.Millisecond)
			got, err = chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(labCellSourceJS, relJSON)))
			if err != nil {
				t.Fatalf("reading the cell: %v", err)
			}
			n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.jp-Dialog').length`))
			if got != src || n > 0 {
				break
			}
		}
		time.Sleep(time.Second) // a second dialog, if any, opens now
		if got, err = chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(labCellSourceJS, relJSON))); err != nil {
			t.Fatal(err)
		}
		labShot(t, tab, filepath.Join(shots, fe.shots+"format.png"), "")
		if dialogs, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](formatDialogJS)); err != nil {
			t.Fatal(err)
		}
		return got, dialogs
	}

	bad := "%env  GREETING  hello\nimport \"os\"\n%%\n!echo   hi\nfor i:=0;i<2;i++{\nfmt.Println( os.Getenv(\"GREETING\"),i )\n    }"
	want := "%env  GREETING  hello\nimport \"os\"\n%%\n!echo   hi\nfor i := 0; i < 2; i++ {\n\tfmt.Println(os.Getenv(\"GREETING\"), i)\n}"
	got, dialogs := format(bad)
	if got != want || len(dialogs) != 0 {
		t.Errorf("%s: Shift+Alt+F on\n%s\ngave\n%s\n(dialogs %q), want gofmt's\n%s", fe.name, bad, got, dialogs, want)
	} else {
		t.Logf("%s: Shift+Alt+F formatted the cell as gofmt does:\n%s", fe.name, got)
	}

	broken := "%%\nx := 1\nfmt.Println(x,\ny := 2"
	got, dialogs = format(broken)
	if got != broken {
		t.Errorf("%s: Shift+Alt+F changed a cell that does not parse to %q", fe.name, got)
	}
	if len(dialogs) != 1 || !strings.Contains(dialogs[0], "line 4") {
		t.Errorf("%s: Shift+Alt+F on a cell that does not parse showed the dialogs %q, want one naming line 4", fe.name, dialogs)
	} else {
		t.Logf("%s: on a cell that does not parse: %q", fe.name, dialogs[0])
	}
}
