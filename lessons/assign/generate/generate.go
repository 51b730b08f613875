// Package generate writes an assignment's student and solution notebooks
// from its source: solutions replaced by panic("not implemented") or kept,
// hidden tests removed (or kept in the solution on request), outputs
// cleared; and checks that the committed ones are up to date.
package generate

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// emptyCell reports whether a cell holds nothing but blank lines and
// GoNB commands such as %test.
func emptyCell(lines []string) bool {
	cl := gosrc.ReadCell(strings.Join(lines, "\n"))
	for i, l := range cl.Lines {
		if !cl.Special[i] && strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// rewrite returns the cell source with solution blocks either stubbed
// (student) or unwrapped (solution), and hidden test blocks dropped unless
// keepHidden. The second result is false when dropping hidden tests left
// nothing but GoNB commands (%test) and blank lines.
func rewrite(src string, student, keepHidden bool) (string, bool) {
	lines := strings.Split(src, "\n")
	var out []string
	inSol, inHid, dropped := false, false, false
	for _, l := range lines {
		switch strings.TrimSpace(l) {
		case assignment.BeginSolution:
			inSol = true
			if student {
				indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
				out = append(out, indent+assignment.StubBody)
			}
			continue
		case assignment.EndSolution:
			inSol = false
			continue
		case assignment.BeginHidden:
			inHid = true
			dropped = dropped || !keepHidden
			continue
		case assignment.EndHidden:
			inHid = false
			continue
		}
		if (inSol && student) || (inHid && !keepHidden) {
			continue
		}
		out = append(out, l)
	}
	// A dropped hidden block leaves blank lines at the end of a cell.
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if dropped && emptyCell(out) {
		return "", false
	}
	return strings.Join(out, "\n"), true
}

// rewriteAnswer returns a markdown cell's source with each worked answer
// (the lines between assignment.BeginAnswer and EndAnswer) replaced by
// assignment.AnswerStub (student) or unwrapped (solution).
func rewriteAnswer(src string, student bool) string {
	var out []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		switch strings.TrimSpace(l) {
		case assignment.BeginAnswer:
			in = true
			if student {
				out = append(out, assignment.AnswerStub)
			}
			continue
		case assignment.EndAnswer:
			in = false
			continue
		}
		if in && student {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// Notebooks returns the student notebook (solutions stubbed, hidden tests
// removed, outputs cleared) and the solution notebook (solutions in place,
// hidden tests removed unless keepHidden, outputs cleared: execute it to
// fill them) of the assignment.
func Notebooks(a *assignment.Assignment, keepHidden bool) (student, solution *notebook.Notebook) {
	build := func(isStudent bool) *notebook.Notebook {
		nb := &notebook.Notebook{NBFormat: a.Source.NBFormat, NBFormatMinor: a.Source.NBFormatMinor, Metadata: cloneMap(a.Source.Metadata)}
		meta := map[string]any{"assignment": a.Name}
		if isStudent {
			meta["student"] = true
		} else {
			meta["solution"] = true
		}
		nb.Metadata["lessons"] = meta
		for _, c := range a.Source.Cells {
			nc := &notebook.Cell{Type: c.Type, ID: c.ID, Metadata: cloneMap(c.Metadata), Source: c.Source, Attachments: c.Attachments}
			delete(nc.Metadata, "execution")
			if c.Type == "code" {
				src, keep := rewrite(c.Source, isStudent, keepHidden && !isStudent)
				if !keep {
					continue
				}
				nc.Source = src
			}
			if c.Type == "markdown" {
				nc.Source = rewriteAnswer(c.Source, isStudent)
			}
			nb.Cells = append(nb.Cells, nc)
		}
		return nb
	}
	return build(true), build(false)
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if mm, ok := v.(map[string]any); ok {
			v = cloneMap(mm)
		}
		out[k] = v
	}
	return out
}

// sameCells reports the first difference in cell types and sources between
// a committed notebook and a freshly generated one ("" if none).
func sameCells(committed, fresh *notebook.Notebook) string {
	if committed.Assignment() != fresh.Assignment() {
		return fmt.Sprintf("metadata lessons.assignment is %q, want %q", committed.Assignment(), fresh.Assignment())
	}
	n := min(len(committed.Cells), len(fresh.Cells))
	for i := 0; i < n; i++ {
		c, f := committed.Cells[i], fresh.Cells[i]
		if c.Type != f.Type {
			return fmt.Sprintf("cell %d is %s, want %s", i, c.Type, f.Type)
		}
		if strings.TrimRight(c.Source, "\n") != strings.TrimRight(f.Source, "\n") {
			return fmt.Sprintf("cell %d differs:\n%s", i, lineDiff(c.Source, f.Source))
		}
	}
	if len(committed.Cells) != len(fresh.Cells) {
		return fmt.Sprintf("%d cells, want %d", len(committed.Cells), len(fresh.Cells))
	}
	return ""
}

// lineDiff shows the first differing line of two texts.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("    line %d: committed %q\n    line %d: generated %q", i+1, gl, i+1, wl)
		}
	}
	return ""
}

// studentIsClean reports what is wrong with a committed student notebook
// beyond its sources: outputs or execution counts left in.
func studentIsClean(nb *notebook.Notebook) string {
	for i, c := range nb.Cells {
		if c.Type == "code" && (len(c.Outputs) > 0 || c.ExecutionCount != nil) {
			return fmt.Sprintf("cell %d has outputs or an execution count: student notebooks are committed cleared", i)
		}
	}
	if s, _ := nb.LessonsMeta()["student"].(bool); !s {
		return "metadata lessons.student is not true"
	}
	return ""
}

// Check reports, for assignment a, how the committed
// student.ipynb and solution.ipynb differ from what generate would write
// (nil if up to date).
func Check(a *assignment.Assignment) []string {
	student, solution := Notebooks(a, false)
	var problems []string
	for _, f := range []struct {
		name string
		nb   *notebook.Notebook
	}{{"student.ipynb", student}, {"solution.ipynb", solution}} {
		path := filepath.Join(a.Dir, f.name)
		committed, err := notebook.Read(path)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if d := sameCells(committed, f.nb); d != "" {
			problems = append(problems, fmt.Sprintf("%s is out of date with source.ipynb: %s", path, d))
		}
		if f.name == "student.ipynb" {
			if d := studentIsClean(committed); d != "" {
				problems = append(problems, fmt.Sprintf("%s: %s", path, d))
			}
		}
	}
	return problems
}

// Write writes student.ipynb and solution.ipynb next to the source and,
// if execute, runs the solution notebook in place with the gonb kernel.
func Write(a *assignment.Assignment, keepHidden, execute bool, repo string) error {
	student, solution := Notebooks(a, keepHidden)
	if err := student.WriteFile(filepath.Join(a.Dir, "student.ipynb")); err != nil {
		return err
	}
	solPath := filepath.Join(a.Dir, "solution.ipynb")
	if err := solution.WriteFile(solPath); err != nil {
		return err
	}
	if !execute {
		return nil
	}
	return executeNotebook(solPath, repo)
}

// executeNotebook runs jupyter nbconvert --execute --inplace on path, with
// the Python that scripts/setup.sh links as bin/jupyter-python if present.
func executeNotebook(path, repo string) error {
	args := []string{"--to", "notebook", "--execute", "--inplace",
		"--ExecutePreprocessor.kernel_name=gonb", "--ExecutePreprocessor.timeout=600", filepath.Base(path)}
	var cmd *exec.Cmd
	if py := filepath.Join(repo, "bin", "jupyter-python"); fileExists(py) {
		cmd = exec.Command(py, append([]string{"-m", "nbconvert"}, args...)...)
	} else {
		cmd = exec.Command("jupyter", append([]string{"nbconvert"}, args...)...)
	}
	cmd.Dir = filepath.Dir(path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("executing %s: %v (is Jupyter set up? run scripts/setup.sh)\n%s", path, err, lastLines(out.String(), 30))
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// Options are the flags of "assign generate".
type Options struct {
	Hidden  bool   // keep the hidden tests in solution.ipynb
	Execute bool   // execute solution.ipynb with the gonb kernel
	Check   bool   // write nothing; report what is out of date
	Repo    string // repository root; "": found from the working folder
}

// Flags registers the flags of "assign generate" on fs, filling o.
func (o *Options) Flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.Hidden, "hidden", false, "keep the hidden tests in solution.ipynb (do not hand that one out)")
	fs.BoolVar(&o.Execute, "execute", true, "execute solution.ipynb in place with the gonb kernel (needs Jupyter, see scripts/setup.sh)")
	fs.BoolVar(&o.Check, "check", false, "write nothing; fail if the committed student.ipynb and solution.ipynb are out of date with source.ipynb")
	fs.StringVar(&o.Repo, "repo", "", "repository root (default: found from the current folder)")
}

// Run generates (or, with Check, checks) the assignments in the folders
// dirs, each holding a source.ipynb; none: every lessons/*/source.ipynb.
func (o *Options) Run(dirs []string, stdout, stderr io.Writer) error {
	repo := o.Repo
	if repo == "" {
		var err error
		if repo, err = assignment.FindRepo("."); err != nil {
			return err
		}
	}
	if len(dirs) == 0 {
		var err error
		if dirs, err = assignment.Dirs(filepath.Join(repo, "lessons")); err != nil {
			return err
		}
		if len(dirs) == 0 {
			return fmt.Errorf("no %s/lessons/*/source.ipynb", repo)
		}
	}
	var failed []string
	for _, dir := range dirs {
		a, err := assignment.LoadAssignment(dir)
		if err != nil {
			return err
		}
		if o.Check {
			problems := Check(a)
			for _, p := range problems {
				fmt.Fprintln(stderr, p)
			}
			if len(problems) > 0 {
				failed = append(failed, dir)
			} else {
				fmt.Fprintf(stdout, "%s: up to date\n", dir)
			}
			continue
		}
		start := time.Now()
		if err := Write(a, o.Hidden, o.Execute, repo); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: wrote student.ipynb and solution.ipynb (%d tests, %s points) in %.1fs\n",
			dir, len(a.Tests), strconv.FormatFloat(a.MaxScore(), 'g', -1, 64), time.Since(start).Seconds())
	}
	if len(failed) > 0 {
		return fmt.Errorf("out of date: %s; run: go run ./lessons/assign generate", strings.Join(failed, ", "))
	}
	return nil
}
