package exercises

import (
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// pocketVariant is lesson 6's PocketPLA with switches for typical mistakes.
func pocketVariant(strict, tieIsMistake, bias bool) PocketFunc {
	return func(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
		errorsOf := func(w []float64, b float64) int {
			e := 0
			for i, x := range X {
				s := b
				for j := range x {
					s += w[j] * x[j]
				}
				if y[i]*s < 0 || (tieIsMistake && y[i]*s == 0) {
					e++
				}
			}
			return e
		}
		w, b := make([]float64, len(X[0])), 0.0
		pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w)}, errorsOf(w, b)
		for epoch := 0; epoch < maxEpochs; epoch++ {
			clean := true
			for i, x := range X {
				if y[i]*(b+dot(w, x)) > 0 || (!tieIsMistake && y[i]*(b+dot(w, x)) == 0) {
					continue
				}
				clean = false
				for j := range w {
					w[j] += eta * y[i] * x[j]
				}
				if bias {
					b += eta * y[i]
				}
				if e := errorsOf(w, b); e < pocketErrors || (!strict && e == pocketErrors) {
					pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w), B: b}, e
				}
			}
			if clean {
				break
			}
		}
		return pocket, perceptron.Hyperplane{W: w, B: b}, pocketErrors
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

func TestCheckPocketPLA(t *testing.T) {
	wrong := map[string]PocketFunc{
		"< 0 instead of <= 0":     pocketVariant(true, false, true),
		"no bias update":          pocketVariant(true, true, false),
		"pockets ties (<= not <)": pocketVariant(false, true, true),
	}
	expectExercise(t, func() bool { return CheckPocketPLA(pocketVariant(true, true, true)) },
		func(name string) bool { return CheckPocketPLA(wrong[name]) }, sortedKeys(wrong),
		func() bool {
			return CheckPocketPLA(func([][]float64, []float64, float64, int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
				panic("not implemented: write PocketPLA")
			})
		})
}

// withProgram makes the checkers read src as the notebook's program.
func withProgram(t *testing.T, src string) {
	t.Helper()
	saved := programSource
	programSource = func() ([]byte, bool, error) { return []byte(src), true, nil }
	t.Cleanup(func() { programSource = saved })
}

const cheatingPocket = `package main

import (
	"fmt"

	"github.com/perceptron-go/lessons/perceptron"
)

func helper(X [][]float64, y []float64) *perceptron.PocketResult {
	d, _ := perceptron.NewDataset(X, y)
	r, _ := perceptron.Pocket(d, perceptron.Options{})
	return r
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	r := helper(X, y)
	return r.Hyperplane, r.Last, r.PocketErrors
}

func main() { fmt.Println() }
`

func TestCheckPocketPLARefusesThePackage(t *testing.T) {
	withProgram(t, cheatingPocket)
	var ok bool
	out := capture(t, func() { ok = CheckPocketPLA(pocketVariant(true, true, true)) })
	if ok || !strings.Contains(out, "write it with a loop, not perceptron.Pocket") || !strings.Contains(out, "perceptron.Pocket") {
		t.Errorf("a PocketPLA that calls perceptron.Pocket through a helper: ok = %v, printed\n%s", ok, out)
	}
}

func TestPackageUses(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a loop with the allowed type", `package main
import p "github.com/perceptron-go/lessons/perceptron"
func F(x []float64) p.Hyperplane { s := 0.0; for _, v := range x { s += v }; return p.Hyperplane{B: s} }`, nil},
		{"a renamed import, through a package-level variable", `package main
import p "github.com/perceptron-go/lessons/perceptron"
var learn = p.PLA
func F(x []float64) p.Hyperplane { learn(nil, p.Options{}); return p.Hyperplane{} }`, []string{"Options", "PLA"}},
		{"through a method of a notebook type", `package main
import "github.com/perceptron-go/lessons/perceptron"
type T struct{}
func (T) Learn() { perceptron.Averaged(nil, perceptron.Options{}) }
func F(x []float64) perceptron.Hyperplane { var t T; t.Learn(); return perceptron.Hyperplane{} }`, []string{"Averaged", "Options"}},
		{"a dot import", `package main
import . "github.com/perceptron-go/lessons/perceptron"
func F(x []float64) Hyperplane { return Hyperplane{} }`, []string{"(imported with a dot)"}},
		{"an unrelated function calls the package", `package main
import "github.com/perceptron-go/lessons/perceptron"
func G() { perceptron.PLA(nil, perceptron.Options{}) }
func F(x []float64) perceptron.Hyperplane { return perceptron.Hyperplane{} }`, nil},
	} {
		uses, ok, err := packageUses([]byte(tc.src), "F", "Hyperplane")
		if err != nil || !ok || !slices.Equal(uses, tc.want) {
			t.Errorf("%s: uses %v, ok %v, err %v; want %v", tc.name, uses, ok, err, tc.want)
		}
	}
	if _, ok, err := packageUses([]byte("package main\nfunc G() {}"), "F"); ok || err != nil {
		t.Errorf("F not declared: ok %v, err %v; want false, nil", ok, err)
	}
}

// TestDeclName checks that the checkers read the declaration of the
// function they were given (a worked solution under its own name), and
// fall back to the exercise's name for function literals and non-functions.
func TestDeclName(t *testing.T) {
	for _, tc := range []struct {
		f    any
		want string
	}{{dot, "dot"}, {func() {}, "Fallback"}, {3, "Fallback"}, {(func())(nil), "Fallback"}} {
		if got := declName(tc.f, "Fallback"); got != tc.want {
			t.Errorf("declName(%T) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
