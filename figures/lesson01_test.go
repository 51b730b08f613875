package figures

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestLesson01Explore checks the captions of the w, b explorer against
// values computed by hand from lesson 1's applicants, and that every
// setting renders.
func TestLesson01Explore(t *testing.T) {
	for _, tc := range []struct {
		w1, w2, b float64
		want      string
	}{
		// The bank itself: no mistake, γ = 2.236 (lesson 1's cell).
		{0.05, -0.1, -1.1, "w = (0.05, -0.10), b = -1.1: 0 of 15 applicants misclassified (training error 0.00); margin of the data set γ = 2.24 k$"},
		// Approve every salary above 40 k$: the denied (44.7, 20.1) and
		// (60.5, 49.3) are approved; the worst is 60.5 − 40 = 20.5 k$ wrong.
		{0.1, 0, -4, "w = (0.10, 0.00), b = -4.0: 2 of 15 applicants misclassified (training error 0.13); margin of the data set γ = -20.50 k$"},
		{0, 0, 1, "w = 0: every score is b, there is no boundary; move w1 or w2"},
		// Approve everyone: the 8 denied are wrong, the worst (60.5, 49.3)
		// by (6.05 + 4.93 + 30)/(0.1·√2) = 289.77 k$; the boundary
		// salary + debt = -300 is far outside the figure.
		{0.1, 0.1, 30, "w = (0.10, 0.10), b = 30.0: 8 of 15 applicants misclassified (training error 0.53); margin of the data set γ = -289.77 k$ (the boundary is outside the figure)"},
	} {
		p, caption, err := Lesson01Explore(tc.w1, tc.w2, tc.b)
		if err != nil {
			t.Fatalf("Lesson01Explore(%v, %v, %v): %v", tc.w1, tc.w2, tc.b, err)
		}
		if caption != tc.want {
			t.Errorf("Lesson01Explore(%v, %v, %v) caption\n%s\nwant\n%s", tc.w1, tc.w2, tc.b, caption, tc.want)
		}
		if _, err := plots.PNG(p, Width, Height); err != nil {
			t.Errorf("rendering: %v", err)
		}
		if dir := os.Getenv("FIGURES_DEBUG_DIR"); dir != "" {
			plots.Save(p, filepath.Join(dir, "explore01_"+caption[:20]+".png"), Width, Height)
		}
	}
}

// TestLesson01ExploreAlt: the alt text follows the frame: the boundary and
// its numbers where the figure draws one, the applicants alone where it
// does not (w = 0, or the line outside the figure).
func TestLesson01ExploreAlt(t *testing.T) {
	for _, tc := range []struct {
		w1, w2, b  float64
		has, lacks string
	}{
		{0.05, -0.1, -1.1, "with the boundary of w = (0.05, -0.10), b = -1.1 as a line", "outside"},
		{0.1, 0, -4, "2 of 15 applicants misclassified", "no boundary"},
		{0, 0, 1, "and no boundary: w = 0.", "as a line"},
		{0.1, 0.1, 30, "b = 30.0 lies outside the figure", "as a line"},
	} {
		_, caption, err := Lesson01Explore(tc.w1, tc.w2, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		alt := Lesson01ExploreAlt(tc.w1, tc.w2, tc.b, caption)
		if !strings.Contains(alt, tc.has) || strings.Contains(alt, tc.lacks) {
			t.Errorf("(%v, %v, %v): alt %q, want %q in it and not %q", tc.w1, tc.w2, tc.b, alt, tc.has, tc.lacks)
		}
	}
}
