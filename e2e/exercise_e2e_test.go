//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// A lesson exercise (issue 22 §3.1) is consecutive code cells whose
// metadata carries "lesson_exercise": {"name": N, "role": R}: the stub
// (role "stub", declares func N and panics "not implemented"), the check
// (role "check", calls a checker of package exercises; or, since issue 31,
// the stub's own cell after its %% line, so that a compile error replaces
// the verdict instead of leaving an old one under the code) and the worked
// solution (role "solution", collapsed with jupyter.source_hidden, declaring
// the solution under another name, such as NSolution, so that it does not
// replace the student's function).
type lessonExercise struct {
	name                  string
	stub, check, solution int    // cell indices
	solutionName, solved  string // the solution's function and its source renamed to name
}

// exerciseNotebooks returns the notebooks under notebooks/ that have
// lesson_exercise cells, with their raw JSON and exercises.
func exerciseNotebooks(t *testing.T) map[string][]lessonExercise {
	t.Helper()
	paths, err := filepath.Glob("notebooks/*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]lessonExercise{}
	for _, path := range paths {
		nb := repo.ReadNotebook(t, path)
		ex, err := lessonExercises(nb)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if len(ex) > 0 {
			found[path] = ex
		}
	}
	return found
}

var funcDecl = regexp.MustCompile(`(?m)^func ([A-Za-z_][A-Za-z0-9_]*)\(`)

// lessonExercises finds the exercises of a notebook and checks their shape.
func lessonExercises(nb *notebook.Notebook) ([]lessonExercise, error) {
	byName := map[string]*lessonExercise{}
	var order []string
	for i, c := range nb.Cells {
		le, ok := c.Metadata["lesson_exercise"].(map[string]any)
		if !ok {
			continue
		}
		name, _ := le["name"].(string)
		role, _ := le["role"].(string)
		if c.Type != "code" || name == "" {
			return nil, fmt.Errorf("cell %d: lesson_exercise metadata on a %v cell, or without a name", i, c.Type)
		}
		e := byName[name]
		if e == nil {
			e = &lessonExercise{name: name, stub: -1, check: -1, solution: -1}
			byName[name] = e
			order = append(order, name)
		}
		switch role {
		case "stub":
			e.stub = i
		case "check":
			e.check = i
		case "solution":
			e.solution = i
			if !c.SourceHidden() {
				return nil, fmt.Errorf("cell %d: %s's solution is not collapsed (metadata jupyter.source_hidden)", i, name)
			}
		default:
			return nil, fmt.Errorf("cell %d: lesson_exercise role %q, want stub, check or solution", i, role)
		}
	}
	var out []lessonExercise
	cells := nb.Cells
	for _, name := range order {
		e := byName[name]
		if e.check < 0 && e.stub >= 0 && strings.Contains(cells[e.stub].Source, "%%\nexercises.Check") {
			e.check = e.stub // the stub's cell runs its own check: a compile error replaces the verdict
		}
		if e.stub < 0 || e.check != e.stub && e.check != e.stub+1 || e.solution != e.check+1 {
			return nil, fmt.Errorf("exercise %s: stub, check and solution are cells %d, %d, %d; want consecutive cells (the check in the stub's cell or the next)", name, e.stub, e.check, e.solution)
		}
		stub := cells[e.stub].Source
		if m := funcDecl.FindStringSubmatch(stub); m == nil || m[1] != name || !strings.Contains(stub, "not implemented") {
			return nil, fmt.Errorf("exercise %s: the stub (cell %d) must declare func %s first and panic \"not implemented\"", name, e.stub, name)
		}
		sol := cells[e.solution].Source
		m := funcDecl.FindStringSubmatch(sol)
		if m == nil || m[1] == name {
			return nil, fmt.Errorf("exercise %s: the solution (cell %d) must declare its function under another name than %s (GoNB would replace the student's)", name, e.solution, name)
		}
		e.solutionName = m[1]
		e.solved = regexp.MustCompile(`\b`+m[1]+`\b`).ReplaceAllString(sol, name)
		if _, check, ok := strings.Cut(stub, "\n%%\n"); ok && !strings.Contains(e.solved, "%%") {
			e.solved = strings.TrimRight(e.solved, "\n") + "\n\n%%\n" + check // the stub's own check, run on the solution
		}
		out = append(out, *e)
	}
	return out, nil
}

// stdoutOf returns what cell c printed, with the plain text of what it
// displayed (a check's report is HTML with a text/plain twin).
func stdoutOf(c *notebook.Cell) string {
	var b strings.Builder
	for _, o := range c.Outputs {
		if o.Type == "stream" && o.Name == "stdout" {
			b.WriteString(o.Text)
		}
		if o.Type == "display_data" && o.Data["text/plain"] != nil {
			text, _ := notebook.Multiline(o.Data["text/plain"])
			b.WriteString(text)
		}
	}
	return b.String()
}

// TestLessonExercises executes every lesson with exercises twice, as
// committed (each check says NOT DONE, no cell fails, and Run All goes
// on) and with every stub replaced by its worked solution renamed to the
// stub's name (every check passes, every cell runs, and a later cell says
// it drew from the student's function). One subtest per notebook and mode:
// go test -C e2e -tags e2e -run 'TestLessonExercises/notebooks/03_online_perceptron.ipynb/solutions' .
func TestLessonExercises(t *testing.T) {
	found := exerciseNotebooks(t)
	if len(found) == 0 {
		t.Fatal("no notebook under notebooks/ has lesson_exercise cells")
	}
	rt := newJupyterRuntime(t)
	for path, exercises := range found {
		t.Run(path, func(t *testing.T) {
			committed := repo.ReadNotebook(t, path)
			for _, solved := range []bool{false, true} {
				mode := map[bool]string{false: "stubs", true: "solutions"}[solved]
				t.Run(mode, func(t *testing.T) {
					got := executeCopy(t, rt, path, exercises, solved)
					for _, p := range checkExecuted(committed, got) {
						t.Error(p)
					}
					for i, c := range got.Cells {
						if c.Type == "code" && c.ExecutionCount == nil {
							t.Errorf("cell %d did not run", i)
						}
					}
					for _, e := range exercises {
						checkExerciseOutput(t, got, e, solved)
					}
				})
			}
		})
	}
}

// executeCopy writes a copy of the notebook at path next to it (the setup
// cell finds go.mod from the notebook's folder), with the stubs replaced
// by the solutions if solved, and executes it.
func executeCopy(t *testing.T, rt *jupyterRuntime, path string, exercises []lessonExercise, solved bool) *notebook.Notebook {
	t.Helper()
	nb := repo.ReadNotebook(t, path)
	if solved {
		for _, e := range exercises {
			nb.Cells[e.stub].Source = e.solved
		}
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".exercise-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cp := filepath.Join(dir, filepath.Base(path))
	if err := nb.WriteFile(cp); err != nil {
		t.Fatal(err)
	}
	got, _ := rt.execute(t, cp)
	return got
}

// checkExerciseOutput checks what the check cell of e printed and, solved,
// that a later cell drew from the student's function.
func checkExerciseOutput(t *testing.T, got *notebook.Notebook, e lessonExercise, solved bool) {
	t.Helper()
	out := stdoutOf(got.Cells[e.check])
	if !solved {
		if !strings.Contains(out, "NOT DONE") || strings.Contains(out, "cases passed") {
			t.Errorf("%s: with the stub, the check (cell %d) printed %q; want NOT DONE", e.name, e.check, out)
		}
		return
	}
	if !strings.Contains(out, "cases passed") || strings.Contains(out, "FAILED") || strings.Contains(out, "NOT DONE") {
		t.Errorf("%s: with the solution %s, the check (cell %d) printed %q; want every case passed", e.name, e.solutionName, e.check, out)
	}
	for _, c := range got.Cells[e.solution+1:] {
		if s := stdoutOf(c); strings.Contains(s, "your "+e.name) && !strings.Contains(s, "does not pass") {
			return
		}
	}
	t.Errorf("%s: with the solution, no later cell says it drew from \"your %s\"", e.name, e.name)
}

// TestLessonExerciseShape checks lessonExercises on small notebooks: the
// three cells found and the solution renamed, and each broken shape refused
// with a message that names it.
func TestLessonExerciseShape(t *testing.T) {
	code := func(src string, meta map[string]any) *notebook.Cell {
		return &notebook.Cell{Type: "code", Source: src, Metadata: meta}
	}
	role := func(r string, hidden bool) map[string]any {
		m := map[string]any{"lesson_exercise": map[string]any{"name": "Step", "role": r}}
		if hidden {
			m["jupyter"] = map[string]any{"source_hidden": true}
		}
		return m
	}
	stub := code("func Step(x float64) float64 {\n\tpanic(\"not implemented: write Step\")\n}", role("stub", false))
	check := code("%%\nexercises.CheckStep(Step)", role("check", false))
	sol := code("func StepSolution(x float64) float64 { return x }\n\n%%\nexercises.CheckStep(StepSolution)", role("solution", true))
	other := code("%%\nfmt.Println(1)", map[string]any{})
	ex, err := lessonExercises(&notebook.Notebook{Cells: []*notebook.Cell{other, stub, check, sol}})
	if err != nil || len(ex) != 1 || ex[0].stub != 1 || ex[0].check != 2 || ex[0].solution != 3 ||
		ex[0].solved != "func Step(x float64) float64 { return x }\n\n%%\nexercises.CheckStep(Step)" {
		t.Fatalf("lessonExercises = %+v, %v; want Step at cells 1, 2, 3 with the solution renamed", ex, err)
	}
	for _, tc := range []struct {
		name  string
		cells []*notebook.Cell
		want  string
	}{
		{"not consecutive", []*notebook.Cell{stub, other, check, sol}, "want consecutive cells"},
		{"solution not collapsed", []*notebook.Cell{stub, check, code("func StepSolution() {}", role("solution", false))}, "not collapsed"},
		{"solution under the stub's name", []*notebook.Cell{stub, check, code("func Step(x float64) float64 { return x }", role("solution", true))}, "under another name"},
		{"stub that does not panic", []*notebook.Cell{code("func Step(x float64) float64 { return 0 }", role("stub", false)), check, sol}, "panic \"not implemented\""},
		{"unknown role", []*notebook.Cell{code("", role("hint", false))}, "role \"hint\""},
	} {
		if _, err := lessonExercises(&notebook.Notebook{Cells: tc.cells}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one that says %q", tc.name, err, tc.want)
		}
	}
}
