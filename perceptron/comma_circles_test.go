package perceptron_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestCommaMustBeARune: a Comma that is no rune (−1, a surrogate, beyond
// U+10FFFF) is ErrOption "invalid Comma", as U+FFFD is, since it is
// written as U+FFFD: it was taken for that separator and the data was
// blamed ("1 field, need at least 2"), or U+FFFD-separated text was read.
func TestCommaMustBeARune(t *testing.T) {
	for _, c := range []rune{-1, 0xD800, 0xDFFF, 0x110000, 0xFFFD} {
		opt := perceptron.CSVOptions{Comma: c}
		if _, err := perceptron.ReadCSV(strings.NewReader("1\ufffd2\n3\ufffd-1\n"), opt); !errors.Is(err, perceptron.ErrOption) || !strings.Contains(err.Error(), "invalid Comma") {
			t.Errorf("ReadCSV, Comma %d: %v, want ErrOption invalid Comma", c, err)
		}
		if _, err := perceptron.ReadMultiCSV(strings.NewReader("1\ufffda\n3\ufffdb\n"), opt); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("ReadMultiCSV, Comma %d: %v, want ErrOption", c, err)
		}
	}
}

// TestCirclesNoiseOverflow: a noise so large that a point overflows is an
// ErrNonFinite error naming the point; Circles returned ±Inf points with no
// error.
func TestCirclesNoiseOverflow(t *testing.T) {
	if d, err := perceptron.Circles(100, 1e308, 1); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("Circles(100, 1e308, 1): %v, %v; want ErrNonFinite", d, err)
	}
	if _, err := perceptron.Circles(100, 1e300, 1); err != nil {
		t.Errorf("Circles(100, 1e300, 1): %v", err)
	}
}
