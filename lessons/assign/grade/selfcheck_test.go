package grade

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// TestSelfCheckRules checks that the self-checks of an assignment that
// apply the grader's rule (checkRules) list exactly the identifiers the
// grader denies for it, and that every visible test of each function they
// guard calls checkRules: the self-checks fail where the grader would
// reject the notebook.
func TestSelfCheckRules(t *testing.T) {
	a := assigntest.Load(t, "../../hw4_pocket_voted_averaged")
	list := func(name string) []string {
		for _, pc := range a.TestCells {
			src := a.Source.Cells[pc.Index].Source
			m := regexp.MustCompile(name + `\s*=\s*\[\]string\{([^}]*)\}`).FindStringSubmatch(src)
			if m == nil {
				continue
			}
			var out []string
			for _, q := range regexp.MustCompile(`"[^"]*"`).FindAllString(m[1], -1) {
				s, _ := strconv.Unquote(q)
				out = append(out, s)
			}
			return out
		}
		t.Fatalf("hw4 has no %s", name)
		return nil
	}
	var learners, methods []string
	for _, d := range a.Policy.Deny {
		if n, ok := strings.CutPrefix(d, assignment.ModulePath+"/perceptron."); ok {
			learners = append(learners, n)
		} else if n, ok := strings.CutPrefix(d, "."); ok {
			methods = append(methods, n)
		} else {
			t.Errorf("the grader denies %s, which checkRules does not know", d)
		}
	}
	if got := list("deniedLearners"); !slices.Equal(got, learners) {
		t.Errorf("the self-checks deny the learners %v, the grader %v", got, learners)
	}
	if got := list("deniedMethods"); !slices.Equal(got, methods) {
		t.Errorf("the self-checks deny the methods %v, the grader %v", got, methods)
	}
	for _, tf := range a.Tests {
		if tf.Hidden {
			continue
		}
		src := a.Source.Cells[tf.Cell].Source
		for _, fn := range []string{"CountErrors", "PocketPLA", "VotedPredict", "AveragedPLA"} {
			if strings.Contains(src, fn+"(") && !strings.Contains(src, `checkRules(t, "`+fn+`")`) {
				t.Errorf("visible %s calls %s but does not check the grader's rule on it", tf.Name, fn)
			}
		}
	}
}
