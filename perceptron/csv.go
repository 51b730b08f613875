package perceptron

import (
	"bufio"
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// HeaderMode says whether the first line of a CSV file names the columns.
type HeaderMode int

const (
	// HeaderAuto takes the first line as a header when one of its feature
	// fields does not parse as a number, or when its label field does not
	// parse as a number while the label of every other line does (so that a
	// header such as "x1 x2 y" is found, and so is data labelled "setosa").
	HeaderAuto HeaderMode = iota
	// HeaderYes takes the first line as a header.
	HeaderYes
	// HeaderNo reads the first line as data.
	HeaderNo
)

// CSVOptions say how ReadCSV and ReadMultiCSV read a table. The zero value
// reads comma- or whitespace-separated values, detects a header, takes every
// column but the last as a feature and the last column as the label.
type CSVOptions struct {
	// Header says whether the first line is a header.
	Header HeaderMode
	// Features lists the 0-based columns used as features, in the order
	// given; nil means every column but the last. The columns not listed
	// are not parsed. The label column is always the last one.
	Features []int
	// Classes chooses the labels. For ReadCSV, nil requires the label
	// column to hold exactly two distinct values, the smaller mapped to -1
	// and the larger to +1 (compared as numbers when both parse as numbers,
	// else as strings), as scikit-learn orders its classes; two values
	// map the first to -1 and the second to +1 and drop the rows with any
	// other label. For ReadMultiCSV, nil takes every label value, sorted the
	// same way; otherwise the values listed become classes 0, 1, … and the
	// rows with any other label are dropped. Labels that parse as numbers
	// are compared as numbers, so "1", "+1" and "1.0" are one class.
	Classes []string
	// Comma separates the fields. 0 detects it: ',' if the first non-blank
	// line holds a comma, else runs of spaces and tabs. ' ' or '\t' also
	// mean runs of spaces and tabs. Quoting is not supported, but a field
	// wrapped in double quotes loses them.
	Comma rune
}

// maxLine is the longest line ReadCSV accepts.
const maxLine = 16 << 20

// csvTable is a parsed file before the labels are mapped: the header (nil if
// none), the data lines with their 1-based line numbers, and the number of
// fields per line.
type csvTable struct {
	header []string
	rows   [][]string
	lines  []int
	ncol   int
	feats  []int
}

// ReadCSV reads a binary classification data set from r: one point per
// line, the features in the columns chosen by opt.Features and the label in
// the last column, mapped to -1 and +1 as opt.Classes says. It reads
// scikit-learn style CSV files and the whitespace-separated files of the NTU
// Machine Learning Foundations homework ("x1 x2 x3 x4 y", labels 1 and -1)
// alike. Blank lines and trailing spaces, tabs and carriage returns are
// ignored. The header, if any, names the features (Dataset.Features) and the
// label strings name the classes (Dataset.Classes).
//
// Errors name the line (1-based) and the column (0-based): a line with
// another number of fields than the first data line, a value that does not
// parse as a number, NaN or ±Inf, a bad opt.Features or opt.Classes, and a
// label column without exactly two values when opt.Classes is nil.
func ReadCSV(r io.Reader, opt CSVOptions) (*Dataset, error) {
	if opt.Classes != nil && len(opt.Classes) != 2 {
		return nil, errorf("Classes must name exactly 2 labels, got %d", len(opt.Classes))
	}
	t, err := readTable(r, opt)
	if err != nil {
		return nil, err
	}
	classes, err := t.classes(opt.Classes, true)
	if err != nil {
		return nil, err
	}
	x, labels, err := t.parse(classes)
	if err != nil {
		return nil, err
	}
	y := make([]float64, len(labels))
	for i, c := range labels {
		y[i] = float64(2*c - 1)
	}
	return &Dataset{X: x, Y: y, Features: t.featureNames(),
		Classes: [2]string{classes[0].name, classes[1].name}}, nil
}

// ReadMultiCSV reads a multi-class data set from r as ReadCSV does, but
// keeps every label value as a class: the values, sorted as numbers if they
// all parse as numbers and as strings otherwise (or in the order of
// opt.Classes), become the classes 0, 1, …, k-1, and ClassNames holds them
// as written in the file (or in opt.Classes). At least two classes are
// required.
func ReadMultiCSV(r io.Reader, opt CSVOptions) (*MultiDataset, error) {
	if opt.Classes != nil && len(opt.Classes) < 2 {
		return nil, errorf("Classes must name at least 2 labels, got %d", len(opt.Classes))
	}
	t, err := readTable(r, opt)
	if err != nil {
		return nil, err
	}
	classes, err := t.classes(opt.Classes, false)
	if err != nil {
		return nil, err
	}
	x, labels, err := t.parse(classes)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(classes))
	for i, c := range classes {
		names[i] = c.name
	}
	return &MultiDataset{X: x, Labels: labels, Features: t.featureNames(), ClassNames: names}, nil
}

// ReadCSVFile opens the file at path and reads it with ReadCSV. Errors about
// the content name the file.
func ReadCSVFile(path string, opt CSVOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%w", err)
	}
	defer f.Close()
	d, err := ReadCSV(f, opt)
	if err != nil {
		return nil, errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	return d, nil
}

// splitter returns the function that splits a line into fields.
func csvSplitter(comma rune, first string) (func(string) []string, error) {
	if comma == 0 {
		if strings.ContainsRune(first, ',') {
			comma = ','
		} else {
			comma = ' '
		}
	}
	switch comma {
	case ' ', '\t':
		return strings.Fields, nil
	case '\n', '\r', '"', 0xFFFD:
		return nil, errorf("invalid Comma %q", comma)
	}
	sep := string(comma)
	return func(s string) []string {
		f := strings.Split(s, sep)
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f
	}, nil
}

// unquote removes one pair of surrounding double quotes.
func csvUnquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// readTable splits r into fields, checks the field counts and the feature
// columns, and separates the header.
func readTable(r io.Reader, opt CSVOptions) (*csvTable, error) {
	if opt.Header < HeaderAuto || opt.Header > HeaderNo {
		return nil, errorf("unknown header mode %d: want HeaderAuto, HeaderYes or HeaderNo", int(opt.Header))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var (
		split func(string) []string
		t     = &csvTable{}
		all   [][]string
		lines []int
	)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimRight(sc.Text(), " \t\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		if split == nil {
			var err error
			if split, err = csvSplitter(opt.Comma, s); err != nil {
				return nil, err
			}
		}
		f := split(s)
		for i := range f {
			f[i] = csvUnquote(f[i])
		}
		all = append(all, f)
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, errorf("line %d: longer than %d bytes", len(lines)+1, maxLine)
		}
		return nil, errorf("reading: %w", err)
	}
	if len(all) == 0 {
		return nil, errorf("empty input: no lines with data")
	}
	// The first data line sets the number of fields; a header must agree.
	ref := 0
	if len(all) > 1 && opt.Header != HeaderNo {
		ref = 1
	}
	for i, f := range all {
		if len(f) != len(all[ref]) {
			return nil, errorf("line %d: %d fields, expected %d (as on line %d)", lines[i], len(f), len(all[ref]), lines[ref])
		}
	}
	t.ncol = len(all[0])
	if t.ncol < 2 {
		return nil, errorf("line %d: 1 field, need at least 2 (features, then the label)", lines[0])
	}
	if err := t.setFeatures(opt.Features); err != nil {
		return nil, err
	}
	if t.isHeader(opt.Header, all) {
		t.header = all[0]
		if len(all) == 1 {
			return nil, errorf("empty input: no data lines after the header on line %d", lines[0])
		}
		all, lines = all[1:], lines[1:]
	}
	t.rows, t.lines = all, lines
	return t, nil
}

// setFeatures checks the chosen feature columns.
func (t *csvTable) setFeatures(feats []int) error {
	label := t.ncol - 1
	if feats == nil {
		t.feats = make([]int, label)
		for j := range t.feats {
			t.feats[j] = j
		}
		return nil
	}
	if len(feats) == 0 {
		return errorf("Features is empty: list at least one column, or nil for all but the last")
	}
	seen := make(map[int]bool, len(feats))
	for _, j := range feats {
		switch {
		case j < 0 || j > label:
			return errorf("feature column %d out of range: the file has %d columns, 0..%d may be features", j, t.ncol, label-1)
		case j == label:
			return errorf("feature column %d is the label column", j)
		case seen[j]:
			return errorf("feature column %d repeated", j)
		}
		seen[j] = true
	}
	t.feats = slices.Clone(feats)
	return nil
}

// isNumber reports whether s parses as a float64 (NaN and ±Inf included).
func csvIsNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// isHeader decides whether the first line is a header.
func (t *csvTable) isHeader(mode HeaderMode, all [][]string) bool {
	switch mode {
	case HeaderYes:
		return true
	case HeaderNo:
		return false
	}
	first := all[0]
	for _, j := range t.feats {
		if !csvIsNumber(first[j]) {
			return true
		}
	}
	label := t.ncol - 1
	if csvIsNumber(first[label]) || len(all) == 1 {
		return false
	}
	for _, f := range all[1:] {
		if !csvIsNumber(f[label]) {
			return false
		}
	}
	return true
}

// featureNames returns the header names of the chosen columns, or nil.
func (t *csvTable) featureNames() []string {
	if t.header == nil {
		return nil
	}
	names := make([]string, len(t.feats))
	for k, j := range t.feats {
		names[k] = t.header[j]
	}
	return names
}

// csvClass is one label value: its name as written and the key that compares
// labels (the canonical number for numeric labels, else the string).
type csvClass struct {
	name    string
	key     string
	value   float64
	numeric bool
}

// newClass canonicalises a label.
func newCSVClass(s string) csvClass {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		if v == 0 {
			v = 0 // -0 and 0 are one label.
		}
		return csvClass{name: s, key: "#" + strconv.FormatFloat(v, 'g', -1, 64), value: v, numeric: true}
	}
	return csvClass{name: s, key: "$" + s}
}

// classes returns the classes in label order: chosen (in that order, which
// must all be found) or every distinct value sorted. binary requires
// exactly two values when chosen is nil.
func (t *csvTable) classes(chosen []string, binary bool) ([]csvClass, error) {
	label := t.ncol - 1
	found := map[string]csvClass{}
	var order []csvClass
	for _, f := range t.rows {
		c := newCSVClass(f[label])
		if _, ok := found[c.key]; !ok {
			found[c.key] = c
			order = append(order, c)
		}
	}
	if chosen != nil {
		out := make([]csvClass, len(chosen))
		for i, s := range chosen {
			c := newCSVClass(s)
			for _, p := range out[:i] {
				if p.key == c.key {
					return nil, errorf("Classes %q and %q name the same label", p.name, s)
				}
			}
			if _, ok := found[c.key]; !ok {
				return nil, errorf("class %q not found in the label column (column %d); its values are %s", s, label, csvClassList(sortCSVClasses(order)))
			}
			out[i] = c
		}
		return out, nil
	}
	order = sortCSVClasses(order)
	switch {
	case len(order) == 1:
		return nil, errorf("only one label value %q in column %d: need two classes", order[0].name, label)
	case binary && len(order) > 2:
		return nil, errorf("%d label values in column %d (%s): set CSVOptions.Classes to choose two", len(order), label, csvClassList(order))
	}
	return order, nil
}

// sortClasses sorts by number if every class is numeric, else by name.
func sortCSVClasses(cs []csvClass) []csvClass {
	numeric := true
	for _, c := range cs {
		numeric = numeric && c.numeric
	}
	slices.SortStableFunc(cs, func(a, b csvClass) int {
		if numeric {
			switch {
			case a.value < b.value:
				return -1
			case a.value > b.value:
				return 1
			}
			return 0
		}
		return strings.Compare(a.name, b.name)
	})
	return cs
}

// classList quotes and joins class names.
func csvClassList(cs []csvClass) string {
	q := make([]string, len(cs))
	for i, c := range cs {
		q[i] = strconv.Quote(c.name)
	}
	return strings.Join(q, ", ")
}

// parse converts the rows whose label is one of classes into points and
// class indices; the other rows are dropped unparsed.
func (t *csvTable) parse(classes []csvClass) (*mat.Dense, []int, error) {
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c.key] = i
	}
	label := t.ncol - 1
	d := len(t.feats)
	data := make([]float64, 0, len(t.rows)*d)
	var labels []int
	for i, f := range t.rows {
		c, ok := index[newCSVClass(f[label]).key]
		if !ok {
			continue
		}
		for _, j := range t.feats {
			v, err := csvParseValue(f[j], t.lines[i], j)
			if err != nil {
				return nil, nil, err
			}
			data = append(data, v)
		}
		labels = append(labels, c)
	}
	return mat.NewDense(len(labels), d, data), labels, nil
}

// parseValue parses one feature value of the given line and column.
func csvParseValue(s string, line, col int) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, errorf("line %d, column %d: %q overflows to %v", line, col, s, v)
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, errorf("line %d, column %d: cannot parse %q as a number", line, col, s)
	case math.IsNaN(v):
		return 0, errorf("line %d, column %d: value is NaN", line, col)
	case math.IsInf(v, 0):
		return 0, errorf("line %d, column %d: value is %v", line, col, v)
	}
	return v, nil
}
