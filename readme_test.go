package lessons_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's Quick start: open the lessons, run the tests.
var quickStart = []string{"bash scripts/lessons.sh", "bash scripts/test.sh"}

// section returns the body of the markdown section whose "## " heading is
// title, up to the next heading of level 1 or 2.
func section(md, title string) (string, bool) {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "## "+title {
			continue
		}
		var body []string
		inFence := false
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(l, "```") {
				inFence = !inFence
			}
			if !inFence && (strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ")) {
				break
			}
			body = append(body, l)
		}
		return strings.Join(body, "\n"), true
	}
	return "", false
}

// fencedCommands returns the non-blank, non-comment lines of the fenced
// code blocks of md.
func fencedCommands(md string) []string {
	var cmds []string
	inFence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if l = strings.TrimSpace(l); inFence && l != "" && !strings.HasPrefix(l, "#") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// scriptCommands returns the commands of a shell script: its lines without
// comments, blank lines and `set` lines.
func scriptCommands(src string) []string {
	var cmds []string
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "set ") {
			continue
		}
		cmds = append(cmds, l)
	}
	return cmds
}

// TestReadme checks that the README's Quick start is exactly the two
// commands, that they exist and run the one set-up script, that .ci/run
// runs the test command and nothing else, and that the notebook table lists
// every notebook in notebooks/.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	qs, ok := section(readme, "Quick start")
	if !ok {
		t.Fatal(`README.md has no "## Quick start" section`)
	}
	if got := fencedCommands(qs); !slices.Equal(got, quickStart) {
		t.Errorf("README Quick start commands = %q, want exactly %q", got, quickStart)
	}
	for _, cmd := range quickStart {
		script := strings.TrimPrefix(cmd, "bash ")
		src, err := os.ReadFile(script)
		if err != nil {
			t.Errorf("Quick start command %q: %v", cmd, err)
			continue
		}
		if !regexp.MustCompile(`(?m)^bash "\$repo/scripts/setup\.sh"|^bash scripts/setup\.sh`).Match(src) {
			t.Errorf("%s does not run scripts/setup.sh, the set-up the Dockerfile runs", script)
		}
	}

	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	cmds := scriptCommands(string(ci))
	want := "exec " + quickStart[1]
	if len(cmds) == 0 || cmds[len(cmds)-1] != want {
		t.Errorf(".ci/run commands = %q, want the last to be %q", cmds, want)
	}
	for _, c := range cmds[:max(0, len(cmds)-1)] {
		if !strings.HasPrefix(c, "cd ") {
			t.Errorf(".ci/run: %q before the test command: CI must run exactly the README's command", c)
		}
	}
	if !strings.Contains(string(ci), "set -euo pipefail") {
		t.Error(".ci/run does not set -euo pipefail")
	}

	nbs, ok := section(readme, "Notebooks")
	if !ok {
		t.Fatal(`README.md has no "## Notebooks" section`)
	}
	paths, err := filepath.Glob("notebooks/*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !strings.Contains(nbs, "("+filepath.ToSlash(p)+")") {
			t.Errorf("README's notebook table has no line linking %s", p)
		}
	}
}

// TestReadmeHelpers checks the markdown helpers on a small document.
func TestReadmeHelpers(t *testing.T) {
	md := "# T\n\n## Quick start\n\n```sh\n# comment\nbash a.sh\n\nbash b.sh\n```\n\n```\n## not a heading\n```\ntext\n## Next\n```\nbash c.sh\n```\n"
	qs, ok := section(md, "Quick start")
	if !ok {
		t.Fatal("section not found")
	}
	if !strings.Contains(qs, "text") || strings.Contains(qs, "c.sh") {
		t.Errorf("section = %q, want it to run past the fenced \"## \" line and stop at ## Next", qs)
	}
	if got, want := fencedCommands(qs), []string{"bash a.sh", "bash b.sh"}; !slices.Equal(got, want) {
		t.Errorf("fencedCommands = %q, want %q", got, want)
	}
	if _, ok := section(md, "Missing"); ok {
		t.Error("found a missing section")
	}
	if got, want := scriptCommands("#!/bin/sh\n# c\nset -eu\n\ncd x\nexec y\n"), []string{"cd x", "exec y"}; !slices.Equal(got, want) {
		t.Errorf("scriptCommands = %q, want %q", got, want)
	}
}
