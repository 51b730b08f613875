package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/perceptron-go/lessons/perceptron"
)

// hyper is a hyperplane in JSON.
type hyper struct {
	W []float64 `json:"w"`
	B float64   `json:"b"`
}

// runBound is the bound command: it prints Bound's answer for FILE as JSON.
func runBound(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("bound", flag.ContinueOnError)
	noBias := fs.Bool("no-bias", false, "")
	df := addDataFlags(fs)
	path, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	d, info, err := readData(path, stdin, df)
	if err != nil {
		return err
	}
	b, err := perceptron.Bound(d, perceptron.Options{NoBias: *noBias})
	if err != nil {
		return err
	}
	type boundJSON struct {
		R         float64  `json:"R"`
		Gamma     *float64 `json:"gamma"`
		Bound     *float64 `json:"bound"`
		Separable bool     `json:"separable"`
		Target    *hyper   `json:"target"`
		NoBias    bool     `json:"no_bias"`
		N         int      `json:"n"`
		D         int      `json:"d"`
		Classes   []string `json:"classes"`
		Features  []int    `json:"features"`
	}
	out := boundJSON{R: b.R, Separable: b.Separable, NoBias: *noBias, N: d.N(), D: d.D(),
		Classes: d.Classes[:], Features: info.features}
	if b.Separable {
		out.Gamma, out.Bound = &b.Gamma, &b.Bound
		out.Target = &hyper{W: b.Target.W, B: b.Target.B}
	}
	return writeJSON(stdout, out)
}

// writeJSON prints v indented.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("perceptron: cannot write the result as JSON (are the numbers finite?): %v", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
