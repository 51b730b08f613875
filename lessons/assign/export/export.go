// Package export turns the grades.csv that "assign grade" writes into a
// CSV a gradebook imports, and writes each submission's Go code as
// NAME.go for a similarity checker (MOSS, JPlag, Dolos).
package export

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/ident"
)

// Options are the flags of "assign export", which Flags registers.
type Options struct {
	Format string // the gradebook: "canvas"
	Grades string // the grades.csv of "assign grade"
	Out    string // the gradebook CSV to write; "": none
	Code   string // folder for each submission's NAME.go; "": none
	Title  string // the gradebook column of the assignment; "": its name (a single assignment only)
	Adjust Adjust // if set, changes the grades and adds columns before -o is written (adjust.go)
}

// Flags registers the flags of "assign export" on fs, filling o.
func (o *Options) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Format, "format", "canvas", "gradebook format of -o: canvas (Canvas's Grades > Import)")
	fs.StringVar(&o.Grades, "grades", "grades.csv", "the grades.csv that assign grade wrote")
	fs.StringVar(&o.Out, "o", "", "the gradebook CSV to write (none if empty)")
	fs.StringVar(&o.Code, "code", "", "folder to write each submission's Go code to, as NAME.go, for a similarity checker (none if empty)")
	fs.StringVar(&o.Title, "title", "", `gradebook column of the assignment, e.g. "hw2 PLA (123456)" to match an existing Canvas assignment by its ID (default: the assignment's name; one assignment only)`)
}

// ErrFormat is the error kind of an unknown -format.
var ErrFormat = errors.New("export: unknown gradebook format")

// Run reads o.Grades and writes o.Out and o.Code; it prints what it wrote
// on stdout and, on stderr, each row a gradebook cannot match by ID. It
// takes no arguments but the flags.
func (o *Options) Run(args []string, stdout, stderr io.Writer) error {
	if len(args) != 0 {
		return errors.New("export takes flags only")
	}
	if o.Format != "canvas" {
		return fmt.Errorf("%w: %q (known: canvas)", ErrFormat, o.Format)
	}
	if o.Out == "" && o.Code == "" {
		return errors.New("export: nothing to write: give -o FILE.csv, -code DIR or both")
	}
	gs, err := ReadGrades(o.Grades)
	if err != nil {
		return err
	}
	if o.Out != "" {
		var cols []Column
		adjusted := gs
		if o.Adjust != nil {
			if adjusted, cols, err = o.Adjust(gs, stderr); err != nil {
				return err
			}
		}
		var b strings.Builder
		if err := Canvas(&b, adjusted, o.Title, stderr); err != nil {
			return err
		}
		text, err := appendColumns(b.String(), cols)
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.Out, []byte(text), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (Canvas: Grades > Import)\n", o.Out)
	}
	if o.Code != "" {
		n, err := Code(o.Code, gs, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d Go files to %s\n", n, o.Code)
	}
	return nil
}

// Canvas writes the gradebook CSV that Canvas's Grades > Import reads: the
// columns Student, ID, SIS User ID, SIS Login ID and Section, then a
// column per assignment (titled title if set, else the assignment's
// name); a "Points Possible" row; a row per student with the student's
// Canvas user ID from the file name (ident). A student with two
// submissions of one assignment keeps the best score. It warns on w of
// each row without a Canvas ID, which Canvas cannot match by ID.
func Canvas(out io.Writer, gs []Grade, title string, w io.Writer) error {
	var names []string
	max := map[string]float64{}
	for _, g := range gs {
		if g.Assignment != "" && !slices.Contains(names, g.Assignment) {
			names = append(names, g.Assignment)
			max[g.Assignment] = g.MaxScore
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%w: no graded submission", ErrGrades)
	}
	if title != "" && len(names) > 1 {
		return fmt.Errorf("export: -title names one column, and grades.csv holds %d assignments: %s", len(names), strings.Join(names, ", "))
	}
	type student struct {
		name, id string
		score    map[string]float64
	}
	var order []string
	students := map[string]*student{}
	for _, g := range gs {
		key := "id:" + g.StudentID
		if g.StudentID == "" {
			key = "name:" + g.Student
			fmt.Fprintf(w, "export: %s has no Canvas user ID in its file name (Canvas names its downloads name_USERID_SUBMISSIONID_file.ipynb): Canvas cannot match the row of %q by ID\n", g.Submission, g.Student)
		}
		s, ok := students[key]
		if !ok {
			s = &student{name: g.Student, id: g.StudentID, score: map[string]float64{}}
			students[key] = s
			order = append(order, key)
		}
		a := g.Assignment
		if a == "" {
			if len(names) > 1 {
				fmt.Fprintf(w, "export: %s: no assignment (the grader could not tell which): left out\n", g.Submission)
				continue
			}
			a = names[0] // a submission the grader gave 0 with its reason
		}
		if old, ok := s.score[a]; ok {
			fmt.Fprintf(w, "export: %s has two submissions of %s: kept the best score\n", g.Student+" "+g.StudentID, a)
			g.Score = max2(old, g.Score)
		}
		s.score[a] = g.Score
	}
	cw := csv.NewWriter(out)
	header := []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}
	points := []string{"Points Possible", "", "", "", ""}
	for _, a := range names {
		if title != "" {
			a = title
		}
		header = append(header, a)
	}
	for _, a := range names {
		points = append(points, num(max[a]))
	}
	cw.Write(header)
	cw.Write(points)
	for _, k := range order {
		s := students[k]
		row := []string{ident.SpreadsheetSafe(s.name), s.id, "", "", ""}
		for _, a := range names {
			v, ok := s.score[a]
			if ok {
				row = append(row, num(v))
			} else {
				row = append(row, "")
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func max2(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// unsafeName matches what a file name of Code may not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// CodeName is the file name of a submission's Go code: the student's
// name and ID from its file name, as NAME_ID.go, NAME.go or ID.go, with
// anything but letters, digits, '.', '_' and '-' replaced by '_'.
func CodeName(g Grade) string {
	parts := []string{}
	for _, p := range []string{g.Student, g.StudentID} {
		if p = strings.Trim(unsafeName.ReplaceAllString(p, "_"), "._"); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		parts = []string{"submission"}
	}
	name := strings.Join(parts, "_")
	if len(name) > 100 {
		name = name[:100]
	}
	return name + ".go"
}

// Code writes the Go code of each submission of gs into dir as
// CodeName(g) (NAME-2.go, ... for a second submission of one name): its
// code cells but the %test cells, each after a "// cell N" line, without
// GoNB's commands and %% main bodies. A notebook that cannot be read is
// skipped with a warning on w. It returns the number of files written.
func Code(dir string, gs []Grade, w io.Writer) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	used := map[string]bool{}
	n := 0
	for _, g := range gs {
		nb, err := notebook.Read(g.Submission)
		if err != nil {
			fmt.Fprintf(w, "export: no Go code for %s: %v\n", g.Submission, err)
			continue
		}
		name := CodeName(g)
		for i := 2; used[name]; i++ {
			name = strings.TrimSuffix(CodeName(g), ".go") + fmt.Sprintf("-%d.go", i)
		}
		used[name] = true
		if err := os.WriteFile(filepath.Join(dir, name), []byte(GoCode(nb)), 0o644); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// GoCode returns the Go code of a notebook's code cells that are not
// %test cells, as one file of package main: each cell after a "// cell N"
// line (N counts from 0, as the grader's reports do), without GoNB's
// commands, package clauses and %% main bodies.
func GoCode(nb *notebook.Notebook) string {
	var b strings.Builder
	b.WriteString("package main\n")
	for i, cl := range assignment.CodeCells(nb) {
		src := strings.TrimPrefix(cl.GoSource(), "package main\n")
		if src = strings.Trim(src, "\n"); strings.TrimSpace(src) == "" {
			continue
		}
		fmt.Fprintf(&b, "\n// cell %d\n%s\n", i, src)
	}
	return b.String()
}
