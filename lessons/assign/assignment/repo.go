package assignment

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/perceptron-go/lessons/internal/root"
)

// FindRepo returns the folder, at or above start, whose go.mod declares
// the module github.com/perceptron-go/lessons.
func FindRepo(start string) (string, error) {
	dir, err := root.Find(start)
	if err != nil {
		return "", fmt.Errorf("%w: run from the repository or give -repo", err)
	}
	return dir, nil
}

// Dirs returns the folders of lessonsDir that hold a source.ipynb.
func Dirs(lessonsDir string) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(lessonsDir, "*", "source.ipynb"))
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, m := range matches {
		dirs = append(dirs, filepath.Dir(m))
	}
	sort.Strings(dirs)
	return dirs, nil
}

// RepoDirs returns the repository (the -repo flag, or the one found from
// the working folder) as an absolute path, and the folder of the
// assignments (the -lessons flag, or <repo>/lessons).
func RepoDirs(repoFlag, lessonsFlag string) (repo, lessons string, err error) {
	repo = repoFlag
	if repo == "" {
		if repo, err = FindRepo("."); err != nil {
			return "", "", err
		}
	}
	repo, _ = filepath.Abs(repo)
	lessons = lessonsFlag
	if lessons == "" {
		lessons = filepath.Join(repo, "lessons")
	}
	return repo, lessons, nil
}

// BuildEnv is the environment of the go command: the module graph as
// go.mod and go.sum say (-mod=readonly), no module proxy (GOPROXY=off: a
// submission cannot fetch a module), no cgo, the local toolchain only.
func BuildEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch k {
		case "GOFLAGS", "GOPROXY", "GOWORK", "GOTOOLCHAIN", "CGO_ENABLED", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOINSECURE", "GOPRIVATE", "GONOPROXY", "GOVCS":
			continue
		}
		env = append(env, e)
	}
	return append(env, "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
}
