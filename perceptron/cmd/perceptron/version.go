package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// runVersion prints the module version and the Go version.
func runVersion(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if _, err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	_, err := io.WriteString(stdout, versionText(bi))
	return err
}

// versionText formats the build information: the main module's path and
// version ("(devel)" when built from a checkout with go build or go run;
// the tag or pseudo-version when installed with go install MODULE@VERSION),
// the commit and whether the tree was modified when the build recorded
// them, and the Go version.
func versionText(bi *debug.BuildInfo) string {
	if bi == nil {
		return fmt.Sprintf("perceptron: version unknown (no build information)\ngo: %s\n", runtime.Version())
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	path := bi.Main.Path
	if path == "" {
		path = "github.com/perceptron-go/lessons"
	}
	s := fmt.Sprintf("perceptron: %s %s", path, v)
	var rev, modified string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			modified = kv.Value
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += ", commit " + rev
		if modified == "true" {
			s += " (modified)"
		}
	}
	goVersion := bi.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	return s + "\ngo: " + goVersion + "\n"
}
