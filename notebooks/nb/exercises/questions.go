package exercises

import (
	"fmt"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

// A choice is a theory question of a lesson answered by picking a letter,
// sealed: right is answerKey(id, letter) of the right letter, and why
// holds, for every letter, the sealed explanation of why it is right or
// wrong (seal). The package's source, which every student has, thus
// shows neither the answer nor its explanation in plain text; the
// lesson's collapsed worked answer gives both. A new question's entries
// are made with answerKey and seal.
type choice struct {
	title string
	right string
	why   map[string]string
}

// choices are the multiple-choice questions of the lessons, by id.
var choices = map[string]choice{
	"03-strict": {
		title: "Question (lesson 3): ≤ against <",
		right: "833d5ce44c4c1ca00303995945dfcd07894a88e942ee62d247db0161b83d08ae",
		why: map[string]string{
			"a": "40c21ff21ed91a70c5d559b19d5084685251556b9bf029a7a3ecba5ad8866520147d8ce86c3657b00776a3c16fc34ad33b56c901d7649e219ebf98562f615f35cfc094d741d8da6c70dce52a5c9f9e6e0dc8c0373f257dc2428ed41f1e9adb2a1fa667fd3ef215ced4842546c5724a64",
			"b": "717c06d2edb72b0879ffc15300ff7f5ea8447ca5beef5ad42b1be15fbd54403b3fe4a29acbeae989486607bb4aade54f78ed26ecd432b7023e9f0331079b4e4dd198e1f2eaa41939539b5024bbea92756f539f1afc7d7953fc381a1979502e783a4cf51abf9709d3",
			"c": "e00a1962a330eec01fda7b8ad8dba4b2a506275472b911de4da577fd167139f1982c1abbf3949e7d33a1ee911f1256d973b1adcbf1267fcaa2acb7209c889bd69d9c56c9290e44439060fb8addf989ea1be04a4922dec451c5367684482ec9b963bd834c5b",
		},
	},
	"05-scaling": {
		title: "Question (lesson 5): scaling without a bias",
		right: "a9af60a532b7269d396897ccca308347d5b6839609d3f5d119481177fd934111",
		why: map[string]string{
			"a": "a5db415e5799271cf1be0663dd3832644eb75539d51c6c79f9e0c325a4e8922a26127a9d54bd7fd6f4e5c621299c4f100fc19d19d00b186a797c4d35cbfc2a9245362dc119d7aedc6893ac0ebafab8bad852b27ae970fc565ac90a86a07373dacbc74ef748e1b0312cd572ae24fce7e863a527e71a35d018d5bba6fd91c17e9f88b1aaa54d2d6faf1e6e202e324339170e12e9d3516522f6971c6fb69aeab8b492a85ee26877424438e819d86f014e08870ced0e67bb86930e",
			"b": "b6b4616e729d72ea87e32ebb3b73c2a302a4915d6fd2426985f8f9347188b299c19cdb91157e8ea7bda33ee8c7e9e740cf33ff2efc4b20881a8a27b56017a9d1a51ef5a8647f4e23b140e7c480fab143616f50cbe06b2967e762549266ccef0ea955",
			"c": "26aef59992df8d441b0047de0ba49b9cf3834b5a3d4ea57cc69cf73c96ff318f53577e2318a15ace5192ad23948199eb316ddd4bc4457c70a634dd7c1edf9b34974762",
		},
	},
	"05-shifting": {
		title: "Question (lesson 5): shifting with a bias",
		right: "091486691636d7bc715b341c05827530a0f7acc1da837e75d42883579ec29dbd",
		why: map[string]string{
			"a": "3c586190557a90e38672fbd7039e877056f65aaa33a2959beb51fc83647294d93e7d7a55f7c14e8a6d510554742099c20e865468843a5e9abe2500ef8ac5a1e1f0d5caf56ba2ae0487bbc03dfc9ef35d76d95753a909df96dd79aa82c35424ef4df82520890b32cbe7993f036f8570623c37a521ed77bd39390f0eb5c101184f2343caa4fbe7a65f111edec722fc6d41c659ab89ff745eab9815fc3cd5bce237a09bf294d5db876ea1f5c7d3dc9c6e292b43d8a2851a8b10e1a8dda7ececa35efe35ee860caebe4dbcf5237b77",
			"b": "74aaf63dd3d316fe6cc4f24319b5950c41c78956a5fc011044b16df6c76c11644ec1d138384bb381539adea934cdd308723166b0a78bf343da1c73c4b49316a86436f942c7db675514cfdaa252e52f3153b97325245b69dc17dcb6c68a6826c99430980a555a04188ef38fdf7118785feae18cd87750d9e81fde04e3b46b064574096a56c59ce9682b436a0313f4e6ee17b08f59c1c5bdb25e32187966b9740c2e65264012d02975324eb2a53804fa1a9c55b8cee84c481d99a6986b725f95778bcae8fcbb2e3ce2d9c349ebfe2ef5c0bc856992afcab8ff13c9bdce03110edf054584d604f0d7a329eef15672a59c9182d3f723da02be7bd93a68876b4bb398c2c6725d8bba6fea7afdc81c294971184e39de4556bf6d97d8bffc275d9bbea67b238622be70c69c143718b879c2822735a817fa8bc999b0ebf53ad43f977161735aacec248334e2d4e7cd2f13f0965bc00d781852",
			"c": "06eedb4d4e711b6c0a6112093692fff04a0a5b0488e37bfc72b14c9033a0df0dbd03f108649a57f5c0dbea7f9c254b3a3afb77a58204c724dba3c992014d6e7a32455dcbf8716fa2f97e31940e992f3860e61796de9c87e1662672f81d500e742a0348836328dc6a5bb3e97e7e18e48a7c904b8b33379452046554c0f1ee2653c6fe0fa70054acd9c02181c66366fad75bf7",
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
	sealed, known := q.why[a]
	why := unseal(id, a, sealed)
	switch {
	case a == "":
		return refuse(q.title, notDone, "put your letter between the quotes")
	case !known:
		return refuse(q.title, failed, fmt.Sprintf("%q is not one of the choices", answer))
	case answerKey(id, a) == q.right:
		show(&checker{name: q.title}, passed, "right: "+why)
		return true
	default:
		return refuse(q.title, failed, fmt.Sprintf("wrong: (%s) %s. Think again.", a, why))
	}
}

// BoundByHandData is lesson 5's small data set for the bound by hand: two
// points of the line, x = 3 labelled +1 and x = 1 labelled −1. Its best
// θ* = [−2, 1]/√5 has a bias (b* ≠ 0), so the theorem's γ = 1/√5 differs
// from the raw margin 1 of the same line x = 2: R = √10, bound 50.
func BoundByHandData() *perceptron.Dataset {
	return must(perceptron.NewDataset([][]float64{{3}, {1}}, []float64{1, -1}))
}

// CheckBoundByHand checks lesson 5's question: R, γ and the bound
// (R/γ)² of the theorem for BoundByHandData with a bias, computed by hand.
// The expected values come from perceptron.Bound; each is compared within
// 0.5% (boundByHandTol: three significant digits, as the lesson asks, so
// 3.16 for √10 passes and 3.2 fails), and the two usual slips get a hint:
// R of the raw points (3) and γ of the raw line over ||w|| (1).
func CheckBoundByHand(R, gamma, bound float64) bool {
	b := must(perceptron.Bound(BoundByHandData(), perceptron.Options{}))
	call, err := callerCall(0)
	if call != "" {
		return refuse("Question (lesson 5): R, γ and the bound by hand", failed, "work them out by hand, not with "+call)
	}
	if R == 0 && gamma == 0 && bound == 0 {
		return refuse("Question (lesson 5): R, γ and the bound by hand", notDone, "fill in your three numbers")
	}
	return run("Question (lesson 5): R, γ and the bound by hand", unread(err, func(c *checker) {
		c.close("R = max ||[1, x_i]|| (within 0.5%)", b.R, R, boundByHandTol)
		if closeTo(3, R, boundByHandTol) {
			c.note("R is measured on the augmented points [1, x], not on x")
		}
		c.close("γ, the best margin over ||[b, w]|| (within 0.5%)", b.Gamma, gamma, boundByHandTol)
		switch {
		case closeTo(1, gamma, boundByHandTol):
			c.note("1 is the distance of the line x = 2 to the points, its margin over |w|; the theorem divides y_i (w x_i + b) by ||[b, w]||, and this line's b is not 0")
		case !closeTo(b.Gamma, gamma, boundByHandTol):
			c.note("the points y_i [1, x_i] are [1, 3] and [−1, −1]: which unit θ has the largest min_i y_i θ·[1, x_i]?")
		}
		c.close("the bound (R/γ)² (within 0.5%)", b.Bound, bound, boundByHandTol)
	}))
}

// boundByHandTol is CheckBoundByHand's relative tolerance: an answer
// rounded to three significant digits is within 0.5% of the exact value.
const boundByHandTol = 5e-3
