//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestOneKernelPerNotebook opens one notebook three times at once, as a
// double-click in Notebook 7 does (each tab asks the server for the
// notebook's session, POST /api/sessions, while the first kernel is still
// starting), against Notebook 7's real server from the Jupyter environment
// with the environment's configuration. Without the lessons' session
// manager (scripts/jupyter/jupyter_server_config.py, which set-up installs
// in the environment's etc/jupyter) each request started a kernel of its
// own; with it the three get one session and the server runs one kernel.
func TestOneKernelPerNotebook(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rt := newJupyterRuntime(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	work := workFolder(t, root, "sessions-test-")
	nb := filepath.Join(work, "double_click.ipynb")
	if err := os.WriteFile(nb, []byte(`{"cells": [], "metadata": {"kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"}}, "nbformat": 4, "nbformat_minor": 5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, nb)
	if err != nil {
		t.Fatal(err)
	}
	rel = filepath.ToSlash(rel)
	srv := startServer(t, ctx, rt, root, serverSpec{
		what: "sessions test: Notebook 7", base: "/user/u1/", log: "notebook.log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", "notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--ServerApp.root_dir=" + root, "--IdentityProvider.token=" + token,
				"--ServerApp.password=", "--ServerApp.base_url=/user/u1/"}
		},
	})

	// The three tabs' requests, as Notebook 7 sends them, at once.
	type session struct {
		ID     string `json:"id"`
		Kernel struct {
			ID string `json:"id"`
		} `json:"kernel"`
	}
	body, _ := json.Marshal(map[string]any{"path": rel, "name": filepath.Base(rel), "type": "notebook", "kernel": map[string]any{"name": "gonb"}})
	got := make([]session, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.base+"/api/sessions", bytes.NewReader(body))
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set("Authorization", "token "+srv.token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode/100 != 2 {
				errs[i] = fmt.Errorf("POST /api/sessions: %s: %s", resp.Status, bytes.TrimSpace(b))
				return
			}
			errs[i] = json.Unmarshal(b, &got[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	var kernels []struct {
		ID string `json:"id"`
	}
	if err := srv.get(ctx, "/api/kernels", &kernels); err != nil {
		t.Fatal(err)
	}
	var sessions []session
	if err := srv.get(ctx, "/api/sessions", &sessions); err != nil {
		t.Fatal(err)
	}
	t.Logf("three opens of %s: sessions %v, kernels %v", rel, got, kernels)
	if len(kernels) != 1 || len(sessions) != 1 {
		t.Fatalf("three opens of one notebook at once left %d kernels and %d sessions, want 1 and 1: the Jupyter environment's etc/jupyter/jupyter_server_config.py (scripts/jupyter/jupyter_server_config.py) makes a second open reuse the first one's session: %s",
			len(kernels), len(sessions), notebookSetupHint)
	}
	for i, s := range got {
		if s.ID != sessions[0].ID || s.Kernel.ID != kernels[0].ID {
			t.Errorf("open %d got session %s with kernel %s, want the one session %s with kernel %s", i+1, s.ID, s.Kernel.ID, sessions[0].ID, kernels[0].ID)
		}
	}
}
