package perceptron_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
	"gonum.org/v1/gonum/mat"
)

// TestPolyDegreeBounded: a degree beyond MaxPolyDegree is refused as a bad
// option, by ParseKernel and by KernelPerceptron, before any work (the
// degree 2^40 of the report made one multiply per degree); MaxPolyDegree
// itself is accepted and evaluates (x·z + C)^Degree.
func TestPolyDegreeBounded(t *testing.T) {
	for _, s := range []string{"poly:1099511627776:0", "poly:65", "poly:9223372036854775807"} {
		if _, err := perceptron.ParseKernel(s); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("ParseKernel(%q): %v, want ErrOption", s, err)
		}
	}
	d, err := perceptron.NewDataset([][]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, []float64{1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := perceptron.KernelPerceptron(d, perceptron.PolyKernel{Degree: math.MaxInt}, perceptron.Options{}); !errors.Is(err, perceptron.ErrOption) {
		t.Errorf("KernelPerceptron, degree MaxInt: %v, want ErrOption", err)
	}
	k, err := perceptron.ParseKernel("poly:64:0")
	if err != nil {
		t.Fatalf("poly:64:0: %v", err)
	}
	if got := k.Eval([]float64{2}, []float64{1}); got != 18446744073709551616 { // 2^64, exact
		t.Errorf("poly:64:0 at x·z = 2: %v, want 2^64", got)
	}
}

// countingKernel is the linear kernel that counts its evaluations and
// cancels a context after a given number of them.
type countingKernel struct {
	calls    *int
	cancelAt int
	cancel   context.CancelFunc
}

func (k countingKernel) Eval(x, z []float64) float64 {
	*k.calls++
	if *k.calls == k.cancelAt {
		k.cancel()
	}
	var s float64
	for j := range x {
		s += float64(x[j] * z[j])
	}
	return s
}

func (k countingKernel) String() string { return "counting" }

// TestKernelCancelledBefore: a Context cancelled before the call stops
// KernelPerceptron and Dual before they build the Gram matrix: the kernel
// is never evaluated, α is 0, no epoch ran, and the error is ErrStopped
// with the context's error. For Dual the data is finite but its Gram
// matrix overflows (1e200²): had Dual built the matrix first, the error
// would be ErrNonFinite.
func TestKernelCancelledBefore(t *testing.T) {
	d := perceptron.XORData()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt := perceptron.Options{Control: perceptron.Control{Context: ctx}}
	calls := 0
	m, err := perceptron.KernelPerceptron(d, countingKernel{calls: &calls}, opt)
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("KernelPerceptron: %v, want ErrStopped and context.Canceled", err)
	}
	if calls != 0 || m == nil || m.Epochs != 0 || m.Updates != 0 || m.Converged || len(m.Alpha) != d.N() {
		t.Fatalf("KernelPerceptron: %d kernel calls, model %+v; want no call and no epoch", calls, m)
	}
	for _, a := range m.Alpha {
		if a != 0 {
			t.Errorf("alpha %v, want 0", m.Alpha)
		}
	}
	huge, err := perceptron.NewDataset([][]float64{{1e200, 0}, {0, 1e200}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := perceptron.Dual(huge, perceptron.Options{}); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Fatalf("Dual on a Gram matrix that overflows: %v, want ErrNonFinite", err)
	}
	res, err := perceptron.Dual(huge, opt)
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Dual, context cancelled before: %v, want ErrStopped (the Gram matrix never built)", err)
	}
	if res == nil || res.Epochs != 0 || res.Updates != 0 || res.W[0] != 0 || res.W[1] != 0 {
		t.Errorf("Dual, cancelled: %+v, want no epoch and w = 0", res)
	}
}

// TestKernelCancelledDuringGram: a Context cancelled while the Gram matrix
// is built stops it within one row (n evaluations of the kernel) and
// KernelPerceptron returns ErrStopped without an epoch.
func TestKernelCancelledDuringGram(t *testing.T) {
	const n = 40
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{float64(i%7) - 3, float64(i%5) - 2}
		y[i] = float64(1 - 2*(i%2))
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	const at = 100 // in the third row of the upper triangle
	k := countingKernel{calls: &calls, cancelAt: at, cancel: cancel}
	m, err := perceptron.KernelPerceptron(d, k, perceptron.Options{Control: perceptron.Control{Context: ctx}})
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("KernelPerceptron: %v, want ErrStopped and context.Canceled", err)
	}
	if calls < at || calls > at+n {
		t.Errorf("%d kernel calls after a cancel at call %d: want at most one more row (%d)", calls, at, n)
	}
	if m.Epochs != 0 || m.Updates != 0 {
		t.Errorf("stopped in the Gram matrix, yet %d epochs and %d updates", m.Epochs, m.Updates)
	}
	if all := n * (n + 1) / 2; calls >= all {
		t.Errorf("%d calls: the whole matrix (%d) was built", calls, all)
	}
}

// TestKernelModelOverflow: where the polynomial kernel overflows, Score,
// Predict, PredictAll and Errors of a KernelModel return an ErrNonFinite
// error, as Hyperplane.Score does, instead of NaN or a prediction of 0.
// Two rows with opposite labels and α = 1 give +Inf − Inf = NaN at
// x = 1e200; one row alone gives +Inf.
func TestKernelModelOverflow(t *testing.T) {
	for _, m := range []*perceptron.KernelModel{
		{Alpha: []int{1, 1}, Kernel: perceptron.PolyKernel{Degree: 2}, Eta: 1, X: mat.NewDense(2, 1, []float64{1, 1}), Y: []float64{1, -1}},
		{Alpha: []int{1}, Kernel: perceptron.PolyKernel{Degree: 2}, Eta: 1, X: mat.NewDense(1, 1, []float64{1}), Y: []float64{1}},
	} {
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if s, err := m.Score([]float64{2}); err != nil || s != float64(len(m.Alpha)%2)*4 {
			t.Errorf("Score(2): %v, %v; want %v", s, err, float64(len(m.Alpha)%2)*4)
		}
		x := []float64{1e200}
		if s, err := m.Score(x); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("Score(1e200): %v, %v; want ErrNonFinite", s, err)
		}
		if p, err := m.Predict(x); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("Predict(1e200): %v, %v; want ErrNonFinite", p, err)
		}
		d, err := perceptron.NewDataset([][]float64{{1}, {1e200}}, []float64{1, -1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.PredictAll(d); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("PredictAll: %v, want ErrNonFinite", err)
		}
		if _, err := m.Errors(d); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("Errors: %v, want ErrNonFinite", err)
		}
		if _, err := m.ErrorRate(d); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("ErrorRate: %v, want ErrNonFinite", err)
		}
	}
}

// TestKernelModelValidateChecksKernelAndRows: a KernelModel assembled by
// hand (or read from a file) is checked whole by Validate, its kernel as
// ParseKernel and KernelPerceptron check it, and its training rows as a
// Dataset's: a PolyKernel of degree 2^40 passed Validate, and Score then
// made 2^40 multiplies per training row; labels other than -1/+1 and a
// NaN training value passed too, and Score summed them into its answer.
func TestKernelModelValidateChecksKernelAndRows(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, -1})
	good := func() *perceptron.KernelModel {
		return &perceptron.KernelModel{Alpha: []int{1, 1}, Kernel: perceptron.PolyKernel{Degree: 2, C: 1}, Eta: 1, X: x, Y: []float64{1, -1}}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("a valid model: %v", err)
	}
	for _, k := range []perceptron.Kernel{
		perceptron.PolyKernel{Degree: math.MaxInt}, // 2^40 does not fit an int on 386
		perceptron.PolyKernel{Degree: 0, C: 1},
		perceptron.PolyKernel{Degree: -3, C: 1},
		perceptron.PolyKernel{Degree: 2, C: math.NaN()},
		perceptron.PolyKernel{Degree: 2, C: math.Inf(-1)},
		perceptron.RBFKernel{Gamma: math.NaN()},
		perceptron.RBFKernel{Gamma: -1},
		perceptron.RBFKernel{},
		perceptron.RBFKernel{Gamma: math.Inf(1)},
	} {
		m := good()
		m.Kernel = k
		if err := m.Validate(); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("kernel %#v: Validate = %v, want ErrOption", k, err)
		}
	}
	for _, y := range [][]float64{{2, -1}, {0, -1}, {math.NaN(), -1}} {
		m := good()
		m.Y = y
		if err := m.Validate(); !errors.Is(err, perceptron.ErrLabel) {
			t.Errorf("labels %v: Validate = %v, want ErrLabel", y, err)
		}
	}
	m := good()
	m.X = mat.NewDense(2, 1, []float64{1, math.NaN()})
	if err := m.Validate(); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("a NaN training value: Validate = %v, want ErrNonFinite", err)
	}
}

// TestRBFFarApart: points 2e154 apart have ||x − z||² = 4e308, beyond
// float64, yet with Gamma = 1e-310 (a Gamma ParseKernel accepts) the
// kernel is exp(−0.04) = 0.9607894391523232 (math.Exp of the exact
// product); it was exp(−Inf) = 0. Where Gamma ||x − z||² is itself beyond
// float64 the kernel is 0, and nearer points keep their bits.
func TestRBFFarApart(t *testing.T) {
	k := perceptron.RBFKernel{Gamma: 1e-310}
	x, z := []float64{1e154, 0}, []float64{-1e154, 0}
	want := math.Exp(-(1e-310 * 1e154) * 1e154 * 4)
	if got := k.Eval(x, z); !(math.Abs(got-want) <= 4e-16) {
		t.Errorf("Eval = %v, want %v", got, want)
	}
	if got := (perceptron.RBFKernel{Gamma: 1}).Eval(x, z); got != 0 {
		t.Errorf("Gamma 1: Eval = %v, want 0", got)
	}
	if got := (perceptron.RBFKernel{Gamma: 5e-324}).Eval([]float64{1e308}, []float64{-1e308}); got != 0 {
		t.Errorf("x − z overflows: Eval = %v, want 0", got) // 5e-324 · 4e616 = 2e293
	}
	if got, want := (perceptron.RBFKernel{Gamma: 0.5}).Eval([]float64{1, 2}, []float64{2, 0}), math.Exp(-2.5); !(math.Abs(got-want) <= 2e-16) {
		t.Errorf("near points: Eval = %v, want %v", got, want)
	}
}

// customKernel is a kernel of the caller's, with no name ParseKernel reads.
type customKernel struct{}

func (customKernel) Eval(x, z []float64) float64 { return x[0] * z[0] }
func (customKernel) String() string              { return "custom" }

// TestKernelModelJSON: a KernelModel written with encoding/json reads back
// as the same model, scoring every row bit for bit as the original, for
// each kernel of the package; encoding/json alone wrote the training rows
// as {} and a kernel it could not read back. A custom kernel cannot be
// written; an unknown key, a kernel name or labels that the checks refuse,
// ragged rows and trailing data are errors.
func TestKernelModelJSON(t *testing.T) {
	d, err := perceptron.Circles(60, 0.05, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []perceptron.Kernel{perceptron.LinearKernel{}, perceptron.PolyKernel{Degree: 2, C: 0.5}, perceptron.RBFKernel{Gamma: 0.7}} {
		m, err := perceptron.KernelPerceptron(d, k, perceptron.Options{MaxEpochs: 20, Eta: 0.3, Tie: perceptron.TieNegative})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		var back perceptron.KernelModel
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%v: %v\n%s", k, err, b)
		}
		if back.Kernel != k || back.Tie != m.Tie || back.Eta != m.Eta || back.B != m.B || back.Updates != m.Updates || !mat.Equal(back.X, m.X) {
			t.Errorf("%v: read back %+v", k, back)
		}
		for i := 0; i < d.N(); i++ {
			s0, err0 := m.Score(d.Row(i))
			s1, err1 := back.Score(d.Row(i))
			if s0 != s1 || err0 != nil || err1 != nil {
				t.Errorf("%v: row %d scores %v, %v after the round trip, %v, %v before", k, i, s1, err1, s0, err0)
				break
			}
		}
		again, err := json.Marshal(&back)
		if err != nil || string(again) != string(b) {
			t.Errorf("%v: written again differently (%v)", k, err)
		}
	}
	m := &perceptron.KernelModel{Alpha: []int{1, 1}, Kernel: customKernel{}, Eta: 1, X: mat.NewDense(2, 1, []float64{1, -1}), Y: []float64{1, -1}}
	if _, err := json.Marshal(m); err == nil {
		t.Error("a custom kernel written as JSON")
	}
	good := `{"kernel":"poly:2:1","alpha":[1,0],"b":1,"eta":1,"tie":"mistake","x":[[1,2],[3,4]],"y":[1,-1],"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}}`
	var ok perceptron.KernelModel
	if err := json.Unmarshal([]byte(good), &ok); err != nil {
		t.Fatalf("a hand-written model: %v", err)
	}
	for _, c := range []struct{ old, new string }{
		{`"b":1`, `"b":1,"gamma":2`},
		{`poly:2:1`, `poly:1099511627776:0`},
		{`poly:2:1`, `rbf:-1`},
		{`"y":[1,-1]`, `"y":[1,2]`},
		{`[[1,2],[3,4]]`, `[[1,2],[3]]`},
		{`"alpha":[1,0]`, `"alpha":[1,-1]`},
		{`"tie":"mistake"`, `"tie":"sideways"`},
		{`}}`, `}} {}`},
	} {
		bad := strings.Replace(good, c.old, c.new, 1)
		var m perceptron.KernelModel
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: read without an error", c.new)
		}
	}
}

// TestKernelModelJSONNeedsEveryKey: a kernel model file without one of
// its keys (in "stats" too), or with a null anywhere, is an ErrModel error
// naming it. encoding/json alone read a missing or null "b", a null α or
// training value, and "stats": {} as 0: the model scored every point 1
// lower, or flipped a sign (helper-56), with no error.
func TestKernelModelJSONNeedsEveryKey(t *testing.T) {
	const good = `{"kernel":"poly:2:1","alpha":[1,0],"b":1,"eta":1,"tie":"mistake","x":[[1,2],[3,4]],"y":[1,-1],` +
		`"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}}`
	var m perceptron.KernelModel
	if err := json.Unmarshal([]byte(good), &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, want string }{
		{`"b":1,`, ``, `key "b" is missing`},
		{`"b":1,`, `"b":null,`, `"b" is null`},
		{`"kernel":"poly:2:1",`, ``, `key "kernel" is missing`},
		{`"kernel":"poly:2:1"`, `"kernel":null`, `"kernel" is null`},
		{`"alpha":[1,0],`, ``, `key "alpha" is missing`},
		{`"alpha":[1,0]`, `"alpha":[null,0]`, `"alpha[0]" is null`},
		{`"eta":1,`, ``, `key "eta" is missing`},
		{`"eta":1`, `"eta":null`, `"eta" is null`},
		{`"tie":"mistake",`, ``, `key "tie" is missing`},
		{`"x":[[1,2],[3,4]]`, `"x":[[1,2],[null,4]]`, `"x[1][0]" is null`},
		{`"x":[[1,2],[3,4]]`, `"x":[[1,2],null]`, `"x[1]" is null`},
		{`"y":[1,-1],`, ``, `key "y" is missing`},
		{`"y":[1,-1]`, `"y":[1,null]`, `"y[1]" is null`},
		{`,"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}`, ``, `key "stats" is missing`},
		{`"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}`, `"stats":null`, `"stats" is null`},
		{`"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}`, `"stats":{}`, `key "stats.Converged" is missing`},
		{`"Updates":1,"Epochs":1,"UpdateRuns"`, `"Updates":null,"Epochs":1,"UpdateRuns"`, `"stats.Updates" is null`},
		{`[{"Updates":1,"Epochs":1}]`, `[{"Updates":1}]`, `key "stats.UpdateRuns[0].Epochs" is missing`},
		{`"Converged":false`, `"Converged":null`, `"stats.Converged" is null`},
	} {
		bad := strings.Replace(good, c.old, c.new, 1)
		if bad == good {
			t.Fatalf("%q: the file did not change", c.old)
		}
		var m perceptron.KernelModel
		err := json.Unmarshal([]byte(bad), &m)
		if !errors.Is(err, perceptron.ErrModel) || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("%s: %v (b = %v); want an ErrModel error saying %s", c.new, err, m.B, c.want)
		}
	}
	// A model's own file holds no null: a run stopped before its first
	// epoch (no UpdateRuns) writes them as [] and reads them back as none.
	d, err := perceptron.NewDataset([][]float64{{1, 0}, {-1, 0}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped, err := perceptron.KernelPerceptron(d, perceptron.LinearKernel{}, perceptron.Options{Control: perceptron.Control{Context: ctx}})
	if !errors.Is(err, perceptron.ErrStopped) || stopped.UpdateRuns != nil {
		t.Fatalf("stopped before the Gram matrix: %v, runs %v", err, stopped.UpdateRuns)
	}
	b, err := json.Marshal(stopped)
	if err != nil || strings.Contains(string(b), "null") {
		t.Fatalf("a stopped model's file: %s, %v", b, err)
	}
	var back perceptron.KernelModel
	if err := json.Unmarshal(b, &back); err != nil || back.UpdateRuns != nil {
		t.Errorf("a stopped model read back: %v, runs %#v", err, back.UpdateRuns)
	}
}

// TestKernelModelValueJSON: a KernelModel value, and a struct value that
// holds one, are written as a pointer to it is, and read back scoring the
// same bits. MarshalJSON had a pointer receiver: encoding/json wrote a
// value its own way (the rows as {}, the kernel as its fields), with no
// error, and reading it back failed (helper-53).
func TestKernelModelValueJSON(t *testing.T) {
	d := perceptron.XORData()
	m, err := perceptron.KernelPerceptron(d, perceptron.PolyKernel{Degree: 2, C: 1}, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	type saved struct{ Model perceptron.KernelModel }
	got, err := json.Marshal(*m)
	if err != nil || string(got) != string(want) {
		t.Errorf("a value: %s (%v), want %s", got, err, want)
	}
	held, err := json.Marshal(saved{*m})
	if err != nil || string(held) != `{"Model":`+string(want)+`}` {
		t.Fatalf("a struct value holding one: %s (%v)", held, err)
	}
	var back saved
	if err := json.Unmarshal(held, &back); err != nil {
		t.Fatal(err)
	}
	for i := range d.N() {
		s0, err0 := m.Score(d.Row(i))
		s1, err1 := back.Model.Score(d.Row(i))
		if math.Float64bits(s0) != math.Float64bits(s1) || err0 != nil || err1 != nil {
			t.Errorf("row %d: %v (%v) read back, %v (%v) before", i, s1, err1, s0, err0)
		}
	}
	if b, err := json.Marshal(perceptron.KernelModel{}); err == nil || !errors.Is(err, perceptron.ErrModel) {
		t.Errorf("an untrained value: %s, %v; want an ErrModel error", b, err)
	}
}

// TestKernelEvalLengths: the package's kernels panic, naming the lengths,
// on vectors of two lengths, in either order. LinearKernel and PolyKernel
// read a shorter z as far as x went (3 for [1 2 3]·[1 1]) and RBFKernel
// ignored a longer z's last values: silently wrong values (helper-53).
func TestKernelEvalLengths(t *testing.T) {
	long, short := []float64{1, 2, 3, 4}, []float64{1, 1, 1}
	for _, k := range []perceptron.Kernel{perceptron.LinearKernel{}, perceptron.PolyKernel{Degree: 2}, perceptron.RBFKernel{Gamma: 1}} {
		for _, c := range [][2][]float64{{long, short[:2]}, {short[:2], long}} {
			func() {
				defer func() {
					msg := fmt.Sprint(recover())
					if !strings.Contains(msg, "Eval of vectors of") || !strings.Contains(msg, " 2 ") {
						t.Errorf("%v.Eval(%v, %v): panic %q; want one naming the lengths", k, c[0], c[1], msg)
					}
				}()
				v := k.Eval(c[0], c[1])
				t.Errorf("%v.Eval(%v, %v) = %v, no panic", k, c[0], c[1], v)
			}()
		}
	}
}

// TestKernelModelFileBadKernelIsErrModel: a kernel model file whose kernel
// or tie the parsers refuse is an ErrModel error (and ErrOption, the
// parser's), as Validate answers for the same model built by hand; it was
// ErrOption alone (helper-53).
func TestKernelModelFileBadKernelIsErrModel(t *testing.T) {
	const good = `{"kernel":"poly:2:1","alpha":[1,0],"b":1,"eta":1,"tie":"mistake","x":[[1,2],[3,4]],"y":[1,-1],"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}}`
	for _, c := range [][2]string{
		{`"poly:2:1"`, `"rbf:-1"`}, {`"poly:2:1"`, `"poly:65"`}, {`"poly:2:1"`, `"poly:2:nan"`}, {`"mistake"`, `"sideways"`},
	} {
		var m perceptron.KernelModel
		err := json.Unmarshal([]byte(strings.Replace(good, c[0], c[1], 1)), &m)
		if !errors.Is(err, perceptron.ErrModel) || !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("%s in a kernel model file: %v; want ErrModel and ErrOption", c[1], err)
		}
	}
}

// hugeDegree is a polynomial degree far beyond MaxPolyDegree that an int
// holds on every platform (386's too): even, and odd once 1 is added.
const hugeDegree = math.MaxInt32 - 1

// TestPointerKernelsAreChecked: a *PolyKernel or *RBFKernel is a Kernel
// too, and its parameters are checked as the value's: a *PolyKernel of
// degree 2^40 skipped the degree cap, and KernelPerceptron, GramMatrix
// and KernelModel.Score spun for hours; a nil pointer is refused, not a
// panic. A good pointer kernel learns what its value learns, its model
// is written as JSON as the value's (it was "only this package's kernels
// have a name"), and a
// hand-made PolyKernel of degree 2^40 evaluates at once (by squaring).
func TestPointerKernelsAreChecked(t *testing.T) {
	d, err := perceptron.NewDataset([][]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, []float64{1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []perceptron.Kernel{
		&perceptron.PolyKernel{Degree: hugeDegree}, &perceptron.PolyKernel{Degree: 0, C: 1},
		&perceptron.PolyKernel{Degree: 2, C: math.NaN()}, &perceptron.RBFKernel{Gamma: -1},
		&perceptron.RBFKernel{}, (*perceptron.PolyKernel)(nil), (*perceptron.RBFKernel)(nil),
		(*perceptron.LinearKernel)(nil),
	} {
		if _, err := perceptron.KernelPerceptron(d, k, perceptron.Options{}); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("KernelPerceptron(%#v): %v, want ErrOption", k, err)
		}
		if _, err := perceptron.GramMatrix(d, k); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("GramMatrix(%#v): %v, want ErrOption", k, err)
		}
		m := &perceptron.KernelModel{Kernel: k, X: mat.NewDense(1, 2, []float64{1, 0}), Y: []float64{1}, Alpha: []int{1}, Eta: 1}
		if err := m.Validate(); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("KernelModel{Kernel: %#v}.Validate(): %v, want ErrOption", k, err)
		}
		if _, err := m.Score([]float64{1, 1}); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("KernelModel{Kernel: %#v}.Score: %v, want ErrOption", k, err)
		}
	}
	for _, pair := range [][2]perceptron.Kernel{
		{&perceptron.PolyKernel{Degree: 3, C: 1}, perceptron.PolyKernel{Degree: 3, C: 1}},
		{&perceptron.RBFKernel{Gamma: 0.5}, perceptron.RBFKernel{Gamma: 0.5}},
		{&perceptron.LinearKernel{}, perceptron.LinearKernel{}},
	} {
		mp, err := perceptron.KernelPerceptron(d, pair[0], perceptron.Options{})
		if err != nil {
			t.Fatalf("KernelPerceptron(%v): %v", pair[0], err)
		}
		mv, err := perceptron.KernelPerceptron(d, pair[1], perceptron.Options{})
		if err != nil {
			t.Fatalf("KernelPerceptron(%v): %v", pair[1], err)
		}
		sp, _ := mp.Score([]float64{0.3, -0.2})
		sv, _ := mv.Score([]float64{0.3, -0.2})
		if sp != sv || mp.B != mv.B {
			t.Errorf("%v: the pointer scores %v (b %v), the value %v (b %v)", pair[1], sp, mp.B, sv, mv.B)
		}
		// Written as JSON, the pointer's model is the value's: the same
		// bytes, read back with the value kernel.
		bp, err := json.Marshal(mp)
		if err != nil {
			t.Errorf("%v: the model of the pointer kernel written as JSON: %v", pair[1], err)
			continue
		}
		bv, err := json.Marshal(mv)
		if err != nil || string(bp) != string(bv) {
			t.Errorf("%v: the pointer's model as JSON %s, the value's %s (%v)", pair[1], bp, bv, err)
		}
		var back perceptron.KernelModel
		if err := json.Unmarshal(bp, &back); err != nil || back.Kernel != pair[1] {
			t.Errorf("%v: read back with kernel %#v (%v)", pair[1], back.Kernel, err)
		}
	}
	for _, c := range []struct {
		s, want float64
		deg     int
	}{{1, 1, hugeDegree}, {-1, 1, hugeDegree}, {-1, -1, hugeDegree + 1}, {2, math.Inf(1), hugeDegree}, {0.5, 0, hugeDegree}, {2, 1 << 62, 62}} {
		k := perceptron.PolyKernel{Degree: c.deg}
		if got := k.Eval([]float64{c.s}, []float64{1}); got != c.want {
			t.Errorf("PolyKernel{Degree: %d}.Eval(%v) = %v, want %v", c.deg, c.s, got, c.want)
		}
	}
}

// TestKernelModelFileRaggedRowsIsErrModel: a kernel model file whose
// training rows have different lengths is an ErrModel error (and
// ErrDimension) as every other damaged file is; it was ErrDimension alone
// (helper-59).
func TestKernelModelFileRaggedRowsIsErrModel(t *testing.T) {
	const good = `{"kernel":"poly:2:1","alpha":[1,0],"b":1,"eta":1,"tie":"mistake","x":[[1,2],[3,4]],"y":[1,-1],"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}}`
	var m perceptron.KernelModel
	if err := json.Unmarshal([]byte(good), &m); err != nil {
		t.Fatal(err)
	}
	err := json.Unmarshal([]byte(strings.Replace(good, `[3,4]`, `[3]`, 1)), &m)
	if !errors.Is(err, perceptron.ErrModel) || !errors.Is(err, perceptron.ErrDimension) || !strings.Contains(err.Error(), "training row 1 has 1 features") {
		t.Errorf("ragged training rows: %v; want ErrModel and ErrDimension naming row 1", err)
	}
}

// TestKernelParametersOutOfRange: ParseKernel says that a parameter
// beyond float64 is out of range, not "not a number" (helper-59); a
// PolyKernel of Degree below 1 or an RBFKernel of Gamma not > 0, which no
// learner takes, evaluates to NaN, so that a kernel of the caller's that
// wraps one (checked, as any kernel of the caller's, by its values) is
// refused with ErrNonFinite, not learned with 1s or exp(+||x − z||²).
func TestKernelParametersOutOfRange(t *testing.T) {
	for _, s := range []string{"poly:2:1e400", "rbf:1e400", "rbf:-1e400"} {
		_, err := perceptron.ParseKernel(s)
		if !errors.Is(err, perceptron.ErrOption) || !strings.Contains(err.Error(), "beyond the float64 range") {
			t.Errorf("ParseKernel(%q): %v; want ErrOption, beyond the float64 range", s, err)
		}
	}
	if _, err := perceptron.ParseKernel("rbf:x"); err == nil || !strings.Contains(err.Error(), "is not a number") {
		t.Errorf(`ParseKernel("rbf:x"): %v; want "is not a number"`, err)
	}
	x, z := []float64{1, 2}, []float64{3, 4}
	for _, k := range []perceptron.Kernel{
		perceptron.PolyKernel{Degree: 0, C: 1}, perceptron.PolyKernel{Degree: -5},
		perceptron.RBFKernel{Gamma: -1}, perceptron.RBFKernel{}, perceptron.RBFKernel{Gamma: math.NaN()}, perceptron.RBFKernel{Gamma: math.Inf(1)},
	} {
		if v := k.Eval(x, z); !math.IsNaN(v) {
			t.Errorf("%#v.Eval: %v, want NaN", k, v)
		}
	}
	d, err := perceptron.NewDataset([][]float64{{1, 0}, {0, 1}, {-1, 0}}, []float64{1, 1, -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []perceptron.Kernel{wrappedKernel{perceptron.RBFKernel{Gamma: -1}}, wrappedKernel{perceptron.PolyKernel{Degree: -5}}} {
		if _, err := perceptron.KernelPerceptron(d, k, perceptron.Options{}); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("%v wrapped: %v; want ErrNonFinite", k, err)
		}
	}
}

// wrappedKernel is a kernel of the caller's that embeds one of the
// package's, unchecked.
type wrappedKernel struct{ perceptron.Kernel }

// TestGramMatrixTooLargeSaysWhat: GramMatrix, which has no Options, says
// that DefaultMaxGramBytes is its limit, not "raise MaxGramBytes" (a
// Control it does not take, helper-59).
func TestGramMatrixTooLargeSaysWhat(t *testing.T) {
	n := 11586 // 8·n² > 1 GiB
	d := &perceptron.Dataset{X: mat.NewDense(n, 1, nil), Y: make([]float64, n)}
	for i := range d.Y {
		d.Y[i] = 1
	}
	_, err := perceptron.GramMatrix(d, perceptron.LinearKernel{})
	if !errors.Is(err, perceptron.ErrOption) || !strings.Contains(err.Error(), "the most GramMatrix computes") || strings.Contains(err.Error(), "raise") {
		t.Errorf("GramMatrix of %d rows: %v; want ErrOption naming DefaultMaxGramBytes as GramMatrix's limit", n, err)
	}
}

// TestKernelScoreIsRoundedNotAVote: KernelModel.Score is the float64 sum
// its doc says, term by term in row order, not an exact vote (helper-70
// read Validate's "a mistake count the float64 score holds exactly" as a
// promise of an exact sign): counts up to 2^53 are valid, and where their
// terms cancel the sign is float64's, as the training run's is.
func TestKernelScoreIsRoundedNotAVote(t *testing.T) {
	if math.MaxInt < 1<<53 {
		t.Skip("an int of 32 bits holds no count near 2^53")
	}
	var p53 int64 = 1 << 53 // a variable: the constant overflows a 32-bit int
	m := &perceptron.KernelModel{
		Alpha:  []int{int(p53 - 2), int(p53), int(p53), int(p53 - 7)},
		Kernel: perceptron.LinearKernel{}, Eta: 1,
		X: mat.NewDense(4, 1, []float64{3, 1, 1, 1}), Y: []float64{1, -1, -1, -1},
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("counts up to 2^53: %v", err)
	}
	s, err := m.Score([]float64{1})
	// Exactly 3(2^53 − 2) − 2^53 − 2^53 − (2^53 − 7) = 1; in float64,
	// 3(2^53 − 2) rounds to 3·2^53 − 8 and the sum ends at −1.
	want := 0.0
	for i, a := range m.Alpha {
		want += float64(a) * 1 * m.Y[i] * m.X.At(i, 0)
	}
	if err != nil || s != want || s != -1 {
		t.Errorf("Score = %v, %v; want the float64 sum %v (= -1; exactly it is +1)", s, err, want)
	}
}
