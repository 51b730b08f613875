package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/internal/delim"
)

// readModel reads a model file written by train
// and checks it with the library's validation, plus what predict needs to
// read a data file: two classes and the feature columns.
func readModel(path string) (*ModelFile, perceptron.Model, error) {
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

// labelClasses returns the class of a label field for the model's classes:
// -1 for Classes[0], +1 for Classes[1], 0 for neither, compared by exact
// value if both parse as finite numbers, else as strings, as ReadCSV
// compares labels ("1.0" is "1", 2^53 + 1 is not 2^53, "inf", "Inf" and
// "NaN" are names). Each spelling is compared once, as ReadCSV does.
func labelClasses(classes []string) func(label string) float64 {
	seen := map[string]float64{}
	return func(label string) float64 {
		y, ok := seen[label]
		if !ok {
			switch {
			case delim.SameLabel(label, classes[0]):
				y = -1
			case delim.SameLabel(label, classes[1]):
				y = 1
			}
			seen[label] = y
		}
		return y
	}
}

// checkHeader refuses a header (fields, on line) whose feature columns do
// not carry the names of the model's, in its order: a file with a column
// missing, renamed or moved would be read with the wrong values as the
// features (without its last feature column, its label column was taken
// for one, and every row predicted). A model without names (trained on a
// file without a header) is not checked.
func checkHeader(m *ModelFile, fields []string, line int) error {
	if m.FeatureNames == nil {
		return nil
	}
	for k, j := range m.Features {
		want := m.FeatureNames[k]
		if j >= len(fields) {
			return delim.Errorf(delim.Format, line, -1, "the header has %d columns, none for the model's feature %q (column %d): the model was trained with the header's features %s; give the columns of the training file, in its order",
				len(fields), want, j, quoteList(m.FeatureNames))
		}
		if !sameName(fields[j], want) {
			return delim.Errorf(delim.Format, line, j, "the header names column %d %q where the model's feature is %q: the model was trained with the header's features %s in columns %s; a column is missing, renamed or moved (give the columns of the training file, in its order, or name them as the model does, or delete the header line)",
				j, fields[j], want, quoteList(m.FeatureNames), intList(m.Features))
		}
	}
	return nil
}

// trainingHeader reports whether fields, a first line of as many fields as
// the training file's (or one fewer), is the training file's header: its
// feature columns carry the model's feature names (sameName) and its label,
// if it has one, is neither class. A header of numbers ("2019,2020,label",
// trained with --header yes) does not look like one to auto, which read it
// as a data row: a label printed for it, and an error counted.
func trainingHeader(m *ModelFile, fields []string, classOf func(string) float64) bool {
	if m.FeatureNames == nil {
		return false
	}
	for k, j := range m.Features {
		if j >= len(fields) || !sameName(fields[j], m.FeatureNames[k]) {
			return false
		}
	}
	return len(fields) != m.Columns || classOf(fields[m.Columns-1]) == 0
}

// sameName reports whether a header's name is the model's feature name
// up to case and the Unicode spaces around it ("X" for "x", "x\u00a0" from
// a spreadsheet's export): such a header names the same column, where a
// name changed or moved does not (helper-65).
func sameName(got, want string) bool {
	return strings.EqualFold(strings.TrimFunc(got, unicode.IsSpace), strings.TrimFunc(want, unicode.IsSpace))
}

// quoteList quotes and joins names.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// intList joins column numbers.
func intList(cols []int) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = strconv.Itoa(c)
	}
	return strings.Join(q, ",")
}

// numbersAt reports whether every field of fields in the columns cols is a
// number: a line a model reads as data.
func numbersAt(fields []string, cols []int) bool {
	for _, j := range cols {
		if j >= len(fields) || !delim.IsNumber(fields[j]) {
			return false
		}
	}
	return true
}

// sklearnIndex reports whether label is an index of one of n class names,
// as the labels of scikit-learn's layout are (0, 1, … in any spelling of
// the number: "1.0" is 1).
func sklearnIndex(label string, n int) bool {
	v, ok := delim.ParseNumber(label)
	if !ok {
		return false
	}
	_, ok = v.Int(n)
	return ok
}

// runPredict is the predict command: it prints the model file's label for
// every row of FILE, and the error rate (to stderr) when FILE is labelled.
func runPredict(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
	f, path, _, err := openData(path, stdin)
	if err != nil {
		return err
	}
	defer f.Close()
	// The library's reader of delimited text, as train's ReadCSV: the same
	// separators, quotes, byte order mark, compression, and the same checks
	// of every value and label, so predict reads what train accepts.
	in, err := delim.NewReader(f, 0)
	if err != nil {
		return &fileError{path, err}
	}
	// bad is the error of a line that is not data: in a gzip input, the
	// damaged stream's error when the stream is damaged (Damaged reads
	// its rest), since that is what made the line wrong.
	bad := func(err error) error {
		if d := in.Damaged(err); d != nil {
			return &fileError{path, d}
		}
		return &fileError{path, err}
	}
	var (
		labelled       bool
		x              = make([]float64, len(m.W))
		out            strings.Builder // printed only if every line is good
		rows, other, e int
		firstLine      int // the first data line and its number of fields
		firstCols      int
		sklearnRows    int // n_samples of a scikit-learn first line, skipped
		sklearnLine    int
		sklearnK       int // the number of its class names
		classOf        = labelClasses(m.Classes)
	)
	for first := true; ; first = false {
		rec, ok, err := in.Next()
		if err != nil {
			return bad(err)
		}
		if !ok {
			break
		}
		line, fields := rec.Line, rec.Fields
		if first {
			switch mode {
			case perceptron.HeaderYes:
				if err := checkHeader(m, fields, line); err != nil {
					return &fileError{path, err}
				}
				continue
			case perceptron.HeaderAuto:
				// scikit-learn's first line, if the next line's label
				// is an index of its class names, as its labels are:
				// a data row "5,3,foo,pos" before a row labelled "neg"
				// is data.
				if n, names, ok := sklearnNames(fields, m.Columns); ok {
					next, ok, err := in.Peek()
					if err != nil {
						return bad(err)
					}
					// A features-only row (no label to index) follows the
					// line too: as data, the line's names would not parse
					// as features. A model that reads none of them
					// (--features 0,1 of "3,4,red,blue") and was not
					// trained on that layout (no class_names) reads such
					// a line as data: it was dropped, 3 labels for 4 rows.
					if ok && (len(next.Fields) == m.Columns && sklearnIndex(next.Fields[m.Columns-1], len(names)) ||
						len(next.Fields) == m.Columns-1 && (m.ClassNames != nil || !numbersAt(fields, m.Features))) {
						sklearnRows, sklearnLine, sklearnK = n, line, len(names)
						continue
					}
				}
				if (len(fields) == m.Columns || len(fields) == m.Columns-1) && (perceptron.LooksLikeHeader(fields, m.Features) || trainingHeader(m, fields, classOf)) {
					if err := checkHeader(m, fields, line); err != nil {
						return &fileError{path, err}
					}
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
				want := fmt.Sprintf("the model wants %d (features and label, as in training) or %d (features only)", m.Columns, m.Columns-1)
				if d := in.Damaged(delim.Errorf(delim.Format, line, -1, "%d fields; %s", len(fields), want)); d != nil {
					return &fileError{path, d}
				}
				return fmt.Errorf("perceptron: %s: line %d has %d fields; %s", path, line, len(fields), want)
			}
			firstLine, firstCols = line, len(fields)
		} else if len(fields) != firstCols {
			return bad(delim.FieldCount(line, len(fields), firstCols, firstLine))
		}
		y := 0.0 // the row's class: -1 or +1, 0 for a label of neither
		if labelled {
			label := fields[m.Columns-1]
			y = classOf(label)
			check := in.CheckLabel
			if y != 0 {
				// One of the model's classes ("5;a", from a training file
				// that was not comma-separated) is a label, whatever the
				// decimal-comma rule guesses.
				check = delim.CheckLabel
			}
			if err := check(label, line, m.Columns-1); err != nil {
				return bad(err)
			}
			if sklearnRows > 0 && !sklearnIndex(label, sklearnK) {
				return bad(delim.Errorf(delim.Label, line, m.Columns-1, "the label %q is not an index 0..%d of the %d class names of line %d (scikit-learn's n_samples,n_features,names), as the labels of that layout are (if line %d is data, use --header no)",
					label, sklearnK-1, sklearnK, sklearnLine, sklearnLine))
			}
			if !utf8.ValidString(label) {
				return bad(delim.Errorf(delim.Format, line, m.Columns-1,
					"the label %q is not UTF-8 text: the model's classes (%q, %q) are text; save the file as UTF-8", label, m.Classes[0], m.Classes[1]))
			}
		}
		for k, j := range m.Features {
			v, err := delim.Float(fields[j], line, j)
			if err != nil {
				return bad(err)
			}
			x[k] = v
		}
		rows++
		p, err := learned.Predict(x)
		if errors.Is(err, perceptron.ErrNonFinite) {
			// x is finite and the model was checked on load: the score overflowed.
			return bad(delim.Errorf(delim.NonFinite, line, -1, "the score w·x + b is not a number: the model's weights times this row overflow"))
		}
		if err != nil {
			return err
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
			// Every labelled row is scored: a label that is neither class
			// of the model (a third class of the file) is an error of the
			// model on that row, as a wrong class is.
			if y == 0 {
				other++
			}
			if p != y || y == 0 {
				e++
			}
		}
	}
	if rows == 0 {
		return fmt.Errorf("perceptron: %s: empty data: no rows", path)
	}
	if sklearnRows > 0 && rows != sklearnRows {
		// As train: a data row that looks like scikit-learn's first line
		// must not be dropped unseen.
		return &fileError{path, fmt.Errorf("line %d says %d rows (scikit-learn's n_samples,n_features,names), the file has %d: it is cut short or not in that layout (if line %d is data, use --header no)", sklearnLine, sklearnRows, rows, sklearnLine)}
	}
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		return fmt.Errorf("perceptron: writing the predictions: %w", err)
	}
	if labelled {
		// The error rate is a report of the command as the labels are: a
		// failed write of it (a full disk, a closed pipe) is an error, exit
		// status 1, not a success with no rate.
		var rate strings.Builder
		fmt.Fprintf(&rate, "error rate: %d of %d rows = %g", e, rows, float64(e)/float64(rows))
		if other > 0 {
			have := "rows have"
			if other == 1 {
				have = "row has"
			}
			fmt.Fprintf(&rate, " (%d %s a label that is neither %q nor %q: each is an error)", other, have, m.Classes[0], m.Classes[1])
		}
		rate.WriteString("\n")
		if _, err := io.WriteString(stderr, rate.String()); err != nil {
			return fmt.Errorf("perceptron: writing the error rate: %w", err)
		}
	}
	return nil
}
