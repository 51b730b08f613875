package perceptron_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestVoteIsExact: the vote Σ_k c_k sign(w_k·x + b_k) is summed exactly.
// Counts 2^53 + 1 for +1 and 2^53 against give the vote +1 (float64 sums
// made it 2^53 − 2^53 = 0, a tie); huge counts that overflow int64 when
// added give the right sign too.
func TestVoteIsExact(t *testing.T) {
	up := perceptron.Hyperplane{W: []float64{1}}    // +1 at x = 1
	down := perceptron.Hyperplane{W: []float64{-1}} // -1 at x = 1
	x := []float64{1}
	var e uint = 53
	p53 := 1 << e // 2^53, a variable: the constant would not compile where int has 32 bits
	for _, tc := range []struct {
		name    string
		vectors []perceptron.Hyperplane
		counts  []int
		score   float64
		predict float64
	}{
		{"2^53+1 against 2^53", []perceptron.Hyperplane{up, down}, []int{p53 + 1, p53}, 1, 1},
		{"2^53 against 2^53+1", []perceptron.Hyperplane{up, down}, []int{p53, p53 + 1}, -1, -1},
		{"2^53 against 2^53", []perceptron.Hyperplane{up, down}, []int{p53, p53}, 0, 0},
		{"3 MaxInt against 3 MaxInt - 1",
			[]perceptron.Hyperplane{up, up, up, down, down, down},
			[]int{math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt - 1}, 1, 1},
		{"2 MaxInt against 1", []perceptron.Hyperplane{up, up, down}, []int{math.MaxInt, math.MaxInt, 1}, 2*math.MaxInt - 1, 1},
	} {
		if strconv.IntSize < 64 && strings.HasPrefix(tc.name, "2^53") {
			t.Logf("%s: skipped, a count of 2^53 needs a 64-bit int", tc.name)
			continue
		}
		v := &perceptron.VotedModel{Vectors: tc.vectors, Counts: tc.counts}
		if err := v.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		s, err := v.Score(x)
		if err != nil || s != tc.score {
			t.Errorf("%s: Score %v, %v; want %v", tc.name, s, err, tc.score)
		}
		p, err := v.Predict(x)
		if err != nil || p != tc.predict {
			t.Errorf("%s: Predict %v, %v; want %v", tc.name, p, err, tc.predict)
		}
		d, err := perceptron.NewDataset([][]float64{x}, []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		all, err := v.PredictAll(d)
		if err != nil || all[0] != tc.predict {
			t.Errorf("%s: PredictAll %v, %v; want [%v]", tc.name, all, err, tc.predict)
		}
	}
}
