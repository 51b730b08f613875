package localhub

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

// TestFreePorts: the ports are distinct and can be listened on.
func TestFreePorts(t *testing.T) {
	ports, err := FreePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] || p <= 0 {
			t.Errorf("ports %v: want three distinct ports", ports)
		}
		seen[p] = true
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Errorf("port %d: %v", p, err)
			continue
		}
		l.Close()
	}
}

// TestPrivate: the lines name both ports and keep every file in dir.
func TestPrivate(t *testing.T) {
	got := Private("/tmp/h", 8001, 8002)
	for _, want := range []string{
		`c.JupyterHub.hub_bind_url = "http://127.0.0.1:8001"`,
		`c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:8002"`,
		`c.ConfigurableHTTPProxy.pid_file = "/tmp/h/proxy.pid"`,
		`c.JupyterHub.db_url = "sqlite:///" + "/tmp/h/jupyterhub.sqlite"`,
		`c.JupyterHub.cookie_secret_file = "/tmp/h/cookie_secret"`,
		"c.JupyterHub.cleanup_servers = True",
		"c.JupyterHub.cleanup_proxy = True",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("no line %s in\n%s", want, got)
		}
	}
}

// TestDummy: the users as a Python set of quoted names, the password
// quoted, no admin.
func TestDummy(t *testing.T) {
	got := Dummy(`p"w`, []string{"ann", "bo b"})
	for _, want := range []string{
		`c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"`,
		`c.DummyAuthenticator.password = "p\"w"`,
		`c.Authenticator.allowed_users = {"ann", "bo b"}`,
		`c.Authenticator.admin_users = set()`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("no line %s in\n%s", want, got)
		}
	}
}
