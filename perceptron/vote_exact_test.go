package perceptron_test

import (
	"errors"
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

// TestOneVsRestComparesVotesExactly: OneVsRest over voted models takes the
// argmax of the exact votes. Votes 2^53 and 2^53 + 1 (or 2·MaxInt and
// 2·MaxInt + 1) round to one float64, which made them a tie that the lower
// class won; an exact tie still goes to the lower class.
func TestOneVsRestComparesVotesExactly(t *testing.T) {
	up := perceptron.Hyperplane{W: []float64{1}}    // +1 at x = 1
	down := perceptron.Hyperplane{W: []float64{-1}} // -1 at x = 1
	x := []float64{1}
	voted := func(vs []perceptron.Hyperplane, cs ...int) perceptron.Model {
		return &perceptron.VotedModel{Vectors: vs, Counts: cs}
	}
	for _, tc := range []struct {
		name   string
		models []perceptron.Model
		want   int
	}{
		{"2·MaxInt, 2·MaxInt + 1", []perceptron.Model{
			voted([]perceptron.Hyperplane{up, up}, math.MaxInt, math.MaxInt),
			voted([]perceptron.Hyperplane{up, up, up}, math.MaxInt, math.MaxInt, 1)}, 1},
		{"-(2·MaxInt + 1), -2·MaxInt, -(2·MaxInt + 1)", []perceptron.Model{
			voted([]perceptron.Hyperplane{down, down, down}, math.MaxInt, math.MaxInt, 1),
			voted([]perceptron.Hyperplane{down, down}, math.MaxInt, math.MaxInt),
			voted([]perceptron.Hyperplane{down, down, down}, math.MaxInt, math.MaxInt, 1)}, 1},
		{"MaxInt, MaxInt: a tie, to the lower class", []perceptron.Model{
			voted([]perceptron.Hyperplane{up}, math.MaxInt),
			voted([]perceptron.Hyperplane{up, down, up}, math.MaxInt, 5, 5)}, 0},
		{"-1, 0, 0", []perceptron.Model{
			voted([]perceptron.Hyperplane{down}, 1),
			voted([]perceptron.Hyperplane{up, down}, 2, 2),
			voted([]perceptron.Hyperplane{up, up, down}, 0, 1, 1)}, 1},
	} {
		o := &perceptron.OneVsRestModel{Classes: make([]string, len(tc.models)), Models: tc.models}
		if got, err := o.Predict(x); err != nil || got != tc.want {
			t.Errorf("%s: Predict %d, %v; want class %d", tc.name, got, err, tc.want)
		}
	}
	if strconv.IntSize == 64 {
		var e uint = 53
		p53 := 1 << e
		o := &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{
			voted([]perceptron.Hyperplane{up}, p53), voted([]perceptron.Hyperplane{up}, p53+1)}}
		if got, err := o.Predict(x); err != nil || got != 1 {
			t.Errorf("2^53, 2^53 + 1: Predict %d, %v; want class 1", got, err)
		}
	}
	// A bad model among the voters is its own error, as with Score.
	o := &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{
		voted([]perceptron.Hyperplane{up}, 1), voted([]perceptron.Hyperplane{up}, -1)}}
	if _, err := o.Predict(x); !errors.Is(err, perceptron.ErrModel) {
		t.Errorf("a count of -1: Predict error %v; want ErrModel", err)
	}
	// The model is checked before the point, as Score checks them (and
	// Validate checks every class's model): a point of the wrong
	// dimension is ErrDimension with valid voters.
	if _, err := o.Predict([]float64{1, 2}); !errors.Is(err, perceptron.ErrModel) {
		t.Errorf("a count of -1, a point of 2 features: Predict error %v; want ErrModel", err)
	}
	o.Models[1] = voted([]perceptron.Hyperplane{up}, 1)
	if _, err := o.Predict([]float64{1, 2}); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("a point of 2 features: Predict error %v; want ErrDimension", err)
	}
}
