package grade

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

// redTeam is the metadata "redteam" of a hostile submission in
// testdata/redteam: what the grader must make of it.
type redTeam struct {
	About      string
	Assignment string   // default hw0_fixture (testdata)
	Score      float64  // the score it must get when graded normally
	Memory     int      // memory limit in MiB (default 2048)
	Build      int      // memory limit of the build in MiB (default none)
	Rejected   []string // the static check rejects it, naming these rules
	Batch      bool     // graded in TestRedTeamBatch
	Note       string   // the reason a batch gives it
	Present    []string // must appear in the report (what the attack did in its own process)
	Absent     []string // must not appear in the report, nor in the student's results.json
	// Sandbox, if set, grades it with the static check switched off, to
	// show that the sandbox alone contains the attack.
	Sandbox *struct {
		Score   float64
		Absent  []string // must not appear in the report: it would mean the attack worked
		Present []string // must appear in the report
		// AbsentJSON must not appear in results.json, the student's view
		// (the instructor's report may show it: a hidden test's output).
		AbsentJSON []string `json:"absent_json"`
		Survivors  string   // no process whose command line holds this may outlive the grading
		Memory     int
		// Levels, if set, are the only sandbox levels that must hold
		// the attack alone (setpriv runs /bin/sh and sees the machine's
		// world-readable files; see lessons/README.md).
		Levels []string
	}
}

func readRedTeam(t *testing.T) map[string]redTeam {
	t.Helper()
	paths, err := filepath.Glob("../testdata/redteam/*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/redteam/*.ipynb: %v", err)
	}
	out := map[string]redTeam{}
	for _, p := range paths {
		nb := repo.ReadNotebook(t, p)
		m, ok := nb.Metadata["redteam"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no metadata redteam", p)
		}
		var rt redTeam
		if err := decodeInto(m, &rt); err != nil {
			t.Fatalf("%s: metadata redteam: %v", p, err)
		}
		if rt.About == "" {
			t.Fatalf("%s: metadata redteam says nothing about the attack", p)
		}
		out[p] = rt
	}
	return out
}

// TestRedTeam grades every hostile submission of testdata/redteam on its
// own: each must get its score (0 for a cheat), rejected before building
// with the rules it breaks named; where the attack also has a "sandbox"
// entry, it is graded again with the static check off, and the sandbox
// alone must hold it: score 0, no sign in the report that it worked, no
// process left behind.
func TestRedTeam(t *testing.T) {
	for _, level := range redTeamLevels() {
		t.Run(level, func(t *testing.T) { redTeamAt(t, level) })
	}
}

// redTeamLevels are the levels the red team runs at: -assign.sandbox, and
// setpriv too when the tests run as root at the default level.
func redTeamLevels() []string {
	levels := []string{*sandboxLevel}
	if *sandboxLevel == sandbox.LevelBwrap && os.Geteuid() == 0 {
		levels = append(levels, sandbox.LevelSetpriv)
	}
	return levels
}

func redTeamAt(t *testing.T, level string) {
	for path, rt := range readRedTeam(t) {
		if rt.Batch {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".ipynb"), func(t *testing.T) {
			t.Parallel()
			dir := fixture
			if rt.Assignment != "" {
				dir = filepath.Join("../..", rt.Assignment)
			}
			a := assigntest.Load(t, dir)
			g := newGrader(t, *testTimeout)
			g.Sandbox = newSandboxAt(t, level, 2048)
			g.BuildMemoryMB = rt.Build
			if rt.Memory > 0 {
				// Touching hundreds of MiB is slow on a busy machine: the
				// point here is the memory limit, not the time limit.
				g.Timeout = 3 * *testTimeout
				g.Sandbox = newSandboxAt(t, level, rt.Memory)
			}
			rep := grade(t, g, a, path, repo.ReadNotebook(t, path))
			if rep.Score != rt.Score {
				t.Errorf("%s: score %v, want %v", rt.About, rep.Score, rt.Score)
			}
			text := rep.Text()
			if !strings.Contains(text, "Isolation: "+level) && level != sandbox.LevelNone {
				t.Errorf("the report does not say which isolation ran")
			}
			js, err := rep.JSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range rt.Present {
				if !strings.Contains(text, s) {
					t.Errorf("%s: the report does not hold %q", rt.About, s)
				}
			}
			for _, s := range rt.Absent {
				if strings.Contains(text, s) || strings.Contains(string(js), s) {
					t.Errorf("%s: the report or results.json holds %q", rt.About, s)
				}
			}
			for _, rule := range rt.Rejected {
				if !strings.Contains(text, rule) {
					t.Errorf("%s: the report does not name %q", rt.About, rule)
				}
			}
			if len(rt.Rejected) > 0 {
				if len(rep.Rejected) == 0 || rep.Rejected[0].Cell <= 0 || rep.Rejected[0].Line <= 0 {
					t.Errorf("rejections %v: want each located in a cell and line", rep.Rejected)
				}
			}
			if rt.Sandbox == nil {
				return
			}
			if len(rt.Sandbox.Levels) > 0 && !slices.Contains(rt.Sandbox.Levels, level) {
				t.Logf("sandbox-only attack not run at level %s: only %v must hold it alone", level, rt.Sandbox.Levels)
				return
			}
			if sb := newSandboxAt(t, level, 0); level == sandbox.LevelNone || len(sb.Missing) > 0 {
				// A level that cannot give every guarantee here relies
				// on the static check.
				t.Logf("sandbox-only attack not run at level %s, which lacks: %v", level, sb.Missing)
				return
			}
			sg := newGrader(t, *testTimeout)
			sg.Sandbox = newSandboxAt(t, level, 2048)
			sg.SkipStaticCheck = true
			if rt.Sandbox.Memory > 0 {
				sg.Sandbox = newSandboxAt(t, level, rt.Sandbox.Memory)
			}
			if slices.Contains(rt.Sandbox.Absent, "NETWORK-OK") {
				// A server of the grading machine the attack must not reach.
				if l, err := net.Listen("tcp", "127.0.0.1:47613"); err == nil {
					defer l.Close()
				}
			}
			start := time.Now()
			rep = grade(t, sg, a, path+" (sandbox only)", repo.ReadNotebook(t, path))
			if rep.Score != rt.Sandbox.Score {
				t.Errorf("sandbox only: %s: score %v, want %v", rt.About, rep.Score, rt.Sandbox.Score)
			}
			text = rep.Text()
			for _, s := range rt.Sandbox.Absent {
				if strings.Contains(text, s) {
					t.Errorf("sandbox only: the attack worked: the report holds %q", s)
				}
			}
			if js, err := rep.JSON(); err != nil {
				t.Fatal(err)
			} else {
				for _, s := range rt.Sandbox.AbsentJSON {
					if strings.Contains(string(js), s) {
						t.Errorf("sandbox only: the attack worked: results.json holds %q:\n%s", s, js)
					}
				}
			}
			for _, s := range rt.Sandbox.Present {
				if !strings.Contains(text, s) {
					t.Errorf("sandbox only: the report does not hold %q", s)
				}
			}
			if rt.Sandbox.Survivors != "" {
				if pids := processesWith(rt.Sandbox.Survivors); len(pids) > 0 {
					t.Errorf("sandbox only: processes %v (%q) outlived the grading (started %v ago)", pids, rt.Sandbox.Survivors, time.Since(start))
					for _, p := range pids {
						if pr, err := os.FindProcess(p); err == nil {
							pr.Kill()
						}
					}
				}
			}
		})
	}
}

// processesWith returns the pids whose command line contains s.
func processesWith(s string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestRedTeamClasses checks that every class of attack the red team must
// cover (issue 20) has its hostile submission in testdata/redteam, and
// that each escape from the sandbox is graded with the static check off
// at every level the red team runs (bwrap and, as root, setpriv), so the
// sandbox alone must hold it. Hostile file names are TestRedTeamBatch's.
func TestRedTeamClasses(t *testing.T) {
	rts := map[string]redTeam{}
	for path, rt := range readRedTeam(t) {
		rts[strings.TrimSuffix(filepath.Base(path), ".ipynb")] = rt
	}
	for _, c := range []struct {
		class, fixture string
		escape         bool // a sandbox escape: must hold with the static check off
	}{
		{"a data-race memory write", "data_race_write", true},
		{"a harness call from student code", "harness_call", true},
		{"a compile error only a hidden test triggers", "hidden_signature", false},
		{"a deny-list bypass through goimports", "deny_via_goimports", false},
		{"system calls by address", "syscalls_by_address", true},
		{"a daemon holding the pipe", "daemon_pipe", true},
		{"a kill across tests", "kill_all", true},
		{"a compile bomb", "compile_bomb", false},
		{"escape codes in output", "escape_codes", false},
		{"shared files at weak levels", "shared_files_hw2", false},
	} {
		rt, ok := rts[c.fixture]
		if !ok {
			t.Errorf("%s: no testdata/redteam/%s.ipynb", c.class, c.fixture)
			continue
		}
		if !c.escape {
			continue
		}
		switch {
		case rt.Batch:
			// TestRedTeamBatch grades it with the static check off.
		case rt.Sandbox == nil:
			t.Errorf("%s: %s is never graded with the static check off", c.class, c.fixture)
		case len(rt.Sandbox.Levels) > 0:
			t.Errorf("%s: %s is graded with the static check off only at %v", c.class, c.fixture, rt.Sandbox.Levels)
		}
	}
}

// TestRedTeamBatch grades the batch entries of testdata/redteam together
// in a folder named after the fixture, with the static check off (at the
// bwrap level) so that the attack that writes everywhere really runs: the honest solution
// still gets full marks and its notebook is untouched, nothing is planted
// in the repository, the malformed and path-like metadata get their own
// zero with the reason, and grades.csv lists everyone.
func TestRedTeamBatch(t *testing.T) {
	for _, level := range redTeamLevels() {
		t.Run(level, func(t *testing.T) { redTeamBatchAt(t, level) })
	}
}

func redTeamBatchAt(t *testing.T, level string) {
	rts := readRedTeam(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "hw0_fixture")
	if err := os.Mkdir(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	sums := map[string][32]byte{}
	for path, rt := range rts {
		if !rt.Batch {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(subs, filepath.Base(path))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sums[dst] = sha256.Sum256(b)
	}
	// Hostile file names: one too long for the reports' names (the
	// file system refuses NAME.results.json), one with escape codes.
	honest, err := os.ReadFile("../testdata/redteam/honest_solution.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 243) + ".ipynb"
	escaped := "evil\x1b[2J\x1b]52;c;cHduZWQ=\x07.ipynb"
	for _, n := range []string{long, escaped} {
		if err := os.WriteFile(filepath.Join(subs, n), honest, 0o644); err != nil {
			t.Fatal(err)
		}
		sums[filepath.Join(subs, n)] = sha256.Sum256(honest)
	}
	out := filepath.Join(dir, "out")
	// A level that lacks a guarantee here relies on the static check.
	skip := level != sandbox.LevelNone && len(newSandboxAt(t, level, 0).Missing) == 0
	var stdout, stderr strings.Builder
	err = runGradeSkipping(skip, []string{"-repo", repo.Dir(t), "-lessons", "../testdata", "-out", out, "-workers", "2", "-parallel", "2",
		"-sandbox", level, subs}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("grade: %v\n%s", err, stderr.String())
	}
	t.Logf("stdout:\n%s", stdout.String())
	if strings.ContainsAny(stdout.String()+stderr.String(), "\x1b\x07") {
		t.Errorf("a file name's escape codes reached the terminal raw:\n%q", stdout.String())
	}
	f, err := os.Open(filepath.Join(out, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	if len(rows) == 0 || len(rows[0]) < 5 || rows[0][2] != "submission" || rows[0][4] != "score" {
		t.Fatalf("grades.csv header %v: want submission in column 3 and score in column 5", rows[:min(1, len(rows))])
	}
	for _, r := range rows[1:] {
		got[filepath.Base(r[2])] = r[4]
	}
	for path, rt := range rts {
		if !rt.Batch {
			continue
		}
		name := filepath.Base(path)
		if want := num(rt.Score); got[name] != want {
			t.Errorf("%s (%s): grades.csv score %q, want %s", name, rt.About, got[name], want)
		}
		report, err := os.ReadFile(filepath.Join(out, strings.TrimSuffix(name, ".ipynb")+".report.txt"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if rt.Note != "" && !strings.Contains(string(report), rt.Note) {
			t.Errorf("%s: the report does not say %q:\n%s", name, rt.Note, report)
		}
		if strings.Contains(string(report), "PLANT-OK") {
			t.Errorf("%s: the attack wrote outside its sandbox:\n%s", name, report)
		}
	}
	if got[long] != "0" {
		t.Errorf("the submission whose name is too long for its reports: grades.csv score %q, want 0", got[long])
	}
	if got[escaped] != "7.5" {
		t.Errorf("the honest submission with escape codes in its name: grades.csv score %q, want 7.5", got[escaped])
	}
	if b, err := filepath.Glob(filepath.Join(out, "submission-*.report.txt")); err != nil || len(b) != 1 {
		t.Errorf("reports under a fallback name: %v, want one", b)
	} else if r, _ := os.ReadFile(b[0]); !strings.Contains(string(r), "could not write this submission's report") {
		t.Errorf("the fallback report does not give the reason:\n%s", r)
	}
	if len(rows)-1 != len(sums) {
		t.Errorf("grades.csv has %d rows, want %d", len(rows)-1, len(sums))
	}
	for p, sum := range sums {
		if b, err := os.ReadFile(p); err != nil || sha256.Sum256(b) != sum {
			t.Errorf("%s was changed during grading", p)
		}
	}
	repoDir := repo.Dir(t)
	for _, d := range []string{repoDir, filepath.Join(repoDir, "lessons"), filepath.Join(repoDir, "lessons", "assign"), os.TempDir()} {
		if _, err := os.Stat(filepath.Join(d, "planted_redteam.go")); err == nil {
			t.Errorf("a .go file was planted in %s", d)
		}
	}
}

// decodeInto decodes notebook metadata m into v through JSON.
func decodeInto(m map[string]any, v any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
