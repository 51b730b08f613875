package perceptron

import (
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

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  CSVOptions
		want string
	}{
		{"empty", "", CSVOptions{}, "perceptron: empty input: no lines with data"},
		{"blank", "\n \r\n\t\n", CSVOptions{}, "perceptron: empty input: no lines with data"},
		{"header only", "\nx1,x2,y\n", CSVOptions{}, "perceptron: empty input: no data lines after the header on line 2"},
		{"one column", "1\n2\n", CSVOptions{}, "perceptron: line 1: 1 field, need at least 2 (features, then the label)"},
		{"short line", "x1,x2,x3,y\n1,2,3,1\n4,5,6,-1\n\n7,8,1\n", CSVOptions{},
			"perceptron: line 5: 3 fields, expected 4 (as on line 2)"},
		{"long header", "a,b,c,d,y\n1,2,3,1\n", CSVOptions{},
			"perceptron: line 1: 5 fields, expected 4 (as on line 2)"},
		{"no header, short first line", "1,2\n1,2,3\n", CSVOptions{Header: HeaderNo},
			"perceptron: line 2: 3 fields, expected 2 (as on line 1)"},
		{"bad number", "a b c d\n1 2 3 1\n\n\n\n\n1 2 abc -1\n", CSVOptions{},
			`perceptron: line 7, column 2: cannot parse "abc" as a number`},
		{"NaN", "1,2,1\n1,NaN,-1\n", CSVOptions{}, "perceptron: line 2, column 1: value is NaN"},
		{"Inf", "1,2,1\n-inf,1,-1\n", CSVOptions{}, "perceptron: line 2, column 0: value is -Inf"},
		{"overflow", "1,2,1\n1,1e400,-1\n", CSVOptions{}, `perceptron: line 2, column 1: "1e400" overflows to +Inf`},
		{"header word on data", "x,y\n1,1\nz,-1\n", CSVOptions{}, `perceptron: line 3, column 0: cannot parse "z" as a number`},
		{"feature out of range", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{0, 5}},
			"perceptron: feature column 5 out of range: the file has 3 columns, 0..1 may be features"},
		{"negative feature", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{-1}},
			"perceptron: feature column -1 out of range: the file has 3 columns, 0..1 may be features"},
		{"feature is label", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{2}},
			"perceptron: feature column 2 is the label column"},
		{"feature repeated", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{1, 0, 1}},
			"perceptron: feature column 1 repeated"},
		{"features empty", "1,2,3\n4,5,6\n", CSVOptions{Features: []int{}},
			"perceptron: Features is empty: list at least one column, or nil for all but the last"},
		{"one label", "x,y\n1,0\n2,0.0\n", CSVOptions{},
			`perceptron: only one label value "0" in column 1: need two classes`},
		{"three labels", "1,b\n2,a\n3,c\n", CSVOptions{},
			`perceptron: 3 label values in column 1 ("a", "b", "c"): set CSVOptions.Classes to choose two`},
		{"class not found", "1,0\n2,1\n3,2\n", CSVOptions{Classes: []string{"1", "3"}},
			`perceptron: class "3" not found in the label column (column 1); its values are "0", "1", "2"`},
		{"three classes", "1,0\n2,1\n3,2\n", CSVOptions{Classes: []string{"0", "1", "2"}},
			"perceptron: Classes must name exactly 2 labels, got 3"},
		{"classes repeated", "1,0\n2,1\n", CSVOptions{Classes: []string{"1", "1.0"}},
			`perceptron: Classes "1" and "1.0" name the same label`},
		{"header mode", "1,0\n2,1\n", CSVOptions{Header: 7},
			"perceptron: unknown header mode 7: want HeaderAuto, HeaderYes or HeaderNo"},
		{"bad comma", "1,0\n2,1\n", CSVOptions{Comma: '\n'}, `perceptron: invalid Comma '\n'`},
	} {
		d, err := ReadCSV(strings.NewReader(tc.in), tc.opt)
		if err == nil {
			t.Errorf("%s: got %v, want error %q", tc.name, d, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, err, tc.want)
		}
	}
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
		want string
	}{
		{"1,a\n2,a\n", CSVOptions{}, `perceptron: only one label value "a" in column 1: need two classes`},
		{"1,a\n2,b\n", CSVOptions{Classes: []string{"a"}}, "perceptron: Classes must name at least 2 labels, got 1"},
		{"1,a\n2,b\n", CSVOptions{Classes: []string{"a", "c"}}, `perceptron: class "c" not found in the label column (column 1); its values are "a", "b"`},
	} {
		if _, err := ReadMultiCSV(strings.NewReader(tc.in), tc.opt); err == nil || err.Error() != tc.want {
			t.Errorf("ReadMultiCSV(%q): error %v, want %q", tc.in, err, tc.want)
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
	_, err = ReadCSVFile(filepath.Join(dir, "missing.csv"), CSVOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want one wrapping os.ErrNotExist", err)
	}
}
