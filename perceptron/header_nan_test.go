package perceptron_test

import (
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestHeaderAutoNaNSpellings: HeaderAuto never drops a data row as a
// header. A first line whose feature is NaN as C's printf writes it
// ("-nan", "+NaN"), which the reader takes for a NaN anywhere else, was
// taken for a header (strconv does not parse it): the row was dropped and
// "-nan" became a feature's name. It is the same ErrNonFinite error on
// line 1 as on line 2, in ReadCSV and ReadMultiCSV.
func TestHeaderAutoNaNSpellings(t *testing.T) {
	for _, v := range []string{"-nan", "+nan", "-NaN", "+NAN", "nan", "NaN"} {
		for line, text := range map[int]string{1: v + ",1\n2,-1\n3,1\n", 2: "2,-1\n" + v + ",1\n3,1\n"} {
			d, err := perceptron.ReadCSV(strings.NewReader(text), perceptron.CSVOptions{})
			if !errors.Is(err, perceptron.ErrNonFinite) {
				t.Errorf("ReadCSV, %q on line %d: %v (data %v), want ErrNonFinite", v, line, err, d)
			}
			m, err := perceptron.ReadMultiCSV(strings.NewReader(strings.NewReplacer(",1\n", ",a\n", ",-1\n", ",b\n").Replace(text)), perceptron.CSVOptions{})
			if !errors.Is(err, perceptron.ErrNonFinite) {
				t.Errorf("ReadMultiCSV, %q on line %d: %v (data %v), want ErrNonFinite", v, line, err, m)
			}
		}
	}
	// A header of names still is one.
	d, err := perceptron.ReadCSV(strings.NewReader("nanometres,y\n2,-1\n3,1\n"), perceptron.CSVOptions{})
	if err != nil || d.N() != 2 || d.Features[0] != "nanometres" {
		t.Errorf("a header \"nanometres,y\": %v, %v", d, err)
	}
}

// TestHeaderSkip: HeaderSkip skips a first line of any width (scikit-learn's
// "n_samples,n_features,names", 4 fields before lines of 31) and names the
// file's own lines in errors, the reference line included; a gzip file read
// so is read by the same reader, with its errors (the command line
// decompressed such files itself and said "unexpected EOF" for a cut one).
func TestHeaderSkip(t *testing.T) {
	opt := perceptron.CSVOptions{Header: perceptron.HeaderSkip}
	d, err := perceptron.ReadCSV(strings.NewReader("3,2,neg,pos\n1,2,0\n2,1,1\n-1,0,0\n"), opt)
	if err != nil || d.N() != 3 || d.Features != nil {
		t.Fatalf("HeaderSkip: %v, %v", d, err)
	}
	_, err = perceptron.ReadCSV(strings.NewReader("4,2,neg,pos\n1,2,0\n2,1,0\n5,6\n6,5,1\n"), opt)
	var pe *perceptron.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(err.Error(), "(as on line 2)") {
		t.Errorf("a short line 4: %v, want line 4 and (as on line 2)", err)
	}
	var gz strings.Builder
	z := gzip.NewWriter(&gz)
	z.Write([]byte("3,2,neg,pos\n" + strings.Repeat("1,2,0\n2,1,1\n", 500)))
	z.Close()
	cut := gz.String()[:gz.Len()-10]
	if _, err := perceptron.ReadCSV(strings.NewReader(cut), opt); !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a cut gzip file: %v, want ErrFormat, truncated", err)
	}
	if _, err := perceptron.ReadCSV(strings.NewReader("3,2,neg,pos\n"), opt); !errors.Is(err, perceptron.ErrEmpty) {
		t.Errorf("only the skipped line: %v, want ErrEmpty", err)
	}
}
