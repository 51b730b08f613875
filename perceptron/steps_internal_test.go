package perceptron

import (
	"errors"
	"math"
	"testing"
)

// TestStepsFit: a run refuses the epoch whose steps could pass the largest
// int of the platform (2^31 − 1 on 386, where Updates and a voted vector's
// survival count wrapped and counted backwards), and allows the one
// before it, on the platform's own int; on 386 also at the sizes that
// wrapped there (the 22nd epoch of 100 million rows).
func TestStepsFit(t *testing.T) {
	for _, n := range []int{1, 2, 3, 1000, 100_000_000, math.MaxInt / 7, math.MaxInt} {
		last := math.MaxInt/n - 1 // the last epoch (0-based) whose steps fit
		if err := stepsFit(last, n); err != nil {
			t.Errorf("epoch %d of %d rows: %v, want no error", last, n, err)
		}
		if last+1 < math.MaxInt {
			if err := stepsFit(last+1, n); !errors.Is(err, ErrOption) {
				t.Errorf("epoch %d of %d rows: %v, want ErrOption", last+1, n, err)
			}
		}
	}
	if math.MaxInt == math.MaxInt32 {
		if err := stepsFit(21, 100_000_000); !errors.Is(err, ErrOption) {
			t.Errorf("386: epoch 21 of 100,000,000 rows: %v, want ErrOption", err)
		}
	} else if err := stepsFit(21, 100_000_000); err != nil {
		t.Errorf("epoch 21 of 100,000,000 rows: %v", err)
	}
}
