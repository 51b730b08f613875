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
