package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// installGoWrapper writes scripts/system/go as set-up installs it, with
// @GOROOT@ the given folder, and returns its path.
func installGoWrapper(t *testing.T, goroot string) string {
	t.Helper()
	return writeExecutable(t, filepath.Join(t.TempDir(), "go"), strings.ReplaceAll(repo.MustRead(t, "scripts/system/go"), "@GOROOT@", goroot))
}

// writeExecutable writes a script (repo.Write) and makes it executable.
func writeExecutable(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.Chmod(repo.Write(t, path, text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// envWithout is the test's environment without the named variables.
func envWithout(names ...string) []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, name)
	})
}

// TestGoWrapperCollector checks the shared install's go wrapper
// (scripts/system/go) with a stand-in Go that reports what it got: `go
// build` and `go list` run with the collector off below 256 MiB, every
// other command with the caller's environment, a user's own GOGC or
// GOMEMLIMIT wins, and the arguments (spaces and empty ones included) pass
// through unchanged.
func TestGoWrapperCollector(t *testing.T) {
	goroot := t.TempDir()
	writeExecutable(t, filepath.Join(goroot, "bin", "go"),
		"#!/bin/sh\nprintf 'GOGC=%s\\nGOMEMLIMIT=%s\\n' \"${GOGC-unset}\" \"${GOMEMLIMIT-unset}\"\nfor a; do printf 'arg=%s\\n' \"$a\"; done\n")
	w := installGoWrapper(t, goroot)
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"build", nil, []string{"build", "-o", "/tmp/a b", "."}, "GOGC=off\nGOMEMLIMIT=256MiB\narg=build\narg=-o\narg=/tmp/a b\narg=.\n"},
		{"list", nil, []string{"list", "-json", ""}, "GOGC=off\nGOMEMLIMIT=256MiB\narg=list\narg=-json\narg=\n"},
		{"run", nil, []string{"run", "."}, "GOGC=unset\nGOMEMLIMIT=unset\narg=run\narg=.\n"},
		{"test", nil, []string{"test", "-run", "X", "./..."}, "GOGC=unset\nGOMEMLIMIT=unset\narg=test\narg=-run\narg=X\narg=./...\n"},
		{"no arguments", nil, nil, "GOGC=unset\nGOMEMLIMIT=unset\n"},
		{"build after a flag", nil, []string{"-C", "x", "build"}, "GOGC=unset\nGOMEMLIMIT=unset\narg=-C\narg=x\narg=build\n"},
		{"the user's GOGC", []string{"GOGC=50"}, []string{"build"}, "GOGC=50\nGOMEMLIMIT=256MiB\narg=build\n"},
		{"the user's GOMEMLIMIT", []string{"GOMEMLIMIT=1GiB"}, []string{"list"}, "GOGC=off\nGOMEMLIMIT=1GiB\narg=list\n"},
		{"the user's GOGC on go run", []string{"GOGC=200"}, []string{"run", "."}, "GOGC=200\nGOMEMLIMIT=unset\narg=run\narg=.\n"},
	} {
		cmd := exec.Command(w, c.args...)
		cmd.Env = append(envWithout("GOGC", "GOMEMLIMIT"), c.env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, out)
			continue
		}
		if string(out) != c.want {
			t.Errorf("%s: the real go got\n%s\nwant\n%s", c.name, out, c.want)
		}
	}
}

// TestGoWrapperRealGo runs the wrapper with this machine's Go: a program
// built with `go build` through it runs, and one run with `go run` does not
// inherit the build's GOGC=off (it gets the caller's environment).
func TestGoWrapperRealGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	w := installGoWrapper(t, runtime.GOROOT())
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module gctest\n\ngo 1.26\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() { fmt.Printf(\"GOGC=%q\", os.Getenv(\"GOGC\")) }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := envWithout("GOGC", "GOMEMLIMIT", "GOFLAGS")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(w, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s through the wrapper: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	bin := filepath.Join(dir, "prog")
	run("build", "-o", bin, ".")
	cmd := exec.Command(bin)
	cmd.Env = env
	if out, err := cmd.Output(); err != nil || string(out) != `GOGC=""` {
		t.Errorf("the program built through the wrapper: %q, %v; want GOGC=\"\"", out, err)
	}
	if out := run("run", "."); out != `GOGC=""` {
		t.Errorf("go run through the wrapper: %q; want GOGC=\"\" (the build's GOGC=off must not reach the program)", out)
	}
}
