package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/perceptron-go/lessons/internal/repo"
)

// The README's Quick start: open the lessons, run the tests.
var quickStart = []string{"bash scripts/lessons.sh", "bash scripts/test.sh"}

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

// studentGuide is the page that holds the notebook table (docs/student.md).
const studentGuide = "docs/student.md"

// guideCommands are the pages and sections that explain the Quick start's
// commands, one each, in the Quick start's order.
var guideCommands = []struct{ page, section string }{
	{studentGuide, "Opening the lessons"},
	{"docs/internals.md", "Running the tests"},
}

// TestReadme checks that the README's Quick start is exactly the two
// commands, that they exist and run the one set-up script, that .ci/run
// runs the test command and nothing else, that the README links the page
// that explains each command, whose section shows that command alone, and
// that the student's guide's notebook table lists every notebook in
// notebooks/.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	qs, ok := repo.Section(readme, "Quick start")
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

	for i, g := range guideCommands {
		b, err := os.ReadFile(g.page)
		if err != nil {
			t.Fatal(err)
		}
		sec, ok := repo.Section(string(b), g.section)
		if !ok {
			t.Errorf("%s has no \"## %s\" section", g.page, g.section)
			continue
		}
		if got, want := fencedCommands(sec), quickStart[i:i+1]; !slices.Equal(got, want) {
			t.Errorf("%s, %s: commands = %q, want exactly %q", g.page, g.section, got, want)
		}
		link := "(" + g.page + "#" + anchor(g.section) + ")"
		if !strings.Contains(qs, link) {
			t.Errorf("README Quick start does not link %s, which explains %q", link, quickStart[i])
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

	guide, err := os.ReadFile(studentGuide)
	if err != nil {
		t.Fatal(err)
	}
	nbs, ok := repo.Section(string(guide), "Notebooks")
	if !ok {
		t.Fatalf(`%s has no "## Notebooks" section`, studentGuide)
	}
	paths, err := filepath.Glob("notebooks/*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !strings.Contains(nbs, "(../"+filepath.ToSlash(p)+")") {
			t.Errorf("%s's notebook table has no line linking %s", studentGuide, p)
		}
	}
}

// TestReadmeHelpers checks the markdown helpers on a small document.
func TestReadmeHelpers(t *testing.T) {
	md := "# T\n\n## Quick start\n\n```sh\n# comment\nbash a.sh\n\nbash b.sh\n```\n\n```\n## not a heading\n```\ntext\n## Next\n```\nbash c.sh\n```\n"
	qs, ok := repo.Section(md, "Quick start")
	if !ok {
		t.Fatal("section not found")
	}
	if !strings.Contains(qs, "text") || strings.Contains(qs, "c.sh") {
		t.Errorf("section = %q, want it to run past the fenced \"## \" line and stop at ## Next", qs)
	}
	if got, want := fencedCommands(qs), []string{"bash a.sh", "bash b.sh"}; !slices.Equal(got, want) {
		t.Errorf("fencedCommands = %q, want %q", got, want)
	}
	if _, ok := repo.Section(md, "Missing"); ok {
		t.Error("found a missing section")
	}
	if got, want := scriptCommands("#!/bin/sh\n# c\nset -eu\n\ncd x\nexec y\n"), []string{"cd x", "exec y"}; !slices.Equal(got, want) {
		t.Errorf("scriptCommands = %q, want %q", got, want)
	}
}

// mdLink matches the target of an inline markdown link, [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchor returns GitHub's anchor for a heading's text: lower case, spaces
// to '-', every other character but letters, digits, '-' and '_' dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdScan returns the anchors of md's headings and the targets of its links,
// outside fenced code blocks.
func mdScan(md string) (anchors map[string]bool, links []string) {
	anchors = map[string]bool{}
	inFence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && len(l)-len(h) <= 6 && strings.HasPrefix(h, " ") {
			anchors[anchor(h)] = true
		}
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			links = append(links, m[1])
		}
	}
	return anchors, links
}

// TestReadmeLinks checks that every relative link in README.md and
// docs/*.md names a file or folder of the repository and, for a #anchor, a
// heading of that markdown file; and that the README links every page of
// docs/.
func TestReadmeLinks(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 4 {
		t.Fatalf("docs/ has %d pages, want the student's and instructor's guides, performance and internals", len(docs))
	}
	pages := append([]string{"README.md"}, docs...)
	anchorsOf := map[string]map[string]bool{}
	headings := func(path string) (map[string]bool, error) {
		if a, ok := anchorsOf[path]; ok {
			return a, nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a, _ := mdScan(string(b))
		anchorsOf[path] = a
		return a, nil
	}
	var readmeLinks []string
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		_, links := mdScan(string(b))
		if page == "README.md" {
			readmeLinks = links
		}
		for _, link := range links {
			if regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`).MatchString(link) {
				continue // http:, https:, mailto:
			}
			file, frag, _ := strings.Cut(link, "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s: link %q: %v", page, link, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not markdown", page, link)
				continue
			}
			a, err := headings(target)
			if err != nil {
				t.Errorf("%s: link %q: %v", page, link, err)
				continue
			}
			if !a[frag] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", page, link, filepath.ToSlash(target), frag)
			}
		}
	}
	for _, d := range docs {
		d = filepath.ToSlash(d)
		if !slices.ContainsFunc(readmeLinks, func(l string) bool { return l == d || strings.HasPrefix(l, d+"#") }) {
			t.Errorf("README.md does not link %s", d)
		}
	}
}

// TestReadmeLinkHelpers checks anchor and mdScan on GitHub's rules.
func TestReadmeLinkHelpers(t *testing.T) {
	for h, want := range map[string]string{
		" Live figures: `view.Explore`":                   "live-figures-viewexplore",
		" The sandbox: what it does and does not promise": "the-sandbox-what-it-does-and-does-not-promise",
		" Docker, Binder and Kubernetes":                  "docker-binder-and-kubernetes",
		" Updates that keep the student's work":           "updates-that-keep-the-students-work",
		" snake_case and-dash":                            "snake_case-and-dash",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
	md := "# Top\n\n## A b\n[x](f.md#a-b) [y](https://e.org)\n```\n## Not\n[z](no.md)\n```\n#nohead\n"
	a, links := mdScan(md)
	if !a["top"] || !a["a-b"] || a["not"] || a["nohead"] || len(a) != 2 {
		t.Errorf("mdScan anchors = %v, want top and a-b", a)
	}
	if want := []string{"f.md#a-b", "https://e.org"}; !slices.Equal(links, want) {
		t.Errorf("mdScan links = %q, want %q", links, want)
	}
}
