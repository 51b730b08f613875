package perceptron

import (
	"context"
	"errors"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// MaxMinNormIterations caps the major iterations of the minimum-norm-point
// algorithm behind Separable, MaxMargin and Bound. Each adds one vertex, and
// on every data set of the package it ends within a few hundred; the cap
// turns a run that rounding keeps from ending into an ErrUndecided error.
const MaxMinNormIterations = 100000

// minNormPoint runs Wolfe's minimum-norm-point algorithm (package
// internal/minnorm) with the package's iteration cap, and gives its errors
// their kinds: the cap and a done ctx are ErrUndecided (the latter also
// ErrStopped and ctx.Err()).
func minNormPoint(ctx context.Context, dim int, scale float64, oracle func(x []float64) (int64, []float64)) (minnorm.Result, error) {
	res, err := minnorm.Point(ctx, dim, scale, oracle, MaxMinNormIterations)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, minnorm.ErrIterations):
		return minnorm.Result{}, kindErrorf(ErrUndecided, "%v", err)
	case ctx.Err() != nil:
		return minnorm.Result{}, causeErrorf([]error{ErrUndecided, ErrStopped, ctx.Err()}, "%v", err)
	}
	return minnorm.Result{}, err
}

// unitMinNorm runs Wolfe's algorithm with the oracle and returns its
// minimum-norm point u scaled to unit length (and Wolfe's result, whose
// corral MaxMargin's certificate reads), ErrNotSeparable when u is 0
// (||u|| ≤ 1e-12 of the largest vertex norm: the origin is in the hull), or
// an ErrUndecided error.
func unitMinNorm(ctx context.Context, dim int, scale float64, oracle func([]float64) (int64, []float64)) ([]float64, minnorm.Result, error) {
	res, err := minNormPoint(ctx, dim, scale, oracle)
	if err != nil {
		return nil, res, err
	}
	if res.Status == minnorm.Zero {
		return nil, res, ErrNotSeparable
	}
	nu := norm2(res.X)
	w := make([]float64, dim)
	for j := range w {
		w[j] = res.X[j] / nu
	}
	return w, res, nil
}
