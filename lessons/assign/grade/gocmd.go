package grade

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

// moduleFiles returns go.mod and go.sum for the temporary module: the
// repository's requirements (so the same versions build, from the same
// cache) plus the repository itself, replaced by its folder.
func (g *Grader) moduleFiles() (gomod, gosum []byte, err error) {
	mod, err := os.ReadFile(filepath.Join(g.Repo, "go.mod"))
	if err != nil {
		return nil, nil, err
	}
	sum, err := os.ReadFile(filepath.Join(g.Repo, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	moduleLine := regexp.MustCompile(`(?m)^module\s+\S+\s*$`)
	if !moduleLine.Match(mod) {
		return nil, nil, fmt.Errorf("%s/go.mod has no module line", g.Repo)
	}
	mod = moduleLine.ReplaceAll(mod, []byte("module graded"))
	mod = append(mod, fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", assignment.ModulePath, assignment.ModulePath, g.Repo)...)
	return mod, sum, nil
}

// goCmd runs the go command in dir with a time limit and returns its
// combined output.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	out, _, err := goCmdLimited(ctx, dir, 0, args...)
	return out, err
}

// goCmdLimited is goCmd with a limit on the resident memory of the go
// command's process tree (the compiler and linker it runs), in MiB (0:
// none): over it, the tree is killed and exceeded is true.
func goCmdLimited(ctx context.Context, dir string, memoryMB int, args ...string) (string, bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = assignment.BuildEnv()
	cmd.SysProcAttr = sandbox.SysProcAttr()
	cmd.Cancel = func() error {
		sandbox.KillGroup(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = 5 * time.Second
	out := &sandbox.LimitedBuffer{Max: 1 << 20}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", false, err
	}
	var exceeded atomic.Bool
	if memoryMB > 0 {
		go sandbox.WatchMemory(ctx, cmd.Process.Pid, int64(memoryMB)<<20, func() {
			exceeded.Store(true)
			sandbox.KillGroup(cmd.Process.Pid)
			cancel()
		})
	}
	err := cmd.Wait()
	if exceeded.Load() {
		return out.String(), true, fmt.Errorf("the build exceeded %d MiB of memory", memoryMB)
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return out.String(), false, err
}
