package late

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/export"
)

func TestApply(t *testing.T) {
	dir := t.TempDir()
	manifest := "login,id,file,modified,sha256\n" +
		"ann,,ann.ipynb,2026-12-01T23:00:00Z,x\n" + // on time
		"bob,,bob.ipynb,2026-12-02T00:30:00Z,x\n" + // 30 min late: one day started
		"cid,,cid.ipynb,2026-12-03T23:59:00Z,x\n" + // 2 days late, but cid's extension runs to Dec 4
		"dan,,dan.ipynb,2026-12-04T00:00:01Z,x\n" // 2 days, a minute and a second: 3 days started
	if err := os.WriteFile(filepath.Join(dir, "collected.csv"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	due := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	g := func(name, file string, score float64) export.Grade {
		return export.Grade{Student: name, Submission: filepath.Join(dir, file), Assignment: "hw2_pla", Score: score, MaxScore: 10}
	}
	gs := []export.Grade{g("ann", "ann.ipynb", 5), g("bob", "bob.ipynb", 10), g("cid", "cid.ipynb", 10), g("dan", "dan.ipynb", 10),
		// a Canvas download marked late, and an on-time one of the same student with less
		{Student: "eve", StudentID: "77", Submission: filepath.Join(dir, "eve_LATE_77_900_student.ipynb"), Assignment: "hw2_pla", Score: 10, MaxScore: 10},
		{Student: "eve", StudentID: "77", Submission: filepath.Join(dir, "eve_77_899_student.ipynb"), Assignment: "hw2_pla", Score: 5, MaxScore: 10}}
	for _, c := range []struct {
		penalty string
		want    []float64
		eveDays string
	}{
		{"none", []float64{5, 10, 10, 10, 10, 5}, "1"},
		{"zero", []float64{5, 0, 10, 0, 0, 5}, "0"},
		{"30%/day", []float64{5, 7, 10, 1, 7, 5}, "1"},
	} {
		p := Policy{Due: due, Penalty: c.penalty, Extensions: map[string]time.Time{"cid": time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)}}
		if c.penalty == "30%/day" {
			p.perDay = 0.3
		}
		var log bytes.Buffer
		out, cols, err := p.Apply(gs, &log)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range c.want {
			if out[i].Score != w {
				t.Errorf("%s: %s's score %v, want %v", c.penalty, out[i].Submission, out[i].Score, w)
			}
		}
		if len(cols) != 1 || cols[0].Title != "hw2_pla late days" {
			t.Fatalf("%s: columns %+v", c.penalty, cols)
		}
		days := cols[0].Values
		for k, w := range map[string]string{"name:ann": "0", "name:bob": "1", "name:cid": "0", "name:dan": "3", "id:77": c.eveDays} {
			if days[k] != w {
				t.Errorf("%s: %s late days %q, want %q", c.penalty, k, days[k], w)
			}
		}
		if !strings.Contains(log.String(), "Canvas marks it late") {
			t.Errorf("%s: no warning for the _LATE_ download:\n%s", c.penalty, log.String())
		}
	}
}

func TestFlags(t *testing.T) {
	for _, c := range []struct {
		f    Flags
		want string
	}{
		{Flags{due: "2026-12-01 23:59", penalty: "10%"}, "want none, zero or P%/day"},
		{Flags{due: "2026-12-01 23:59", penalty: "0%/day"}, "want a percentage"},
		{Flags{due: "tomorrow", penalty: "none"}, "is not a time"},
		{Flags{penalty: "zero"}, "need -due"},
	} {
		if _, err := c.f.Policy(); !errors.Is(err, ErrPolicy) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want ErrPolicy with %q", c.f, err, c.want)
		}
	}
	p, err := (&Flags{due: "2026-12-01T23:59:00Z", penalty: "12.5%/day"}).Policy()
	if err != nil || p.perDay != 0.125 || !p.Due.Equal(time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)) {
		t.Errorf("12.5%%/day: %+v, %v", p, err)
	}
}
