package perceptron

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		opt      CSVOptions
		x        [][]float64
		y        []float64
		features []string
		classes  [2]string
	}{
		{
			name:     "comma with header",
			in:       "a,b,c,label\n1,2,3,0\n4,5,6,1\n7,8,9,0\n",
			x:        [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
			y:        []float64{-1, 1, -1},
			features: []string{"a", "b", "c"},
			classes:  [2]string{"0", "1"},
		},
		{
			// The NTU homework layout: whitespace, header, labels 1/-1.
			name:     "NTU format",
			in:       "x1 x2 x3 x4 y\n0.97681 0.10723 0.64385 0.29556 1\n0.5 0.25 0.125 0 -1\n",
			x:        [][]float64{{0.97681, 0.10723, 0.64385, 0.29556}, {0.5, 0.25, 0.125, 0}},
			y:        []float64{1, -1},
			features: []string{"x1", "x2", "x3", "x4"},
			classes:  [2]string{"-1", "1"},
		},
		{
			name:    "CRLF, trailing blanks, blank lines, tabs",
			in:      "\r\n1\t2  \t-1 \r\n\r\n   \n  3 4 1\t\r\n\n",
			x:       [][]float64{{1, 2}, {3, 4}},
			y:       []float64{-1, 1},
			classes: [2]string{"-1", "1"},
		},
		{
			// A string label on the first line is not a header when every
			// other label is a string too.
			name:    "string labels, no header",
			in:      "5.1,3.5,setosa\n7.0,3.2,versicolor\n4.9,3.0,setosa\n",
			x:       [][]float64{{5.1, 3.5}, {7, 3.2}, {4.9, 3}},
			y:       []float64{-1, 1, -1},
			classes: [2]string{"setosa", "versicolor"},
		},
		{
			// Numeric labels compare as numbers: 9 < 10, although "10" < "9".
			name:    "numeric label order",
			in:      "1,10\n2,9\n",
			x:       [][]float64{{1}, {2}},
			y:       []float64{1, -1},
			classes: [2]string{"9", "10"},
		},
		{
			name:    "string label order",
			in:      "1,b\n2,a\n3,b\n",
			x:       [][]float64{{1}, {2}, {3}},
			y:       []float64{1, -1, 1},
			classes: [2]string{"a", "b"},
		},
		{
			// "1", "+1" and "1.0" are one label; the name is the first spelling.
			name:    "numeric label spellings",
			in:      "1,+1\n2,-1\n3,1.0\n4,1\n",
			x:       [][]float64{{1}, {2}, {3}, {4}},
			y:       []float64{1, -1, 1, 1},
			classes: [2]string{"-1", "+1"},
		},
		{
			name:     "chosen classes drop the others",
			in:       "f,g,cls\n1,1,0\n2,2,1\n3,3,2\n4,4,0\n",
			opt:      CSVOptions{Classes: []string{"2", "0"}},
			x:        [][]float64{{1, 1}, {3, 3}, {4, 4}},
			y:        []float64{1, -1, 1},
			features: []string{"f", "g"},
			classes:  [2]string{"2", "0"},
		},
		{
			name:     "chosen feature columns, unparsed others",
			in:       "id,a,b,c,y\nr1,1,2,3,0\nr2,4,5,6,1\n",
			opt:      CSVOptions{Features: []int{3, 1}},
			x:        [][]float64{{3, 1}, {6, 4}},
			y:        []float64{-1, 1},
			features: []string{"c", "a"},
			classes:  [2]string{"0", "1"},
		},
		{
			name:    "header forced off",
			in:      "1,2,0\n3,4,1\n",
			opt:     CSVOptions{Header: HeaderNo},
			x:       [][]float64{{1, 2}, {3, 4}},
			y:       []float64{-1, 1},
			classes: [2]string{"0", "1"},
		},
		{
			// A numeric header is only found when asked for.
			name:     "header forced on",
			in:       "10,20,30\n3,4,1\n5,6,0\n",
			opt:      CSVOptions{Header: HeaderYes},
			x:        [][]float64{{3, 4}, {5, 6}},
			y:        []float64{1, -1},
			features: []string{"10", "20"},
			classes:  [2]string{"0", "1"},
		},
		{
			// Classes chosen in another spelling keep the file's
			// (helper-50: "1.0,2.0" named the classes of labels 1 and 2,
			// and the command line printed labels not in the file).
			name:    "classes chosen as 2.0,1.0",
			in:      "5,1\n6,2\n7,1.0\n",
			opt:     CSVOptions{Header: HeaderNo, Classes: []string{"2.0", "1.0"}},
			x:       [][]float64{{5}, {6}, {7}},
			y:       []float64{1, -1, 1},
			classes: [2]string{"2", "1"},
		},
		{
			name:     "semicolons and quotes",
			in:       "\"left\"; \"right\";\"y\"\n1.5;-2e3;no\n0x1p-2;7;yes\n",
			opt:      CSVOptions{Comma: ';'},
			x:        [][]float64{{1.5, -2000}, {0.25, 7}},
			y:        []float64{-1, 1},
			features: []string{"left", "right"},
			classes:  [2]string{"no", "yes"},
		},
	} {
		d, err := ReadCSV(strings.NewReader(tc.in), tc.opt)
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tc.name, err)
			continue
		}
		if got := d.Rows(); !reflect.DeepEqual(got, tc.x) {
			t.Errorf("%s: x = %v, want %v", tc.name, got, tc.x)
		}
		if !reflect.DeepEqual(d.Y, tc.y) {
			t.Errorf("%s: y = %v, want %v", tc.name, d.Y, tc.y)
		}
		if !reflect.DeepEqual(d.Features, tc.features) {
			t.Errorf("%s: features = %q, want %q", tc.name, d.Features, tc.features)
		}
		if d.Classes != tc.classes {
			t.Errorf("%s: classes = %q, want %q", tc.name, d.Classes, tc.classes)
		}
		if err := d.Validate(); err != nil {
			t.Errorf("%s: result does not validate: %v", tc.name, err)
		}
	}
}

// TestReadCSVErrors checks the kind of every error and, for a parse error,
// the line and the column it names (-1: no one column).
func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		opt       CSVOptions
		kind      error
		line, col int // the *ParseError's; 0, 0 when not a parse error
	}{
		{"empty", "", CSVOptions{}, ErrEmpty, 0, -1},
		{"blank", "\n \r\n\t\n", CSVOptions{}, ErrEmpty, 0, -1},
		{"header only", "\nx1,x2,y\n", CSVOptions{}, ErrEmpty, 2, -1},
		{"one column", "1\n2\n", CSVOptions{}, ErrFormat, 1, -1},
		{"short line", "x1,x2,x3,y\n1,2,3,1\n4,5,6,-1\n\n7,8,1\n", CSVOptions{}, ErrFormat, 5, -1},
		{"long header", "a,b,c,d,y\n1,2,3,1\n", CSVOptions{}, ErrFormat, 1, -1},
		{"no header, short first line", "1,2\n1,2,3\n", CSVOptions{Header: HeaderNo}, ErrFormat, 2, -1},
		{"bad number", "a b c d\n1 2 3 1\n\n\n\n\n1 2 abc -1\n", CSVOptions{}, ErrFormat, 7, 2},
		{"NaN", "1,2,1\n1,NaN,-1\n", CSVOptions{}, ErrNonFinite, 2, 1},
		{"nan", "1,2,1\n1,nan,-1\n", CSVOptions{}, ErrNonFinite, 2, 1},
		{"Inf", "1,2,1\n-inf,1,-1\n", CSVOptions{}, ErrNonFinite, 2, 0},
		{"overflow", "1,2,1\n1,1e400,-1\n", CSVOptions{}, ErrNonFinite, 2, 1},
		{"header word on data", "x,y\n1,1\nz,-1\n", CSVOptions{}, ErrFormat, 3, 0},
		{"label NaN", "1,2,1\n3,4,NaN\n5,6,-1\n", CSVOptions{}, ErrLabel, 2, 2},
		{"label ?", "1,2,1\n3,4,?\n5,6,-1\n", CSVOptions{}, ErrLabel, 2, 2},
		{"label empty", "1,2,1\n3,4,\n5,6,-1\n", CSVOptions{}, ErrLabel, 2, 2},
		{"label NA on line 1", "1,2,NA\n3,4,1\n5,6,-1\n", CSVOptions{}, ErrLabel, 1, 2},
		{"label NaN of a dropped class", "1,0\n2,1\n3,nan\n", CSVOptions{Classes: []string{"0", "1"}}, ErrLabel, 3, 1},
		{"gzip of bad data", gzipped("1,2,1\n3,4\n"), CSVOptions{}, ErrFormat, 2, -1},
		{"zip", "PK\x03\x04rest", CSVOptions{}, ErrFormat, 0, -1},
		{"bzip2", "BZh91AY&SY", CSVOptions{}, ErrFormat, 0, -1},
		{"bzip2, empty stream", "BZh9\x17rE8P\x90\x00\x00\x00\x00", CSVOptions{}, ErrFormat, 0, -1},
		{"binary", "1,2,1\n3,\x00,1\n", CSVOptions{}, ErrFormat, 2, -1},
		{"feature out of range", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{0, 5}}, ErrOption, 0, 0},
		{"negative feature", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{-1}}, ErrOption, 0, 0},
		{"feature is label", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{2}}, ErrOption, 0, 0},
		{"feature repeated", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{1, 0, 1}}, ErrOption, 0, 0},
		{"features empty", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{}}, ErrOption, 0, 0},
		{"one label", "x,y\n1,0\n2,0.0\n", CSVOptions{}, ErrOneClass, 0, 0},
		{"three labels", "1,b\n2,a\n3,c\n", CSVOptions{}, ErrClasses, 0, 0},
		{"class not found", "1,0\n2,1\n3,2\n", CSVOptions{Classes: []string{"1", "3"}}, ErrClasses, 0, 0},
		{"three classes", "1,0\n2,1\n3,2\n", CSVOptions{Classes: []string{"0", "1", "2"}}, ErrOption, 0, 0},
		{"classes repeated", "1,0\n2,1\n", CSVOptions{Classes: []string{"1", "1.0"}}, ErrOption, 0, 0},
		{"header mode", "1,0\n2,1\n", CSVOptions{Header: 7}, ErrOption, 0, 0},
		{"bad comma", "1,0\n2,1\n", CSVOptions{Comma: '\n'}, ErrOption, 0, 0},
	} {
		d, err := ReadCSV(strings.NewReader(tc.in), tc.opt)
		if err == nil {
			t.Errorf("%s: got %v, want an error of kind %v", tc.name, d, tc.kind)
			continue
		}
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: error %q is not %v", tc.name, err, tc.kind)
		}
		var pe *ParseError
		isParse := errors.As(err, &pe)
		switch {
		case tc.line == 0 && tc.col == 0 && isParse:
			t.Errorf("%s: error %q is a *ParseError", tc.name, err)
		case (tc.line != 0 || tc.col != 0) && !isParse:
			t.Errorf("%s: error %q is not a *ParseError", tc.name, err)
		case isParse && (pe.Line != tc.line || pe.Column != tc.col):
			t.Errorf("%s: error %q at line %d, column %d; want line %d, column %d", tc.name, err, pe.Line, pe.Column, tc.line, tc.col)
		}
	}
}

// TestReadCSVMessages pins the messages whose wording is the feature: they
// name the line and the column and say what is wrong in the file's terms.
func TestReadCSVMessages(t *testing.T) {
	for _, tc := range []struct {
		in   string
		opt  CSVOptions
		want string
	}{
		{"\nx1,x2,y\n", CSVOptions{}, "perceptron: line 2: empty input: no data lines after the header"},
		{"x1,x2,x3,y\n1,2,3,1\n4,5,6,-1\n\n7,8,1\n", CSVOptions{}, "perceptron: line 5: 3 fields, expected 4 (as on line 2)"},
		{"a b c d\n1 2 3 1\n1 2 abc -1\n", CSVOptions{}, `perceptron: line 3, column 2: cannot parse "abc" as a number`},
		{"1,2,1\n1,1e400,-1\n", CSVOptions{}, `perceptron: line 2, column 1: "1e400" overflows to +Inf`},
		{"1,2,1\n3,4,?\n", CSVOptions{}, `perceptron: line 2, column 2: the label "?" is a missing value`},
		{"1,2,1\n3,4,\n", CSVOptions{}, `perceptron: line 2, column 2: the label is empty`},
		{"1,2,NaN\n3,4,1\n", CSVOptions{}, `perceptron: line 1, column 2: the label "NaN" is NaN, not a class`},
		{"1,b\n2,a\n3,c\n", CSVOptions{}, `perceptron: 3 label values in column 1 ("a", "b", "c"): choose two classes`},
		{"1,0\n2,1\n3,2\n", CSVOptions{Classes: []string{"1", "3"}},
			`perceptron: class "3" not found in the label column (column 1); its values are "0", "1", "2"`},
		{"PK\x03\x04", CSVOptions{}, "perceptron: a zip archive, not text: extract the file first"},
	} {
		if _, err := ReadCSV(strings.NewReader(tc.in), tc.opt); err == nil || err.Error() != tc.want {
			t.Errorf("ReadCSV(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// gzipped returns s compressed with gzip.
func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func TestReadMultiCSV(t *testing.T) {
	in := "a b y\n1 1 10\n2 2 2\n3 3 -1\n4 4 2.0\n"
	m, err := ReadMultiCSV(strings.NewReader(in), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Sorted as numbers: -1 < 2 < 10; "2.0" is the label "2".
	if want := []string{"-1", "2", "10"}; !reflect.DeepEqual(m.ClassNames, want) {
		t.Errorf("class names %q, want %q", m.ClassNames, want)
	}
	if want := []int{2, 1, 0, 1}; !reflect.DeepEqual(m.Labels, want) {
		t.Errorf("labels %v, want %v", m.Labels, want)
	}
	if want := []string{"a", "b"}; !reflect.DeepEqual(m.Features, want) {
		t.Errorf("features %q, want %q", m.Features, want)
	}
	if m.N() != 4 || m.D() != 2 || m.Row(2)[1] != 3 {
		t.Errorf("got %d×%d, row 2 %v; want 4×2, row 2 [3 3]", m.N(), m.D(), m.Row(2))
	}

	// Chosen classes keep their order and drop the other rows.
	m, err = ReadMultiCSV(strings.NewReader(in), CSVOptions{Classes: []string{"10", "-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.ClassNames, []string{"10", "-1"}) || !reflect.DeepEqual(m.Labels, []int{0, 1}) {
		t.Errorf("chosen classes: names %q labels %v, want [10 -1] [0 1]", m.ClassNames, m.Labels)
	}

	for _, tc := range []struct {
		in   string
		opt  CSVOptions
		want error
	}{
		{"1,a\n2,a\n", CSVOptions{}, ErrOneClass},
		{"1,a\n2,b\n", CSVOptions{Classes: []string{"a"}}, ErrOption},
		{"1,a\n2,b\n", CSVOptions{Classes: []string{"a", "c"}}, ErrClasses},
		{"1,a\n2,?\n", CSVOptions{}, ErrLabel},
		{"1,a\nnan,b\n", CSVOptions{}, ErrNonFinite},
	} {
		if _, err := ReadMultiCSV(strings.NewReader(tc.in), tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("ReadMultiCSV(%q): error %v, want %v", tc.in, err, tc.want)
		}
	}
}

func TestReadCSVFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.dat")
	bad := filepath.Join(dir, "bad.dat")
	if err := os.WriteFile(good, []byte("x1 x2 y\n1 2 1\n3 4 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("x1 x2 y\n1 2 1\n3 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadCSVFile(good, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 2 || d.D() != 2 || !reflect.DeepEqual(d.Y, []float64{1, -1}) {
		t.Errorf("read %d×%d, y %v; want 2×2, y [1 -1]", d.N(), d.D(), d.Y)
	}
	_, err = ReadCSVFile(bad, CSVOptions{})
	if want := "perceptron: " + bad + ": line 3: 2 fields, expected 3 (as on line 2)"; err == nil || err.Error() != want {
		t.Errorf("bad file: error %v, want %q", err, want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Path != bad || pe.Line != 3 || !errors.Is(err, ErrFormat) {
		t.Errorf("bad file: error %#v, want a *ParseError of kind ErrFormat at %s line 3", err, bad)
	}
	// The kinds survive the file's name (issue 24: ErrOneClass was lost).
	for _, c := range []struct {
		text string
		kind error
	}{
		{"1,0\n2,0\n", ErrOneClass},
		{"1,a\n2,b\n3,c\n", ErrClasses},
		{"1,1\nnan,-1\n", ErrNonFinite},
		{"1,1\n2,?\n", ErrLabel},
		{"", ErrEmpty},
	} {
		p := filepath.Join(dir, "kind.csv")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCSVFile(p, CSVOptions{}); !errors.Is(err, c.kind) {
			t.Errorf("ReadCSVFile(%q): error %v, want %v", c.text, err, c.kind)
		}
	}
	// A gzip file is read as its text.
	gz := filepath.Join(dir, "good.dat.gz")
	if err := os.WriteFile(gz, []byte(gzipped("x1 x2 y\n1 2 1\n3 4 -1\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := ReadCSVFile(gz, CSVOptions{}); err != nil || d.N() != 2 || d.X.At(1, 1) != 4 {
		t.Errorf("gzip file: %v, %v; want the 2 rows of its text", d, err)
	}
	_, err = ReadCSVFile(filepath.Join(dir, "missing.csv"), CSVOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want one wrapping os.ErrNotExist", err)
	}
}

// TestClassesRepeatedNamedAsGiven: two chosen classes that are one label
// are named as the caller wrote them, not as the file spells the label
// (helper-52: "Classes "+1" and "+1" name the same label" for 1e0, +1).
func TestClassesRepeatedNamedAsGiven(t *testing.T) {
	_, err := ReadCSV(strings.NewReader("1,+1\n2,-1\n"), CSVOptions{Classes: []string{"1e0", "+1"}})
	if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), `Classes "1e0" and "+1" name the same label`) {
		t.Errorf("%v; want ErrOption naming 1e0 and +1", err)
	}
}

// TestBZhHeaderIsText: a file whose first column is named "BZh" (or
// "BZh9x") is text, not bzip2-compressed data, which starts "BZh", a block
// size 1 to 9 and a block's magic (helper-70: both were refused as
// bzip2), also inside a gzip stream.
func TestBZhHeaderIsText(t *testing.T) {
	for _, text := range []string{"BZh,b,y\n1,2,1\n3,4,-1\n", "BZh9x,b,y\n1,2,1\n3,4,-1\n", "BZhang y\n1 1\n3 -1\n"} {
		for _, in := range [][]byte{[]byte(text), []byte(gzipped(text))} {
			d, err := ReadCSV(bytes.NewReader(in), CSVOptions{})
			if err != nil || d.N() != 2 || !strings.HasPrefix(d.Features[0], "BZh") {
				t.Errorf("%q (%d bytes): %v, %v; want 2 rows, a first feature named BZh...", text, len(in), d, err)
			}
		}
	}
}

// TestReadCSVFileDirectory: a read error (a directory given as the file)
// says "reading" once and keeps the cause (helper-70: "/tmp: reading:
// reading: read /tmp: is a directory").
func TestReadCSVFileDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadCSVFile(dir, CSVOptions{})
	if err == nil || strings.Count(err.Error(), "reading:") != 1 || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("ReadCSVFile(a directory) = %v; want one \"reading:\" and \"is a directory\"", err)
	}
	var pe *os.PathError
	if !errors.As(err, &pe) {
		t.Errorf("ReadCSVFile(a directory) = %v; want the *os.PathError kept", err)
	}
}
