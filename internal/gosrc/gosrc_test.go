package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

const src = `package main

import pc "example.com/refused"

type T[P any] struct{ v P }

func (t *T[P]) Get() P { return t.v }

var a, b = 1, 2

func helper() int { return pc.Compute() }

func F(x int) (y int) {
	z := helper()
	for i, v := range []int{x} {
		y += i + v + z
	}
	return
}

func G() int { return 0 }

func Solution() int { return 1 }

func FSolution(x int) int { return x }

func Cheat(x int) int { return FSolution(x) }
`

func parse(t *testing.T) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f
}

func TestNames(t *testing.T) {
	_, f := parse(t)
	var top []string
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		top = append(top, TopNames(d)...)
		if fd, ok := d.(*ast.FuncDecl); ok {
			if fd.Recv != nil {
				if got := MethodReceiver(fd); got != "T" {
					t.Errorf("MethodReceiver(%s) = %q, want T", fd.Name.Name, got)
				}
				continue
			}
			funcs[fd.Name.Name] = fd
		}
	}
	if want := []string{"T", "a", "b", "helper", "F", "G", "Solution", "FSolution", "Cheat"}; !slices.Equal(top, want) {
		t.Errorf("TopNames = %v, want %v", top, want)
	}
	var defined []string
	for _, id := range DefinedIdents(funcs["F"]) {
		defined = append(defined, id.Name)
	}
	if want := []string{"F", "x", "y", "z", "i", "v"}; !slices.Equal(defined, want) {
		t.Errorf("DefinedIdents(F) = %v, want %v", defined, want)
	}
	refs := ReferencedFuncs(funcs["F"], funcs)
	if !refs["helper"] || refs["G"] || len(refs) != 1 {
		t.Errorf("ReferencedFuncs(F) = %v, want helper only", refs)
	}
	if got := SelectorNames(funcs["helper"]); !slices.Equal(got, []string{"pc"}) {
		t.Errorf("SelectorNames(helper) = %v, want [pc]", got)
	}
	for path, want := range map[string]string{"math/rand/v2": "rand", "gopkg.in/yaml.v3": "yaml", "github.com/x/go-foo-bar": "foo_bar", "fmt": "fmt"} {
		if got := ImportName(path, ""); got != want {
			t.Errorf("ImportName(%q) = %q, want %q", path, got, want)
		}
	}
	if got := ImportName("fmt", "f"); got != "f" {
		t.Errorf("ImportName with a name = %q, want f", got)
	}
	lhs, err := parser.ParseExpr("(*v).f[k].g")
	if err != nil {
		t.Fatal(err)
	}
	if id := RootIdent(lhs); id == nil || id.Name != "v" {
		t.Errorf("RootIdent((*v).f[k].g) = %v, want v", id)
	}
}

func TestAnalysis(t *testing.T) {
	fset, f := parse(t)
	p := Policy{Refused: map[string]string{"example.com/refused": "refused"}, Values: "refused", Packages: true}
	a := NewAnalysis(f, p)
	for name, want := range map[string]string{"F": "refused.Compute", "G": "", "Cheat": "the worked solution FSolution", "FSolution": ""} {
		if got, err := a.CheckName(name); got != want || err != nil {
			t.Errorf("CheckName(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := a.CheckName("Missing"); err == nil || !strings.Contains(err.Error(), "no function Missing") {
		t.Errorf("CheckName(Missing): error %v, want one naming it", err)
	}
	if _, err := a.CheckName("Gone-fm"); err == nil || !strings.Contains(err.Error(), "no method Gone") {
		t.Errorf("CheckName(Gone-fm): error %v, want one naming the method", err)
	}
	p.Packages = false
	if got, _ := NewAnalysis(f, p).CheckName("F"); got != "" {
		t.Errorf("without Packages, CheckName(F) = %q, want \"\"", got)
	}
	if n := EnclosingFunc(fset, f, 15); n == nil || n.(*ast.FuncDecl).Name.Name != "F" {
		t.Errorf("EnclosingFunc(line 15) = %v, want F", n)
	}
	a.Drop("refused")
	if got, _ := a.CheckName("F"); got != "" {
		t.Errorf("after Drop, CheckName(F) = %q, want \"\"", got)
	}
}

// TestImport: an import's path unquoted and its name, "" if none.
func TestImport(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nimport (\n\t\"math/rand/v2\"\n\tm \"math\"\n\t_ \"embed\"\n)\n", parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"math/rand/v2", ""}, {"math", "m"}, {"embed", "_"}}
	for i, is := range f.Imports {
		if p, n := Import(is); p != want[i][0] || n != want[i][1] {
			t.Errorf("import %d: %q %q, want %q", i, p, n, want[i])
		}
	}
}
