package perceptron

import (
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron/internal/delim"
)

// HeaderMode says whether the first line of a CSV file names the columns.
type HeaderMode int

const (
	// HeaderAuto takes the first line as a header when it looks like names:
	// none of its feature fields parses as a number and none is a missing
	// value marker ("", "?", "NA", "na", "N/A", "n/a", "null", "NULL",
	// "None", "-"). Any other first line is data, read and checked like
	// every other line, so a data row is never dropped as a header: a "?"
	// on line 1 is the same error as a "?" on line 2, and a first line
	// whose features are numbers is data whatever its label. A header of
	// numbers needs HeaderYes.
	HeaderAuto HeaderMode = iota
	// HeaderYes takes the first line as a header.
	HeaderYes
	// HeaderNo reads the first line as data.
	HeaderNo
	// HeaderSkip skips the first line whatever it holds, however many
	// fields: scikit-learn's first line "n_samples,n_features,class
	// names..." (breast_cancer.csv: 4 fields before lines of 31). Errors
	// still name the file's lines.
	HeaderSkip
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
	// and the larger to +1 (compared as numbers when both parse as finite
	// numbers, else as strings: "inf", "NaN" and "1e400" are names), as scikit-learn orders its classes, or labels that
	// are all -1 or all +1, which say what they mean and load as that one
	// class (a mini-batch, or a sample that happens to be one-sided: the
	// learners train it, and the theory functions, Separable, MaxMargin
	// and Bound, refuse it with ErrOneClass); two values
	// map the first to -1 and the second to +1 and drop the rows with any
	// other label. For ReadMultiCSV, nil takes every label value, sorted the
	// same way; otherwise the values listed become classes 0, 1, … and the
	// rows with any other label are dropped. Labels that parse as finite
	// numbers are compared as numbers, by their exact decimal values, so
	// "1", "+1", "1.0" and "1e0" are one class, while 2^53 and 2^53 + 1,
	// "0.1" and "0.10000000000000000001", or "1e-400" and "0", which are
	// one float64, are two.
	Classes []string
	// Comma separates the fields. 0 detects it: ',' if the first non-blank
	// line holds a comma, else runs of spaces and tabs. ' ' or '\t' also
	// mean runs of spaces and tabs. Quoting is not supported, but a field
	// wrapped in double quotes loses them.
	Comma rune
}

// csvTable is a file read as a stream: the header (nil if none), the
// number of fields per line, the chosen feature columns, and, for the data
// lines kept, their parsed features (row after row) and the index of their
// label in labels, the distinct label values in order of appearance.
type csvTable struct {
	header []string
	ncol   int
	feats  []int
	data   []float64
	rowLab []int
	labels []csvClass
}

// ReadCSV reads a binary classification data set from r: one point per
// line, the features in the columns chosen by opt.Features and the label in
// the last column, mapped to -1 and +1 as opt.Classes says. It reads
// scikit-learn style CSV files and the whitespace-separated files of the NTU
// Machine Learning Foundations homework ("x1 x2 x3 x4 y", labels 1 and -1)
// alike. Blank lines and trailing spaces, tabs and carriage returns are
// ignored. The header, if any, names the features (Dataset.Features) and the
// label strings name the classes (Dataset.Classes), as the file first
// writes them, whatever spelling opt.Classes chooses them by ("1.0" for a
// label 1).
//
// The text is read by the package's one reader of delimited text, which
// the command line and the embedded data sets share; a gzip-compressed
// input is decompressed, and other compressed or binary data is an error
// that says so. Errors of the text are *ParseError values that name the
// line (1-based) and the column (0-based) and match, with errors.Is,
// ErrFormat (a line with another number of fields than the first data
// line, a value that does not parse as a number, a label of a
// comma-separated file that holds a ';' or a tab after a number: "1,5;a" of
// a ';'-separated file with decimal commas), ErrNonFinite (NaN, ±Inf,
// overflow), ErrLabel (a label that is empty or blank, a missing-value
// marker such as "?" or "NA", or NaN: no class) or ErrEmpty. A bad opt.Features or
// opt.Classes is ErrOption, a label column without exactly two values when
// opt.Classes is nil (or without a class of opt.Classes) ErrClasses, one
// label that is not -1 or +1 ErrOneClass.
func ReadCSV(r io.Reader, opt CSVOptions) (*Dataset, error) {
	return readCSV(r, opt, 0)
}

// readCSV is ReadCSV with the size of the input in bytes (0 if unknown), to
// allocate the matrix about once (see readTable).
func readCSV(r io.Reader, opt CSVOptions, sizeHint int64) (*Dataset, error) {
	if opt.Classes != nil && len(opt.Classes) != 2 {
		return nil, kindErrorf(ErrOption, "Classes must name exactly 2 labels, got %d", len(opt.Classes))
	}
	t, err := readTable(r, opt, sizeHint)
	if err != nil {
		return nil, err
	}
	classes, err := t.classes(opt.Classes, true)
	if err != nil {
		return nil, err
	}
	x, labels := t.matrix(classes)
	y := make([]float64, len(labels))
	for i, c := range labels {
		y[i] = float64(2*c - 1)
	}
	return &Dataset{X: x, Y: y, Features: t.featureNames(),
		Classes: [2]string{classes[0].name, classes[1].name}}, nil
}

// ReadMultiCSV reads a multi-class data set from r as ReadCSV does, but
// keeps every label value as a class: the values, sorted as numbers if they
// all parse as finite numbers and as strings otherwise (or in the order of
// opt.Classes), become the classes 0, 1, …, k-1, and ClassNames holds them
// as the file first writes them (also when opt.Classes chooses them in
// another spelling, "1.0" for "1"). At least two classes are required.
func ReadMultiCSV(r io.Reader, opt CSVOptions) (*MultiDataset, error) {
	if opt.Classes != nil && len(opt.Classes) < 2 {
		return nil, kindErrorf(ErrOption, "Classes must name at least 2 labels, got %d", len(opt.Classes))
	}
	t, err := readTable(r, opt, 0)
	if err != nil {
		return nil, err
	}
	classes, err := t.classes(opt.Classes, false)
	if err != nil {
		return nil, err
	}
	x, labels := t.matrix(classes)
	names := make([]string, len(classes))
	for i, c := range classes {
		names[i] = c.name
	}
	return &MultiDataset{X: x, Labels: labels, Features: t.featureNames(), ClassNames: names}, nil
}

// ReadCSVFile opens the file at path and reads it with ReadCSV, once, as a
// stream; a gzip-compressed file is decompressed. Errors name the file
// and keep their kind: a *ParseError has Path set.
func ReadCSVFile(path string, opt CSVOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%w", err)
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	d, err := readCSV(f, opt, size)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) && pe.Path == "" {
			pe.Path = path
			return nil, err
		}
		return nil, wrapf(err, "%s", path)
	}
	return d, nil
}

// readTable reads r as a stream with the package's one reader of delimited
// text (internal/delim): it separates the header, checks that every line
// has as many fields as the first data line (the error names the line that
// differs), checks every label and parses the chosen features of every data
// line whose label is kept (every line when chosen is nil) as it goes, so
// that memory stays near the size of the matrix. With sizeHint, the size
// of the input in bytes, the matrix is allocated once the first rows have
// shown how many bytes a row takes (see reserve).
func readTable(r io.Reader, opt CSVOptions, sizeHint int64) (*csvTable, error) {
	if opt.Header < HeaderAuto || opt.Header > HeaderSkip {
		return nil, kindErrorf(ErrOption, "unknown header mode %d: want HeaderAuto, HeaderYes, HeaderNo or HeaderSkip", int(opt.Header))
	}
	switch {
	case opt.Comma == '\n' || opt.Comma == '\r' || opt.Comma == '"' || opt.Comma == 0xFFFD || !utf8.ValidRune(opt.Comma):
		// A rune that is not one (−1, a surrogate, beyond U+10FFFF) is
		// written as U+FFFD, the refused separator.
		return nil, kindErrorf(ErrOption, "invalid Comma %q (%d)", opt.Comma, opt.Comma)
	}
	in, err := delim.NewReader(r, opt.Comma)
	if err != nil {
		return nil, parseError(err)
	}
	t, err := readRows(in, opt, sizeHint)
	if err != nil {
		// A line that is not data (or Features that do not fit the first
		// line's fields) may be the work of a damaged gzip stream, whose
		// checksum comes at its end: that error, if so.
		line, msg := in.Line(), strings.TrimPrefix(err.Error(), "perceptron: ")
		var pe *ParseError
		if errors.As(err, &pe) {
			line, msg = pe.Line, pe.Msg
		}
		if d := in.Damaged(delim.Errorf(delim.Format, line, -1, "%s", msg)); d != nil {
			return nil, parseError(d)
		}
	}
	return t, err
}

// readRows is readTable after the reader is made.
func readRows(in *delim.Reader, opt CSVOptions, sizeHint int64) (*csvTable, error) {
	if in.Gzip() {
		sizeHint = 0 // the file's size says nothing of the text's
	}
	first, ok, err := in.Next()
	if err == nil && ok && opt.Header == HeaderSkip {
		first, ok, err = in.Next()
	}
	if err != nil {
		return nil, parseError(err)
	}
	if !ok {
		return nil, &ParseError{Column: -1, Kind: ErrEmpty, Msg: "empty input: no lines with data"}
	}
	t := &csvTable{ncol: len(first.Fields)}
	if t.ncol < 2 {
		return nil, &ParseError{Line: first.Line, Column: -1, Kind: ErrFormat,
			Msg: "1 field, need at least 2 (features, then the label)"}
	}
	if err := t.setFeatures(opt.Features); err != nil {
		return nil, err
	}
	ref := first // the first data line, whose field count every line must have
	if t.isHeader(opt.Header, first.Fields) {
		t.header = first.Fields
		data, ok, err := in.Peek()
		if err != nil {
			return nil, parseError(err)
		}
		if !ok {
			return nil, &ParseError{Line: first.Line, Column: -1, Kind: ErrEmpty,
				Msg: "empty input: no data lines after the header"}
		}
		ref = data
		if len(data.Fields) != len(first.Fields) {
			// Blame the header unless the line after the first data line
			// agrees with it.
			in.Next()
			third, ok, err := in.Peek()
			if err != nil {
				return nil, parseError(err)
			}
			if ok && len(third.Fields) == len(first.Fields) {
				return nil, parseError(delim.FieldCount(data.Line, len(data.Fields), len(first.Fields), first.Line))
			}
			return nil, parseError(delim.FieldCount(first.Line, len(first.Fields), len(data.Fields), data.Line))
		}
	} else {
		in.Unread(first)
	}
	var chosen map[string]bool
	if opt.Classes != nil {
		chosen = make(map[string]bool, len(opt.Classes))
		for _, c := range opt.Classes {
			chosen[newCSVClass(c).key] = true
		}
	}
	index := map[string]int{}  // label key -> index in t.labels
	byName := map[string]int{} // label as written -> index in t.labels
	label := t.ncol - 1
	for rows := 0; ; rows++ {
		if rows == reserveAfter && sizeHint > 0 {
			t.reserve(rows, in.Bytes(), sizeHint)
		}
		l, ok, err := in.Next()
		if err != nil {
			return nil, parseError(err)
		}
		if !ok {
			break
		}
		if len(l.Fields) != len(ref.Fields) {
			return nil, parseError(delim.FieldCount(l.Line, len(l.Fields), len(ref.Fields), ref.Line))
		}
		if err := in.CheckLabel(l.Fields[label], l.Line, label); err != nil {
			return nil, parseError(err)
		}
		// A label's exact value is worked out once per spelling.
		k, seen := byName[l.Fields[label]]
		if !seen {
			c := newCSVClass(l.Fields[label])
			k, seen = index[c.key]
			if !seen {
				k = len(t.labels)
				index[c.key] = k
				t.labels = append(t.labels, c)
			}
			byName[l.Fields[label]] = k
		}
		if chosen != nil && !chosen[t.labels[k].key] {
			continue // a row of another class: dropped unparsed
		}
		for _, j := range t.feats {
			v, err := delim.Float(l.Fields[j], l.Line, j)
			if err != nil {
				return nil, parseError(err)
			}
			t.data = append(t.data, v)
		}
		t.rowLab = append(t.rowLab, k)
	}
	if c := cap(t.data); c-len(t.data) > len(t.data)/8+reserveAfter*len(t.feats) {
		t.data = slices.Clone(t.data) // trim: more than an eighth unused
	}
	return t, nil
}

// reserveAfter is the number of lines read before readTable allocates the
// matrix from the size of the input.
const reserveAfter = 1024

// reserve allocates the matrix for the rows of an input of size bytes,
// estimated from the first lines (rows of them in the first read bytes)
// with 2% to spare, so that a file is parsed into one allocation of about
// its final size; lines longer than the first make append grow it, lines
// shorter leave spare room that readTable trims when it exceeds an eighth.
func (t *csvTable) reserve(rows int, read, size int64) {
	if read <= 0 || size <= read {
		return
	}
	est := float64(float64(rows) * float64(size) / float64(read) * 1.02) // rounded: no FMA with + 1 below
	// No reservation of more bytes than an int counts (2^31 − 1 on 386:
	// a 4 GB file there): append grows the matrix as the rows come, and a
	// filter (Classes) may keep few of them.
	if vals := (est + 1) * float64(len(t.feats)); vals > float64(math.MaxInt/8) {
		return
	}
	n := int(est)*len(t.feats) + len(t.feats)
	if n <= cap(t.data) {
		return
	}
	t.data = append(make([]float64, 0, n), t.data...)
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
		return kindErrorf(ErrOption, "Features is empty: list at least one column, or nil for all but the last")
	}
	seen := make(map[int]bool, len(feats))
	for _, j := range feats {
		switch {
		case j < 0 || j > label:
			return kindErrorf(ErrOption, "feature column %d out of range: the file has %d columns, 0..%d may be features", j, t.ncol, label-1)
		case j == label:
			return kindErrorf(ErrOption, "feature column %d is the label column", j)
		case seen[j]:
			return kindErrorf(ErrOption, "feature column %d repeated", j)
		}
		seen[j] = true
	}
	t.feats = slices.Clone(feats)
	return nil
}

// isHeader decides whether the first line is a header (see HeaderAuto).
func (t *csvTable) isHeader(mode HeaderMode, first []string) bool {
	switch mode {
	case HeaderYes:
		return true
	case HeaderNo, HeaderSkip:
		return false
	}
	return LooksLikeHeader(first, t.feats)
}

// LooksLikeHeader is the rule of HeaderAuto: it reports whether the fields
// of a first line are names, none of the fields in the feature columns
// feats being a number or a missing-value marker ("", "?", "NA", "na",
// "N/A", "n/a", "null", "NULL", "None", "-"). A column of feats beyond the
// fields counts as not a name, and an empty feats is no header (false).
func LooksLikeHeader(fields []string, feats []int) bool {
	for _, j := range feats {
		if j < 0 || j >= len(fields) || delim.IsNumber(fields[j]) || delim.Missing[fields[j]] {
			return false
		}
	}
	return len(feats) > 0
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
// labels (the exact value for numeric labels, else the string).
type csvClass struct {
	name    string
	key     string
	value   delim.Number
	numeric bool
}

// newClass canonicalises a label. Numeric labels are compared by their
// exact decimal value (delim.Number), not as float64, which would merge
// distinct labels into one class: 2^53 and 2^53 + 1, "0.1" and
// "0.10000000000000000001", "1e-400" and "0".
func newCSVClass(s string) csvClass {
	if v, ok := delim.ParseNumber(s); ok {
		return csvClass{name: s, key: "#" + v.Key(), value: v, numeric: true} // -0 and 0 are one label
	}
	return csvClass{name: s, key: "$" + s}
}

// isOne reports whether c is the number sign (-1 or +1).
func (c csvClass) isOne(sign int) bool {
	one, _ := delim.ParseNumber(strconv.Itoa(sign))
	return c.numeric && c.value.Cmp(one) == 0
}

// classes returns the classes in label order: chosen (in that order, which
// must all be found) or every distinct value sorted. binary requires
// exactly two values when chosen is nil.
func (t *csvTable) classes(chosen []string, binary bool) ([]csvClass, error) {
	label := t.ncol - 1
	found := map[string]csvClass{}
	order := slices.Clone(t.labels)
	for _, c := range order {
		found[c.key] = c
	}
	if chosen != nil {
		out := make([]csvClass, len(chosen))
		for i, s := range chosen {
			c := newCSVClass(s)
			for k, p := range out[:i] {
				if p.key == c.key {
					return nil, kindErrorf(ErrOption, "Classes %q and %q name the same label", chosen[k], s)
				}
			}
			f, ok := found[c.key]
			if !ok {
				return nil, kindErrorf(ErrClasses, "class %q not found in the label column (column %d); its values are %s", s, label, csvClassList(sortCSVClasses(order)))
			}
			out[i] = f // named as the file first writes it ("1" for a chosen "1.0")
		}
		return out, nil
	}
	order = sortCSVClasses(order)
	switch {
	case len(order) == 1 && binary && (order[0].isOne(-1) || order[0].isOne(1)):
		// Labels -1/+1 name their classes even when one is absent.
		if order[0].isOne(-1) {
			return []csvClass{order[0], newCSVClass("+1")}, nil
		}
		return []csvClass{newCSVClass("-1"), order[0]}, nil
	case len(order) == 1:
		return nil, kindErrorf(ErrOneClass, "only one label value %q in column %d: need two classes", order[0].name, label)
	case binary && len(order) > 2:
		return nil, kindErrorf(ErrClasses, "%d label values in column %d (%s): choose two classes", len(order), label, csvClassList(order))
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
			return a.value.Cmp(b.value)
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

// matrix returns the parsed rows as a matrix and their class indices in
// classes (every kept row's label is one of them).
func (t *csvTable) matrix(classes []csvClass) (*mat.Dense, []int) {
	byKey := make(map[string]int, len(classes))
	for i, c := range classes {
		byKey[c.key] = i
	}
	labels := make([]int, len(t.rowLab))
	for i, k := range t.rowLab {
		labels[i] = byKey[t.labels[k].key]
	}
	data := t.data
	t.data = nil
	return mat.NewDense(len(labels), len(t.feats), data), labels
}
