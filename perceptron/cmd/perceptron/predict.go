package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

// readModel reads a model file written by train
// and checks it with the library's validation, plus what predict needs to
// read a data file: two classes and the feature columns.
func readModel(path string) (*model, perceptron.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	bad := func(err error) error {
		msg := strings.TrimPrefix(err.Error(), "perceptron: ")
		msg = strings.TrimPrefix(msg, "model: ")
		msg = strings.TrimPrefix(msg, "not a model file: ")
		return fmt.Errorf("perceptron: model %s: %s", path, msg)
	}
	m, err := readModelFile(f)
	if err != nil {
		return nil, nil, bad(err)
	}
	switch {
	case len(m.Classes) != 2:
		return nil, nil, bad(fmt.Errorf("want two classes, got %d", len(m.Classes)))
	case m.Features == nil:
		return nil, nil, bad(errors.New("no feature columns \"features\""))
	}
	learned, err := m.Model()
	if err != nil {
		return nil, nil, bad(err)
	}
	return m, learned, nil
}

// sameLabel reports whether the label field s names the class c: as
// numbers if both parse as numbers, else as strings.
func sameLabel(s, c string) bool {
	a, err1 := strconv.ParseFloat(s, 64)
	b, err2 := strconv.ParseFloat(c, 64)
	if err1 == nil && err2 == nil {
		return a == b
	}
	return s == c
}

func predict(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	modelPath := fs.String("model", "", "")
	header := fs.String("header", "auto", "")
	path, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" {
		return usagef("predict: missing --model MODEL.json")
	}
	mode, err := parseHeader(*header)
	if err != nil {
		return err
	}
	m, learned, err := readModel(*modelPath)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var (
		split           func(string) []string
		labelled        bool
		x               = make([]float64, len(m.W))
		out             strings.Builder // printed only if every line is good
		rows, scored, e int
		firstLine       int // the first data line and its number of fields
		firstCols       int
	)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		first := split == nil
		if first {
			split = splitter(s)
		}
		fields := split(s)
		if first {
			switch mode {
			case perceptron.HeaderYes:
				continue
			case perceptron.HeaderAuto:
				if _, ok := sklearnNames(fields, m.Columns); ok {
					continue
				}
				if (len(fields) == m.Columns || len(fields) == m.Columns-1) && perceptron.LooksLikeHeader(fields, m.Features) {
					continue
				}
			}
		}
		if rows == 0 {
			switch len(fields) {
			case m.Columns:
				labelled = true
			case m.Columns - 1:
			default:
				return fmt.Errorf("perceptron: %s: line %d has %d fields; the model wants %d (features and label, as in training) or %d (features only)",
					path, line, len(fields), m.Columns, m.Columns-1)
			}
			firstLine, firstCols = line, len(fields)
		} else if len(fields) != firstCols {
			return fmt.Errorf("perceptron: %s: line %d: %d fields, expected %d (as on line %d)", path, line, len(fields), firstCols, firstLine)
		}
		for k, j := range m.Features {
			v, err := strconv.ParseFloat(fields[j], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("perceptron: %s: line %d, column %d: %q is not a finite number", path, line, j, fields[j])
			}
			x[k] = v
		}
		rows++
		p, err := learned.Predict(x)
		if err != nil {
			return fmt.Errorf("perceptron: %s: line %d: %s", path, line, strings.TrimPrefix(err.Error(), "perceptron: "))
		}
		name := "?"
		switch p {
		case -1:
			name = m.Classes[0]
		case 1:
			name = m.Classes[1]
		}
		out.WriteString(name + "\n")
		if labelled {
			label := fields[m.Columns-1]
			var y float64
			switch {
			case sameLabel(label, m.Classes[0]):
				y = -1
			case sameLabel(label, m.Classes[1]):
				y = 1
			default:
				continue
			}
			scored++
			if p != y {
				e++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("perceptron: %s: %v", path, err)
	}
	if rows == 0 {
		return fmt.Errorf("perceptron: %s: empty data: no rows", path)
	}
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		return err
	}
	if labelled {
		if scored == 0 {
			fmt.Fprintf(stderr, "error rate: no row has label %q or %q\n", m.Classes[0], m.Classes[1])
		} else {
			fmt.Fprintf(stderr, "error rate: %d of %d rows = %g", e, scored, float64(e)/float64(scored))
			if scored < rows {
				fmt.Fprintf(stderr, " (%d rows with other labels not scored)", rows-scored)
			}
			fmt.Fprintln(stderr)
		}
	}
	return nil
}
