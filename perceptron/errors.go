package perceptron

import (
	"errors"
	"fmt"
	"strings"

	"github.com/perceptron-go/lessons/perceptron/internal/delim"
)

// The kinds of error the package returns, to be matched with errors.Is. An
// error of one of these kinds says, in its message, what was wrong and
// where (the file, the line, the column, the row, the epoch); errors.Is
// tells its kind. Every error that wraps another (a file's name before a
// parse error, a class before a learner's error) keeps the kinds of the one
// it wraps.
var (
	// ErrEmpty is returned for a data set without rows or without features.
	ErrEmpty = errors.New("perceptron: empty data: no rows")
	// ErrDimension: a point, a data set or a model has a number of features
	// other than the one expected.
	ErrDimension = errors.New("perceptron: wrong dimension")
	// ErrOneClass: the data holds one class where two are needed (the
	// theory functions, a label column that names one class).
	ErrOneClass = errors.New("perceptron: one class only")
	// ErrNonFinite: a value in the data, or a weight or a score computed
	// from it, is NaN or ±Inf. A learner whose arithmetic overflows
	// returns it instead of reporting success.
	ErrNonFinite = errors.New("perceptron: not a finite number")
	// ErrLabel: a label is missing or is not a class: a label other than
	// -1 or +1 in a Dataset, or an empty, missing-value ("?", "NA", …) or
	// NaN label in a file.
	ErrLabel = errors.New("perceptron: bad label")
	// ErrFormat: a file is not delimited text as ReadCSV reads it: a line
	// with another number of fields, a value that is not a number, a line
	// too long, a compressed or binary file. A *ParseError (errors.As)
	// gives the line and the column.
	ErrFormat = errors.New("perceptron: malformed data")
	// ErrClasses: the classes asked for are not in the data (CSVOptions.Classes,
	// MultiDataset.Class and Binary, OneVsRest with fewer than two classes or
	// a class without rows), or a binary read finds more than two labels.
	ErrClasses = errors.New("perceptron: classes do not match the labels")
	// ErrOption: an option or argument has a value that cannot be used
	// whatever the data: a CSVOptions field, GDOptions' Eta or Steps, a
	// generator's n, margin or noise, a split's fraction, a feature index,
	// CheckProof's γ, R or η, a tie policy, an Options field or order name.
	ErrOption = errors.New("perceptron: bad option")
	// ErrModel: a model cannot score: it is nil or not trained (a zero
	// value), or a hand-built or loaded one fails its Validate (a negative
	// count or alpha, a bad η).
	ErrModel = errors.New("perceptron: no usable model")
	// ErrStopped: a run was stopped by its context or deadline before it
	// ended on its own; the partial result is returned with it.
	ErrStopped = errors.New("perceptron: stopped")
	// ErrNotSeparable is returned by MaxMargin when no hyperplane (through
	// the origin with noBias) has every point strictly on its correct side.
	ErrNotSeparable = errors.New("perceptron: data is not linearly separable")
	// ErrUndecided is the kind of error of Separable, MaxMargin and Bound
	// when they stop before they can answer: after MaxMinNormIterations
	// iterations, when their context is done, or when rounding leaves no
	// answer they can certify either way; and of Bound, returned with its
	// result, on data so small that PLA's scores underflow (see Bound).
	// The message says which; an error
	// from a context also matches ErrStopped and the context's error
	// (context.Canceled or context.DeadlineExceeded) with errors.Is.
	ErrUndecided = errors.New("perceptron: undecided")
)

// ParseError is the error of delimited text that ReadCSV, ReadMultiCSV,
// ReadCSVFile and the command line cannot read. Get it with errors.As; its
// kind matches with errors.Is.
type ParseError struct {
	// Path is the file, when the text was read from one.
	Path string
	// Line is the 1-based line, 0 when the error is about no one line.
	Line int
	// Column is the 0-based column, -1 when the error is about no one field.
	Column int
	// Kind is ErrFormat, ErrNonFinite, ErrLabel or ErrEmpty.
	Kind error
	// Msg says what is wrong.
	Msg string
}

// Error returns "perceptron: PATH: line L, column C: MSG", without the
// parts that are not known.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("perceptron: ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	switch {
	case e.Line > 0 && e.Column >= 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the kind.
func (e *ParseError) Unwrap() error { return e.Kind }

// parseError converts an error of the delimited-text reader into a
// *ParseError; any other error is the reader's read error, which says
// "reading: …" itself, kept as is (wrapped again it said "reading: reading:
// read /tmp: is a directory", helper-70).
func parseError(err error) error {
	var de *delim.Error
	if !errors.As(err, &de) {
		return &kindError{kinds: []error{err}, msg: "perceptron: " + err.Error()}
	}
	kind := ErrFormat
	switch de.Kind {
	case delim.NonFinite:
		kind = ErrNonFinite
	case delim.Label:
		kind = ErrLabel
	case delim.Empty:
		kind = ErrEmpty
	}
	return &ParseError{Line: de.Line, Column: de.Column, Kind: kind, Msg: de.Msg}
}

// kindError is the package's one error type: a message and the kinds (and
// causes) it matches with errors.Is and errors.As.
type kindError struct {
	msg   string
	kinds []error
}

func (e *kindError) Error() string   { return e.msg }
func (e *kindError) Unwrap() []error { return e.kinds }

// errorf returns an error whose message starts with the package name.
func errorf(format string, args ...any) error {
	return fmt.Errorf("perceptron: "+format, args...)
}

// kindErrorf returns an error whose message starts with the package name,
// as errorf's does, and that matches kind (and any further causes) with
// errors.Is.
func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kinds: []error{kind}, msg: "perceptron: " + fmt.Sprintf(format, args...)}
}

// causeErrorf is kindErrorf matching several kinds and causes.
func causeErrorf(kinds []error, format string, args ...any) error {
	return &kindError{kinds: kinds, msg: "perceptron: " + fmt.Sprintf(format, args...)}
}

// wrapf returns err prefixed with where it happened ("file.csv", "class 2
// (virginica)"): the message is "perceptron: PREFIX: MESSAGE" with err's
// message without its own "perceptron: ", and err is unwrapped by errors.Is
// and errors.As, so that its kind is kept.
func wrapf(err error, format string, args ...any) error {
	msg := strings.TrimPrefix(err.Error(), "perceptron: ")
	return &kindError{kinds: []error{err}, msg: "perceptron: " + fmt.Sprintf(format, args...) + ": " + msg}
}

// modelError returns err, a model's Validate error, so that it also
// matches ErrModel (as ErrModel's doc says of a model that fails its
// Validate), beside its own kinds; nil stays nil.
func modelError(err error) error {
	if err == nil || errors.Is(err, ErrModel) {
		return err
	}
	return &kindError{msg: err.Error(), kinds: []error{ErrModel, err}}
}
