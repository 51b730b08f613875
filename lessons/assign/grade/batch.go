package grade

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// batch grades the submissions of one run.
type batch struct {
	g          *Grader
	name       string // -assignment, or ""
	lessonsDir string
	known      []string // assignment folders
	staging    string
	mu         sync.Mutex
	cache      map[string]*assignmentLoad
}

type assignmentLoad struct {
	once sync.Once
	a    *assignment.Assignment
	err  error
}

// assignment loads the assignment in folder dir once.
func (b *batch) assignment(dir string) (*assignment.Assignment, error) {
	b.mu.Lock()
	l, ok := b.cache[dir]
	if !ok {
		l = &assignmentLoad{}
		b.cache[dir] = l
	}
	b.mu.Unlock()
	l.once.Do(func() { l.a, l.err = assignment.LoadAssignment(dir) })
	return l.a, l.err
}

// grade grades submission i. Whatever the submission holds, it gets a
// report: a notebook that cannot be read or matched, or that the grader
// fails on, scores 0 with the reason, and the batch goes on.
func (b *batch) grade(i int, sub string) (rep *Report) {
	fail := func(assignment, format string, args ...any) *Report {
		return &Report{Submission: sub, Assignment: assignment, Isolation: b.g.Sandbox.Describe(), Notes: []string{fmt.Sprintf(format, args...)}}
	}
	defer func() {
		if e := recover(); e != nil {
			rep = fail(b.name, "the grader failed on this submission: %v", e)
		}
	}()
	// Copy the submission to a private staging folder and read it there.
	data, err := os.ReadFile(sub)
	if err != nil {
		return fail(b.name, "cannot read the submission: %v", err)
	}
	staged := filepath.Join(b.staging, fmt.Sprintf("%d", i))
	if err := os.Mkdir(staged, 0o700); err != nil {
		return fail(b.name, "staging: %v", err)
	}
	defer os.RemoveAll(staged)
	if err := os.WriteFile(filepath.Join(staged, "submission.ipynb"), data, 0o600); err != nil {
		return fail(b.name, "staging: %v", err)
	}
	nb, err := notebook.Read(filepath.Join(staged, "submission.ipynb"))
	if err != nil {
		return fail(b.name, "cannot read the submission: %v", strings.TrimPrefix(err.Error(), filepath.Join(staged, "submission.ipynb")+": "))
	}
	name := b.name
	if name == "" {
		name = assignmentFromPath(sub, b.known)
	}
	meta, metaOK := nb.AssignmentMeta()
	if name == "" && metaOK && slices.ContainsFunc(b.known, func(d string) bool { return filepath.Base(d) == meta }) {
		name = meta // a known name only: metadata is never used as a path
	}
	if name == "" {
		return fail("", "cannot tell which assignment this is: no assignment name in its path and no known lessons.assignment in its metadata; use -assignment")
	}
	if !metaOK {
		return fail(name, "the notebook's metadata lessons.assignment is not a string: %v", nb.Metadata["lessons"])
	}
	if meta != "" && meta != name {
		return fail(name, "this notebook is for %q (its metadata lessons.assignment), not %q: was the wrong notebook handed in?", meta, name)
	}
	dir := ""
	for _, d := range b.known {
		if filepath.Base(d) == name {
			dir = d
		}
	}
	a, err := b.assignment(dir)
	if err != nil {
		return fail(name, "the assignment %s cannot be loaded: %v", name, err)
	}
	rep, err = b.g.Grade(sub, nb, a)
	if err != nil {
		return fail(name, "the grader failed on this submission: %v", err)
	}
	return rep
}

// assignmentFromPath returns the assignment whose name is a folder of
// sub's path or part of its file name, or "".
func assignmentFromPath(sub string, known []string) string {
	abs, _ := filepath.Abs(sub)
	found := ""
	for _, d := range known {
		n := filepath.Base(d)
		for _, part := range strings.Split(abs, string(filepath.Separator)) {
			if part == n || strings.Contains(part, n) {
				found = n
			}
		}
	}
	return found
}

// Batch grades target, a notebook or a folder of notebooks, in stages:
// setup (the sandbox and the Grader), collect (the notebooks), grade (each
// submission, in parallel: its report.txt and results.json written as it
// finishes, a line per submission printed, a single one's whole report)
// and, for a folder, grades.csv at the end, whatever fails on any one
// submission.
func Batch(c Config, target string, stdout, stderr io.Writer) error {
	g, lessonsDir, err := c.grader(stderr)
	if err != nil {
		return err
	}
	defer g.Sandbox.Close()
	defer g.Close()
	subs, folder, err := collect(target, c.Results)
	if err != nil {
		return err
	}
	if c.Student != "" && len(subs) > 1 {
		return fmt.Errorf("-student is for a single submission, and %s holds %d notebooks", target, len(subs))
	}
	known, err := assignment.Dirs(lessonsDir)
	if err != nil {
		return err
	}
	if c.Assignment != "" && !slices.ContainsFunc(known, func(d string) bool { return filepath.Base(d) == c.Assignment }) {
		return fmt.Errorf("no assignment %q in %s", c.Assignment, lessonsDir)
	}
	staging, err := os.MkdirTemp("", "assign-staging-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	b := &batch{g: g, name: c.Assignment, lessonsDir: lessonsDir, known: known, staging: staging, cache: map[string]*assignmentLoad{}}
	reports, err := b.gradeAll(c, target, folder, subs, stdout)
	if err != nil && !folder {
		return err
	}
	switch {
	case folder:
		dir := target
		if c.Out != "" {
			dir = c.Out
		}
		if err := writeGradesFile(dir, subs, reports, false, stdout); err != nil {
			return err
		}
	case c.Results == "":
		// A regrade of one file: its row replaces the one in the
		// grades.csv of the folder its report went to, if there is one.
		dir := filepath.Dir(target)
		if c.Out != "" {
			dir = c.Out
		}
		if _, serr := os.Stat(filepath.Join(dir, "grades.csv")); serr == nil {
			if err := writeGradesFile(dir, subs, reports, true, stdout); err != nil {
				return err
			}
		}
	}
	return err
}

// collect lists the notebooks target names: itself, or every .ipynb
// under the folder (checkpoints aside).
func collect(target, results string) (subs []string, folder bool, err error) {
	info, err := os.Stat(target)
	if err != nil {
		return nil, false, err
	}
	if !info.IsDir() {
		return []string{target}, false, nil
	}
	err = filepath.WalkDir(target, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".ipynb_checkpoints" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".ipynb") {
			subs = append(subs, p)
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	if len(subs) == 0 {
		return nil, true, fmt.Errorf("no .ipynb under %s", target)
	}
	if results != "" && len(subs) > 1 {
		return nil, true, fmt.Errorf("-results is for a single submission, and %s holds %d notebooks; use -out", target, len(subs))
	}
	return subs, true, nil
}

// gradeAll grades subs with c.Workers at a time, writing each one's
// report files as it finishes. It returns the reports, in the order of
// subs, and the first error writing them.
func (b *batch) gradeAll(c Config, target string, folder bool, subs []string, stdout io.Writer) ([]*Report, error) {
	reports := make([]*Report, len(subs))
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, c.Workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				sub := subs[i]
				rep := b.grade(i, sub)
				reports[i] = rep
				err := writeReport(rep, sub, target, folder, c.Out, c.Results)
				if err != nil && folder {
					// That submission's zero, with the reason, under a
					// name the file system takes; the batch goes on.
					failed(rep, fmt.Sprintf("the grader could not write this submission's report: %v", err))
					err = writeReport(rep, filepath.Join(target, fmt.Sprintf("submission-%04d.ipynb", i)), target, true, c.Out, "")
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if len(subs) == 1 {
					fmt.Fprint(stdout, rep.Text())
				} else {
					fmt.Fprintf(stdout, "%s: %s: %s / %s (%.1fs)\n", EscapeControl(sub), rep.Assignment, num(rep.Score), num(rep.MaxScore), rep.Seconds)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range subs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return reports, firstErr
}

// Run grades the one notebook or folder args names (see Batch).
func (c *Config) Run(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return errors.New("grade takes one notebook or folder")
	}
	return Batch(*c, args[0], stdout, stderr)
}
