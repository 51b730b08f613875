package similarity

import (
	"bytes"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strings"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// submission is what a student hands in: the starter code (testdata/base.go)
// with its stub of Train, doc comment included, replaced by the declarations
// of the student's file (testdata/NAME), which are written after its imports.
func submission(t *testing.T, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	base := read(t, "base.go")
	bf, err := parser.ParseFile(fset, "base.go", base, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	stub := decl(t, bf, "Train")
	from, to := fset.Position(stub.Doc.Pos()).Offset, fset.Position(stub.End()).Offset
	own := read(t, name)
	of, err := parser.ParseFile(fset, name, own, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var start token.Pos
	for _, d := range of.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		start = d.Pos()
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		break
	}
	if !start.IsValid() {
		t.Fatalf("%s declares nothing", name)
	}
	return base[:from] + strings.TrimRight(own[fset.Position(start).Offset:], "\n") + base[to:]
}

// renamed returns src with every variable declared in function fn renamed
// as names says, found by the type checker (so a name used elsewhere, as i
// in Dot, keeps its meaning there) and replaced in place, layout and
// comments untouched. It fails if a variable of fn is missing from names or
// if the result does not type-check to the same variables under the new
// names: the rename is exact.
func renamed(t *testing.T, src, fn string, names map[string]string) string {
	t.Helper()
	fset, f, info := check(t, src)
	body := decl(t, f, fn).Body
	inFn := func(o types.Object) bool { return o.Pos() >= body.Pos() && o.Pos() < body.End() }
	type edit struct {
		off  int
		old  string
		name string
	}
	var edits []edit
	for id, o := range info.Defs {
		if v, ok := o.(*types.Var); ok && inFn(v) {
			if names[id.Name] == "" {
				t.Fatalf("%s: the variable %s has no new name", fn, id.Name)
			}
			edits = append(edits, edit{fset.Position(id.Pos()).Offset, id.Name, names[id.Name]})
		}
	}
	for id, o := range info.Uses {
		if v, ok := o.(*types.Var); ok && inFn(v) {
			edits = append(edits, edit{fset.Position(id.Pos()).Offset, id.Name, names[id.Name]})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := src
	for _, e := range edits {
		out = out[:e.off] + e.name + out[e.off+len(e.old):]
	}
	_, g, ginfo := check(t, out)
	gbody := decl(t, g, fn).Body
	got := map[string]bool{}
	for _, o := range ginfo.Defs {
		if v, ok := o.(*types.Var); ok && v.Pos() >= gbody.Pos() && v.Pos() < gbody.End() {
			got[v.Name()] = true
		}
	}
	for old, name := range names {
		if !got[name] {
			t.Fatalf("%s: %s was not renamed to %s", fn, old, name)
		}
	}
	if len(got) != len(names) || len(edits) == 0 {
		t.Fatalf("%s: variables after the rename %v, want %v", fn, got, names)
	}
	return out
}

// check parses and type-checks src, a package main that imports math only.
func check(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("main", fset, []*ast.File{f}, info); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return fset, f, info
}

func decl(t *testing.T, f *ast.File, name string) *ast.FuncDecl {
	t.Helper()
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd
		}
	}
	t.Fatalf("no func %s", name)
	return nil
}

// TestCompare: alice's solution, alice's copied as is, bob's (alice's with
// every variable of Train renamed) and carol's (her own), all on the same
// starter code (testdata/base.go), which is removed first.
func TestCompare(t *testing.T) {
	o := Defaults
	base := Base(read(t, "base.go"), o)
	alice, carol := submission(t, "alice.go"), submission(t, "carol.go")
	bob := renamed(t, alice, "Train", map[string]string{
		"w": "weights", "b": "bias", "updates": "count", "epoch": "ep",
		"mistakes": "errs", "i": "n", "x": "row", "j": "k",
	})
	docs := []*Doc{
		NewDoc("alice", alice, base, o),
		NewDoc("copy", alice, base, o),
		NewDoc("bob", bob, base, o),
		NewDoc("carol", carol, base, o),
	}
	pairs, err := Compare(docs, Options{K: o.K, W: o.W, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	sim := map[string]float64{}
	for _, p := range pairs {
		sim[p.A.Name+"-"+p.B.Name] = p.Similarity
	}
	for _, k := range []string{"alice-copy", "alice-bob", "copy-bob"} {
		if sim[k] != 1 {
			t.Errorf("%s: similarity %v, want 1 (identical tokens once names are normalised)", k, sim[k])
		}
	}
	for _, k := range []string{"alice-carol", "copy-carol", "bob-carol"} {
		if sim[k] >= 0.25 {
			t.Errorf("%s: similarity %v, want under 0.25 (independent solutions on the same starter code)", k, sim[k])
		}
	}
	// The report at the default threshold lists the three copies, with
	// alice's loop among bob's shared lines, and not carol.
	pairs, _ = Compare(docs, o)
	var b bytes.Buffer
	Report(&b, pairs, len(docs), o)
	rep := b.String()
	if len(pairs) != 3 || strings.Contains(rep, "carol") {
		t.Errorf("report at %v: %d pairs:\n%s", o.Threshold, len(pairs), rep)
	}
	if !strings.Contains(rep, "weights[k] += y[n] * row[k]") || !strings.Contains(rep, "w[j] += y[i] * x[j]") {
		t.Errorf("the report does not show the shared loop of alice and bob:\n%s", rep)
	}
	// Without removing the starter code, carol would look like alice
	// through the code both were given.
	bare := []*Doc{NewDoc("alice", alice, nil, o), NewDoc("carol", carol, nil, o)}
	p, _ := Compare(bare, Options{K: o.K, W: o.W, Threshold: 0.01})
	if len(p) != 1 || p[0].Similarity <= sim["alice-carol"] {
		t.Errorf("the starter code does not raise alice-carol without its removal: %+v vs %v", p, sim["alice-carol"])
	}
}

// TestWinnowingGuarantee: any shared run of w+k-1 tokens yields a shared
// fingerprint, wherever it sits in two otherwise different files.
func TestWinnowingGuarantee(t *testing.T) {
	o := Options{K: 5, W: 4, Threshold: 0.01}
	run := "x := a[i] * b[j] + c / d - e % f"
	for pad := 0; pad < 6; pad++ {
		a := strings.Repeat("if p { q() }\n", pad) + run + "\nfor { }\n"
		b := "switch { case r: s = t }\n" + run + strings.Repeat("\ngo u(v)", pad)
		pairs, _ := Compare([]*Doc{NewDoc("a", a, nil, o), NewDoc("b", b, nil, o)}, o)
		if len(pairs) != 1 {
			t.Errorf("pad %d: the shared run of %d tokens was not found", pad, len(Tokens(run)))
		}
	}
	if _, err := Compare(nil, Options{K: 1, W: 4, Threshold: 0.5}); !errors.Is(err, ErrOptions) {
		t.Errorf("k = 1: %v, want ErrOptions", err)
	}
}
