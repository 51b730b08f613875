package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/internal/delim"
)

// dataFlags are the flags that say how to read a data file.
type dataFlags struct {
	features, classes, header *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{
		features: fs.String("features", "", "0-based feature columns"),
		classes:  fs.String("classes", "", "two labels A,B"),
		header:   fs.String("header", "auto", "auto, yes or no"),
	}
}

// dataInfo is what the command knows about a data file beyond the Dataset.
type dataInfo struct {
	columns    int      // fields per line
	features   []int    // the feature columns used
	classNames []string // names of the two classes from a scikit-learn layout first line
}

// parseHeader parses --header.
func parseHeader(s string) (perceptron.HeaderMode, error) {
	switch s {
	case "auto":
		return perceptron.HeaderAuto, nil
	case "yes":
		return perceptron.HeaderYes, nil
	case "no":
		return perceptron.HeaderNo, nil
	}
	return 0, usagef("--header: want auto, yes or no, got %q", s)
}

// parseFeatures parses --features: "" means nil (every column but the last).
func parseFeatures(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		j, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || j < 0 {
			return nil, usagef("--features: want 0-based column numbers separated by commas, got %q", s)
		}
		out = append(out, j)
	}
	return out, nil
}

// parseClasses parses --classes: "" means nil (the file's two labels).
func parseClasses(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	c := strings.Split(s, ",")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	if len(c) != 2 || c[0] == "" || c[1] == "" {
		return nil, usagef("--classes: want two labels separated by a comma, got %q", s)
	}
	if c[0] == c[1] {
		return nil, usagef("--classes: the two labels are both %q", c[0])
	}
	if delim.SameLabel(c[0], c[1]) {
		// "1,1.0" is one class, as the reader compares labels: a bad flag
		// value (exit status 2), which the reader's ErrOption left as bad
		// data (1).
		return nil, usagef("--classes: %q and %q are one number, so one label", c[0], c[1])
	}
	return c, nil
}

// head returns the first two non-blank lines of r, the file at path, split
// into fields (fewer if it has fewer), read by the library's reader of
// delimited text, so that they are the lines ReadCSV sees.
func head(r io.Reader, path string) ([]delim.Record, error) {
	in, err := delim.NewReader(r, 0)
	if err != nil {
		return nil, &fileError{path, err}
	}
	var out []delim.Record
	for len(out) < 2 {
		rec, ok, err := in.Next()
		if err != nil {
			if d := in.Damaged(err); d != nil {
				err = d // a damaged gzip stream, as ReadCSV says it
			}
			return nil, &fileError{path, err}
		}
		if !ok {
			break
		}
		out = append(out, rec)
	}
	return out, nil
}

// sklearnNames reports whether first may be scikit-learn's first line
// "n_samples,n_features,class names..." for data lines of ncol fields, and
// returns n_samples and the class names: two integers, n_samples > 0 and
// n_features = ncol - 1, then at least two distinct names of which none
// is a number (so that a data row "10,3,0.5,yes" is data). The labels of
// that layout are indices of the names (0, 1, …, as in iris.csv's
// "150,4,setosa,versicolor,virginica" before "5.1,3.5,1.4,0.2,0"): the
// callers also require that of the data's labels (sklearnIndex), so that a
// data row "5,3,foo,pos" among rows labelled "pos" and "neg" is data.
func sklearnNames(first []string, ncol int) (int, []string, bool) {
	if len(first) < 4 {
		return 0, nil, false
	}
	n, err1 := strconv.Atoi(first[0])
	d, err2 := strconv.Atoi(first[1])
	if err1 != nil || err2 != nil || n <= 0 || d != ncol-1 {
		return 0, nil, false
	}
	seen := map[string]bool{}
	for _, name := range first[2:] {
		if delim.IsNumber(name) || delim.Missing[name] || seen[name] {
			return 0, nil, false
		}
		seen[name] = true
	}
	return n, first[2:], true
}

// stdinName is what errors call FILE "-", standard input.
const stdinName = "standard input"

// openData opens FILE: the file at path, or stdin for "-" (as in every
// Unix command; /dev/stdin is not on Windows). It returns the name errors
// give it and whether it is a regular file, which can be opened again by
// its path (standard input never is: it has no path, even when it is
// redirected from one).
func openData(path string, stdin io.Reader) (r io.ReadCloser, name string, regular bool, err error) {
	if path == "-" {
		return io.NopCloser(stdin), stdinName, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, false, err
	}
	st, err := f.Stat()
	return f, path, err == nil && st.Mode().IsRegular(), nil
}

// readData reads the training file, or stdin for "-", as the data flags
// say.
func readData(path string, stdin io.Reader, df dataFlags) (*perceptron.Dataset, dataInfo, error) {
	var info dataInfo
	mode, err := parseHeader(*df.header)
	if err != nil {
		return nil, info, err
	}
	feats, err := parseFeatures(*df.features)
	if err != nil {
		return nil, info, err
	}
	classes, err := parseClasses(*df.classes)
	if err != nil {
		return nil, info, err
	}
	// The file is opened once: what head reads is kept, and a file that
	// cannot be read twice (a pipe, a FIFO, <(zcat data.csv.gz)) is read on
	// from there, so that no row is lost to head's buffer.
	f, path, regular, err := openData(path, stdin)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	var read bytes.Buffer
	head, err := head(io.TeeReader(f, &read), path)
	if err != nil {
		return nil, info, err
	}
	if len(head) == 0 {
		return nil, info, fmt.Errorf("perceptron: %s: empty data: no rows", path)
	}
	info.columns = len(head[len(head)-1].Fields)
	sklearnRows := 0
	if mode == perceptron.HeaderAuto && len(head) == 2 {
		if n, names, ok := sklearnNames(head[0].Fields, info.columns); ok && sklearnIndex(head[1].Fields[info.columns-1], len(names)) {
			sklearnRows = n
			mode = perceptron.HeaderNo
			info.classNames = names
			given := append([]string(nil), classes...)
			for i, c := range classes {
				for k, name := range names {
					if c == name {
						classes[i] = strconv.Itoa(k)
					}
				}
			}
			// A name and its index are one class ("setosa,0"): said of
			// the flag, not as the reader's "both class 0" (helper-68).
			if len(classes) == 2 && delim.SameLabel(classes[0], classes[1]) {
				name := given[0]
				if given[0] == classes[0] {
					name = given[1]
				}
				return nil, info, usagef("--classes: %q and %q are one class: label %s is the class name %q of line %d (scikit-learn's n_samples,n_features,names)",
					given[0], given[1], classes[0], name, head[0].Line)
			}
		}
	}
	// --features must fit the file: a bad value is a usage error.
	seen := map[int]bool{}
	for _, j := range feats {
		switch {
		case j >= info.columns-1 && j != info.columns-1:
			return nil, info, usagef("--features: column %d out of range: %s has %d columns, 0..%d may be features", j, path, info.columns, info.columns-2)
		case j == info.columns-1:
			return nil, info, usagef("--features: column %d is the label column of %s", j, path)
		case seen[j]:
			return nil, info, usagef("--features: column %d repeated", j)
		}
		seen[j] = true
	}
	opt := perceptron.CSVOptions{Header: mode, Features: feats, Classes: classes}
	var d *perceptron.Dataset
	rest, lines := openRest(f, regular, &read, path, info.columns-1)
	defer lines.finish()
	if sklearnRows > 0 {
		lines.header = head[0].Line
	}
	if sklearnRows > 0 {
		d, err = readSklearn(rest, lines, path, opt, info.columns, head[0].Line, sklearnRows, len(info.classNames))
	} else {
		d, err = readRest(rest, path, opt)
	}
	switch {
	case errors.Is(err, perceptron.ErrClasses) && classes != nil:
		// --classes names a label the file does not have.
		return nil, info, usageError{err.Error()}
	case errors.Is(err, perceptron.ErrClasses):
		return nil, info, fmt.Errorf("%w with --classes A,B", err)
	case err != nil:
		return nil, info, err
	}
	if info.classNames != nil {
		d.Features = nil // the first line held counts and class names
		// Name the two classes kept, -1 first.
		names := make([]string, 2)
		for i, c := range d.Classes {
			// Label k names class k, in any spelling of the number ("1",
			// "1.0", "+1"), as the reader compares labels.
			v, ok := delim.ParseNumber(c)
			k, isIndex := v.Int(len(info.classNames))
			if !ok || !isIndex {
				names = nil
				break
			}
			names[i] = info.classNames[k]
		}
		info.classNames = names
	}
	if err := checkText(path, d, info, head, lines); err != nil {
		return nil, info, err
	}
	info.features = feats
	if feats == nil {
		for j := 0; j < info.columns-1; j++ {
			info.features = append(info.features, j)
		}
	}
	return d, info, nil
}

// checkText refuses labels and header names that are not UTF-8 text (a
// file saved as Windows-1252 or Latin-1, say): the model file is JSON, which
// holds only text, so they could not be kept byte for byte, and predict
// would print labels that are not the file's. The error names the line and
// the column of the first such field.
func checkText(path string, d *perceptron.Dataset, info dataInfo, head []delim.Record, lines *labelLines) error {
	notText := func(line, col int, what, s string) error {
		return &fileError{path, delim.Errorf(delim.Format, line, col,
			"the %s %q is not UTF-8 text: the model file keeps labels and names as text, byte for byte; save the file as UTF-8", what, s)}
	}
	if len(head) > 0 {
		for j, f := range head[0].Fields {
			if !utf8.ValidString(f) {
				return notText(head[0].Line, j, "field", f)
			}
		}
	}
	for _, c := range d.Classes {
		if !utf8.ValidString(c) {
			return notText(lines.line(c), info.columns-1, "label", c)
		}
	}
	return nil
}

// openRest returns what reads the data file f at path on from head, which
// read the bytes in seen: nil for a regular file, which ReadCSVFile opens
// again (it knows its size), and for anything else (a pipe, a FIFO,
// <(zcat data.csv.gz), standard input) seen and then the rest of f, read
// through a labelLines that notes where each label of column col first
// appears.
func openRest(f io.Reader, regular bool, seen *bytes.Buffer, path string, col int) (io.Reader, *labelLines) {
	lines := &labelLines{path: path, col: col}
	if regular {
		return nil, lines
	}
	return lines.watch(io.MultiReader(seen, f)), lines
}

// readRest reads the data with opt: the file at path, or rest (see
// openRest), naming the path in any error as ReadCSVFile names it.
func readRest(rest io.Reader, path string, opt perceptron.CSVOptions) (*perceptron.Dataset, error) {
	if rest == nil {
		return perceptron.ReadCSVFile(path, opt)
	}
	d, err := perceptron.ReadCSV(rest, opt)
	if err != nil {
		return nil, inFile(err, path)
	}
	return d, nil
}

// inFile names path in err, a reading error, as ReadCSVFile names it: in
// the *ParseError's Path, or around the error.
func inFile(err error, path string) error {
	var pe *perceptron.ParseError
	if errors.As(err, &pe) && pe.Path == "" {
		pe.Path = path
		return err
	}
	return &fileError{path, trimmedError{err}}
}

// readSklearn reads a file in scikit-learn's layout (its first line, on
// line first, says n_samples and the k class names) as readRest does, but
// every row: each label must be an index 0..k-1 of the names (a file whose
// labels are not is not in that layout, and its first line may be a data
// row, not to be dropped), and without opt.Classes the rows must be
// n_samples (with it, a file cut to the rows of some classes, a classroom
// step, trains: helper-65). opt.Classes then chooses the two classes, or
// the file must have two.
func readSklearn(rest io.Reader, lines *labelLines, path string, opt perceptron.CSVOptions, ncol, first, samples, k int) (*perceptron.Dataset, error) {
	classes := opt.Classes
	opt.Header, opt.Classes = perceptron.HeaderSkip, nil
	var (
		md  *perceptron.MultiDataset
		err error
	)
	if rest == nil {
		var g *os.File
		if g, err = os.Open(path); err == nil {
			md, err = perceptron.ReadMultiCSV(g, opt)
			g.Close()
		}
	} else {
		md, err = perceptron.ReadMultiCSV(rest, opt)
	}
	if err != nil {
		return nil, inFile(err, path)
	}
	for _, c := range md.ClassNames {
		if !sklearnIndex(c, k) {
			line := lines.line(c)
			return nil, &fileError{path, delim.Errorf(delim.Label, line, ncol-1, "the label %q is not an index 0..%d of the %d class names of line %d (scikit-learn's n_samples,n_features,names), as the labels of that layout are: the file is not in that layout (if line %d is data, use --header no)",
				c, k-1, k, first, first)}
		}
	}
	if classes == nil && md.N() != samples {
		return nil, &fileError{path, fmt.Errorf("line %d says %d rows (scikit-learn's n_samples,n_features,names), the file has %d: it is cut short or not in that layout (if line %d is data, use --header no)", first, samples, md.N(), first)}
	}
	find := func(c string) int {
		for i, name := range md.ClassNames {
			if delim.SameLabel(c, name) {
				return i
			}
		}
		return -1
	}
	neg, pos := 0, 1
	switch {
	case classes != nil:
		neg, pos = find(classes[0]), find(classes[1])
		for _, c := range []struct {
			name string
			i    int
		}{{classes[0], neg}, {classes[1], pos}} {
			if c.i < 0 {
				return nil, usagef("perceptron: %s: class %q not found in the label column (column %d); its values are %s", path, c.name, ncol-1, quoteList(md.ClassNames))
			}
		}
	case len(md.ClassNames) > 2:
		return nil, kindErrorf(perceptron.ErrClasses, "%s: %d label values in column %d (%s): choose two classes", path, len(md.ClassNames), ncol-1, quoteList(md.ClassNames))
	}
	return md.Binary(neg, pos)
}

// trimmedError is an error of the library without its "perceptron: ", to
// follow a fileError's.
type trimmedError struct{ error }

func (e trimmedError) Error() string { return strings.TrimPrefix(e.error.Error(), "perceptron: ") }

func (e trimmedError) Unwrap() error { return e.error }

// labelLines finds the first line whose field col is a given label, for
// the errors that name a label: by reading a regular file at path again,
// or, for a stream that cannot be read twice (a pipe, a FIFO, whose second
// open would wait for a writer that is gone), by parsing a copy of it as
// the library reads it (watch), noting the first two lines of every label.
// A non-UTF-8 label read from a pipe had no line (helper-61's left-alone).
// A line that is not data, scikit-learn's first line, is passed over: a
// label "setosa" on line 4 of a file whose line 1 is
// "4,2,setosa,virginica" was said to be on line 1.
type labelLines struct {
	path string
	col  int
	// header is the line of the file's first line if that is not data
	// (0 when it is).
	header int
	// pw is the copy's writing end (nil for a regular file); at is
	// written by the goroutine that parses the copy until done is closed.
	pw   *io.PipeWriter
	done chan struct{}
	once sync.Once
	at   map[string][2]int
}

// maxWatchedLabels bounds the labels labelLines notes: a file of that many
// classes is refused anyway, and a label beyond them has no line (0).
const maxWatchedLabels = 4096

// watch returns r read through a copy that a goroutine parses as delim
// reads data (gzip, separators, quotes), noting the first line of each
// label; it reads the copy to its end, so that the reader of r never
// waits on it, until finish.
func (l *labelLines) watch(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	l.pw, l.done, l.at = pw, make(chan struct{}), map[string][2]int{}
	go func() {
		defer close(l.done)
		defer io.Copy(io.Discard, pr)
		in, err := delim.NewReader(pr, 0)
		if err != nil {
			return
		}
		for {
			rec, ok, err := in.Next()
			if err != nil || !ok {
				return
			}
			if l.col >= len(rec.Fields) {
				continue
			}
			label := rec.Fields[l.col]
			switch at, seen := l.at[label]; {
			case !seen && len(l.at) < maxWatchedLabels:
				l.at[label] = [2]int{rec.Line, 0}
			case seen && at[1] == 0:
				l.at[label] = [2]int{at[0], rec.Line}
			}
		}
	}()
	return io.TeeReader(r, pw)
}

// finish ends the copy's parse (the data has been read, or reading it
// failed); it may be called more than once.
func (l *labelLines) finish() {
	if l.pw == nil {
		return
	}
	l.once.Do(func() {
		l.pw.Close()
		<-l.done
	})
}

// line returns the first line of data whose field col is label, or 0.
func (l *labelLines) line(label string) int {
	if l.pw == nil {
		return labelLine(l.path, label, l.col, l.header)
	}
	l.finish()
	at := l.at[label]
	if at[0] == l.header {
		return at[1]
	}
	return at[0]
}

// labelLine returns the first line of the regular file at path, other than
// line skip, whose field col is label, or 0 (also for a file that is not
// regular: see labelLines).
func labelLine(path, label string, col, skip int) int {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return 0
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	in, err := delim.NewReader(f, 0)
	if err != nil {
		return 0
	}
	for {
		rec, ok, err := in.Next()
		if err != nil || !ok {
			return 0
		}
		if rec.Line != skip && col < len(rec.Fields) && rec.Fields[col] == label {
			return rec.Line
		}
	}
}
