package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestClassloadPercentile checks the nearest-rank percentile on values whose
// ranks are known: of 1..20 s, p50 is the 10th value, p95 the 19th, p100
// the largest; of one value, every percentile is it; of none, NaN.
func TestClassloadPercentile(t *testing.T) {
	var v []time.Duration
	for i := 1; i <= 20; i++ {
		v = append(v, time.Duration(i)*time.Second)
	}
	for _, c := range []struct{ p, want float64 }{{50, 10}, {95, 19}, {100, 20}, {1, 1}, {96, 20}} {
		if got := percentile(v, c.p); got != c.want {
			t.Errorf("p%v of 1..20 s = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile([]time.Duration{3 * time.Second}, 95); got != 3 {
		t.Errorf("p95 of one value 3 s = %v, want 3", got)
	}
	if got := percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("p50 of no values = %v, want NaN", got)
	}
}

// TestClassloadParseThink checks the think-time flag: a range, one value,
// and the malformed ranges it refuses.
func TestClassloadParseThink(t *testing.T) {
	got, err := parseThink("10s-40s")
	if err != nil || got != (think{10 * time.Second, 40 * time.Second}) {
		t.Errorf(`parseThink("10s-40s") = %v, %v; want 10s-40s`, got, err)
	}
	got, err = parseThink("3s")
	if err != nil || got != (think{3 * time.Second, 3 * time.Second}) {
		t.Errorf(`parseThink("3s") = %v, %v; want 3s-3s`, got, err)
	}
	for _, bad := range []string{"40s-10s", "ten-40s", "10s-", "", "-1s"} {
		if _, err := parseThink(bad); err == nil {
			t.Errorf("parseThink(%q) accepted it", bad)
		}
	}
	if _, err := parseSizes("2,5,0"); err == nil {
		t.Error(`parseSizes("2,5,0") accepted a class of 0`)
	}
	if ns, err := parseSizes("10, 20"); err != nil || len(ns) != 2 || ns[0] != 10 || ns[1] != 20 {
		t.Errorf(`parseSizes("10, 20") = %v, %v`, ns, err)
	}
}

// TestClassloadThinkDraw checks that drawn think times stay in their range
// and that a seeded student draws the same times again.
func TestClassloadThinkDraw(t *testing.T) {
	th := think{2 * time.Second, 5 * time.Second}
	a, b := newRand(7), newRand(7)
	for i := 0; i < 1000; i++ {
		x, y := th.draw(a), th.draw(b)
		if x < th.lo || x >= th.hi {
			t.Fatalf("draw %d = %v, outside [%v, %v)", i, x, th.lo, th.hi)
		}
		if x != y {
			t.Fatalf("draw %d: %v, then %v with the same seed", i, x, y)
		}
	}
}

// lesson00 is lesson 00's code cells as they are in the notebook (the
// set-up cell with its special lines, the imports, three cells of code).
var lesson00 = []string{
	"// Setup: the lessons' module.\n!*mod=\"$(go env GOMOD)\"; echo \"x.y $mod\"\n%noautoget",
	"import (\n\t\"fmt\"\n\n\t\"github.com/perceptron-go/lessons/perceptron\"\n)",
	"%%\nd := nb.Must(lessondata.IrisData()) // setosa (-1) vs versicolor (+1)\nfmt.Printf(\"%d flowers, features %v\\n\", d.N(), d.Features)",
	"%%\nres := nb.Must(perceptron.PLA(nb.Must(lessondata.IrisData()), perceptron.Options{}))\nfmt.Printf(\"updates: %d\\n\", res.Updates)",
	"%%\n// η: the learning rate, a comment with fmt.Println in it\nη := \"a.b\"\nres := perceptron.PLA(d, perceptron.Options{Eta: η})",
}

// TestClassloadSelectors checks the places a completion is asked at: each
// IDENT.NAME of the Go code, none in comments, strings, special lines or
// the import block, and positions counted in code points (the η cell) that
// point right after the dot and inside the name.
func TestClassloadSelectors(t *testing.T) {
	want := [][]string{
		nil,
		nil,
		{"nb.Must", "lessondata.IrisData", "fmt.Printf", "d.N", "d.Features"},
		{"nb.Must", "perceptron.PLA", "nb.Must", "lessondata.IrisData", "perceptron.Options", "fmt.Printf", "res.Updates"},
		{"perceptron.PLA", "perceptron.Options"},
	}
	for i, code := range lesson00 {
		sel := selectors(code)
		var got []string
		for _, a := range sel {
			got = append(got, a.selector)
			r := []rune(code)
			if a.code != code {
				t.Errorf("cell %d, %s: the request's code is not the cell's", i, a.selector)
			}
			ident, name, _ := strings.Cut(a.selector, ".")
			if a.completeAt < 1 || a.completeAt > len(r) || !strings.HasSuffix(string(r[:a.completeAt]), ident+".") {
				t.Errorf("cell %d, %s: completion cursor %d is not right after %q", i, a.selector, a.completeAt, ident+".")
			}
			if !strings.HasPrefix(string(r[a.completeAt:]), name) {
				t.Errorf("cell %d, %s: the code after the completion cursor is not %q", i, a.selector, name)
			}
			if a.inspectAt < a.completeAt || a.inspectAt >= a.completeAt+len([]rune(name)) {
				t.Errorf("cell %d, %s: inspect cursor %d is not inside %q (code points %d-%d)", i, a.selector, a.inspectAt, name, a.completeAt, a.completeAt+len([]rune(name)))
			}
		}
		if !slices.Equal(got, want[i]) {
			t.Errorf("cell %d: selectors %q, want %q", i, got, want[i])
		}
	}
}

// TestClassloadChooseAsks checks which cells a student asks completion
// before: the first cell with a selector always, later ones with the
// probability given (about that share over many students), none with 0,
// every one with 1; the same seed, the same choice.
func TestClassloadChooseAsks(t *testing.T) {
	for _, f := range []float64{0, 1} {
		asks := chooseAsks(lesson00, f, newRand(3))
		for i, a := range asks {
			if want := f == 1 && len(selectors(lesson00[i])) > 0; (a != nil) != want {
				t.Errorf("fraction %v: cell %d asked %v, want %v", f, i, a != nil, want)
			}
		}
	}
	later, students := 0, 4000
	for s := range students {
		a, b := chooseAsks(lesson00, 0.25, newRand(uint64(s))), chooseAsks(lesson00, 0.25, newRand(uint64(s)))
		for i := range a {
			if (a[i] == nil) != (b[i] == nil) || a[i] != nil && *a[i] != *b[i] {
				t.Fatalf("student %d: cell %d chosen %v, then %v with the same seed", s, i, a[i], b[i])
			}
		}
		if a[0] != nil || a[1] != nil || a[2] == nil {
			t.Fatalf("student %d: asks %v; want none before cells 0 and 1 (no selector), one before cell 2 (the first with one)", s, a)
		}
		for _, x := range a[3:] {
			if x != nil {
				later++
			}
		}
	}
	// Binomial(8000, 0.25): mean 2000, standard deviation 38.7; 5 sigma.
	if share := float64(later) / float64(2*students); math.Abs(share-0.25) > 5*38.7/8000 {
		t.Errorf("later cells asked %.4f of the time, want 0.25", share)
	}
}

// TestClientsFirstRestores checks that classload gives its session's CPU
// share back at the end: the share belongs to the session (the shell that
// ran classload), not to classload. It runs in a child of its own session,
// so that the test's own session is left alone.
func TestClientsFirstRestores(t *testing.T) {
	const path = "/proc/self/autogroup"
	if os.Getenv("CLASSLOAD_AUTOGROUP_CHILD") == "1" {
		os.WriteFile(path, []byte("3"), 0)
		line := clientsFirst()
		during, _ := os.ReadFile(path)
		restoreShare()
		after, _ := os.ReadFile(path)
		fmt.Printf("line=%s\nduring=%safter=%s", line, during, after)
		return
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip("no autogroups here")
	}
	if os.Geteuid() != 0 {
		t.Skip("a negative nice needs root")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestClientsFirstRestores$")
	cmd.Env = append(os.Environ(), "CLASSLOAD_AUTOGROUP_CHILD=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, "during=/autogroup-") || !strings.Contains(s, " nice -20\n") {
		t.Errorf("the session was not given nice -20 during the run:\n%s", s)
	}
	if !strings.Contains(s, "after=/autogroup-") || !strings.Contains(s, " nice 3\n") {
		t.Errorf("the session's nice 3 was not given back:\n%s", s)
	}
}
