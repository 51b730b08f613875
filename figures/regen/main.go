// Command regen rewrites the figures of the lesson pack:
//
//	go run ./figures/regen             # every figure into ./figures
//	go run ./figures/regen -out DIR    # somewhere else
//	go run ./figures/regen -only NAME  # one figure (its file name)
//
// Run it from the repository root.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perceptron-go/lessons/figures"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("regen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "figures", "folder to write the figures into")
	only := fs.String("only", "", "write only this figure (its file name)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	todo := figures.All()
	if *only != "" {
		f, err := figures.Lookup(*only)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		todo = []figures.Figure{f}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "regen: %v\n", err)
		return 1
	}
	for _, f := range todo {
		b, err := f.Make()
		if err != nil {
			fmt.Fprintf(stderr, "regen: %s: %v\n", f.Name, err)
			return 1
		}
		path := filepath.Join(*out, f.Name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			fmt.Fprintf(stderr, "regen: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, path)
	}
	return 0
}
