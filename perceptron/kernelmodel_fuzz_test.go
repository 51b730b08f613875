package perceptron

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzKernelModelJSON reads arbitrary bytes as a KernelModel: the read
// either fails with an ErrModel error or gives a model that Validate
// accepts, whose Score and Predict never panic, never answer NaN and
// answer a label of -1, 0 or +1, and that MarshalJSON writes back to the
// same model. The point scored comes from the fuzzer's float (any float64:
// NaN and ±Inf must be errors).
func FuzzKernelModelJSON(f *testing.F) {
	d := &Dataset{X: mat.NewDense(3, 2, []float64{1, 2, -1, -2, 2, -1}), Y: []float64{1, -1, 1}}
	for _, k := range []Kernel{LinearKernel{}, PolyKernel{Degree: 2, C: 1}, RBFKernel{Gamma: 0.5}} {
		m, err := KernelPerceptron(d, k, Options{})
		if err != nil {
			f.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, 0.5)
	}
	for _, s := range []string{
		`{"kernel":"poly:64:1e308","alpha":[9007199254740992],"b":-0,"eta":1e308,"tie":"negative","x":[[1e308]],"y":[-1],"stats":{"Updates":0,"Epochs":0,"UpdateRuns":[],"LastMistakeRow":-1,"Converged":false}}`,
		`{"kernel":"rbf:5e-324","alpha":[1,1],"b":0,"eta":1,"tie":"mistake","x":[[1],[1]],"y":[1,-1],"stats":{"Updates":2,"Epochs":1,"UpdateRuns":[{"Updates":2,"Epochs":1}],"LastMistakeRow":1,"Converged":false}}`,
		"\ufeff{}",
		`{"kernel":"linear","kernel":"linear"}`,
	} {
		f.Add([]byte(s), math.Inf(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, v float64) {
		var m KernelModel
		if err := json.Unmarshal(data, &m); err != nil {
			var se *json.SyntaxError
			if !errors.Is(err, ErrModel) && !errors.As(err, &se) {
				t.Fatalf("Unmarshal(%q): %v, want ErrModel (or encoding/json's syntax error)", data, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Unmarshal(%q) gave a model Validate refuses: %v", data, err)
		}
		x := make([]float64, m.Dim())
		for j := range x {
			x[j] = v * float64(j+1)
		}
		s, serr := m.Score(x)
		p, perr := m.Predict(x)
		if (serr == nil) != (perr == nil) {
			t.Fatalf("Unmarshal(%q) at %v: Score %v, %v but Predict %v, %v", data, x, s, serr, p, perr)
		}
		if serr == nil && (!isFinite(s) || (p != -1 && p != 0 && p != 1) || p != m.Tie.Sign(s)) {
			t.Fatalf("Unmarshal(%q) at %v: Score %v, Predict %v with no error", data, x, s, p)
		}
		b, err := json.Marshal(&m)
		if err != nil {
			t.Fatalf("Unmarshal(%q) gave a model MarshalJSON refuses: %v", data, err)
		}
		var back KernelModel
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%q), written as %s, does not read back: %v", data, b, err)
		}
		b2, err := json.Marshal(&back)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("Unmarshal(%q): written %s, read back and written %s (%v)", data, b, b2, err)
		}
	})
}
