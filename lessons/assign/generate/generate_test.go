package generate

import (
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// fixture is the test assignment of the grader's tests.
const fixture = "../testdata/hw0_fixture"

func TestRewrite(t *testing.T) {
	src := "// F doc.\nfunc F() int {\n\tx := 1\n\t// BEGIN SOLUTION\n\treturn x + 1\n\t// END SOLUTION\n}"
	tests := []struct {
		name                string
		src                 string
		student, keepHidden bool
		want                string
		keep                bool
	}{
		{"student stub", src, true, false, "// F doc.\nfunc F() int {\n\tx := 1\n\tpanic(\"not implemented\")\n}", true},
		{"solution", src, false, false, "// F doc.\nfunc F() int {\n\tx := 1\n\treturn x + 1\n}", true},
		{"hidden tests dropped", "%test\nfunc TestA(t *testing.T) {}\n\n// BEGIN HIDDEN TESTS\nfunc TestB(t *testing.T) {}\n// END HIDDEN TESTS\n",
			true, false, "%test\nfunc TestA(t *testing.T) {}", true},
		{"hidden tests kept", "%test\n// BEGIN HIDDEN TESTS\nfunc TestB(t *testing.T) {}\n// END HIDDEN TESTS",
			false, true, "%test\nfunc TestB(t *testing.T) {}", true},
		{"hidden-only cell dropped", "%test\n// BEGIN HIDDEN TESTS\nfunc TestB(t *testing.T) {}\n// END HIDDEN TESTS",
			false, false, "", false},
		{"command-only cell kept", assignment.SetupCell, true, false, assignment.SetupCell, true},
		{"markers indented with spaces", "func F() {\n    // BEGIN SOLUTION\n    g()\n    // END SOLUTION\n}", true, false,
			"func F() {\n    panic(\"not implemented\")\n}", true},
	}
	for _, tc := range tests {
		got, keep := rewrite(tc.src, tc.student, tc.keepHidden)
		if got != tc.want || keep != tc.keep {
			t.Errorf("%s: rewrite = %q, %v; want %q, %v", tc.name, got, keep, tc.want, tc.keep)
		}
	}
}

func TestRewriteAnswer(t *testing.T) {
	src := "Derive it.\n\n<!-- BEGIN SOLUTION -->\n**Answer.** Because t = 2.\n<!-- END SOLUTION -->\n\nThen code it."
	if got, want := rewriteAnswer(src, true), "Derive it.\n\n*Your answer here.*\n\nThen code it."; got != want {
		t.Errorf("student: rewriteAnswer = %q, want %q", got, want)
	}
	if got, want := rewriteAnswer(src, false), "Derive it.\n\n**Answer.** Because t = 2.\n\nThen code it."; got != want {
		t.Errorf("solution: rewriteAnswer = %q, want %q", got, want)
	}
	if got := rewriteAnswer("No answer here.", true); got != "No answer here." {
		t.Errorf("a cell without markers: rewriteAnswer = %q, want it unchanged", got)
	}
}

// sourceNotebook builds a source notebook from the code of its cells after
// the setup cell; a cell starting with "md:" is a markdown cell.
func TestGenerated(t *testing.T) {
	a := assigntest.Load(t, fixture)
	student, solution := Notebooks(a, false)
	_, solutionHidden := Notebooks(a, true)
	text := func(nb *notebook.Notebook) string {
		var b strings.Builder
		for _, c := range nb.Cells {
			b.WriteString(c.Source + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name       string
		nb         *notebook.Notebook
		cells      int
		has, hasNo []string
		meta       string
	}{
		{"student", student, 9, []string{assignment.SetupCell, "\tpanic(\"not implemented\")\n}", "func TestDot(", "%%\nfmt.Println"},
			[]string{"BEGIN", "END", "TestDotHidden", "s += x[i] * y[i]"}, "student"},
		{"solution", solution, 9, []string{assignment.SetupCell, "s += x[i] * y[i]", "func TestDot("},
			[]string{"BEGIN", "END", "TestDotHidden", "not implemented"}, "solution"},
		{"solution -hidden", solutionHidden, 10, []string{"func TestDotHidden(", "s += x[i] * y[i]"},
			[]string{"BEGIN", "END", "not implemented"}, "solution"},
	} {
		if len(tc.nb.Cells) != tc.cells {
			t.Errorf("%s: %d cells, want %d", tc.name, len(tc.nb.Cells), tc.cells)
		}
		s := text(tc.nb)
		for _, want := range tc.has {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q", tc.name, want)
			}
		}
		for _, bad := range tc.hasNo {
			if strings.Contains(s, bad) {
				t.Errorf("%s: has %q", tc.name, bad)
			}
		}
		if m := tc.nb.LessonsMeta(); m["assignment"] != "hw0_fixture" || m[tc.meta] != true || len(m) != 2 {
			t.Errorf("%s: metadata.lessons = %v", tc.name, m)
		}
		for i, c := range tc.nb.Cells {
			if c.Type == "code" && (c.Outputs != nil || c.ExecutionCount != nil) {
				t.Errorf("%s: cell %d has outputs", tc.name, i)
			}
		}
	}
}
