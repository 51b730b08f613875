package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
)

// The image, Binder and the Hub open JupyterLab, and Notebook 7 has its
// menus; the classic Notebook (6) names some menus otherwise. A menu path of
// the classic Notebook only:
//   - anything in the Cell menu (JupyterLab and Notebook 7 have none: Run ▸
//     Run All Cells, Edit ▸ Clear Outputs of All Cells);
//   - Kernel ▸ Restart and Kernel ▸ Interrupt not followed by "Kernel"
//     (JupyterLab: Kernel ▸ Restart Kernel…, Kernel ▸ Interrupt Kernel).
var classicOnlyMenu = regexp.MustCompile(`\bCell ▸ [A-Z]|\bKernel ▸ (?:Restart|Interrupt)(?: ?[&,]| [a-jl-z]|[^ a-zA-Z]|$)`)

// labMenu is a menu path of JupyterLab (and Notebook 7).
var labMenu = regexp.MustCompile(`\b(?:Run ▸ Run|Kernel ▸ (?:Restart|Interrupt) Kernel|Edit ▸|View ▸|File ▸|Settings ▸|Help ▸)`)

// menuSep is a menu path's separator between two capitalised words, as
// written (▸, >, →), made " ▸ ".
var menuSep = regexp.MustCompile(`\b([A-Z][a-z]+)\s*(?:▸|>|→)\s*([A-Z])`)

// sentenceEnd ends a sentence: a full stop, ! or ? and a space.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+`)

// menuProblems returns the sentences of text that name a classic-only menu
// path without the JupyterLab menu beside it and without saying it is the
// classic Notebook's: each classic path must sit in a sentence that also
// names a JupyterLab menu path and says "classic" or "Notebook 6".
// It also returns how many sentences name a classic-only path.
func menuProblems(text string) (bad []string, classicPaths int) {
	for _, para := range regexp.MustCompile(`\n\s*\n`).Split(text, -1) {
		para = strings.Join(strings.Fields(strings.ReplaceAll(para, "*", "")), " ")
		para = menuSep.ReplaceAllString(para, "$1 ▸ $2")
		for _, s := range sentenceEnd.Split(para, -1) {
			if !classicOnlyMenu.MatchString(s) {
				continue
			}
			classicPaths++
			classic := strings.Contains(s, "classic") || strings.Contains(s, "Notebook 6")
			if !classic || !labMenu.MatchString(s) {
				bad = append(bad, s)
			}
		}
	}
	return bad, classicPaths
}

func TestMenuProblems(t *testing.T) {
	for _, c := range []struct {
		text string
		bad  bool
	}{
		{"Run every cell with **Cell ▸ Run All**.", true},
		{"Run every cell with Cell > Run All, then look.", true},
		{"Use **Kernel ▸ Restart** when it hangs.", true},
		{"Use **Kernel ▸ Restart & Run All** to start over.", true},
		{"Stop it with **Kernel ▸ Interrupt**.", true},
		{"Run it with **Cell ▸ Run All** in the classic Notebook.", true}, // no JupyterLab menu
		{"Run it with **Run ▸ Run All Cells** (or **Cell ▸ Run All**).", true},
		{"Run **Run ▸ Run All Cells**. In the classic Notebook: **Cell ▸ Run All**.", true}, // two sentences
		{"Run it with **Run ▸ Run All\nCells** in JupyterLab (**Cell ▸\nRun All** in the classic Notebook).", false},
		{"**Run ▸ Run All Cells** in JupyterLab and Notebook 7; **Cell ▸ Run All** in the classic Notebook", false},
		{"**Kernel ▸ Interrupt Kernel** (JupyterLab; **Kernel ▸ Interrupt** in Notebook 6) stops it.", false},
		{"Use **Kernel ▸ Restart Kernel…** when it hangs.", false},
		{"Canvas: Assignments ▸ Download Submissions, then Grades ▸ Import.", false},
		{"The cell runs. Kernel dies.", false},
	} {
		if got, _ := menuProblems(c.text); (len(got) > 0) != c.bad {
			t.Errorf("menuProblems(%q) = %q, want a problem: %v", c.text, got, c.bad)
		}
	}
}

// TestMenusAreJupyterLabs: the notebooks' markdown cells and the READMEs name
// JupyterLab's menus, and the classic Notebook's only beside them.
func TestMenusAreJupyterLabs(t *testing.T) {
	var files []string
	for _, g := range []string{"notebooks/*.ipynb", "lessons/hw*/*.ipynb", "README.md", "docs/*.md", "lessons/README.md"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no file matches %s", g)
		}
		files = append(files, m...)
	}
	classicPaths := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts := []string{string(data)}
		if strings.HasSuffix(f, ".ipynb") {
			nb, err := notebook.Parse(data)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			texts = nil
			for _, c := range nb.Cells {
				if c.Type == "markdown" {
					texts = append(texts, c.Source)
				}
			}
		}
		for _, text := range texts {
			bad, n := menuProblems(text)
			classicPaths += n
			for _, s := range bad {
				t.Errorf("%s: a menu of the classic Notebook only, without JupyterLab's beside it (and \"classic\"): %q", f, s)
			}
		}
	}
	// The notebooks name the classic Notebook's Cell ▸ Run All beside
	// JupyterLab's Run ▸ Run All Cells: if none is seen, the parsing is wrong.
	if classicPaths == 0 {
		t.Error("no sentence names a classic Notebook menu: the check reads nothing")
	}
	t.Logf("%d files, %d sentences name a classic Notebook menu beside JupyterLab's", len(files), classicPaths)
}
