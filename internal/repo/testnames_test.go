package repo_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedTestNames are test names that two packages may share; none do
// (issue 24, item 7). TestUniqueTestNames fails on any other shared name,
// and on a name listed here that is no longer shared.
var sharedTestNames = []string{}

// testFuncNames returns, for every Test, Benchmark, Fuzz and Example
// function in the *_test.go files under root, the files that declare it.
// Folders that hold no Go of the module (.git, bin, .venv, testdata,
// node_modules) are skipped.
func testFuncNames(root string) (map[string][]string, error) {
	names := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", ".venv", "testdata", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			// TestMain runs a package's tests, it is none: -run never selects it.
			if !ok || fn.Recv != nil || fn.Name.Name == "TestMain" {
				continue
			}
			for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
				if strings.HasPrefix(fn.Name.Name, prefix) {
					names[fn.Name.Name] = append(names[fn.Name.Name], filepath.ToSlash(path))
				}
			}
		}
		return nil
	})
	return names, err
}

// TestUniqueTestNames checks that no two tests of the repository share a
// name, so that `go test -run NAME ./...` runs one test.
func TestUniqueTestNames(t *testing.T) {
	names, err := testFuncNames(".")
	if err != nil {
		t.Fatal(err)
	}
	for name, files := range names {
		if len(files) > 1 && !slices.Contains(sharedTestNames, name) {
			t.Errorf("%s is declared %d times: %v; give each test a name of its own", name, len(files), files)
		}
	}
	for _, name := range sharedTestNames {
		if len(names[name]) < 2 {
			t.Errorf("%s is no longer shared: remove it from sharedTestNames", name)
		}
	}
}
