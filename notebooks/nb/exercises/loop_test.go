package exercises

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/figures"
	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
)

// program is what GoNB writes to main.go for a notebook whose cells
// import the lessons' packages and declare body.
func program(body string) string {
	return `package main

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/notebooks/nb/exercises"
	"github.com/perceptron-go/lessons/figures"
	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/notebooks/nb"
	"github.com/perceptron-go/lessons/perceptron"
)

var _, _, _, _, _, _ = fmt.Sprint, math.Abs, slices.Clone[[]float64], mat.NewDense, exercises.Out, nb.Must[int]
var _, _ = figures.CumulativeMistakes, lessondata.CumulativeMistakes

` + body + `

func main() {}
`
}

func parseProgram(t *testing.T, src string) *ast.File {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%v in\n%s", err, src)
	}
	return file
}

// TestPackageCallRefusesCheats: every way found so far of passing a check
// by calling the package (two cold reviews found most) is refused, with
// the name of what it called.
func TestPackageCallRefusesCheats(t *testing.T) {
	for _, tc := range []struct{ name, fn, body, want string }{
		{"a method of a Hyperplane literal", "Predict", `
func Predict(w []float64, b float64, x []float64) float64 {
	return nb.Must(perceptron.Hyperplane{W: w, B: b}.Predict(x))
}`, "perceptron.Hyperplane.Predict"},
		{"ErrorRate on a Dataset literal", "TrainingError", `
func TrainingError(w []float64, b float64, X [][]float64, y []float64) float64 {
	m := mat.NewDense(len(X), len(X[0]), nil)
	for i := range X {
		m.SetRow(i, X[i])
	}
	return nb.Must(perceptron.Hyperplane{W: w, B: b}.ErrorRate(&perceptron.Dataset{X: m, Y: y}))
}`, "perceptron.Hyperplane.ErrorRate"},
		{"the figures package", "OnlineMistakes", `
func OnlineMistakes(X [][]float64, y []float64, order []int) int {
	m := mat.NewDense(len(order), len(X[0]), nil)
	for k, i := range order {
		m.SetRow(k, X[i])
	}
	c := nb.Must(figures.CumulativeMistakes(&perceptron.Dataset{X: m, Y: y}))
	return int(c[len(c)-1])
}`, "figures.CumulativeMistakes"},
		{"the lessons' data package", "OnlineMistakes", `
func OnlineMistakes(X [][]float64, y []float64, order []int) int {
	c := nb.Must(lessondata.CumulativeMistakes(nil))
	return int(c[len(c)-1])
}`, "lessondata.CumulativeMistakes"},
		{"the checkers' own package", "PocketPLA", `
func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	exercises.Out = nil
	return
}`, "exercises.Out"},
		{"Margin on a variable holding a Hyperplane", "AugmentedMargin", `
func AugmentedMargin(X [][]float64, y []float64, w []float64, b float64) float64 {
	theta := perceptron.Hyperplane{W: append([]float64{b}, w...)}
	best := math.Inf(1)
	for i, x := range X {
		best = min(best, nb.Must(theta.Margin(append([]float64{1}, x...), y[i])))
	}
	return best
}`, "perceptron.Hyperplane.Margin"},
		{"Score on a named result", "PocketPLA", `
func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	s, _ := pocket.Score(X[0])
	_ = s
	return
}`, "perceptron.Hyperplane.Score"},
		{"an element of a slice of Hyperplanes", "VotedAveraged", `
func VotedAveraged(X [][]float64, y []float64, eta float64, epochs int) (vectors []perceptron.Hyperplane, counts []int, average perceptron.Hyperplane) {
	vectors = []perceptron.Hyperplane{{W: []float64{0, 0}}}
	for _, v := range vectors {
		_, _ = v.Errors(nil)
	}
	return
}`, "perceptron.Hyperplane.Errors"},
		{"a helper returning a Hyperplane", "Predict", `
func hp(w []float64, b float64) perceptron.Hyperplane { return perceptron.Hyperplane{W: w, B: b} }

func Predict(w []float64, b float64, x []float64) float64 {
	return nb.Must(hp(w, b).Predict(x))
}`, "perceptron.Hyperplane.Predict"},
		{"an interface holding a Hyperplane", "Predict", `
type predictor interface{ Predict(x []float64) (float64, error) }

func Predict(w []float64, b float64, x []float64) float64 {
	var p predictor = perceptron.Hyperplane{W: w, B: b}
	return nb.Must(p.Predict(x))
}`, "perceptron.Hyperplane.Predict"},
		{"a struct embedding a Hyperplane", "Predict", `
type model struct{ perceptron.Hyperplane }

func Predict(w []float64, b float64, x []float64) float64 {
	return nb.Must(model{perceptron.Hyperplane{W: w, B: b}}.Predict(x))
}`, "perceptron's Predict method"},
		{"a field holding a Hyperplane", "Predict", `
type model struct{ h perceptron.Hyperplane }

func Predict(w []float64, b float64, x []float64) float64 {
	m := model{h: perceptron.Hyperplane{W: w, B: b}}
	return nb.Must(m.h.Predict(x))
}`, "perceptron's Predict method"},
		{"a method expression", "Predict", `
func Predict(w []float64, b float64, x []float64) float64 {
	return nb.Must(perceptron.Hyperplane.Predict(perceptron.Hyperplane{W: w, B: b}, x))
}`, "perceptron.Hyperplane.Predict"},
		{"a tie policy's test", "Misclassified", `
func Misclassified(w []float64, b float64, X [][]float64, y []float64) []int {
	var rows []int
	for i, x := range X {
		s := b
		for j := range w {
			s += w[j] * x[j]
		}
		if perceptron.TieMistake.Mistake(y[i], s) {
			rows = append(rows, i)
		}
	}
	return rows
}`, "perceptron.TieMistake.Mistake"},
		{"a package-level function value", "PocketPLA", `
var pocketOf = func(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	r, _ := perceptron.Pocket(nil, perceptron.Options{MaxEpochs: maxEpochs, Eta: eta})
	return r.Hyperplane, r.Last, r.PocketErrors
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return pocketOf(X, y, eta, maxEpochs)
}`, "perceptron.Pocket"},
		{"a method of the program's own type", "PocketPLA", `
type T struct{}

func (T) run() (perceptron.Hyperplane, perceptron.Hyperplane, int) {
	r, _ := perceptron.Pocket(nil, perceptron.Options{})
	return r.Hyperplane, r.Last, r.PocketErrors
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return T{}.run()
}`, "perceptron.Pocket"},
		{"a function variable assigned elsewhere", "PocketPLA", `
var impl func(X [][]float64, y []float64) (perceptron.Hyperplane, perceptron.Hyperplane, int)

func init() {
	impl = func(X [][]float64, y []float64) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
		r, _ := perceptron.Pocket(nil, perceptron.Options{})
		return r.Hyperplane, r.Last, r.PocketErrors
	}
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return impl(X, y)
}`, "perceptron.Pocket"},
		{"a result type of the package", "PocketPLA", `
func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	var r *perceptron.PocketResult
	return r.Hyperplane, r.Last, r.PocketErrors
}`, "perceptron.PocketResult"},
		{"a constant's initialiser", "BatchGD", `
var steps = len(nb.Must(perceptron.GradientDescent(nil, perceptron.GDOptions{})).Path)

func BatchGD(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
	return make([][]float64, steps)
}`, "perceptron.GradientDescent"},
		{"a map of function values filled in init", "PocketPLA", `
var impls = map[string]func() int{}

func init() {
	impls["pocket"] = func() int { return nb.Must(perceptron.Pocket(nil, perceptron.Options{})).PocketErrors }
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return pocket, last, impls["pocket"]()
}`, "perceptron.Pocket"},
		{"a struct field set in init", "BatchGD", `
type tools struct{ gd func() int }

var kit tools

func init() {
	kit.gd = func() int { r, _ := perceptron.GradientDescent(nil, perceptron.GDOptions{}); return r.Steps }
}

func BatchGD(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
	return make([][]float64, kit.gd())
}`, "perceptron.GradientDescent"},
		{"the worked solution below the exercise", "PocketPLA", `
func PocketPLASolution(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	return PocketPLASolution(X, y, eta, maxEpochs)
}`, "the worked solution PocketPLASolution"},
		{"the worked solution through a variable", "SplitTheta", `
func SplitThetaSolution(theta []float64) ([]float64, float64) { return theta[1:], theta[0] }

var worked = SplitThetaSolution

func SplitTheta(theta []float64) ([]float64, float64) { return worked(theta) }`, "the worked solution SplitThetaSolution"},
	} {
		file := parseProgram(t, program(tc.body))
		if got := packageCallIn(file, tc.fn); got != tc.want {
			t.Errorf("%s: packageCallIn = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPackageCallRefusesThePackagesOwnFunctions: a function value that
// is a refused package's function itself (a variable set to it in init,
// then passed to the checker) is refused by its symbol, though main.go
// declares no function of its name.
func TestPackageCallRefusesThePackagesOwnFunctions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program("")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GONB_TMP_DIR", dir)
	o, err := perceptron.NewOnline(2, 1, perceptron.TieMistake)
	if err != nil {
		t.Fatal(err)
	}
	for want, f := range map[string]any{
		"perceptron.NewDataset":           perceptron.NewDataset,
		"perceptron.Online.Step":          o.Step,
		"lessondata.CumulativeMistakes":   lessondata.CumulativeMistakes,
		"figures.AlphaCounts":             figures.AlphaCounts,
		"exercises.BoundByHandData":       BoundByHandData,
		"perceptron.Hyperplane.ErrorRate": perceptron.Hyperplane{}.ErrorRate,
	} {
		if got, err := packageCall(f); got != want || err != nil {
			t.Errorf("packageCall(%s) = %q, %v; want %q", want, got, err, want)
		}
		if got, err := solutionCall(f); got != "" || err != nil {
			t.Errorf("solutionCall(%s) = %q, %v; want \"\" (the package is allowed there)", want, got, err)
		}
	}
}

// TestPackageCallRefusesDotImports: a package imported with "." is
// refused by the bare names it brings.
func TestPackageCallRefusesDotImports(t *testing.T) {
	src := `package main

import . "github.com/perceptron-go/lessons/perceptron"

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last Hyperplane, pocketErrors int) {
	d, _ := NewDataset(X, y)
	r, _ := Pocket(d, Options{})
	return r.Hyperplane, r.Last, r.PocketErrors
}

func Predict(w []float64, b float64, x []float64) float64 {
	s, _ := Hyperplane{W: w, B: b}.Score(x)
	return s
}

func Loop(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last Hyperplane, pocketErrors int) {
	return Hyperplane{W: make([]float64, len(X[0]))}, Hyperplane{Tie: TieMistake}, len(X)
}
`
	file := parseProgram(t, src)
	for fn, want := range map[string]string{"PocketPLA": "perceptron.NewDataset", "Predict": "perceptron.Hyperplane.Score", "Loop": ""} {
		if got := packageCallIn(file, fn); got != want {
			t.Errorf("%s: packageCallIn = %q, want %q", fn, got, want)
		}
	}
}

// TestPackageCallFindsClosuresAndMethods: a closure written in the check
// cell is found by the line the runtime gives, and a method value by its
// name (the runtime calls it "main.T.run-fm").
func TestPackageCallFindsClosuresAndMethods(t *testing.T) {
	src := program(`
type T struct{}

func (T) run(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
	o, _ := perceptron.NewOnline(2, eta, perceptron.TieMistake)
	return o.W, o.B, o.Mistakes
}

func check() {
	exercises.CheckOnline(func(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
		o, _ := perceptron.NewOnline(2, eta, perceptron.TieMistake)
		return o.W, o.B, o.Mistakes
	})
	exercises.CheckOnline(T{}.run)
}`)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "exercises.CheckOnline(func(") {
			line = i + 1
		}
	}
	root := gosrc.FuncAtLine(fset, file, line)
	if _, ok := root.(*ast.FuncLit); !ok {
		t.Fatalf("funcAtLine(%d) = %T, want the closure", line, root)
	}
	if got := newAnalysis(file).Check(root); got != "perceptron.NewOnline" {
		t.Errorf("the closure: check = %q, want perceptron.NewOnline", got)
	}
	if got := packageCallIn(file, shortName("main.T.run-fm")); got != "perceptron.NewOnline" {
		t.Errorf("the method value: packageCallIn = %q, want perceptron.NewOnline", got)
	}
	for name, want := range map[string]string{"main.OnlinePerceptron": "OnlinePerceptron", "main.main.func1": "func1", "main.T.run-fm": "run-fm", "main.F[...]": "F"} {
		if got := shortName(name); got != want {
			t.Errorf("shortName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestPackageCallLetsLoopsThrough: loops that use what an exercise's
// signature needs pass: Hyperplane literals returned, their fields read,
// a Dataset's rows, nb.Must, math and slices, the student's own helpers
// and own types (with methods named like perceptron's), and a method the
// checker allows.
func TestPackageCallLetsLoopsThrough(t *testing.T) {
	src := program(`
type linear struct {
	w []float64
	b float64
}

func (l linear) Score(x []float64) float64 {
	s := l.b
	for j := range l.w {
		s += l.w[j] * x[j]
	}
	return s
}

func errorsOf(w []float64, b float64, X [][]float64, y []float64) int {
	e := 0
	for i, x := range X {
		if y[i]*(linear{w, b}).Score(x) <= 0 {
			e++
		}
	}
	return e
}

func PocketPLA(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
	w, b := make([]float64, len(X[0])), 0.0
	pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w)}, errorsOf(w, b, X, y)
	for range maxEpochs {
		for i, x := range X {
			l := linear{w: pocket.W, b: pocket.B}
			if y[i]*l.Score(x) > 0 {
				continue
			}
			for j := range w {
				w[j] += eta * y[i] * x[j]
			}
			b += eta * y[i]
			if e := errorsOf(w, b, X, y); e < pocketErrors {
				pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w), B: b}, e
			}
		}
	}
	fmt.Sprint(pocket, math.Abs(pocket.B), len(pocket.W))
	return pocket, perceptron.Hyperplane{W: w, B: b, Tie: perceptron.TieMistake}, pocketErrors
}

func FromData(d *perceptron.Dataset) int {
	n := 0
	for i := range d.N() {
		n += len(d.Row(i)) + len(d.Y)
	}
	return n + nb.Must(len(d.Rows()), error(nil))
}

func EstimateDisagreement(f, g perceptron.Hyperplane, n int, seed uint64) float64 {
	a, _ := f.Predict([]float64{0, 0})
	b, _ := g.Predict([]float64{0, 0})
	return math.Abs(a - b)
}`)
	file := parseProgram(t, src)
	for _, fn := range []string{"PocketPLA", "FromData", "errorsOf"} {
		if got := packageCallIn(file, fn); got != "" {
			t.Errorf("%s: packageCallIn = %q, want \"\"", fn, got)
		}
	}
	if got := packageCallIn(file, "EstimateDisagreement", "Predict", "Score"); got != "" {
		t.Errorf("EstimateDisagreement with Predict allowed: packageCallIn = %q, want \"\"", got)
	}
	if got := packageCallIn(file, "EstimateDisagreement"); got != "perceptron.Hyperplane.Predict" {
		t.Errorf("EstimateDisagreement, nothing allowed: packageCallIn = %q, want perceptron.Hyperplane.Predict", got)
	}
}

// TestNotebookFunctionsAreLoops: every function that a lesson notebook
// passes to a checker (the stubs and the worked solutions) passes the
// refusal, with the methods its checker allows, in a program assembled from
// the notebook's cells as GoNB assembles it (a later declaration of a
// name replaces an earlier one).
func TestNotebookFunctionsAreLoops(t *testing.T) {
	paths, err := filepath.Glob("../../*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found: %v", err)
	}
	checked := 0
	call := regexp.MustCompile(`exercises\.((?:Check|Passes)\w*)\(([A-Za-z_]\w*)\)`)
	// The methods a checker lets the function call (lesson 4's estimate
	// asks for f.Predict and g.Predict), as its runLoop call lists them.
	allowed := map[string][]string{"CheckDisagreement": {"Predict", "Score"}}
	for _, path := range paths {
		src, names := notebookProgram(t, path)
		file := parseProgram(t, src)
		for _, cell := range names {
			for _, m := range call.FindAllStringSubmatch(cell, -1) {
				checked++
				if got := packageCallIn(file, m[2], allowed[m[1]]...); got != "" {
					t.Errorf("%s: %s: packageCallIn = %q, want \"\"", filepath.Base(path), m[2], got)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d functions passed to checkers found in the notebooks, want at least 20", checked)
	}
}

// notebookProgram assembles the code cells of a notebook into one Go
// file as GoNB does: the imports, every declaration (the last of each
// name), and each cell's statements after %% as a function of its own.
// It also returns the code cells' sources.
func notebookProgram(t *testing.T, path string) (string, []string) {
	t.Helper()
	nbk := repo.ReadNotebook(t, path)
	imports := map[string]bool{}
	var order []string
	decls := map[string]string{}
	var cells []string
	for k, c := range nbk.Cells {
		if c.Type != "code" {
			continue
		}
		text := c.Source
		cells = append(cells, text)
		var decl, body []string
		inBody := false
		for _, l := range strings.Split(text, "\n") {
			switch {
			case strings.TrimSpace(l) == "%%":
				inBody = true
			case strings.HasPrefix(l, "!") || strings.HasPrefix(l, "%"):
			case inBody:
				body = append(body, l)
			default:
				decl = append(decl, l)
			}
		}
		cellSrc := "package main\n" + strings.Join(decl, "\n") + "\nfunc cell" + string(rune('A'+k%26)) + "() {\n" + strings.Join(body, "\n") + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "cell.go", cellSrc, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s, code cell %d: %v", path, k, err)
		}
		for _, d := range f.Decls {
			text := cellSrc[fset.Position(d.Pos()).Offset:fset.Position(d.End()).Offset]
			key := text
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					for _, s := range d.Specs {
						imp := s.(*ast.ImportSpec)
						spec := imp.Path.Value
						if imp.Name != nil {
							spec = imp.Name.Name + " " + spec
						}
						imports[spec] = true
					}
					continue
				}
				if len(d.Specs) == 1 {
					switch s := d.Specs[0].(type) {
					case *ast.TypeSpec:
						key = "type " + s.Name.Name
					case *ast.ValueSpec:
						key = "var " + s.Names[0].Name
					}
				}
			case *ast.FuncDecl:
				key = "func " + d.Name.Name
				if d.Recv != nil {
					key = "method " + gosrc.MethodReceiver(d) + "." + d.Name.Name
				}
				if d.Name.Name == "cell"+string(rune('A'+k%26)) {
					key += strings.Repeat(" ", k) // every cell's statements are kept
				}
			}
			if _, ok := decls[key]; !ok {
				order = append(order, key)
			}
			decls[key] = text
		}
	}
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n")
	specs := make([]string, 0, len(imports))
	for s := range imports {
		specs = append(specs, s)
	}
	slices.Sort(specs)
	for _, s := range specs {
		b.WriteString("\t" + s + "\n")
	}
	b.WriteString(")\n")
	for _, key := range order {
		b.WriteString("\n" + decls[key] + "\n")
	}
	return b.String(), cells
}

// TestMethodListsCoverThePackage: containerMethods and computingMethods
// name every exported method of package perceptron's exported types, so
// that a method added to the package is refused or let through on
// purpose; and perceptronContainers are types or constants of the package.
func TestMethodListsCoverThePackage(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("../../../perceptron/*.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no perceptron sources: %v", err)
	}
	names := map[string]bool{}
	methods := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || !d.Name.IsExported() || !ast.IsExported(gosrc.MethodReceiver(d)) {
					continue
				}
				methods++
				if containerMethods[d.Name.Name] == computingMethods[d.Name.Name] {
					t.Errorf("%s: method %s.%s is in neither or both of containerMethods and computingMethods", filepath.Base(path), gosrc.MethodReceiver(d), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range s.Names {
							names[id.Name] = true
						}
					}
				}
			}
		}
	}
	if methods < 50 {
		t.Errorf("found %d exported methods in package perceptron, want at least 50", methods)
	}
	for name := range perceptronContainers {
		if !names[name] {
			t.Errorf("perceptronContainers names %s, which package perceptron does not declare", name)
		}
	}
}

// cheatPredict passes lesson 1's check by asking a Hyperplane literal.
func cheatPredict(w []float64, b float64, x []float64) float64 {
	s, _ := perceptron.Hyperplane{W: w, B: b}.Predict(x)
	return s
}

// cheatMistakes passes lesson 3's OnlineMistakes check through a
// package-level function value that calls the package.
var mistakesOf = func(X [][]float64, y []float64, order []int) int {
	o, _ := perceptron.NewOnline(len(X[0]), 1, perceptron.TieMistake)
	for _, i := range order {
		o.Step(X[i], y[i])
	}
	return o.Mistakes
}

func cheatMistakes(X [][]float64, y []float64, order []int) int { return mistakesOf(X, y, order) }

// cheatSplit and cheatLifted are lesson 2's exercises by the package, which
// its checkers ran without looking (issue 32).
func cheatSplit(theta []float64) ([]float64, float64) {
	h, _ := perceptron.FromTheta(theta)
	return h.W, h.B
}

func cheatLifted(w []float64, b float64, x []float64) float64 {
	h := perceptron.Hyperplane{W: append([]float64{b}, w...)}
	d, _ := h.SignedDistance(append([]float64{1}, x...))
	return d
}

// cheatSolution hands lesson 1's exercise to a worked solution.
func cheatSolution(w []float64, b float64, x []float64) float64 { return PredictSolution(w, b, x) }

func PredictSolution(w []float64, b float64, x []float64) float64 {
	s := score01(w, b, x)
	switch {
	case s > 0:
		return 1
	case s < 0:
		return -1
	}
	return 0
}

// TestCheckersRefuseMethodsAndIndirection runs the checkers themselves on
// the two cheats above, with main.go holding their source (this very file,
// which declares them) as GoNB would.
func TestCheckersRefuseMethodsAndIndirection(t *testing.T) {
	src, err := os.ReadFile("loop_test.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	expectRefusal(t, dir, "Predict", func() bool { return CheckPredict(cheatPredict) },
		"FAILED: Exercise 1 (Predict): write it with a loop, not perceptron.Hyperplane.Predict")
	expectRefusal(t, dir, "OnlineMistakes", func() bool { return CheckOnlineMistakes(cheatMistakes) },
		"FAILED: Exercise 2 (OnlineMistakes): write it with a loop, not perceptron.NewOnline")
	expectRefusal(t, dir, "SplitTheta", func() bool { return CheckSplitTheta(cheatSplit) },
		"FAILED: Exercise 1 (SplitTheta): write it with a loop, not perceptron.FromTheta")
	expectRefusal(t, dir, "LiftedDistance", func() bool { return CheckLiftedDistance(cheatLifted) },
		"FAILED: Exercise 2 (LiftedDistance): write it with a loop, not perceptron.Hyperplane.SignedDistance")
	expectRefusal(t, dir, "Predict by the solution", func() bool { return CheckPredict(cheatSolution) },
		"FAILED: Exercise 1 (Predict): write it with a loop, not the worked solution PredictSolution")
}

// expectRefusal checks that a cheat passes check outside GoNB (no source
// to read: what the refusal is measured against) and that, with dir as
// GoNB's folder holding main.go, check fails printing want.
func expectRefusal(t *testing.T, dir, name string, check func() bool, want string) {
	t.Helper()
	t.Setenv("GONB_TMP_DIR", "")
	expectVerdict(t, name+" cheat, no source", true, check)
	t.Setenv("GONB_TMP_DIR", dir)
	expectVerdict(t, name+" cheat", false, check, want)
}

// TestTrimmedMain: the file names the runtime gives GoNB's main.go built
// with -trimpath are recognised, and no other file.
func TestTrimmedMain(t *testing.T) {
	for _, tc := range []struct {
		symbol, src string
		want        bool
	}{
		{"main.Predict", "gonb_2c1a3b/main.go", true},
		{"main.main.func1", "gonb_2c1a3b/main.go", true},
		{"main.Predict", "/tmp/gonb_2c1a3b/main.go", false}, // not trimmed: sameFile decides
		{"main.Predict", "example.com/lib@v1.0.0/main.go", false},
		{"lib.Predict", "example.com/lib/main.go", false},
		{"main.Predict", "gonb_2c1a3b/other.go", false},
	} {
		if got := trimmedMain(tc.symbol, tc.src); got != tc.want {
			t.Errorf("trimmedMain(%q, %q) = %v, want %v", tc.symbol, tc.src, got, tc.want)
		}
	}
}

// TestUnreadableProgramIsSaid: in a GoNB folder without a readable
// main.go, packageCall says what it could not read, and the checker says
// so in a hint while still running the cases.
func TestUnreadableProgramIsSaid(t *testing.T) {
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	if call, err := packageCall(PredictSolution); call != "" || err == nil || !strings.Contains(err.Error(), "reading the notebook's program") {
		t.Errorf("packageCall without main.go = %q, %v; want an error about reading the program", call, err)
	}
	expectVerdict(t, "no main.go", true, func() bool { return CheckPredict(PredictSolution) },
		"hint: the check could not read your code for package calls: reading the notebook's program", "cases passed")
}
