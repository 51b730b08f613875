// Package written gathers the written answers of an assignment (the
// markdown cells "read by the instructor; not autograded") for the
// instructor: one HTML page per submission, the written answers first and
// then the whole notebook, and a manual-score sheet, a CSV with one
// column per written question whose maximum the assignment declares; and
// it merges the filled sheet into the gradebook at export.
//
// A written question is a markdown cell of the assignment's source.ipynb
// holding "<!-- BEGIN SOLUTION -->", with its points declared in the
// cell's metadata: {"lessons": {"written": {"question": "ex1a",
// "points": 2}}}. A submission's answer is the markdown cell with the
// same cell ID (JupyterLab keeps cell IDs), else the first markdown cell
// that starts with the question's heading.
package written

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/export"
	"github.com/perceptron-go/lessons/lessons/assign/internal/csvfile"
	"github.com/perceptron-go/lessons/lessons/assign/internal/ident"
)

// Question is a written question of an assignment.
type Question struct {
	Name    string  // its column in the sheet, e.g. ex1a
	Points  float64 // its maximum
	CellID  string  // the source cell's ID
	Heading string  // the cell's text before the answer, e.g. "**Your derivation (a)** (read by ...):"
}

// ErrWritten is the error kind of a written question or sheet that
// cannot be read.
var ErrWritten = errors.New("written: bad written answers")

// Questions returns the written questions of an assignment's source
// notebook, in order. A question without its declared points is an error
// naming its cell.
func Questions(source *notebook.Notebook, name string) ([]Question, error) {
	var qs []Question
	seen := map[string]bool{}
	for i, c := range source.Cells {
		if c.Type != "markdown" || !strings.Contains(c.Source, assignment.BeginAnswer) {
			continue
		}
		l, _ := c.Metadata["lessons"].(map[string]any)
		w, _ := l["written"].(map[string]any)
		q := Question{CellID: c.ID, Heading: strings.TrimSpace(c.Source[:strings.Index(c.Source, assignment.BeginAnswer)])}
		q.Name, _ = w["question"].(string)
		var p float64
		ok := true
		switch v := w["points"].(type) {
		case float64:
			p = v
		case json.Number:
			var err error
			p, err = v.Float64()
			ok = err == nil
		default:
			ok = false
		}
		if q.Name == "" || !ok || !(p > 0) || math.IsInf(p, 0) {
			return nil, fmt.Errorf(`%w: %s, cell %d (id %s): a written question needs its name and points in the cell's metadata, as {"lessons": {"written": {"question": "ex1a", "points": 2}}}`, ErrWritten, name, i, c.ID)
		}
		if seen[q.Name] {
			return nil, fmt.Errorf("%w: %s, cell %d: the question name %q is used twice", ErrWritten, name, i, q.Name)
		}
		seen[q.Name] = true
		q.Points = p
		qs = append(qs, q)
	}
	return qs, nil
}

// placeholder is what generate puts in place of a written answer.
const placeholder = "*Your answer here.*"

// Answer returns the student's answer to q in sub, without the heading,
// and whether there is one (a cell left as handed out has none).
func Answer(sub *notebook.Notebook, q Question) (string, bool) {
	var cell *notebook.Cell
	for _, c := range sub.Cells {
		if c.Type == "markdown" && c.ID != "" && c.ID == q.CellID {
			cell = c
			break
		}
	}
	first := strings.SplitN(q.Heading, "\n", 2)[0]
	if cell == nil && first != "" {
		for _, c := range sub.Cells {
			if c.Type == "markdown" && strings.HasPrefix(strings.TrimSpace(c.Source), first) {
				cell = c
				break
			}
		}
	}
	if cell == nil {
		return "", false
	}
	text := strings.TrimSpace(cell.Source)
	if q.Heading != "" {
		text = strings.TrimSpace(strings.TrimPrefix(text, q.Heading))
	}
	if text == "" || text == placeholder {
		return "", false
	}
	return text, true
}

// Page returns the notebook of a submission's page: a heading, the
// written answers, each under its question's name, points and heading,
// then every cell of the submission.
func Page(sub *notebook.Notebook, qs []Question, title string) *notebook.Notebook {
	nb := &notebook.Notebook{Metadata: sub.Metadata, NBFormat: "4", NBFormatMinor: "5"}
	md := func(id, s string) *notebook.Cell {
		return &notebook.Cell{Type: "markdown", ID: id, Metadata: map[string]any{}, Source: s}
	}
	nb.Cells = append(nb.Cells, md("written-title", "# "+title+": written answers"))
	for i, q := range qs {
		a, ok := Answer(sub, q)
		if !ok {
			a = "*(no answer)*"
		}
		nb.Cells = append(nb.Cells, md(fmt.Sprintf("written-%d", i), fmt.Sprintf("## %s (%s points)\n\n%s\n\n---\n\n%s", q.Name, num(q.Points), q.Heading, a)))
	}
	nb.Cells = append(nb.Cells, md("written-notebook", "# The notebook as handed in"))
	for _, c := range sub.Cells {
		cc := *c
		if cc.Type == "markdown" || cc.Type == "code" || cc.Type == "raw" {
			nb.Cells = append(nb.Cells, &cc)
		}
	}
	return nb
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Header returns the sheet's header for qs.
func Header(qs []Question) []string {
	h := []string{"student", "student_id", "submission"}
	for _, q := range qs {
		h = append(h, fmt.Sprintf("%s (max %s)", q.Name, num(q.Points)))
	}
	return h
}

var maxCol = regexp.MustCompile(`^(.+) \(max ([0-9.]+)\)$`)

// Sheet is a manual-score sheet: the questions' maxima and each
// submission's row.
type Sheet struct {
	Names []string
	Max   []float64
	Rows  [][]string // student, student_id, submission, then a cell per question
}

// ReadSheet reads a sheet that WriteSheet wrote and the instructor filled.
// A score that is not a number in [0, max] is an error naming its row and
// column; an empty cell is not scored yet.
func ReadSheet(path string) (*Sheet, error) {
	rows, err := csvfile.Read(path, ErrWritten)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || len(rows[0]) < 3 || !slices.Equal(rows[0][:3], []string{"student", "student_id", "submission"}) {
		return nil, fmt.Errorf("%w: %s: want the header student,student_id,submission,QUESTION (max N),... (assign written writes it)", ErrWritten, path)
	}
	s := &Sheet{}
	for _, h := range rows[0][3:] {
		m := maxCol.FindStringSubmatch(h)
		if m == nil {
			return nil, fmt.Errorf("%w: %s: column %q: want QUESTION (max N)", ErrWritten, path, h)
		}
		mx, err := strconv.ParseFloat(m[2], 64)
		if err != nil || !(mx > 0) {
			return nil, fmt.Errorf("%w: %s: column %q: the maximum is not a positive number", ErrWritten, path, h)
		}
		s.Names = append(s.Names, m[1])
		s.Max = append(s.Max, mx)
	}
	for i, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			return nil, fmt.Errorf("%w: %s, row %d: %d cells, want %d", ErrWritten, path, i+2, len(r), len(rows[0]))
		}
		for j, v := range r[3:] {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || x < 0 || x > s.Max[j] {
				return nil, fmt.Errorf("%w: %s, row %d (%s), column %s: %q is not a score from 0 to %s", ErrWritten, path, i+2, r[0], s.Names[j], v, num(s.Max[j]))
			}
		}
		s.Rows = append(s.Rows, r)
	}
	return s, nil
}

// WriteSheet writes the sheet of qs for subs to path. Rows of an existing
// sheet at path are kept with their scores (a second run adds only new
// submissions); its questions must be qs's.
func WriteSheet(path string, qs []Question, subs []string) (added int, err error) {
	header := Header(qs)
	var rows [][]string
	have := map[string]bool{}
	if _, err := os.Stat(path); err == nil {
		old, err := ReadSheet(path)
		if err != nil {
			return 0, err
		}
		var names []string
		for _, q := range qs {
			names = append(names, q.Name)
		}
		if !slices.Equal(old.Names, names) {
			return 0, fmt.Errorf("%w: %s holds the questions %v, the assignment %v: move it away to start a new sheet", ErrWritten, path, old.Names, names)
		}
		rows = old.Rows
		for _, r := range rows {
			have[r[2]] = true
		}
	}
	for _, sub := range subs {
		base := filepath.Base(sub)
		if have[base] {
			continue
		}
		s := ident.Of(sub)
		r := []string{ident.SpreadsheetSafe(s.Name), s.ID, base}
		for range qs {
			r = append(r, "")
		}
		rows = append(rows, r)
		added++
	}
	f, err := os.OpenFile(path+".tmp", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	cw := csv.NewWriter(f)
	cw.Write(header)
	cw.WriteAll(rows)
	if err := cw.Error(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return added, os.Rename(path+".tmp", path)
}

// Merge returns an export.Adjust step that adds each submission's written
// points (the sheet's row of the same file name) to its score, and the
// questions' maxima to its maximum. A submission without a row, or with a
// question not scored yet, gets 0 for it, with a warning on w.
func (s *Sheet) Merge(gs []export.Grade, w io.Writer) ([]export.Grade, []export.Column, error) {
	total := 0.0
	for _, m := range s.Max {
		total += m
	}
	rows := map[string][]string{}
	for _, r := range s.Rows {
		rows[r[2]] = r
	}
	out := make([]export.Grade, len(gs))
	for i, g := range gs {
		out[i] = g
		out[i].MaxScore += total
		r, ok := rows[filepath.Base(g.Submission)]
		if !ok {
			fmt.Fprintf(w, "written: %s has no row in the written-answer sheet: its written answers count 0\n", g.Submission)
			continue
		}
		var missing []string
		for j, v := range r[3:] {
			if strings.TrimSpace(v) == "" {
				missing = append(missing, s.Names[j])
				continue
			}
			x, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			out[i].Score += x
		}
		if len(missing) > 0 {
			fmt.Fprintf(w, "written: %s: %s not scored in the sheet: counted 0\n", g.Submission, strings.Join(missing, ", "))
		}
	}
	return out, nil, nil
}
