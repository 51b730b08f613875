// Package exercises checks the exercises written inside the lesson
// notebooks, in the manner of MIT 6.036's testers: the student writes a
// function right where the idea is taught, and the next cell passes it to
// this package's checker for that exercise, which runs it on its cases and
// reports, first, a one-line verdict, then the failing cases with what it
// expected and what it got, then the passing cases by name only:
//
//	FAILED: Exercise 1 (Predict): 1 of 7 cases failed (random cases: seed 81, exercises.SetSeed(81) draws them again)
//	FAILED: Exercise 1 (Predict): x = [1 0.5]: expected 0, got 1
//	passed: Exercise 1 (Predict): x = [3 4]
//
// In a GoNB kernel the report is shown as HTML, the verdict coloured (and
// as plain text for the notebook's text view); elsewhere it is printed to
// Out. Besides fixed cases, most checkers draw cases at random on each run
// from a seed that the verdict prints, so that a function that returns
// hard-coded answers fails; SetSeed repeats a run's cases.
//
// A function that panics (the notebook's stub panics "not implemented")
// is reported as not done yet instead of stopping the notebook, so the
// lessons run clean with the stubs in place, and the checker returns
// whether every case passed. Each checker has its own test here that passes
// a reference solution and fails wrong ones.
package exercises

import (
	"fmt"
	"html"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/perceptron-go/lessons/perceptron"
)

// Out is where the checkers print when they do not run in a GoNB kernel
// (or when Out is not the standard output): the report as plain text.
var Out io.Writer = os.Stdout

// nextSeed is the seed of the next check's random cases: 0 draws one from
// the clock.
var nextSeed uint64

// SetSeed makes the next checks draw their random cases from seed, the
// number a check's verdict prints: a failing run's cases drawn again.
func SetSeed(seed uint64) { nextSeed = seed }

// newSeed returns the seed of a check: the one SetSeed gave, else one
// from the clock (each GoNB cell is a new process: a new draw on every run).
func newSeed() uint64 {
	if nextSeed != 0 {
		return nextSeed
	}
	return uint64(time.Now().UnixNano()%1_000_000) + 1
}

// A verdict is the outcome of a check.
type verdict int

const (
	passed  verdict = iota // every case passed
	failed                 // a case failed, or the function was refused
	notDone                // the function panicked (the stub's "not implemented"), or no answer yet
)

// outcome is one case of a check.
type outcome struct {
	pass      bool
	what      string
	want, got string
}

// checker collects the outcome of the cases of one exercise.
type checker struct {
	name  string
	cases []outcome
	notes []string // hints, shown after the failing cases
	seed  uint64   // the seed of the random cases
	drew  bool     // whether the check drew random cases
	rng   *rand.Rand
}

// random returns the check's generator of random cases, seeded with the
// seed that the verdict prints.
func (c *checker) random() *rand.Rand {
	c.drew = true
	return c.rng
}

// run calls body with a checker for the exercise called name, reports a
// panic of the student's code as "not done yet", shows the report and
// returns whether every case passed.
func run(name string, body func(c *checker)) (ok bool) {
	c := &checker{name: name, seed: newSeed()}
	c.rng = rand.New(rand.NewPCG(c.seed, 0x5eed))
	defer func() {
		if r := recover(); r != nil {
			show(c, notDone, fmt.Sprintf("your function panicked: %v", r))
			ok = false
			return
		}
		failures := c.failures()
		switch {
		case len(c.cases) == 0:
			show(c, failed, "the check ran no case")
		case failures == 0:
			show(c, passed, fmt.Sprintf("all %d cases passed", len(c.cases)))
		default:
			show(c, failed, fmt.Sprintf("%d of %d cases failed", failures, len(c.cases)))
		}
		ok = failures == 0 && len(c.cases) > 0
	}()
	body(c)
	return
}

// refuse shows a one-line verdict without running any case: a refused
// function (FAILED) or an answer not given yet (NOT DONE).
func refuse(name string, v verdict, why string) bool {
	show(&checker{name: name}, v, why)
	return false
}

// runLoop is run for an exercise whose function f must compute with its
// own loop: if f's declaration in the notebook calls the perceptron
// package, the lessons' packages built on it, a computing method of a
// perceptron value other than those in allow, or a worked solution
// (packageCall), the check fails at once with "write it with a loop, not
// perceptron.X" and does not run f.
func runLoop(name string, f any, body func(c *checker), allow ...string) bool {
	call, err := packageCall(f, allow...)
	if call != "" {
		return refuse(name, failed, "write it with a loop, not "+call)
	}
	return run(name, unread(err, body))
}

// algoCase is one case of an algorithm exercise (lessons 4 and 6 to 9):
// the student's learner runs on the rows of d with learning rate (or step
// size) eta for n epochs (or steps), named name in the report.
type algoCase struct {
	name string
	d    *perceptron.Dataset
	eta  float64
	n    int
}

// runAlgorithm is runLoop for an algorithm exercise, whose check has one
// shape: the cases, fixed ones and ones drawn from the check's generator
// (cases is given it), and for each one compare, which runs the package
// and the student's function f on it and reports what they give; notes
// are added once every case has run.
func runAlgorithm(name string, f any, cases func(rng *rand.Rand) []algoCase, compare func(c *checker, tc algoCase), notes ...string) bool {
	return runLoop(name, f, func(c *checker) {
		for _, tc := range cases(c.random()) {
			compare(c, tc)
		}
		for _, n := range notes {
			c.note(n)
		}
	})
}

// must returns v and panics with err, for the checkers' own data and the
// package's runs, which do not fail on them.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// drawn is must for a data generator, which also returns its hidden
// hyperplane.
func drawn(d *perceptron.Dataset, _ perceptron.Hyperplane, err error) *perceptron.Dataset {
	return must(d, err)
}

// quietly runs check with Out discarded and returns its verdict: what a
// later cell calls to decide whether to draw from the student's function.
func quietly(check func() bool) bool {
	out := Out
	Out = io.Discard
	defer func() { Out = out }()
	return check()
}

// report records one case.
func (c *checker) report(pass bool, what string, want, got any) {
	c.cases = append(c.cases, outcome{pass, what, fmt.Sprint(want), fmt.Sprint(got)})
}

// note adds a hint to the report.
func (c *checker) note(hint string) { c.notes = append(c.notes, hint) }

func (c *checker) failures() int {
	n := 0
	for _, o := range c.cases {
		if !o.pass {
			n++
		}
	}
	return n
}

// equal checks got == want exactly (for counts, labels and exact sums).
func (c *checker) equal(what string, want, got any) {
	c.report(fmt.Sprint(want) == fmt.Sprint(got), what, want, got)
}

// close checks |got - want| <= tol·max(1, |want|), for values that a
// correct solution may compute in another order of floating-point
// operations.
func (c *checker) close(what string, want, got, tol float64) {
	c.report(closeTo(want, got, tol), what, want, got)
}

// closeSlice is close for every element, and equal lengths.
func (c *checker) closeSlice(what string, want, got []float64, tol float64) {
	pass := len(want) == len(got)
	for i := 0; pass && i < len(want); i++ {
		pass = closeTo(want[i], got[i], tol)
	}
	c.report(pass, what, fmtSlice(want), fmtSlice(got))
}

func closeTo(want, got, tol float64) bool {
	if math.IsNaN(got) || math.IsInf(got, 0) {
		return want == got
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func fmtSlice(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// labels are the verdicts as the report's first word.
var labels = map[verdict]string{passed: "PASSED", failed: "FAILED", notDone: "NOT DONE"}

// lines returns the report as plain text lines: the verdict, the failing
// cases with their expected values, the hints, the passing cases by name.
func (c *checker) lines(v verdict, summary string) (verdictLine string, failing, hints, passing []string) {
	verdictLine = labels[v] + ": " + c.name + ": " + summary
	if c.drew && v != notDone { // a stub's panic: no case to draw again
		if v == passed {
			verdictLine += fmt.Sprintf(" (random cases: seed %d)", c.seed)
		} else {
			verdictLine += fmt.Sprintf(" (random cases: seed %d, exercises.SetSeed(%d) draws them again)", c.seed, c.seed)
		}
	}
	for _, o := range c.cases {
		if o.pass {
			passing = append(passing, "passed: "+c.name+": "+o.what)
		} else {
			failing = append(failing, fmt.Sprintf("FAILED: %s: %s: expected %s, got %s", c.name, o.what, o.want, o.got))
		}
	}
	for _, h := range c.notes {
		hints = append(hints, "  hint: "+h)
	}
	return verdictLine, failing, hints, passing
}

// show writes the report of c: as HTML and plain text through GoNB when
// the program runs in a kernel and Out is the standard output, else as
// plain text to Out.
func show(c *checker, v verdict, summary string) {
	head, failing, hints, passing := c.lines(v, summary)
	text := strings.Join(append(append(append([]string{head}, failing...), hints...), passing...), "\n") + "\n"
	if !gonbui.IsNotebook || Out != io.Writer(os.Stdout) {
		fmt.Fprint(Out, text)
		return
	}
	gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMETextPlain: text,
		protocol.MIMETextHTML:  reportHTML(v, head, failing, hints, passing),
	}})
	gonbui.Sync() // the cell may end at once: make sure GoNB has the report
}

// colours of the verdicts: text and background, readable on light and
// dark themes alike (the background is opaque).
var colours = map[verdict][2]string{
	passed:  {"#0b3d1a", "#c9f0d3"},
	failed:  {"#5c0a0a", "#ffd6d6"},
	notDone: {"#4d3800", "#fff0b3"},
}

// marks are the verdicts' signs, so that the colour is not their only cue.
var marks = map[verdict]string{passed: "✔", failed: "✘", notDone: "…"}

func reportHTML(v verdict, head string, failing, hints, passing []string) string {
	var b strings.Builder
	col := colours[v]
	fmt.Fprintf(&b, `<div class="lesson-check" style="font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,13px)">`)
	fmt.Fprintf(&b, `<div role="status" style="color:%s;background:%s;padding:4px 8px;border-radius:4px;font-weight:bold">%s %s</div>`,
		col[0], col[1], marks[v], html.EscapeString(head))
	item := func(s string, v verdict) {
		col := colours[v]
		fmt.Fprintf(&b, `<div style="color:%s;background:%s;padding:1px 8px;margin-top:2px;white-space:pre-wrap">%s</div>`,
			col[0], col[1], html.EscapeString(s))
	}
	for _, s := range failing {
		item(s, failed)
	}
	for _, s := range hints {
		item(s, notDone)
	}
	if len(passing) > 0 {
		fmt.Fprintf(&b, `<details style="margin-top:2px"><summary>%d passing case(s)</summary>`, len(passing))
		for _, s := range passing {
			item(s, passed)
		}
		b.WriteString(`</details>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// runOwn is run for an exercise that may use the package but must be the
// student's own work: a function that calls a worked solution of the
// notebook (solutionCall) fails at once and is not run.
func runOwn(name string, f any, body func(c *checker)) bool {
	call, err := solutionCall(f)
	if call != "" {
		return refuse(name, failed, "write it yourself, not with "+call)
	}
	return run(name, unread(err, body))
}

// unread is body with a note, when err is not nil, that the function's
// code could not be read for what it calls (err says why): the cases
// still run.
func unread(err error, body func(c *checker)) func(c *checker) {
	if err == nil {
		return body
	}
	return func(c *checker) {
		c.note("the check could not read your code for package calls: " + err.Error())
		body(c)
	}
}

// ints returns d integers drawn uniformly from [lo, hi], as floats: random
// cases whose scores are exact, so that a score of 0 comes up.
func ints(rng *rand.Rand, d, lo, hi int) []float64 {
	v := make([]float64, d)
	for j := range v {
		v[j] = float64(lo + rng.IntN(hi-lo+1))
	}
	return v
}

// normals returns d normal draws times scale.
func normals(rng *rand.Rand, d int, scale float64) []float64 {
	v := make([]float64, d)
	for j := range v {
		v[j] = scale * rng.NormFloat64()
	}
	return v
}

// nonZero returns an integer of [lo, hi] other than 0: a bias that a
// function forgetting b cannot match.
func nonZero(rng *rand.Rand, lo, hi int) float64 {
	for {
		if v := lo + rng.IntN(hi-lo+1); v != 0 {
			return float64(v)
		}
	}
}

// randomData draws a random data set of n integer points of [-4, 4]^d,
// labelled by a random integer hyperplane with b ≠ 0 (a point on it is
// drawn again), then with each label flipped with probability flip. On
// integer points the learners' scores are exact, and scores of exactly 0
// come up after updates too: a strict < fails there, forced first update
// or not.
func randomData(rng *rand.Rand, n, d int, flip float64) *perceptron.Dataset {
	w, b := ints(rng, d, -3, 3), nonZero(rng, -3, 3)
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		for {
			X[i] = ints(rng, d, -4, 4)
			s := b
			for j := range w {
				s += w[j] * X[i][j]
			}
			if s != 0 {
				y[i] = math.Copysign(1, s)
				break
			}
		}
		if rng.Float64() < flip {
			y[i] = -y[i]
		}
	}
	return must(perceptron.NewDataset(X, y))
}

// bias checks a bias b like close, but a case whose expected b is 0 is
// reported only when it fails: a function that forgets the bias gets 0
// there, and a "b: passed" would tell it that its bias is right.
func (c *checker) bias(what string, want, got, tol float64) {
	if want == 0 && closeTo(want, got, tol) {
		return
	}
	c.close(what, want, got, tol)
}
