package main

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// parseFlags parses args with fs, allowing flags after the file name, and
// returns the positional arguments (want of them: the command's FILE). A
// "--" ends the flags, as in every Unix command: what follows it is
// positional, a file named "-x.csv" too (the flags after the file name
// were parsed past it: "train -- a.csv --algo voted" trained voted,
// helper-68).
func parseFlags(fs *flag.FlagSet, args []string, want int) ([]string, error) {
	fs.SetOutput(io.Discard)
	args, after := splitAtDashes(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	pos = append(pos, after...)
	switch {
	case len(pos) == want:
		return pos, nil
	case want == 0:
		return nil, usagef("%s: takes no arguments, got %s", fs.Name(), strings.Join(pos, " "))
	case len(pos) == 0:
		return nil, usagef("%s: missing FILE", fs.Name())
	}
	return nil, usagef("%s: want one FILE, got %d: %s", fs.Name(), len(pos), strings.Join(pos, " "))
}

// splitAtDashes returns args before the first "--" that ends the flags
// (not the value of a flag, as in "--model --"), and what follows it.
func splitAtDashes(fs *flag.FlagSet, args []string) (flags, after []string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return args[:i], args[i+1:]
		case takesValue(fs, a):
			i++ // its value, whatever it is
		}
	}
	return args, nil
}

// takesValue reports whether a is a flag of fs written without "=" whose
// value is the next argument (a flag that is not a boolean).
func takesValue(fs *flag.FlagSet, a string) bool {
	if len(a) < 2 || a[0] != '-' || strings.Contains(a, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(a[1:], "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// parseFile is parseFlags for a command that takes one FILE.
func parseFile(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return "", err
	}
	return pos[0], nil
}
