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
// from y). PLA, Pocket, Voted, Averaged, Dual and KernelPerceptron share
// Options. Online steps one point at a time. Dual and KernelPerceptron learn
// mistake counts α instead of w (GramMatrix gives the matrix they learn
// from). OneVsRest turns any binary learner into a multi-class one.
//
// # Options
//
// Options holds the hyper-parameters, and only them: what a run learns
// depends on them and on the data. Its zero value is the default (1000
// epochs, η = 1, rows in order, seed 0, a score of 0 a mistake, a free bias,
// exact sums), so a caller sets only what it changes:
//
//	res, err := perceptron.PLA(d, perceptron.Options{Order: perceptron.Shuffle, Seed: 3})
//
// How a run is watched and stopped is apart, in Options.Control: an
// Observer that sees every update, a Context (the one way to stop a run
// from outside), and the memory budget of the Gram matrix. The theory
// functions take the same Options as the run they speak about: Bound and
// MaxMargin read NoBias (Bound also Eta, to refuse data on which PLA's
// scores underflow), CheckProof reads Eta and NoBias, and all of them
// (and Separable) stop with the Context.
//
// # Models
//
// Every learned binary classifier implements Model: Dim, Score, Predict,
// PredictAll, Errors and ErrorRate, with the tie policy stored in the model.
// A Hyperplane is one; so are the results of PLA (Result), Pocket
// (PocketResult), Averaged (AveragedResult), Dual (DualResult),
// GradientDescent and SGD (GDResult), which embed the Hyperplane they
// learned, and VotedModel and KernelModel, which are not hyperplanes. What a
// run did (updates, epochs, updates per epoch, the row of the last mistake,
// whether a clean pass was reached) is a Stats, embedded in every result of
// the batch learners and of GradientDescent and SGD, so res.Updates and
// res.Converged read alike on all. η follows one rule everywhere (Options,
// GDOptions, Online): 0 means 1, anything else must be finite, > 0 and
// not subnormal (at least 2^-1022).
//
// # Theory
//
// Radius computes R = max ||x||, MaxMargin the hard-margin separator and its
// margin γ, and the convergence theorem bounds the number of updates of PLA on
// separable data by (R/γ)² (Bound). CheckProof walks the trace of a run and
// verifies both steps of the proof at every update; Separable decides linear
// separability with Wolfe's minimum-norm-point algorithm on standardised
// features and returns a certificate either way (Separability: a separator
// whose sign on every row is certified, or convex weights whose combination
// is 0). Norms and margins are overflow-safe.
//
// # Errors and panics
//
// The package follows gonum's policy. Anything that comes from data (NaN,
// ragged rows, labels other than -1/+1, empty data, a wrong dimension, a
// non-positive iteration count, bad options) is reported as an error that
// names the problem and where it is. Kinds of error match with errors.Is:
// ErrEmpty, ErrDimension, ErrOneClass, ErrNonFinite (a NaN or ±Inf in the
// data, the weights or a score), ErrLabel, ErrFormat and ErrClasses
// (reading a file; a *ParseError gives the line and the column), ErrOption,
// ErrModel (a nil, untrained or invalid model), ErrNotSeparable,
// ErrUndecided (Separable, MaxMargin or Bound stopped before an answer, or
// neither answer can be certified) and ErrStopped. Wrapping keeps the kind:
// errors.Is sees through a file's name or a class. All of them are declared
// in errors.go. A NaN score is a mistake under both tie policies,
// never a success. Randomness comes from math/rand/v2 with an explicit
// seed.
//
// A model assembled by hand (or read from a file) is checked whole by its
// Validate method (Hyperplane, VotedModel, KernelModel), and every method
// that scores with a model checks it first: a model whose fields disagree
// (say, fewer survival counts than vectors, or a negative one) is an error
// there, never a panic or a wrong vote. A nil model, including the nil
// result of a learner whose error was ignored, answers every Model method
// with an error. A panic means misuse of the program's own shapes, never
// bad data: an index outside [0, N) of Dataset.Row (as a slice index), or
// two vectors of different lengths given to the Eval of a kernel of the
// package.
package perceptron
