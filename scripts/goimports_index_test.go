package scripts_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestGoplsModcacheIndexShared checks the shared install's index of the
// module cache for gopls (issue 31, item 8): set-up's
// lessons_index_modcache makes it with the index command of the
// golang.org/x/tools that gopls is built with, lessons_seed_goimports gives
// it to a user, and the same index code that gopls runs (modindex.Update,
// through that command, as the user) then reads it instead of parsing the
// module cache again, and still adds a module that arrives later (an
// update of the install) into the user's own index.
func TestGoplsModcacheIndexShared(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	prefix := filepath.Join(tmp, "prefix")
	modcache := filepath.Join(prefix, "gomodcache")
	home := filepath.Join(tmp, "home")
	gomodindex := filepath.Join(tmp, "gomodindex")
	build := exec.Command("go", "build", "-o", gomodindex, "golang.org/x/tools/internal/modindex/gomodindex")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the index command: %v\n%s", err, out)
	}
	env := strings.ReplaceAll(repo.ReadFile("scripts/system/lessons-env.sh"), "@PREFIX@", prefix)
	env = strings.ReplaceAll(env, "@GOROOT@", runtime.GOROOT())
	repo.Write(t, filepath.Join(prefix, "lib/lessons-env.sh"), env)

	// A module cache with one module, older than the index.
	module := func(path, name string, age time.Duration) {
		dir := filepath.Join(modcache, path+"@v1.0.0")
		repo.Write(t, filepath.Join(dir, "x.go"), fmt.Sprintf("package %s\n\nfunc %s() {}\n", filepath.Base(path), name))
		when := time.Now().Add(-age)
		for d := filepath.Join(dir, "x.go"); strings.HasPrefix(d, modcache+"/"); d = filepath.Dir(d) {
			if err := os.Chtimes(d, when, when); err != nil {
				t.Fatal(err)
			}
		}
	}
	module("example.com/greet", "Hello", time.Hour)

	sh := func(script string, extra ...string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", ". \"$LESSONS_PREFIX/lib/lessons-env.sh\" && "+script)
		cmd.Env = append(os.Environ(), "LESSONS_PREFIX="+prefix, "HOME="+home, "XDG_CACHE_HOME=", "GOMODINDEX="+gomodindex, "GOFLAGS=")
		cmd.Env = append(cmd.Env, extra...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	read := func(path string) string { return repo.MustRead(t, path) }
	files := func(dir string) []string {
		t.Helper()
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}

	// Set-up: the shared index, its payload under a fixed name.
	sh(`lessons_index_modcache "$LESSONS_PREFIX/goimports"`)
	shared := filepath.Join(prefix, "goimports")
	linkName := fmt.Sprintf("index-name-0-%032x", sha256.Sum256([]byte(modcache)))
	const payload = "index-0-perceptron-lessons"
	if got := files(shared); strings.Join(got, " ") != payload+" "+linkName {
		t.Fatalf("the shared index holds %v, want %s and %s", got, payload, linkName)
	}
	if got := read(filepath.Join(shared, linkName)); got != payload {
		t.Errorf("the shared link file names %q, want %q", got, payload)
	}
	if p := read(filepath.Join(shared, payload)); !strings.Contains(p, "example.com/greet") || !strings.Contains(p, "Hello") {
		t.Errorf("the shared index does not list example.com/greet's Hello:\n%s", p)
	}

	// A user's gopls starts: their cache gets a copy of the link file (their
	// gopls rewrites it) and a link to the shared payload.
	sh(`lessons_seed_goimports`)
	mine := filepath.Join(home, ".cache/goimports")
	if fi, err := os.Lstat(filepath.Join(mine, linkName)); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the user's link file is not a file of their own: %v %v", fi, err)
	}
	if target, err := os.Readlink(filepath.Join(mine, payload)); err != nil || target != filepath.Join(shared, payload) {
		t.Fatalf("the user's payload is not a link to the shared one: %q %v", target, err)
	}

	// gopls's index code, as the user, reads it and writes nothing.
	sh(`"$GOMODINDEX" update`)
	if got := read(filepath.Join(mine, linkName)); got != payload {
		t.Errorf("the user's index was made again (link file names %q), not read from the shared one", got)
	}
	if got := files(mine); len(got) != 2 {
		t.Errorf("the user's index folder holds %v after an update with nothing new, want the two seeded files", got)
	}

	// An update of the install brings a module: the user's gopls adds it to
	// an index of their own; the shared one is untouched, and seeding again
	// keeps the user's.
	module("example.com/wave", "Bye", 0)
	sh(`"$GOMODINDEX" update`)
	own := read(filepath.Join(mine, linkName))
	if own == payload {
		t.Fatalf("the user's index was not updated with a module newer than it")
	}
	if p := read(filepath.Join(mine, own)); !strings.Contains(p, "example.com/wave") || !strings.Contains(p, "example.com/greet") {
		t.Errorf("the user's updated index does not list both modules:\n%s", p)
	}
	if strings.Contains(read(filepath.Join(shared, payload)), "example.com/wave") {
		t.Errorf("the user's update wrote into the shared index")
	}
	sh(`lessons_seed_goimports`)
	if got := read(filepath.Join(mine, linkName)); got != own {
		t.Errorf("seeding again replaced the user's valid index %q by %q", own, got)
	}

	// A user's index whose payload is gone is seeded again.
	if err := os.Remove(filepath.Join(mine, own)); err != nil {
		t.Fatal(err)
	}
	sh(`lessons_seed_goimports`)
	if got := read(filepath.Join(mine, linkName)); got != payload {
		t.Errorf("a user's index without its payload was not seeded again: the link file names %q", got)
	}
}
