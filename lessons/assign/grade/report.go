package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// Text is the instructor's readable report: the score, then one entry per
// test saying whether it passed and, if not, what the test expected and
// got, the panic, the time-out or the compiler's message, hidden tests
// included.
func (r *Report) Text() string {
	return EscapeControl(r.text(false))
}

// StudentText is the student's readable report, the one to send back: as
// Text, except that a hidden test shows only its name, its points, whether
// it passed and its author's message, never what it expected, got or
// printed, until the instructor releases its output (ReleaseHidden).
func (r *Report) StudentText() string {
	return EscapeControl(r.text(true))
}

func (r *Report) text(student bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Submission: %s\nAssignment: %s\nScore: %s / %s\n", r.Submission, r.Assignment, num(r.Score), num(r.MaxScore))
	if r.Isolation != "" {
		fmt.Fprintf(&b, "Isolation: %s\n", r.Isolation)
	}
	if r.Variant != "" && !student {
		fmt.Fprintf(&b, "Hidden data: %s\n", r.Variant)
	}
	if s := r.rejectedText(); s != "" {
		fmt.Fprintf(&b, "\n%s\n", s)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	if r.CompileError != "" {
		fmt.Fprintf(&b, "\nThe code did not compile, so every test scores 0. The compiler said:\n%s\n", indent(r.CompileError, "    "))
	}
	if s := r.stubsText(); s != "" {
		fmt.Fprintf(&b, "\n%s\n", s)
	}
	b.WriteString("\n")
	for _, t := range r.Tests {
		kind := ""
		if t.Hidden {
			kind = " (hidden test)"
		}
		fmt.Fprintf(&b, "%-7s %s%s: %s / %s", strings.ToUpper(word(t.Status)), t.Name, kind, num(t.Score), num(t.MaxScore))
		switch t.Status {
		case StatusPassed:
			fmt.Fprintf(&b, " (%.1fs)", t.Seconds)
		case StatusCompile:
			if r.CompileError == "" {
				fmt.Fprintf(&b, " (%s, %.1fs)", t.Status, t.Seconds)
			}
		default:
			fmt.Fprintf(&b, " (%s, %.1fs)", t.Status, t.Seconds)
		}
		b.WriteString("\n")
		if student && t.Hidden && !r.ReleaseHidden {
			if t.Message != "" {
				b.WriteString(indent(t.Message, "        ") + "\n")
			}
			continue
		}
		// After a compile error every test has the same message, shown once above.
		if t.Status != StatusPassed && !(t.Status == StatusCompile && r.CompileError != "") && t.Output != "" {
			b.WriteString(indent(t.Output, "        ") + "\n")
		}
	}
	return b.String()
}

// rejectedText lists the rules the code broke, or "" if none.
func (r *Report) rejectedText() string {
	if len(r.Rejected) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Rejected: the code breaks the assignment's rules, so nothing was built or run and every test scores 0:")
	for _, v := range r.Rejected {
		if v.Cell < 0 {
			fmt.Fprintf(&b, "\n    %s: %s", v.Rule, v.Text)
		} else {
			fmt.Fprintf(&b, "\n    %s", v)
		}
	}
	return b.String()
}

// stubsText says which functions did not compile and were replaced by a
// panic, or "" if none.
func (r *Report) stubsText() string {
	if len(r.Stubs) == 0 {
		return ""
	}
	var b strings.Builder
	var undefined []Stub
	for _, st := range r.Stubs {
		if st.Undefined {
			undefined = append(undefined, st)
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Some functions did not compile. The grader replaced the body of each by a panic\n" +
				"naming the compiler's message, so only the tests that call them score 0:")
		}
		fmt.Fprintf(&b, "\n    %s (your cell %d, line %d):\n%s", st.Func, st.Cell, st.Line, indent(st.Error, "        "))
	}
	if len(undefined) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Some functions of the assignment are missing or have another signature. The tests\n" +
			"call a function that panics saying so, and only they score 0:")
		for _, st := range undefined {
			fmt.Fprintf(&b, "\n%s", indent(st.Error, "    "))
		}
	}
	return b.String()
}

func word(status Status) string {
	switch status {
	case StatusPassed:
		return "pass"
	case StatusTimeout:
		return "timeout"
	case StatusPanic:
		return "panic"
	default:
		return "fail"
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// num formats a score without trailing zeros: 3, 2.5.
func num(x float64) string { return fmt.Sprintf("%g", x) }

// gradescopeTest is one entry of Gradescope's results.json "tests".
type gradescopeTest struct {
	Name       string  `json:"name"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Status     string  `json:"status"`
	Output     string  `json:"output"`
	Visibility string  `json:"visibility"`
}

// gradescopeResults is Gradescope's results.json.
type gradescopeResults struct {
	Score         float64          `json:"score"`
	MaxScore      float64          `json:"max_score"`
	ExecutionTime float64          `json:"execution_time"`
	Output        string           `json:"output"`
	Tests         []gradescopeTest `json:"tests"`
}

// JSON is the report in Gradescope's results.json shape, the part the
// student sees. A hidden test shows its name, points, whether it passed
// and its author's message (its doc comment), never its output: that is
// in the instructor's report.txt only.
func (r *Report) JSON() ([]byte, error) {
	res := gradescopeResults{Score: r.Score, MaxScore: r.MaxScore, ExecutionTime: r.Seconds, Tests: []gradescopeTest{}}
	var out []string
	if r.Isolation != "" {
		out = append(out, "Isolation: "+r.Isolation)
	}
	if s := r.rejectedText(); s != "" {
		out = append(out, s)
	}
	out = append(out, r.Notes...)
	if r.CompileError != "" {
		out = append(out, "The code did not compile, so every test scores 0:\n"+r.CompileError)
	}
	if s := r.stubsText(); s != "" {
		out = append(out, s)
	}
	res.Output = strings.Join(out, "\n\n")
	for _, t := range r.Tests {
		gt := gradescopeTest{Name: t.Name, Score: t.Score, MaxScore: t.MaxScore, Output: string(t.Status), Visibility: "visible", Status: "failed"}
		if t.Status == StatusPassed {
			gt.Status = "passed"
		}
		if t.Output != "" {
			gt.Output = string(t.Status) + ":\n" + t.Output
		}
		if t.Hidden {
			// Neither the test's source nor its output (until the
			// instructor releases it): only whether it passed and what
			// its author wrote about it, shown after the due date
			// unless the instructor chose at once.
			gt.Visibility = "after_due_date"
			if r.ShowHidden {
				gt.Visibility = "visible"
			}
			gt.Output = "hidden test: " + string(t.Status)
			if t.Message != "" {
				gt.Output += "\n" + t.Message
			}
			if r.ReleaseHidden && t.Output != "" {
				gt.Output += "\n" + t.Output
			}
		}
		res.Tests = append(res.Tests, gt)
	}
	res.Output = EscapeControl(res.Output)
	for i := range res.Tests {
		res.Tests[i].Name = EscapeControl(res.Tests[i].Name)
		res.Tests[i].Output = EscapeControl(res.Tests[i].Output)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(res)
	return buf.Bytes(), err
}

// EscapeControl writes the control characters of s (but newline and tab),
// and bytes that are not UTF-8, as Go escapes (\x1b, \r, \u009b): what a
// submission prints reaches no terminal, file or browser raw, so it can
// neither move the cursor, rewrite a line, set the clipboard (OSC 52) nor
// forge a score line.
func EscapeControl(s string) string {
	clean := true
	for _, c := range s {
		if c == utf8.RuneError || (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case c == '\n' || c == '\t':
			b.WriteRune(c)
		case c == '\r':
			b.WriteString("\\r")
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		case (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029:
			fmt.Fprintf(&b, "\\u%04x", c)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// newReport is the report of a submission before grading: every test not
// run yet.
func (g *Grader) newReport(subPath string, a *assignment.Assignment) *Report {
	rep := &Report{Submission: subPath, Assignment: a.Name, MaxScore: a.MaxScore(), ShowHidden: g.ShowHidden, ReleaseHidden: g.ReleaseHidden}
	if g.Sandbox != nil {
		rep.Isolation = g.Sandbox.Describe()
	}
	for _, t := range a.Tests {
		rep.Tests = append(rep.Tests, TestResult{Name: t.Name, Hidden: t.Hidden, Message: t.Message, MaxScore: t.Points, Status: StatusMissing})
	}
	return rep
}

// reject makes every test score 0 because the code breaks the rules vs.
func (r *Report) reject(vs []Violation) {
	r.Rejected = vs
	for i := range r.Tests {
		r.Tests[i].Status = StatusReject
		r.Tests[i].Output = "not run: the code breaks the assignment's rules (see above)"
	}
}

// compileFailed makes every test score 0 because the code did not
// compile, even with its failing functions stubbed.
func (r *Report) compileFailed(msg string) {
	r.CompileError = msg
	for i := range r.Tests {
		r.Tests[i].Status = StatusCompile
		r.Tests[i].Output = "the code did not compile:\n" + msg
	}
}

// total adds up the tests' scores.
func (r *Report) total() {
	r.Score = 0
	for _, t := range r.Tests {
		r.Score += t.Score
	}
}
