package perceptron_test

import (
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
