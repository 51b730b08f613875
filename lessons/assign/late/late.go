// Package late applies a late policy to graded submissions at export: a
// due date, an extension per student, and a penalty per day late, zero,
// or none; and tells the gradebook how late each submission was.
//
// A submission's time comes from the collection (collected.csv beside it,
// written by "assign collect": when the student last saved the notebook).
// A Canvas download has no time in its name but says _LATE_ when Canvas
// found it late: such a submission counts as one day late, with a warning
// (download the LMS's submission times, or collect from the server, to
// count the days).
package late

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/collect"
	"github.com/perceptron-go/lessons/lessons/assign/export"
	"github.com/perceptron-go/lessons/lessons/assign/internal/csvfile"
)

// Policy is a late policy.
type Policy struct {
	Due        time.Time            // zero: no policy
	Extensions map[string]time.Time // a student's own due date, by name, login or ID
	Penalty    string               // "none", "zero" or "P%/day"
	perDay     float64              // P/100 for "P%/day"
}

// ErrPolicy is the error kind of a late policy that cannot be read.
var ErrPolicy = errors.New("late: bad policy")

// Flags registers -due, -extensions and -late-penalty on fs; Policy reads
// them once parsed.
type Flags struct{ due, extensions, penalty string }

func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.due, "due", "", `the due date, "2026-12-01 23:59" (this machine's time zone) or RFC 3339; empty: no late policy`)
	fs.StringVar(&f.extensions, "extensions", "", "CSV of extensions: columns student (name, login or LMS ID) and due (a date as -due)")
	fs.StringVar(&f.penalty, "late-penalty", "none", `what a late submission loses: none (marked late only), zero, or "P%/day" (P % of the assignment's points per day or part of a day late)`)
}

// Policy returns the policy the flags give (a zero Due if -due is empty).
func (f *Flags) Policy() (Policy, error) {
	p := Policy{Penalty: f.penalty, Extensions: map[string]time.Time{}}
	if f.due == "" {
		if f.extensions != "" || f.penalty != "none" {
			return p, fmt.Errorf("%w: -extensions and -late-penalty need -due", ErrPolicy)
		}
		return p, nil
	}
	var err error
	if p.Due, err = ParseTime(f.due); err != nil {
		return p, fmt.Errorf("%w: -due: %v", ErrPolicy, err)
	}
	switch {
	case p.Penalty == "none" || p.Penalty == "zero":
	case strings.HasSuffix(p.Penalty, "%/day"):
		v, err := strconv.ParseFloat(strings.TrimSuffix(p.Penalty, "%/day"), 64)
		if err != nil || !(v > 0 && v <= 100) {
			return p, fmt.Errorf("%w: -late-penalty %q: want a percentage in (0, 100], as 10%%/day", ErrPolicy, p.Penalty)
		}
		p.perDay = v / 100
	default:
		return p, fmt.Errorf("%w: -late-penalty %q: want none, zero or P%%/day", ErrPolicy, p.Penalty)
	}
	if f.extensions != "" {
		if p.Extensions, err = readExtensions(f.extensions); err != nil {
			return p, err
		}
	}
	return p, nil
}

// ParseTime reads "2006-01-02 15:04" (local time), "2006-01-02T15:04" or
// RFC 3339.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time like 2026-12-01 23:59 or 2026-12-01T23:59:00Z", s)
}

func readExtensions(path string) (map[string]time.Time, error) {
	rows, err := csvfile.Read(path, ErrPolicy)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || len(rows[0]) < 2 || strings.TrimSpace(rows[0][0]) != "student" || strings.TrimSpace(rows[0][1]) != "due" {
		return nil, fmt.Errorf("%w: %s: want the header student,due", ErrPolicy, path)
	}
	ext := map[string]time.Time{}
	for i, r := range rows[1:] {
		if len(r) < 2 {
			return nil, fmt.Errorf("%w: %s, row %d: want student,due", ErrPolicy, path, i+2)
		}
		t, err := ParseTime(r[1])
		if err != nil {
			return nil, fmt.Errorf("%w: %s, row %d: %v", ErrPolicy, path, i+2, err)
		}
		ext[strings.TrimSpace(r[0])] = t
	}
	return ext, nil
}

var canvasLate = regexp.MustCompile(`^[^_]+_LATE_\d+_\d+_`)

// Submitted returns when a submission was handed in: from the
// collected.csv beside it; known is false if nothing says. lmsLate is
// true for a Canvas download marked _LATE_.
func Submitted(path string) (t time.Time, known, lmsLate bool, err error) {
	times, err := collect.Times(filepath.Dir(path))
	if err != nil {
		return t, false, false, err
	}
	if t, ok := times[filepath.Base(path)]; ok {
		return t, true, false, nil
	}
	return t, false, canvasLate.MatchString(filepath.Base(path)), nil
}

// DaysLate is how many days or parts of a day t is after due (0 if not
// after).
func DaysLate(t, due time.Time) int {
	if !t.After(due) {
		return 0
	}
	return int(math.Ceil(t.Sub(due).Hours() / 24))
}

// Apply applies p to gs: each submission's days late, its score after the
// penalty, and a column per assignment "NAME late days" (the days late of
// the submission the gradebook keeps: the best score after penalties). It
// prints each late submission on w.
func (p Policy) Apply(gs []export.Grade, w io.Writer) ([]export.Grade, []export.Column, error) {
	if p.Due.IsZero() {
		return gs, nil, nil
	}
	out := make([]export.Grade, len(gs))
	type best struct {
		score float64
		days  string
	}
	kept := map[string]map[string]best{} // assignment: key: best
	var names []string
	for i, g := range gs {
		out[i] = g
		due := p.Due
		for _, k := range []string{g.StudentID, g.Student} {
			if t, ok := p.Extensions[k]; ok && k != "" {
				due = t
				break
			}
		}
		t, known, lmsLate, err := Submitted(g.Submission)
		if err != nil {
			return nil, nil, err
		}
		days := 0
		switch {
		case known:
			days = DaysLate(t, due)
		case lmsLate:
			days = 1
			fmt.Fprintf(w, "late: %s: Canvas marks it late, with no time: counted as 1 day late (collect it, or give the time, to count the days)\n", g.Submission)
		default:
			fmt.Fprintf(w, "late: %s: no submission time (not collected, no _LATE_): counted as on time\n", g.Submission)
		}
		if days > 0 {
			switch p.Penalty {
			case "zero":
				out[i].Score = 0
			case "none":
			default:
				out[i].Score = math.Max(0, g.Score-p.perDay*float64(days)*g.MaxScore)
				out[i].Score = math.Round(out[i].Score*1e6) / 1e6
			}
			fmt.Fprintf(w, "late: %s %s: %d day(s) late (due %s): %s -> %s (%s)\n", g.Student+" "+g.StudentID, g.Assignment, days,
				due.Format("2006-01-02 15:04 MST"), num(g.Score), num(out[i].Score), p.Penalty)
		}
		a := g.Assignment
		if kept[a] == nil {
			kept[a] = map[string]best{}
			names = append(names, a)
		}
		k := export.Key(g)
		if b, ok := kept[a][k]; !ok || out[i].Score > b.score {
			kept[a][k] = best{out[i].Score, strconv.Itoa(days)}
		}
	}
	var cols []export.Column
	for _, a := range names {
		c := export.Column{Title: a + " late days", Values: map[string]string{}}
		for k, b := range kept[a] {
			c.Values[k] = b.days
		}
		cols = append(cols, c)
	}
	return out, cols, nil
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
