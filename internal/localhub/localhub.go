// Package localhub holds what the programs that start a JupyterHub on this
// machine share (the end-to-end tests and the class-load measurement):
// free ports on 127.0.0.1, and the configuration lines that keep such a
// hub's state, proxy and ports to itself.
package localhub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// FreePorts returns n ports of FreePort.
func FreePorts(n int) ([]int, error) {
	ports := make([]int, n)
	for i := range ports {
		p, err := FreePort()
		if err != nil {
			return nil, fmt.Errorf("no free port on 127.0.0.1: %w", err)
		}
		ports[i] = p
	}
	return ports, nil
}

// Private is the configuration (jupyterhub_config.py lines) of a hub that
// runs beside any other on the machine: the hub's API on hubPort and the
// proxy's on apiPort, both on 127.0.0.1, its proxy's pid file, database and
// cookie secret in dir, and the single-user servers and the proxy stopped
// with it. The public address (c.JupyterHub.bind_url) is the caller's.
func Private(dir string, hubPort, apiPort int) string {
	return fmt.Sprintf(`c.JupyterHub.hub_bind_url = "http://127.0.0.1:%d"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d"
c.ConfigurableHTTPProxy.pid_file = %q
c.JupyterHub.db_url = "sqlite:///" + %q
c.JupyterHub.cookie_secret_file = %q
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
`, hubPort, apiPort, filepath.Join(dir, "proxy.pid"), filepath.Join(dir, "jupyterhub.sqlite"), filepath.Join(dir, "cookie_secret"))
}

// Dummy is the configuration of a hub whose users are the users named,
// none an admin, who log in with the one password (JupyterHub's
// DummyAuthenticator: for tests and measurements only).
func Dummy(password string, users []string) string {
	var names []string
	for _, u := range users {
		names = append(names, strconv.Quote(u))
	}
	return fmt.Sprintf(`c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
c.DummyAuthenticator.password = %q
c.Authenticator.allowed_users = {%s}
c.Authenticator.admin_users = set()
`, password, strings.Join(names, ", "))
}

// API is a client of a hub's REST API, and of a user's server behind the
// hub, with a token ("" for none).
type API struct {
	Base  string // http://HOST:PORT, with no final slash
	Token string
}

// Do sends one request to Base+path (body is sent as JSON unless nil) and
// decodes a JSON answer into out (if not nil). It returns the answer's
// status; an answer outside 2xx is an error that names the request, the
// status and the start of the answer.
func (c API) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "token "+c.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("%s %s: %s: %.300s", method, path, resp.Status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}
