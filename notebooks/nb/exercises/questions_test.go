package exercises

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// boundCheat and boundByHand are two check cells of lesson 5's question:
// the first takes its numbers from perceptron.Bound.
func boundCheat() bool {
	b, _ := perceptron.Bound(BoundByHandData(), perceptron.Options{})
	return CheckBoundByHand(b.R, b.Gamma, b.Bound)
}

func boundByHand() bool { return CheckBoundByHand(math.Sqrt(10), 1/math.Sqrt(5), 50) }

// TestCheckBoundByHandRefusesThePackage: with this file as GoNB's main.go
// (a link, so that it is the file the runtime names), the cell that asks
// perceptron.Bound fails and the one with numbers worked out passes.
func TestCheckBoundByHandRefusesThePackage(t *testing.T) {
	abs, err := filepath.Abs("questions_test.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(abs, filepath.Join(dir, "main.go")); err != nil {
		t.Fatal(err)
	}
	expectRefusal(t, dir, "bound", boundCheat,
		"FAILED: Question (lesson 5): R, γ and the bound by hand: work them out by hand, not with perceptron.Bound")
	expectVerdict(t, "by hand", true, boundByHand, "all 3 cases passed")
}
