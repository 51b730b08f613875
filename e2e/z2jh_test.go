//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/repo"
)

// chartHubVersion is the JupyterHub of the hub image of Zero to JupyterHub
// chart 4.4.0 (its images/hub/requirements.txt), which
// deploy/z2jh-values.yaml names.
const chartHubVersion = "5.5.0"

// termPrefix is the shared install of the class tests (TestClassTerm,
// TestZ2JHSingleuser): a prefix of their own, kept between runs so that its
// Jupyter environment and build cache are made once.
func termPrefix() string {
	if p := os.Getenv("LESSONS_TERM_PREFIX"); p != "" {
		return p
	}
	return "/var/tmp/perceptron-lessons-term"
}

// termSetupEnv is the environment of scripts/setup.sh --system for an
// install under prefix, with its configuration in cfgDir.
func termSetupEnv(prefix, cfgDir string) []string {
	return []string{"LESSONS_PREFIX=" + prefix + "/prefix", "LESSONS_CONFIG_DIR=" + cfgDir,
		"LESSONS_JUPYTER_DATA=" + prefix + "/share/jupyter", "LESSONS_JUPYTER_CONFIG=" + prefix + "/etc/jupyter"}
}

// TestZ2JHSingleuser runs what Zero to JupyterHub chart 4.4.0 runs: a hub
// of the chart's JupyterHub (5.5.0, from PyPI, in an environment of its
// own, as the chart's hub image is separate from the students' image)
// spawning the lessons' single-user command of the pinned environment
// (lessons-singleuser: the student's copy, then the environment's
// jupyterhub-singleuser, JupyterHub 5.5.4), as deploy/z2jh-values.yaml's
// singleuser.cmd does. A student logs in on the login page in Chromium and
// runs lesson 00 in JupyterLab; every figure must be drawn. A mismatch of
// the two JupyterHubs fails here (JupyterHub warns of failed
// authentication and redirect loops). Root only (a system user).
func TestZ2JHSingleuser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("TestZ2JHSingleuser creates a system user and runs JupyterHub as root")
	}
	values, err := os.ReadFile("deploy/z2jh-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(values), "runs JupyterHub "+chartHubVersion) || !strings.Contains(string(values), "--version=4.4.0") {
		t.Fatalf("%s no longer names chart 4.4.0 and its JupyterHub %s: update chartHubVersion", "deploy/z2jh-values.yaml", chartHubVersion)
	}
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("Chromium not found (%v): %s", err, browserSetupHint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	prefix := termPrefix()
	cfgDir := prefix + "-etc-z2jh"
	os.RemoveAll(cfgDir)
	termRun(t, ".", termSetupEnv(prefix, cfgDir), "bash", "scripts/setup.sh", "--system", "--no-apt")
	install := prefix + "/prefix"

	// The chart's hub: JupyterHub 5.5.0 from PyPI, in its own environment.
	hubVenv := filepath.Join(prefix, "hub-"+chartHubVersion)
	if _, err := os.Stat(filepath.Join(hubVenv, "bin/jupyterhub")); err != nil {
		termRun(t, ".", nil, "/usr/bin/python3", "-m", "venv", "--clear", hubVenv)
		termRun(t, ".", nil, filepath.Join(hubVenv, "bin/pip"), "install", "--quiet", "--disable-pip-version-check", "jupyterhub=="+chartHubVersion)
	}
	if v := strings.TrimSpace(termRun(t, ".", nil, filepath.Join(hubVenv, "bin/jupyterhub"), "--version")); v != chartHubVersion {
		t.Fatalf("the hub's environment runs JupyterHub %s, want %s", v, chartHubVersion)
	}
	if v := strings.TrimSpace(termRun(t, ".", nil, filepath.Join(install, "venv/bin/jupyterhub-singleuser"), "--version")); strings.Split(v, ".")[0] != strings.Split(chartHubVersion, ".")[0] {
		t.Fatalf("the image's jupyterhub-singleuser is %s: not the chart's major version %s", v, chartHubVersion)
	}

	u := createHubUser(t, "z2jhstudent")
	// After the hub's stop (a cleanup registered later, so run before this
	// one): the student's server and kernel get a minute to exit, on a
	// loaded machine, before createHubUser's cleanup reports what is left.
	t.Cleanup(func() {
		for i := 0; i < 600 && len(userProcesses(u.uid)) > 0; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	const password = "z2jh-test-password"
	ports, err := localhub.FreePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The settings of deploy/z2jh-values.yaml that matter to a server
	// (singleuser.cmd and defaultUrl), with a hub on this machine.
	config := localhub.Dummy(password, []string{u.name}) + fmt.Sprintf(`c.JupyterHub.bind_url = "http://127.0.0.1:%d"
c.ConfigurableHTTPProxy.command = [%q]
c.Spawner.cmd = [%q]
c.Spawner.default_url = "/lab/tree/perceptron-lessons/notebooks"
c.Spawner.http_timeout = 300
c.Spawner.start_timeout = 300
c.Spawner.environment = {"JUPYTER_PATH": %q}
c.Spawner.args = ["--LabApp.expose_app_in_browser=True"]
`, ports[0], filepath.Join(install, "proxy/node_modules/.bin/configurable-http-proxy"),
		filepath.Join(install, "bin/lessons-singleuser"), prefix+"/share/jupyter") + localhub.Private(dir, ports[1], ports[2])
	if err := os.WriteFile(filepath.Join(dir, "config.py"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &hub{base: fmt.Sprintf("http://127.0.0.1:%d", ports[0])}
	h.log = runHub(t, ctx, filepath.Join(hubVenv, "bin/jupyterhub"), dir, filepath.Join(dir, "config.py"), h.base, 5*time.Minute)

	browser := startChromium(t, ctx, chromium)
	lctx, lcancel := context.WithTimeout(browser, 6*time.Minute)
	defer lcancel()
	login(t, lctx, h, u, password)
	committed := repo.ReadNotebook(t, firstLesson)
	shots := t.TempDir()
	srv := &jupyterServer{base: h.base + "/user/" + u.name, shots: "lab_"}
	runInLab(t, browser, srv, "perceptron-lessons/"+firstLesson, committed, shots)
	if strings.Contains(repo.ReadFile(h.log), "redirect loop") {
		t.Errorf("the hub logged a redirect loop:\n%s", repo.Tail(repo.ReadFile(h.log), 30))
	}
}
