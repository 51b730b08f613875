package main

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// parseFlags parses args with fs, allowing flags after the file name, and
// returns the positional arguments (want of them: the command's FILE).
func parseFlags(fs *flag.FlagSet, args []string, want int) ([]string, error) {
	fs.SetOutput(io.Discard)
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

// parseFile is parseFlags for a command that takes one FILE.
func parseFile(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return "", err
	}
	return pos[0], nil
}
