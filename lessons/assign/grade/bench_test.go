package grade

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

var benchN = flag.Int("assign.bench_n", 40, "submissions in BenchmarkBatch")

// BenchmarkBatch grades -assign.bench_n fresh copies of the hw2_pla
// solution (each with a constant of its own, so that no build is cached)
// in the bwrap sandbox: once as one batch (-workers and -parallel at
// their defaults, one per core), once one by one (one grade command per
// submission, -workers 1). It reports seconds per submission of each.
func BenchmarkBatch(b *testing.B) {
	needBubblewrap(b)
	repo, err := assignment.FindRepo(".")
	if err != nil {
		b.Fatal(err)
	}
	nb, err := notebook.Read(filepath.Join(repo, "lessons/hw2_pla/solution.ipynb"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		for _, mode := range []string{"batch", "one-by-one"} {
			dir := b.TempDir()
			subs := filepath.Join(dir, "subs")
			os.Mkdir(subs, 0o755)
			stamp := time.Now().UnixNano()
			for k := 0; k < *benchN; k++ {
				c := *nb
				c.Cells = append(append([]*notebook.Cell{}, nb.Cells...), &notebook.Cell{Type: "code", Metadata: map[string]any{},
					Source: fmt.Sprintf("// fresh builds: every submission differs\nconst benchStamp%d = %d", k, stamp)})
				if err := c.WriteFile(filepath.Join(subs, fmt.Sprintf("s%02d.ipynb", k))); err != nil {
					b.Fatal(err)
				}
			}
			var out strings.Builder
			start := time.Now()
			if mode == "batch" {
				if err := runGrade([]string{"-repo", repo, "-assignment", "hw2_pla", "-out", filepath.Join(dir, "out"), subs}, &out, &out); err != nil {
					b.Fatalf("%v\n%s", err, out.String())
				}
			} else {
				for k := 0; k < *benchN; k++ {
					sub := filepath.Join(subs, fmt.Sprintf("s%02d.ipynb", k))
					if err := runGrade([]string{"-repo", repo, "-assignment", "hw2_pla", "-workers", "1", "-out", filepath.Join(dir, "out"), sub}, &out, &out); err != nil {
						b.Fatalf("%v\n%s", err, out.String())
					}
				}
			}
			per := time.Since(start).Seconds() / float64(*benchN)
			if n := strings.Count(out.String(), "14 / 14"); n != *benchN {
				b.Fatalf("%s: %d of %d submissions got 14 / 14:\n%s", mode, n, *benchN, out.String())
			}
			b.ReportMetric(per, "s/sub-"+mode)
		}
	}
}
