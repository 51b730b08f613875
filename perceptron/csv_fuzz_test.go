package perceptron

import (
	"math"
	"strings"
	"testing"
)

// FuzzReadCSV checks that ReadCSV and ReadMultiCSV never panic and that
// whatever they return is a usable data set: finite values, labels -1/+1
// (checkTrain: the learners' check; one class is data ReadCSV loads, as
// CSVOptions.Classes says, so Validate, which refuses it, is not the
// property), names of the right length, and for the
// multi-class reader labels in range with every class present.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,y\n1,2,0\n3,4,1\n",
		"x1 x2 x3 x4 y\n0.97681 0.10723 0.64385 0.29556 1\n0.67194 0.2418 0.83075 0.42741 -1\n",
		"5.1,3.5,setosa\n7.0,3.2,versicolor\n6.3,3.3,virginica\n",
		"1,NaN,1\n2,3,-1\n",
		"\r\n1\t2 -1\r\n\n3 4 1\n",
		"\"a\";\"b\"\n1;x\n2;y\n",
	} {
		f.Add(s, uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, header, pick uint8) {
		opt := CSVOptions{Header: HeaderMode(header % 4)}
		switch pick % 4 {
		case 1:
			opt.Classes = []string{"1", "-1"}
		case 2:
			opt.Features = []int{0}
		case 3:
			opt.Comma = ';'
		}
		d, err := ReadCSV(strings.NewReader(s), opt)
		if err == nil {
			if err := checkTrain(d); err != nil {
				t.Fatalf("ReadCSV(%q) returned invalid data: %v", s, err)
			}
			if d.Features != nil && len(d.Features) != d.D() {
				t.Fatalf("ReadCSV(%q): %d feature names for %d features", s, len(d.Features), d.D())
			}
		} else if !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Fatalf("ReadCSV(%q): error %q lacks the package prefix", s, err)
		}
		m, err := ReadMultiCSV(strings.NewReader(s), opt)
		if err != nil {
			return
		}
		k := len(m.ClassNames)
		seen := make([]bool, k)
		for i, l := range m.Labels {
			if l < 0 || l >= k {
				t.Fatalf("ReadMultiCSV(%q): row %d label %d out of [0, %d)", s, i, l, k)
			}
			seen[l] = true
			for _, v := range m.Row(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("ReadMultiCSV(%q): row %d holds %v", s, i, v)
				}
			}
		}
		for c, ok := range seen {
			if !ok || k < 2 {
				t.Fatalf("ReadMultiCSV(%q): class %d of %d has no rows", s, c, k)
			}
		}
	})
}
