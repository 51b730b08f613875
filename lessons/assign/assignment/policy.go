package assignment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perceptron-go/lessons/internal/root"
)

// ModulePath is the module of this repository, which the graded modules
// require (replaced by its folder).
const ModulePath = root.Module

// Policy is what a submission's code may use. The grader checks it on the
// submission's declarations before anything is built.
type Policy struct {
	// Imports are the packages a submission may import: an exact import
	// path, or a path ending in "/..." for a path and everything under it.
	Imports []string `json:"imports"`
	// Deny are identifiers a submission may not use: "pkg/path.Name" for a
	// package-level name of an allowed package (a function, a type's
	// constructor), or ".Name" for a method or field of that name on any
	// value (the check is syntactic: a method of the package's types is
	// denied by its name).
	Deny []string `json:"deny"`
}

// defaultImports is the pure standard library (no files, processes,
// network, reflection or runtime access) plus gonum, gonum/plot and this
// repository's packages.
var defaultImports = []string{
	"cmp", "errors", "fmt", "iter", "maps", "math", "math/big", "math/bits", "math/cmplx",
	"math/rand", "math/rand/v2", "slices", "sort", "strconv", "strings", "unicode", "unicode/utf8",
	"container/heap", "container/list", "container/ring",
	"gonum.org/v1/gonum/...", "gonum.org/v1/plot/...",
	ModulePath + "/perceptron", ModulePath + "/perceptron/plots",
}

// NeverImports can never be allowed, whatever a policy file says: they
// reach the files, processes, network or memory of the grader.
var NeverImports = []string{"C", "os", "os/...", "syscall", "unsafe", "reflect", "runtime", "runtime/...",
	"net", "net/...", "plugin", "log", "log/...", "testing", "testing/...", "embed", "debug/...",
	"internal/...", "io/fs", "io/ioutil", "path/filepath", "flag", "crypto/...", "sync/atomic"}

// Learners are the perceptron package's functions and methods that compute
// what the assignments ask students to write.
var Learners = []string{
	"PLA", "Pocket", "Voted", "Averaged", "Dual", "KernelPerceptron", "NewOnline", "PLALearner",
	"OneVsRest", "GradientDescent", "SGD", "MaxMargin", "Separable", "Radius", "Bound",
	"CheckProof", "LFDExperiment", "Loss", "LossGradient", "Disagreement", "FromTheta", "Augment",
	"GramMatrix",
}

// learnerMethods are the methods of the package's models that answer an
// exercise (Hyperplane.Predict is ThetaPredict, Online.Step is PLAStep...).
var learnerMethods = []string{
	"Predict", "PredictAll", "Errors", "ErrorRate", "Score", "Distance", "Margin", "Step", "Fit",
	"Epoch", "Gram", "Eval", "Decision", "DecisionFunction", "SignedDistance", "DatasetMargin", "Theta",
	"Mistake", "Norm", "Sign", "Hyperplane",
}

// DefaultPolicy is the policy of an assignment without a grading.json:
// the default imports, and none of the perceptron package's learners.
func DefaultPolicy() Policy {
	p := Policy{Imports: slices.Clone(defaultImports)}
	for _, n := range Learners {
		p.Deny = append(p.Deny, ModulePath+"/perceptron."+n)
	}
	for _, n := range learnerMethods {
		p.Deny = append(p.Deny, "."+n)
	}
	return p
}

// LoadPolicy returns the policy of the assignment in dir: dir/grading.json
// if it exists (fields it sets replace the defaults), else DefaultPolicy.
func LoadPolicy(dir string) (Policy, error) {
	p := DefaultPolicy()
	b, err := os.ReadFile(filepath.Join(dir, "grading.json"))
	if os.IsNotExist(err) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	var q struct {
		Imports *[]string `json:"imports"`
		Deny    *[]string `json:"deny"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return p, fmt.Errorf("%s: %v", filepath.Join(dir, "grading.json"), err)
	}
	if q.Imports != nil {
		p.Imports = *q.Imports
	}
	if q.Deny != nil {
		p.Deny = *q.Deny
	}
	for _, imp := range p.Imports {
		if matchPath(NeverImports, strings.TrimSuffix(imp, "/...")) {
			return p, fmt.Errorf("%s: import %q can never be allowed (it reaches files, processes, the network or memory)", filepath.Join(dir, "grading.json"), imp)
		}
	}
	return p, nil
}

// matchPath reports whether path is one of patterns (exact, or "p/..." for
// p and everything under it).
func matchPath(patterns []string, path string) bool {
	for _, p := range patterns {
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if path == base || strings.HasPrefix(path, base+"/") {
				return true
			}
		} else if path == p {
			return true
		}
	}
	return false
}

// AllowsImport reports whether the policy allows importing path.
func (p Policy) AllowsImport(path string) bool {
	return !matchPath(NeverImports, path) && matchPath(p.Imports, path)
}
