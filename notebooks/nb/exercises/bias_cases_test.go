package exercises

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// biasDropped lists, for every check that checks a bias b (a call of
// c.bias), functions that are the reference solution with one returned b
// set to 0: a student who forgets that b. Each must fail on every seed,
// that is, on the fixed cases alone (issue 31 item 3: every check of b
// has a case with b ≠ 0; c.bias stays silent on a case whose b is 0).
var biasDropped = map[string]map[string]func() bool{
	"CheckOnline": {"b": func() bool {
		return CheckOnline(func(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
			w, _, m := onlineRef(false, false)(X, y, eta)
			return w, 0, m
		})
	}},
	"CheckBatchPLA": {"b": func() bool {
		return CheckBatchPLA(func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]float64, float64, []int) {
			w, _, perEpoch := batchRef(false, false, false)(X, y, eta, maxEpochs)
			return w, 0, perEpoch
		})
	}},
	"CheckPocketPLA": {
		"pocket b": func() bool {
			return CheckPocketPLA(func(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
				pocket, last, e := pocketVariant(true, true, true)(X, y, eta, maxEpochs)
				return perceptron.Hyperplane{W: pocket.W}, last, e
			})
		},
		"last b": func() bool {
			return CheckPocketPLA(func(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
				pocket, last, e := pocketVariant(true, true, true)(X, y, eta, maxEpochs)
				return pocket, perceptron.Hyperplane{W: last.W}, e
			})
		},
	},
	"CheckVotedAveraged": {"average b": func() bool {
		return CheckVotedAveraged(func(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
			v, c, avg := votedVariant(false, true, true)(X, y, eta, epochs)
			return v, c, perceptron.Hyperplane{W: avg.W}
		})
	}},
	"CheckDualPLA": {"b": func() bool {
		return CheckDualPLA(func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
			alpha, _ := dualVariant(false, true, true)(X, y, eta, maxEpochs)
			return alpha, 0
		})
	}},
	"CheckKernelPLA": {"b": func() bool {
		return CheckKernelPLA(func(X [][]float64, y []float64, k func(x, z []float64) float64, maxEpochs int) ([]int, float64) {
			alpha, _ := kernelVariant(false, false, false)(X, y, k, maxEpochs)
			return alpha, 0
		})
	}},
}

// TestEveryBiasCheckHasANonZeroB: a solution that returns b = 0 fails
// every check of b on a fixed case (the random cases, named "random
// integer points", vary with the seed: they cannot be what catches it),
// and the table above names every function of the package that calls
// c.bias, so that a new check of b is listed too.
func TestEveryBiasCheckHasANonZeroB(t *testing.T) {
	for _, check := range biasCheckers(t) {
		if _, ok := biasDropped[check]; !ok {
			t.Errorf("%s checks a bias: list it in biasDropped with a solution that drops b", check)
		}
	}
	for check, dropped := range biasDropped {
		for what, f := range dropped {
			var ok bool
			out := capture(t, func() { ok = f() })
			fixed := false
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "FAILED: ") && strings.Contains(line, ": "+what+": expected") && !strings.Contains(line, "random integer points") {
					fixed = true
				}
			}
			if ok || !fixed {
				t.Errorf("%s with %s = 0: passed %v, and no fixed case failed on %s; it printed\n%s", check, what, ok, what, out)
			}
		}
	}
}

// biasCheckers returns the top-level functions of the package's non-test
// files that call c.bias.
func biasCheckers(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "bias" && !slices.Contains(out, fn.Name.Name) {
					out = append(out, fn.Name.Name)
				}
				return true
			})
		}
	}
	if len(out) == 0 {
		t.Fatal("no function calls c.bias: the scan is wrong")
	}
	return out
}
