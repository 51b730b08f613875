package main

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	nbformat "github.com/perceptron-go/lessons/internal/notebook"
)

// testNotebook makes a notebook of code cells (and one markdown cell).
func testNotebook(t *testing.T, sources ...string) *notebook {
	t.Helper()
	nb := &notebook{Path: "notebooks/99_test.ipynb", Notebook: &nbformat.Notebook{}}
	nb.Cells = append(nb.Cells, &nbformat.Cell{Type: "markdown", Source: "# A test"})
	for _, s := range sources {
		nb.Cells = append(nb.Cells, &nbformat.Cell{Type: "code", Source: s})
	}
	return nb
}

// TestLiveProgram checks the program of a notebook's live cells: GoNB's
// rules (a later declaration replaces an earlier one of the same name; test
// cells and other cells' main parts are left out), the imports the code
// does not use dropped, and the view package found by its name.
func TestLiveProgram(t *testing.T) {
	nb := testNotebook(t,
		"// setup\n!go mod edit\n%noautoget",
		"import (\n\t\"fmt\"\n\t\"math/rand/v2\"\n\t\"testing\"\n\n\t\"example.org/x/nb/view\"\n)",
		"// Stub is a stub.\nfunc Stub() int {\n\tpanic(\"write it\")\n}",
		"func Stub() int { return 2 }\n\ntype T struct{}\n\nfunc (T) M() int { return rand.IntN(3) }\n\n%%\nfmt.Println(Stub())",
		"%test\nfunc TestX(t *testing.T) {}",
		"%%\nview.ExploreAlt(\"alt\", 1, 1, nil)",
		"%%\nfmt.Println(\"not live\")",
		"%%\n_, _ = view.Stepper(nil, 1, 1, nil)",
	)
	p, err := buildLiveProgram(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.cells, []int{6, 8}) || p.viewPath != "example.org/x/nb/view" {
		t.Errorf("live cells %v, view %q; want [6 8] and example.org/x/nb/view", p.cells, p.viewPath)
	}
	src := string(p.main)
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0); err != nil {
		t.Fatalf("the program does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{`"math/rand/v2"`, `"example.org/x/nb/view"`, "func Stub() int { return 2 }", "func (T) M() int", "siteLiveCell0()", "siteLiveCell1()", `view.ExploreAlt("alt"`} {
		if !strings.Contains(src, want) {
			t.Errorf("the program has no %s:\n%s", want, src)
		}
	}
	for _, not := range []string{`"testing"`, `"fmt"`, "panic(\"write it\")", "TestX", "not live", "Println(Stub())", "go mod edit"} {
		if strings.Contains(src, not) {
			t.Errorf("the program has %s, which it should not:\n%s", not, src)
		}
	}
	if !strings.Contains(string(p.hook), `siteExportView "example.org/x/nb/view"`) {
		t.Errorf("the hook does not import the notebook's view package:\n%s", p.hook)
	}

	if p, err := buildLiveProgram(testNotebook(t, "%%\nfmt.Println(1)")); p != nil || err != nil {
		t.Errorf("a notebook without live cells: %v, %v; want nil, nil", p, err)
	}
	if _, err := buildLiveProgram(testNotebook(t, "%%\nview.Explore(1, 1, nil)")); err == nil || !strings.Contains(err.Error(), "imports no package named view") {
		t.Errorf("a live cell without the view import: %v", err)
	}
	if _, err := buildLiveProgram(testNotebook(t, "func broken( {")); err == nil || !strings.Contains(err.Error(), "cell 1") {
		t.Errorf("a cell that does not parse: %v, want an error naming cell 1", err)
	}
}

// TestRealNotebooks checks that the live cells of the committed lessons
// are found and make programs that parse.
func TestRealNotebooks(t *testing.T) {
	paths, err := filepath.Glob("../../notebooks/*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	live := 0
	for _, path := range paths {
		nb, err := readNotebook(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := buildLiveProgram(nb)
		if err != nil {
			t.Fatal(err)
		}
		if p == nil {
			continue
		}
		live += len(p.cells)
		if _, err := parser.ParseFile(token.NewFileSet(), "main.go", p.main, 0); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if !strings.HasSuffix(p.viewPath, "/view") {
			t.Errorf("%s: view package %q", path, p.viewPath)
		}
	}
	if live == 0 {
		t.Error("no live cell in the lessons")
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		f := filepath.Join(dir, "site.yaml")
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	c, err := readConfig(write("binder:\n  repository: perceptron-go/lessons\n  ref: main\nhub:\n  url: https://hub.example.org/\n  repository: https://git.example.org/course/lessons-students.git\n  branch: student\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.binderURL("notebooks/04_batch_pla.ipynb"), "https://mybinder.org/v2/gh/perceptron-go/lessons/main?labpath=notebooks%2F04_batch_pla.ipynb"; got != want {
		t.Errorf("Binder link %s, want %s (the instructor guide's)", got, want)
	}
	u, err := url.Parse(c.hubURL("notebooks/04_batch_pla.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Scheme != "https" || u.Host != "hub.example.org" || u.Path != "/hub/user-redirect/git-pull" ||
		q.Get("repo") != "https://git.example.org/course/lessons-students.git" || q.Get("branch") != "student" ||
		q.Get("urlpath") != "lab/tree/lessons-students.git/notebooks/04_batch_pla.ipynb" {
		t.Errorf("hub link %s: want nbgitpuller's git-pull with repo, branch and urlpath lab/tree/lessons-students.git/notebooks/04_batch_pla.ipynb (nbgitpuller keeps the .git in the folder's name)", u)
	}
	if c.Title == "" {
		t.Error("no default title")
	}
	c, err = readConfig(write("binder:\n  repository: a/b\n  ref: v1\n"))
	if err != nil || c.hubURL("notebooks/x.ipynb") != "" {
		t.Errorf("no hub: %v, link %q; want no link", err, c.hubURL("notebooks/x.ipynb"))
	}
	for _, bad := range []struct{ yaml, want string }{
		{"binder:\n  repository: nope\n  ref: main\n", "binder.repository"},
		{"binder:\n  repository: a/b\n", "binder.ref"},
		{"binder:\n  repository: a/b\n  ref: main\nhub:\n  url: hub.example.org\n  repository: https://x/y\n  branch: main\n", "hub.url"},
		{"binder:\n  repository: a/b\n  ref: main\nhub:\n  url: https://hub.example.org\n  branch: main\n", "hub.repository"},
		{"binder:\n  repository: a/b\n  ref: main\nhub:\n  url: https://hub.example.org\n  repository: https://x/y\n", "hub.branch"},
		{"binder:\n  repo: a/b\n", "repo"},
	} {
		if _, err := readConfig(write(bad.yaml)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error about %s", bad.yaml, err, bad.want)
		}
	}
}

func TestMergeShards(t *testing.T) {
	type fr = exportedFrame
	controls := []control{{Name: "a", Labels: []string{"x", "y"}, Start: 1, Choice: true}, {Name: "b", Labels: []string{"1", "2"}, Start: 0}}
	a := &exportedFigure{Alt: "alt", Controls: controls, Frames: []*fr{{PNG: "p.png", Caption: "c", Alt: "P.", Values: "a = x, b = 1"}, nil, {PNG: "q.png", Caption: "d", Alt: "Q.", Values: "a = y, b = 1"}, nil}}
	b := &exportedFigure{Alt: "alt", Controls: controls, Frames: []*fr{nil, {PNG: "p.png", Caption: "c", Alt: "P.", Values: "a = x, b = 2"}, nil, {Error: "bad", Values: "a = y, b = 2"}}}
	fig, err := mergeShards([]*exportedFigure{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Frames) != 3 || !slices.Equal(fig.Index, []int{0, 0, 1, 2}) {
		t.Errorf("frames %+v index %v, want 3 distinct frames, the first two combinations sharing one", fig.Frames, fig.Index)
	}
	if fig.Frames[0].Alt != "P." || fig.Frames[1].Alt != "Q." {
		t.Errorf("frames %+v, want each with its own alt text", fig.Frames)
	}
	if fig.values != "a = y, b = 1" || fig.start.Caption != "d" {
		t.Errorf("start %q %+v, want a = y, b = 1 (position 1, 0)", fig.values, fig.start)
	}
	b.Frames[0] = &fr{PNG: "p.png"}
	if _, err := mergeShards([]*exportedFigure{a, b}); err == nil {
		t.Error("a combination drawn by two shards: no error")
	}
}

// TestFragment checks a page body: alt text required, live captions
// checked against the frames drawn now, links rewritten, headings and
// learning goals found, and the search index.
func TestFragment(t *testing.T) {
	cfg := &config{}
	cfg.Binder.Repository, cfg.Binder.Ref = "o/r", "main"
	nb := &notebook{Path: "notebooks/04_x.ipynb"}
	s := siteInput{out: t.TempDir(), cfg: cfg, notebooks: []*notebook{nb, {Path: "notebooks/05_y.ipynb"}}}
	fig := &liveFigure{Controls: []control{{Name: "w", Labels: []string{"1", "2"}}}, Frames: []pageFrame{{Src: "a.png", Caption: "one"}, {Src: "b.png", Caption: "two"}}, Index: []int{0, 1}, start: pageFrame{Src: "a.png", Caption: "one"}, values: "w = 1"}
	s.figures = map[string][]*liveFigure{nb.Path: {fig}}
	frag := `<h1 id="Title">Title<a class="anchor-link" href="#Title">¶</a></h1><p><strong>Learning goals.</strong> After this notebook you can</p><ul><li>do $x$</li></ul>` +
		`<h2 id="Part-$a$">Part $a$<a class="anchor-link" href="#Part-$a$">¶</a></h2><p>See <a href="05_y.ipynb#Top">lesson 5</a>, <a href="../lessons/hw2/student.ipynb">hw2</a>, <a href="#Title">up</a>, <a href="https://go.dev">Go</a>.</p>` +
		`<p class="plots-explore-caption" data-values="w = 1" id="plots_explore_caption_1">one</p><img alt="A figure." src="data:image/png;base64,iVBORw0KGgo=">`
	body, err := processFragment(frag, nb, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="05_y.html#Top"`, `href="https://github.com/o/r/blob/main/lessons/hw2/student.ipynb"`, `href="#Title"`, `href="https://go.dev"`,
		`data-live="live-04_x-0"`, `<script type="application/json" id="live-04_x-0">`, `"src":"frames/b.png"`, `src="img/`} {
		if !strings.Contains(body, want) {
			t.Errorf("body has no %s:\n%s", want, body)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(s.out, "img")); len(entries) != 1 {
		t.Errorf("img/ holds %d files, want the one figure", len(entries))
	}
	hs := headings(body)
	if len(hs) != 2 || hs[1] != (heading{Level: 2, ID: "Part-$a$", Text: "Part $a$"}) {
		t.Errorf("headings %+v", hs)
	}
	if g := learningGoals(body); g != "<ul><li>do $x$</li></ul>" {
		t.Errorf("learning goals %q", g)
	}
	idx, err := searchIndex([]*page{{File: "04_x.html", Title: "Title", Body: "<h2 id=\"a\">A<a class=\"anchor-link\" href=\"#a\">¶</a></h2><p>perceptron &amp; margin</p><script>var hidden</script>"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(idx), `{"p":"04_x.html","t":"Title","h":"A","a":"a","x":"perceptron \u0026 margin"}`) || strings.Contains(string(idx), "hidden") {
		t.Errorf("search index %s", idx)
	}

	// A caption that differs from the frame drawn now: the notebook is stale.
	stale := strings.Replace(frag, ">one</p>", ">three</p>", 1)
	if _, err := processFragment(stale, nb, s); err == nil || !strings.Contains(err.Error(), "execute the notebook again") {
		t.Errorf("stale caption: %v", err)
	}
	// A live figure the notebook's outputs do not have.
	if _, err := processFragment(`<p>no figure</p>`, nb, s); err == nil || !strings.Contains(err.Error(), "0 live figures") {
		t.Errorf("missing live figure: %v", err)
	}
	// A figure without alt text.
	noAlt := strings.Replace(frag, `alt="A figure." `, ``, 1)
	if _, err := processFragment(noAlt, nb, s); err == nil || !strings.Contains(err.Error(), "no alt text") {
		t.Errorf("figure without alt: %v", err)
	}
}

// TestDrawLiveFigures runs the real thing on a small notebook: the program
// of its live cell is built in the module and run in two shards; the
// figure has every combination (3 × 2) with its own frame, a frame PNG for
// each distinct one; a second build of the same program takes the frames
// from the cache, and a changed program draws them again.
func TestDrawLiveFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and links a program with gonum/plot")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	nb := testNotebook(t,
		"import (\n\t\"fmt\"\n\n\t\"gonum.org/v1/plot\"\n\n\t\"github.com/perceptron-go/lessons/notebooks/nb/view\"\n)",
		"%%\n_, err := view.ExploreAlt(func(view.Values, string) string { return \"a test figure\" }, 100, 80, func(v view.Values) (*plot.Plot, string, error) {\n\tp := plot.New()\n\tp.Title.Text = fmt.Sprintf(\"%g %s\", v.Number(\"x\"), v.Choice(\"c\"))\n\treturn p, \"at \" + p.Title.Text, nil\n}, view.Slider(\"x\", 1, 3, 1, 2), view.Choice(\"c\", []string{\"p\", \"q\"}, \"q\"))\nif err != nil {\n\tpanic(err)\n}",
	)
	nb.Path = "scripts/site/testdata-nb.ipynb" // the programs run in the notebook's folder
	prog, err := buildLiveProgram(nb)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	var logs []string
	logf := func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	// A work folder of a fixed name, as the site's: the program's package
	// path, which is in the binary, is the folder's.
	work := filepath.Join(repo, ".site-work-test")
	t.Cleanup(func() { os.RemoveAll(work) })
	draw := func(prefix string) *liveFigure {
		t.Helper()
		if err := os.RemoveAll(work); err != nil {
			t.Fatal(err)
		}
		figs, err := drawLiveFigures(context.Background(), repo, work, cache, []*liveProgram{prog}, 2, 2, logf)
		if err != nil {
			t.Fatal(err)
		}
		if len(figs[nb.Path]) != 1 {
			t.Fatalf("figures %v, want 1", figs)
		}
		fig := figs[nb.Path][0]
		if fig.Alt != "a test figure" || len(fig.Index) != 6 || len(fig.Frames) != 6 || fig.values != "x = 1, c = q" && fig.values != "x = 2, c = q" {
			t.Fatalf("figure %+v", fig)
		}
		for i, f := range fig.Frames {
			if f.Src == "" || f.Error != "" {
				t.Errorf("frame %d: %+v", i, f)
			} else if _, err := os.Stat(filepath.Join(work, "frames", f.Src)); err != nil {
				t.Errorf("frame %d: %v", i, err)
			}
		}
		x, c := []string{"1", "2", "3"}, []string{"p", "q"}
		for i, k := range fig.Index {
			if want := prefix + x[i/2] + " " + c[i%2]; fig.Frames[k].Caption != want {
				t.Errorf("combination %d: caption %q, want %q", i, fig.Frames[k].Caption, want)
			}
		}
		return fig
	}
	first := draw("at ")
	if first.values != "x = 2, c = q" || first.start.Caption != "at 2 q" {
		t.Errorf("start %q %+v, want x = 2, c = q", first.values, first.start)
	}
	second := draw("at ")
	if !slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, "from the cache") }) {
		t.Errorf("the second build did not use the cache: %q", logs)
	}
	if fmt.Sprint(first.Frames) != fmt.Sprint(second.Frames) {
		t.Errorf("the cached frames differ: %v and %v", first.Frames, second.Frames)
	}
	logs = nil
	prog.main = []byte(strings.Replace(string(prog.main), `"at "`, `"now "`, 1))
	third := draw("now ")
	if slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, "from the cache") }) || !strings.HasPrefix(third.start.Caption, "now ") {
		t.Errorf("a changed program used the cache: %q, caption %q", logs, third.start.Caption)
	}
}

func TestLessonTitle(t *testing.T) {
	for _, c := range [][3]string{
		{"04_batch_pla", "Batch PLA: passes", "4. Batch PLA: passes"},
		{"07_voting", "7. Voting and averaging", "7. Voting and averaging"},
		{"00_start_here", "Start here", "0. Start here"},
		{"intro", "Intro", "Intro"},
	} {
		if got := lessonTitle(c[0], c[1]); got != c[2] {
			t.Errorf("lessonTitle(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
