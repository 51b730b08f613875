package perceptron_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/perceptron"
)

// longTrace is a trace of n updates in one dimension through the origin,
// θ_t = t, that keeps both steps of the proof with θ* = 1, γ = 1, η = 1
// and R = 1e4 (growth: t² ≤ (t−1)² + R² while 2t − 1 ≤ 1e8), which
// CheckProof walks in about a quarter of a second per million updates.
func longTrace(n int) []perceptron.Update {
	tr := make([]perceptron.Update, n)
	ws := make([]float64, n)
	for t := range tr {
		ws[t] = float64(t + 1)
		tr[t] = perceptron.Update{Row: 0, X: []float64{1}, Y: 1, W: ws[t : t+1]}
	}
	return tr
}

// CheckProof stops with its Context (doc.go: the theory functions "all
// stop with the Context"): a Context cancelled before the call, or past
// its deadline during a long walk, gives no verdict and an error of
// ErrStopped that matches the context's error. It walked all of a trace of
// millions of updates without looking at the Context.
func TestCheckProofStopsWithContext(t *testing.T) {
	tr := longTrace(2_000_000)
	target := perceptron.Hyperplane{W: []float64{1}}
	opt := perceptron.Options{NoBias: true}
	if v, err := perceptron.CheckProof(tr[:1000], target, 1, 1e4, opt); v != nil || err != nil {
		t.Fatalf("a correct trace: violation %+v, error %v", v, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Control.Context = ctx
	v, err := perceptron.CheckProof(tr, target, 1, 1e4, opt)
	if v != nil || !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the call: violation %+v, error %v; want no verdict and ErrStopped, context.Canceled", v, err)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Millisecond)
	defer cancel()
	opt.Control.Context = ctx
	v, err = perceptron.CheckProof(tr, target, 1, 1e4, opt)
	if v != nil || !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%d updates, a 2 ms deadline: violation %+v, error %v; want no verdict and ErrStopped, context.DeadlineExceeded", len(tr), v, err)
	}
}
