package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/perceptron-go/lessons/internal/localhub"
)

// hub is a JupyterHub started for one run, on 127.0.0.1 only.
type hub struct {
	base     string // http://127.0.0.1:PORT, the proxy's public address
	dir      string // its folder: config, database, log, students' homes
	log      string
	cmd      *exec.Cmd
	exited   chan struct{}
	password string
}

// hubConfig is the configuration the hub runs with: the shared install's
// own (load_subconfig), then what a measurement needs: a dummy
// authenticator with one password for the students listed, loopback ports,
// and JupyterHub's SimpleLocalProcessSpawner (or the install spawner's own
// variant of it, its simple_variant: the fork server's), which runs each
// student's server as the hub's user with a home of its own under dir/home
// (no system users: this measures the server's load, not the isolation
// between students). The servers get the PATH that sudo gives the hub on Debian
// (its secure_path), not the PATH of whoever runs classload: a tool in
// root's own folders (such as ~/go/bin/gopls) would otherwise reach the
// kernels, which a class's would not find.
func hubConfig(prefix, dir, password string, students []string, ports []int) string {
	return fmt.Sprintf(`# classload: the shared install's configuration, then the measurement's settings.
load_subconfig(%q)
c.JupyterHub.spawner_class = getattr(c.JupyterHub.get("spawner_class"), "simple_variant", "jupyterhub.spawner.SimpleLocalProcessSpawner")
c.SimpleLocalProcessSpawner.home_dir_template = %q
c.Spawner.environment.update({"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"})
c.Spawner.args = list(c.Spawner.args) + (["--allow-root"] if __import__("os").geteuid() == 0 else [])
c.JupyterHub.bind_url = "http://127.0.0.1:%d"
`, filepath.Join(prefix, "jupyterhub_config.py"), filepath.Join(dir, "home", "{username}"), ports[0]) +
		localhub.Dummy(password, students) + localhub.Private(dir, ports[1], ports[2])
}

// startHub starts the shared install's JupyterHub with hubConfig and the
// extra lines in a new folder under tmp and waits (at most 90 s) until its login page answers.
func startHub(ctx context.Context, prefix, tmp string, students []string, extra []string) (*hub, error) {
	ports, err := localhub.FreePorts(3)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tmp, "classload-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	password := fmt.Sprintf("pw-%x", time.Now().UnixNano())
	config := filepath.Join(dir, "jupyterhub_classload_config.py")
	if err := os.WriteFile(config, []byte(hubConfig(prefix, dir, password, students, ports)+strings.Join(extra, "\n")+"\n"), 0o600); err != nil {
		return nil, err
	}
	h := &hub{base: fmt.Sprintf("http://127.0.0.1:%d", ports[0]), dir: dir, log: filepath.Join(dir, "jupyterhub.log"),
		exited: make(chan struct{}), password: password}
	logFile, err := os.Create(h.log)
	if err != nil {
		return nil, err
	}
	h.cmd = exec.Command(filepath.Join(prefix, "venv/bin/jupyterhub"), "-f", config)
	h.cmd.Dir = dir
	h.cmd.Env = append(envWithout(os.Environ(), "JUPYTER_PATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR"), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	h.cmd.Stdout, h.cmd.Stderr = logFile, logFile
	// A session of its own, as a service's: Linux shares the CPU between
	// sessions first (autogroups), so the hub must not share one with the
	// students' stand-ins (clientsFirst).
	h.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGTERM}
	if err := h.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", h.cmd.Path, err)
	}
	go func() {
		h.cmd.Wait()
		logFile.Close()
		close(h.exited)
	}()
	ready, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ready, http.MethodGet, h.base+"/hub/login", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return h, nil
			}
		}
		select {
		case <-h.exited:
			return nil, fmt.Errorf("jupyterhub exited before it answered (%v); its log: %s", h.cmd.ProcessState, h.log)
		case <-ready.Done():
			h.stop(nil)
			return nil, fmt.Errorf("jupyterhub did not answer on %s within 90 s; its log: %s", h.base, h.log)
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// stop ends the hub with SIGTERM (it stops the students' servers, which shut
// their kernels down, and the proxy), waits up to 60 s, then ends with
// SIGKILL, one process id at a time, whatever of the tree seen still runs.
func (h *hub) stop(seen *procSet) {
	syscall.Kill(-h.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(60 * time.Second):
		syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
		<-h.exited
	}
	if seen != nil {
		if left := seen.killLeft(); left > 0 {
			fmt.Fprintf(os.Stderr, "classload: %d processes of the hub's tree still ran after it stopped; ended them\n", left)
		}
	}
}

// envWithout returns env without the variables named.
func envWithout(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if n == name {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
