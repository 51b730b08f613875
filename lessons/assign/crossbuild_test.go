package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestCrossBuild compiles the grader (every package under lessons/assign)
// and the perceptron package for an instructor's macOS (darwin/arm64) and
// Windows (amd64) laptop: Linux-only code must sit behind build tags, so
// that generate, grade -sandbox none and gradescope run there too.
func TestCrossBuild(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH:", err)
	}
	repoDir := repo.Dir(t)
	for _, target := range []struct{ goos, goarch string }{
		{"darwin", "arm64"},
		{"windows", "amd64"},
	} {
		t.Run(target.goos+"_"+target.goarch, func(t *testing.T) {
			cmd := exec.Command(gocmd, "build", "./lessons/assign/...", "./perceptron/...")
			cmd.Dir = repoDir
			cmd.Env = append(os.Environ(), "GOOS="+target.goos, "GOARCH="+target.goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s GOARCH=%s go build ./lessons/assign/... ./perceptron/...: %v\n%s", target.goos, target.goarch, err, out)
			}
		})
	}
}
