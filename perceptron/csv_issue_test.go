package perceptron

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestReadCSVIssueCases are the CSV cases of issue 14: a byte order mark, a
// "?" on line 1 or line 2, a short second line after a header, and files
// whose labels are all +1 or all -1.
func TestReadCSVIssueCases(t *testing.T) {
	// The BOM is stripped: 4 rows, the first one kept, feature 1 not "\ufeff1".
	d, err := ReadCSV(strings.NewReader("\ufeff1,2,1\n3,4,-1\n5,6,1\n7,8,-1\n"), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 4 || d.X.At(0, 0) != 1 || d.Features != nil {
		t.Errorf("BOM: n = %d, x00 = %v, features %q; want 4, 1, none", d.N(), d.X.At(0, 0), d.Features)
	}
	// A BOM before a header.
	d, err = ReadCSV(strings.NewReader("\ufeffa,b,y\n1,2,1\n3,4,-1\n"), CSVOptions{})
	if err != nil || d.N() != 2 || !reflect.DeepEqual(d.Features, []string{"a", "b"}) {
		t.Errorf("BOM and header: %v, %v", d, err)
	}
	for _, c := range []struct {
		name, in, want string
		kind           error
	}{
		// A "?" is the same error on line 1 and on line 2: never a header.
		{"? on line 1", "?,2,1\n3,4,-1\n", `perceptron: line 1, column 0: cannot parse "?" as a number`, ErrFormat},
		{"? on line 2", "1,2,1\n?,4,-1\n", `perceptron: line 2, column 0: cannot parse "?" as a number`, ErrFormat},
		{"? on line 1, one feature", "?,1\n3,-1\n", `perceptron: line 1, column 0: cannot parse "?" as a number`, ErrFormat},
		{"NA on line 1", "NA,b,1\n3,4,-1\n", `perceptron: line 1, column 0: cannot parse "NA" as a number`, ErrFormat},
		// The short line is named, not the header or the first line.
		{"short line 2 after header", "a,b,y\n1,1\n2,3,1\n", "perceptron: line 2: 2 fields, expected 3 (as on line 1)", ErrFormat},
		{"short line 2, no header", "1,2,1\n1,1\n2,3,1\n", "perceptron: line 2: 2 fields, expected 3 (as on line 1)", ErrFormat},
		{"long header", "a,b,c,y\n1,2,1\n3,4,-1\n", "perceptron: line 1: 4 fields, expected 3 (as on line 2)", ErrFormat},
		// One class: only -1/+1 labels load.
		{"all 0", "1,0\n2,0\n", `perceptron: only one label value "0" in column 1: need two classes`, ErrOneClass},
		{"all setosa", "1,setosa\n2,setosa\n", `perceptron: only one label value "setosa" in column 1: need two classes`, ErrOneClass},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), CSVOptions{})
		if err == nil || err.Error() != c.want || !errors.Is(err, c.kind) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	// A first line of numbers with a string label is data, not a header.
	d, err = ReadCSV(strings.NewReader("1,2,label\n3,4,other\n"), CSVOptions{})
	if err != nil || d.N() != 2 || d.Features != nil {
		t.Errorf("numeric first line: %v, %v", d, err)
	}
	for _, c := range []struct {
		in      string
		y       []float64
		classes [2]string
	}{
		{"1,1\n2,+1\n3,1.0\n", []float64{1, 1, 1}, [2]string{"-1", "1"}},
		{"x,y\n1,-1\n2,-1\n", []float64{-1, -1}, [2]string{"-1", "+1"}},
	} {
		d, err := ReadCSV(strings.NewReader(c.in), CSVOptions{})
		if err != nil || !reflect.DeepEqual(d.Y, c.y) || d.Classes != c.classes {
			t.Errorf("%q: %v, %v; want y %v, classes %q", c.in, d, err, c.y, c.classes)
			continue
		}
		if err := d.Validate(); !errors.Is(err, ErrOneClass) {
			t.Errorf("%q: Validate = %v, want ErrOneClass", c.in, err)
		}
	}
}

// BenchmarkReadCSV reads 100,000 rows of 10 features (about 10 MB of text,
// an 8 MB matrix); its B/op shows the memory the stream parser allocates
// per file (the matrix, its growth, and one string per line).
func BenchmarkReadCSV(b *testing.B) {
	var sb strings.Builder
	for i := range 100_000 {
		for j := range 10 {
			sb.WriteString(strconv.FormatFloat(float64(i*10+j)/7, 'f', 6, 64))
			sb.WriteByte(',')
		}
		sb.WriteString([]string{"-1\n", "1\n"}[i%2])
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadCSV(strings.NewReader(text), CSVOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadCSVExactNumericLabels: numeric labels are one class only when
// their exact decimal values are equal. As float64, 2^53 and 2^53 + 1,
// "0.1" and "0.10000000000000000001", "1e-400" and "0" were one class each
// (a file of the first pair and a third label trained as two classes); one
// value in several spellings ("1", "1.0", "+1", "1e0") is still one class,
// named as the file first writes it, and the classes sort by exact value.
func TestReadCSVExactNumericLabels(t *testing.T) {
	for _, c := range []struct {
		in      string
		classes [2]string
		y       []float64
	}{
		{"1,0,9007199254740992\n2,0,9007199254740993\n", [2]string{"9007199254740992", "9007199254740993"}, []float64{-1, 1}},
		{"1,0,0.10000000000000000001\n2,0,0.1\n", [2]string{"0.1", "0.10000000000000000001"}, []float64{1, -1}},
		{"1,0,1e-400\n2,0,0\n", [2]string{"0", "1e-400"}, []float64{1, -1}},
		{"1,0,1\n2,0,1.0\n3,0,+1\n4,0,1e0\n5,0,2\n", [2]string{"1", "2"}, []float64{-1, -1, -1, -1, 1}},
	} {
		d, err := ReadCSV(strings.NewReader(c.in), CSVOptions{})
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if d.Classes != c.classes || !reflect.DeepEqual(d.Y, c.y) {
			t.Errorf("%q: classes %q, y %v; want %q, %v", c.in, d.Classes, d.Y, c.classes, c.y)
		}
	}
	_, err := ReadCSV(strings.NewReader("1,0,9007199254740992\n2,0,9007199254740993\n-1,0,5\n"), CSVOptions{})
	if want := `perceptron: 3 label values in column 2 ("5", "9007199254740992", "9007199254740993"): choose two classes`; err == nil || err.Error() != want || !errors.Is(err, ErrClasses) {
		t.Errorf("three labels, two of them one float64: %v; want %q", err, want)
	}
	d, err := ReadCSV(strings.NewReader("1,0,9007199254740992\n2,0,9007199254740993\n-1,0,5\n"), CSVOptions{Classes: []string{"9007199254740993", "5"}})
	if err != nil || d.N() != 2 || d.Classes != [2]string{"9007199254740993", "5"} || !reflect.DeepEqual(d.Y, []float64{-1, 1}) {
		t.Errorf("Classes 2^53+1, 5: %v, %v", d, err)
	}
	m, err := ReadMultiCSV(strings.NewReader("1,0,0.1\n2,0,0.10000000000000000001\n3,0,1e-1\n"), CSVOptions{})
	if err != nil || !reflect.DeepEqual(m.ClassNames, []string{"0.1", "0.10000000000000000001"}) || !reflect.DeepEqual(m.Labels, []int{0, 1, 0}) {
		t.Errorf("ReadMultiCSV: %v, %v", m, err)
	}
}

// TestReadCSVBlankAndSplitLabels: a quoted label of only spaces was a
// class (printed as a blank line); it is missing, ErrLabel, as an empty
// label is. "1,5;a" (a ';'- or tab-separated line with a decimal comma
// and one feature) was read as the value 1 and the label "5;a"; it is
// ErrFormat, naming the line and the column.
func TestReadCSVBlankAndSplitLabels(t *testing.T) {
	for _, c := range []struct {
		in, want string
		kind     error
	}{
		{"1,2,\" \"\n2,1,b\n", `perceptron: line 1, column 2: the label " " is blank: a missing value, not a class`, ErrLabel},
		{"1,2,a\n2,1,\"\t\"\n", `perceptron: line 2, column 2: the label "\t" is blank: a missing value, not a class`, ErrLabel},
		{"1,5;a\n2,5;b\n", `perceptron: line 1, column 1: the label "5;a" holds a semicolon after a number: the file may be ';'-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points`, ErrFormat},
		{"1,5\ta\n2,5\tb\n", `perceptron: line 1, column 1: the label "5\ta" holds a tab after a number: the file may be tab-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points`, ErrFormat},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), CSVOptions{})
		var pe *ParseError
		if err == nil || err.Error() != c.want || !errors.Is(err, c.kind) || !errors.As(err, &pe) {
			t.Errorf("%q: %v; want %q", c.in, err, c.want)
		}
	}
	// A ';' that follows no number is a label's, as before; and a
	// ';'-separated file read with Comma ';' has no such label.
	if d, err := ReadCSV(strings.NewReader("1,2,a;b\n2,1,c\n"), CSVOptions{}); err != nil || d.Classes != [2]string{"a;b", "c"} {
		t.Errorf("label a;b: %v, %v", d, err)
	}
	if d, err := ReadCSV(strings.NewReader("1;5;a\n2;5;b\n"), CSVOptions{Comma: ';'}); err != nil || d.D() != 2 {
		t.Errorf("Comma ';': %v, %v", d, err)
	}
}
