package perceptron

import (
	"errors"
	"fmt"
)

// The kinds of error the package returns, to be matched with errors.Is.
// ErrEmpty and ErrNotSeparable are declared beside the functions that
// return them. An error of one of these kinds says, in its message, what
// was wrong and where (the row, the column, the epoch); errors.Is tells
// only its kind.
var (
	// ErrDimension: a point, a data set or a model has a number of features
	// other than the one expected.
	ErrDimension = errors.New("perceptron: wrong dimension")
	// ErrOneClass: the data holds one class where two are needed.
	ErrOneClass = errors.New("perceptron: one class only")
	// ErrNonFinite: a value in the data, or a weight or a score computed
	// from it, is NaN or ±Inf. A learner whose arithmetic overflows
	// returns it instead of reporting success.
	ErrNonFinite = errors.New("perceptron: not a finite number")
	// ErrStopped: a run was stopped by its context or deadline before it
	// ended on its own; the partial result is returned with it.
	ErrStopped = errors.New("perceptron: stopped")
)

// kindError is an error of one of the kinds above with its own message.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Unwrap() error { return e.kind }

// kindErrorf returns an error whose message starts with the package name,
// as errorf's does, and that matches kind with errors.Is.
func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: "perceptron: " + fmt.Sprintf(format, args...)}
}
