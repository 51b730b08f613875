package localhub

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
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

// TestAPI: the token and the JSON body reach the server, the JSON answer
// is decoded, and an answer outside 2xx is an error with its status.
func TestAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		json.NewDecoder(r.Body).Decode(&in)
		switch {
		case r.Header.Get("Authorization") != "token tok":
			http.Error(w, "no token", http.StatusForbidden)
		case r.Method == http.MethodPost && r.Header.Get("Content-Type") == "application/json":
			json.NewEncoder(w).Encode(map[string]string{"got": in["name"], "path": r.URL.Path})
		default:
			http.Error(w, "unexpected", http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	var out map[string]string
	code, err := API{Base: srv.URL, Token: "tok"}.Do(ctx, http.MethodPost, "/hub/api/users/ann/tokens", map[string]string{"name": "ann"}, &out)
	if err != nil || code != 200 || out["got"] != "ann" || out["path"] != "/hub/api/users/ann/tokens" {
		t.Errorf("POST: %d, %v, %v", code, out, err)
	}
	code, err = API{Base: srv.URL}.Do(ctx, http.MethodGet, "/hub/api", nil, nil)
	if code != http.StatusForbidden || err == nil || !strings.Contains(err.Error(), "403") || !strings.Contains(err.Error(), "no token") {
		t.Errorf("without the token: %d, %v; want 403 and an error that says so", code, err)
	}
}
