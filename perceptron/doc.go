// Package perceptron is the shared library of the perceptron lesson pack: every
// idea of the course is one documented, tested piece of Go that the notebooks
// and assignments call.
//
// # Data and geometry
//
// A Dataset holds n rows of d features and a label y in {-1, +1} per row.
// A Hyperplane (w, b) scores a point with w·x + b; its decision boundary is
// the set where the score is 0, w is orthogonal to that boundary and points
// into the positive half-space. The signed distance of x to the boundary is
// (w·x + b)/||w||, the margin of a labelled point (x, y) is y(w·x + b)/||w||,
// and the margin of a data set is the smallest margin of its points.
//
// The notational hack folds b into w: x' = [1, x] and θ = [b, w] give
// θ·x' = w·x + b (see Augment and Hyperplane.Theta).
//
// # Algorithms
//
// The perceptron learning algorithm (PLA) updates w ← w + η y x and
// b ← b + η y on every mistake, a point with y(w·x + b) ≤ 0 (or, with the
// TieNegative policy, a point whose sign(w·x + b), with sign(0) = -1, differs
// from y). PLA, Pocket, Voted and Averaged share Options; every one returns
// what it learned and what happened (updates, epochs, updates per epoch, the
// row of the last mistake, whether a clean pass was reached). Online steps one
// point at a time. Dual and KernelPerceptron learn mistake counts α instead of
// w. OneVsRest turns any binary learner into a multi-class one.
//
// # Models
//
// Every learned binary classifier (Hyperplane and the result of every
// learner) implements Model: Dim, Score, Predict, PredictAll, Errors and
// ErrorRate, with the tie policy stored in the model. Save and Load write and
// read a model as JSON (ModelFile), the format of the command line, and
// loading checks it (finite weights, dimensions that agree, a known tie
// policy, no negative vote counts).
//
// # Theory
//
// Radius computes R = max ||x||, MaxMargin the hard-margin separator and its
// margin γ, and the convergence theorem bounds the number of updates of PLA on
// separable data by (R/γ)². CheckProof walks the trace of a run and verifies
// both steps of the proof at every update; Separable decides linear
// separability with Wolfe's minimum-norm-point algorithm on standardised
// features and returns a certificate either way (SeparableContext: a
// separator whose sign on every row is certified, or convex weights whose
// combination is 0). Norms and margins are overflow-safe.
//
// # Errors
//
// Anything that comes from data (NaN, ragged rows, labels other than -1/+1,
// empty data, a wrong dimension, a non-positive iteration count) is reported
// as an error that names the problem and where it is; public functions never
// panic on user data, nor on nil or zero values. Kinds of error match with
// errors.Is: ErrEmpty, ErrDimension, ErrOneClass, ErrNonFinite (a NaN or
// ±Inf in the data, the weights or a score), ErrLabel, ErrFormat and
// ErrClasses (reading a file; a *ParseError gives the line and the column),
// ErrOption, ErrNotSeparable, ErrUndecided (Separable or MaxMargin stopped
// before an answer, or neither answer can be certified) and ErrStopped.
// Wrapping keeps the kind: errors.Is sees through a file's name or a
// class. All of them are declared in errors.go. A NaN
// score is a mistake under both tie policies, never a success. Randomness
// comes from math/rand/v2 with an explicit seed.
package perceptron
