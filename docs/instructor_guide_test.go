package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// walkThroughMarker is the comment line inside the fenced block of
// docs/instructor.md that walks one assignment from release to gradebook.
const walkThroughMarker = "# walk-through: hw2_pla"

// fencedBlock returns the lines of the one fenced code block of md that
// holds a line equal to marker, and how many blocks hold it (the lines only
// if exactly one does).
func fencedBlock(md, marker string) ([]string, int) {
	var found [][]string
	var cur []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case !in && strings.HasPrefix(l, "```"):
			in, cur = true, nil
		case in && strings.HasPrefix(l, "```"):
			in = false
			if slices.Contains(cur, marker) {
				found = append(found, cur)
			}
		case in:
			cur = append(cur, l)
		}
	}
	if len(found) != 1 {
		return nil, len(found)
	}
	return found[0], 1
}

func TestFencedBlock(t *testing.T) {
	md := "text\n```sh\necho a\n```\n\n```sh\n# m\necho b\n```\n"
	if got, n := fencedBlock(md, "# m"); n != 1 || !slices.Equal(got, []string{"# m", "echo b"}) {
		t.Errorf("fencedBlock = %q, %d; want the second block", got, n)
	}
	if _, n := fencedBlock(md, "# none"); n != 0 {
		t.Errorf("fencedBlock found %d blocks for a marker in none", n)
	}
}

// TestInstructorGuideWalkThrough runs the instructor's guide's walk-through
// of hw2 as written, from the repository's folder, with its folders in a
// temporary folder (through the variables its first lines define), and two
// Canvas-named submissions: the student notebook as handed out, and the
// solution.
func TestInstructorGuideWalkThrough(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grader twice and the student release twice")
	}
	if _, err := exec.LookPath("bwrap"); err != nil && os.Getenv("CI") == "" {
		t.Skip("no bwrap, which grading needs (apt-get install bubblewrap; set CI=1 to make this a failure)")
	}
	md, err := os.ReadFile(filepath.Join("docs", "instructor.md"))
	if err != nil {
		t.Fatal(err)
	}
	block, n := fencedBlock(string(md), walkThroughMarker)
	if n != 1 {
		t.Fatalf("docs/instructor.md: %d fenced blocks hold the line %q, want 1", n, walkThroughMarker)
	}
	// The block in two parts: up to the release of the solutions, and from
	// there on, each after the folders' variables, so that the release can
	// be checked before the solutions are published.
	var vars, before, after []string
	cut := -1
	for i, l := range block {
		if strings.Contains(l, "--release-solutions") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			cut = i
		}
	}
	if cut < 0 {
		t.Fatal("the walk-through has no student-release.sh --release-solutions command")
	}
	for i, l := range block {
		if i < cut {
			before = append(before, l)
		} else {
			after = append(after, l)
		}
		if i < cut && strings.Contains(l, "=${") {
			vars = append(vars, l)
		}
	}
	for _, v := range []string{"RELEASE", "SUBMISSIONS", "OUT", "CODE", "CANVAS"} {
		if !slices.ContainsFunc(vars, func(l string) bool { return strings.HasPrefix(l, v+"=${"+v+":-") }) {
			t.Fatalf("the walk-through does not define %s=${%s:-...} at its top", v, v)
		}
	}

	tmp := t.TempDir()
	dirs := map[string]string{
		"RELEASE":     filepath.Join(tmp, "release"),
		"SUBMISSIONS": filepath.Join(tmp, "submissions"),
		"OUT":         filepath.Join(tmp, "grades"),
		"CODE":        filepath.Join(tmp, "code"),
		"CANVAS":      filepath.Join(tmp, "canvas.csv"),
	}
	// Canvas's download names: name_USERID_SUBMISSIONID_file.ipynb.
	subs := map[string]string{
		"doejane_48213_9120334_hw2_pla.ipynb": filepath.Join("lessons", "hw2_pla", "student.ipynb"),
		"roerick_51177_9120335_hw2_pla.ipynb": filepath.Join("lessons", "hw2_pla", "solution.ipynb"),
	}
	if err := os.Mkdir(dirs["SUBMISSIONS"], 0o755); err != nil {
		t.Fatal(err)
	}
	for name, from := range subs {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs["SUBMISSIONS"], name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(lines []string) {
		t.Helper()
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Join(lines, "\n"))
		cmd.Env = os.Environ()
		for k, v := range dirs {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the walk-through failed: %v\n%s\n%s", err, strings.Join(lines, "\n"), out)
		}
		t.Logf("%s", out)
	}

	run(before)
	rel := dirs["RELEASE"]
	if _, err := os.Stat(filepath.Join(rel, "lessons", "hw2_pla", "student.ipynb")); err != nil {
		t.Errorf("the release has no hw2 student notebook: %v", err)
	}
	for _, f := range repo.FilesUnder(t, rel) {
		if b := filepath.Base(f); b == "source.ipynb" || b == "solution.ipynb" {
			t.Errorf("the release before the due date holds %s", f)
		}
	}

	grades := readCSV(t, filepath.Join(dirs["OUT"], "grades.csv"))
	col := func(name string) int {
		i := slices.Index(grades[0], name)
		if i < 0 {
			t.Fatalf("grades.csv has no column %q: %q", name, grades[0])
		}
		return i
	}
	student, score, maxScore := col("student"), col("score"), col("max_score")
	want := map[string]string{"doejane": "0", "roerick": ""} // "": full marks
	for _, r := range grades[1:] {
		w, ok := want[r[student]]
		if !ok {
			t.Errorf("grades.csv: unexpected student %q", r[student])
			continue
		}
		delete(want, r[student])
		if w == "" {
			w = r[maxScore]
			if w == "0" {
				t.Errorf("grades.csv: %s's max_score is 0", r[student])
			}
		}
		if r[score] != w {
			t.Errorf("grades.csv: %s scored %s of %s, want %s", r[student], r[score], r[maxScore], w)
		}
	}
	for s := range want {
		t.Errorf("grades.csv has no row for %s", s)
	}

	canvas := readCSV(t, dirs["CANVAS"])
	rows := map[string][]string{}
	for _, r := range canvas[1:] {
		rows[r[0]] = r
	}
	if i := slices.Index(canvas[0], "hw2_pla"); i < 0 {
		t.Errorf("canvas.csv has no column hw2_pla: %q", canvas[0])
	} else {
		for name, want := range map[string]string{"Points Possible": "14", "doejane": "0", "roerick": "14"} {
			if r, ok := rows[name]; !ok || r[i] != want {
				t.Errorf("canvas.csv row %q = %q, want %s in column hw2_pla", name, r, want)
			}
		}
		for name, id := range map[string]string{"doejane": "48213", "roerick": "51177"} {
			if r := rows[name]; r != nil && r[1] != id {
				t.Errorf("canvas.csv: %s's ID = %q, want the Canvas user ID %s", name, r[1], id)
			}
		}
	}

	var code []string
	for _, f := range repo.FilesUnder(t, dirs["CODE"]) {
		code = append(code, filepath.Base(f))
	}
	slices.Sort(code)
	if want := []string{"doejane_48213.go", "roerick_51177.go"}; !slices.Equal(code, want) {
		t.Errorf("the code folder holds %q, want %q", code, want)
	}

	run(append(vars, after...))
	if _, err := os.Stat(filepath.Join(rel, "lessons", "hw2_pla", "solution.ipynb")); err != nil {
		t.Errorf("after --release-solutions hw2_pla: %v", err)
	}
	for _, f := range repo.FilesUnder(t, rel) {
		if b := filepath.Base(f); b == "source.ipynb" || b == "solution.ipynb" && !strings.Contains(f, "hw2_pla") {
			t.Errorf("the release with hw2's solution holds %s", f)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	rows := repo.ReadCSV(t, path)
	if len(rows) < 2 {
		t.Fatalf("%s has %d rows", path, len(rows))
	}
	return rows
}
