package exercises

import (
	"fmt"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

// A choice is a theory question of a lesson answered by picking a letter:
// the right letter and, for every letter, why it is right or wrong.
type choice struct {
	title string
	right string
	why   map[string]string
}

// choices are the multiple-choice questions of the lessons, by id.
var choices = map[string]choice{
	"03-strict": {
		title: "Question (lesson 3): ≤ against <",
		right: "c",
		why: map[string]string{
			"a": "at w = 0, b = 0 every score is 0, and y·0 < 0 is false: the first point is no mistake, and neither is any other",
			"b": "only a mistake updates, and with < a score of 0 is no mistake: at w = 0, b = 0 nothing is ever a mistake",
			"c": "from w = 0, b = 0 every score is 0, y·0 < 0 is never true, so there is never an update and w stays 0",
		},
	},
	"05-scaling": {
		title: "Question (lesson 5): scaling without a bias",
		right: "a",
		why: map[string]string{
			"a": "R and γ (through the origin, with ||θ*|| = 1) are both multiplied by 10, so R/γ and the bound do not change; PLA's updates are 10 times larger steps from 0 and make the same mistakes",
			"b": "R grows 10 times, but so does γ: y·θ*·(10x) = 10·y·θ*·x; only their ratio enters the bound",
			"c": "γ grows 10 times, but so does R; only their ratio enters the bound",
		},
	},
	"05-shifting": {
		title: "Question (lesson 5): shifting with a bias",
		right: "b",
		why: map[string]string{
			"a": "the shift moves the best line with the data, so the distance margin γ_geo stays, but the bound is not measured in x: it uses the augmented points [1, x], whose lengths grow, and θ = [b, w], whose b grows",
			"b": "R = max ||[1, x]|| grows with the points' distance from the origin, and the shifted line needs a larger |b|, so the bound's γ = γ_geo·||w||/||[b, w]|| shrinks: on oneRun() R goes from 1.61 to 11.04, γ from 0.0529 to 0.0247, the bound from 925 to about 200000, and PLA from 127 updates to 7789, in 1764 epochs (more than the default 1000)",
			"c": "R grows (the points move away from the origin) and the bound's γ does not grow: the shifted line needs a larger |b|, and γ divides by ||[b, w]||",
		},
	},
}

// CheckChoice checks the answer ("a", "b", …) to the lesson's
// multiple-choice question id, and says why it is right or wrong. An
// empty answer is NOT DONE.
func CheckChoice(id, answer string) bool {
	q, ok := choices[id]
	if !ok {
		return refuse("Question", failed, fmt.Sprintf("no question %q", id))
	}
	a := strings.ToLower(strings.TrimSpace(answer))
	switch why, known := q.why[a]; {
	case a == "":
		return refuse(q.title, notDone, "put your letter between the quotes")
	case !known:
		return refuse(q.title, failed, fmt.Sprintf("%q is not one of the choices", answer))
	case a == q.right:
		show(&checker{name: q.title}, passed, "right: "+why)
		return true
	default:
		return refuse(q.title, failed, fmt.Sprintf("wrong: (%s) %s. Think again.", a, why))
	}
}

// BoundByHandData is lesson 5's small data set for the bound by hand: two
// points of the line, x = 2 labelled +1 and x = −2 labelled −1.
func BoundByHandData() *perceptron.Dataset {
	d, err := perceptron.NewDataset([][]float64{{2}, {-2}}, []float64{1, -1})
	if err != nil {
		panic(err)
	}
	return d
}

// CheckBoundByHand checks lesson 5's question: R, γ and the bound
// (R/γ)² of the theorem for BoundByHandData with a bias, computed by hand.
// The expected values come from perceptron.Bound; each is compared within
// 0.5% (boundByHandTol: three significant digits, as the lesson asks, so
// 2.24 for √5 passes and 2.3 fails), and a wrong R or γ gets a hint at the
// usual slip.
func CheckBoundByHand(R, gamma, bound float64) bool {
	b, err := perceptron.Bound(BoundByHandData(), perceptron.Options{})
	if err != nil {
		panic(err)
	}
	if call := callerCall(0); call != "" {
		return refuse("Question (lesson 5): R, γ and the bound by hand", failed, "work them out by hand, not with "+call)
	}
	if R == 0 && gamma == 0 && bound == 0 {
		return refuse("Question (lesson 5): R, γ and the bound by hand", notDone, "fill in your three numbers")
	}
	return run("Question (lesson 5): R, γ and the bound by hand", func(c *checker) {
		c.close("R = max ||[1, x_i]|| (within 0.5%)", b.R, R, boundByHandTol)
		if closeTo(2, R, boundByHandTol) {
			c.note("R is measured on the augmented points [1, x], not on x")
		}
		c.close("γ, the best margin over ||[b, w]|| (within 0.5%)", b.Gamma, gamma, boundByHandTol)
		if !closeTo(b.Gamma, gamma, boundByHandTol) {
			c.note("the points y_i [1, x_i] are [1, 2] and [−1, 2]: which unit θ has the largest min_i y_i θ·[1, x_i]?")
		}
		c.close("the bound (R/γ)² (within 0.5%)", b.Bound, bound, boundByHandTol)
	})
}

// boundByHandTol is CheckBoundByHand's relative tolerance: an answer
// rounded to three significant digits is within 0.5% of the exact value.
const boundByHandTol = 5e-3
