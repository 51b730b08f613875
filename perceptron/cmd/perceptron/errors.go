package main

import (
	"errors"
	"fmt"
)

// The errors of the command: a bad command line (usageError, exit status
// 2), and bad data (fileError, kindError: exit status 1).

// usageError is a bad command line (exit status 2); any other error is bad
// data (exit status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// errHelp is returned by parseFlags for -h, -help or --help: the command's
// usage goes to stdout with exit status 0.
var errHelp = errors.New("help requested")

// fileError is an error of the reader of delimited text in a file: it
// prints as the library's errors do, "perceptron: FILE: line L, column C:
// what", and unwraps to the *delim.Error.
type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string { return "perceptron: " + e.path + ": " + e.err.Error() }

func (e *fileError) Unwrap() error { return e.err }

// kindError is an error of one of the library's kinds (ErrDimension,
// ErrNonFinite) with its own message.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Unwrap() error { return e.kind }

// kindErrorf returns an error that matches kind with errors.Is.
func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: "perceptron: " + fmt.Sprintf(format, args...)}
}
