package view_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
)

// mendHarness runs MendWidgetURLScript in Node on a fake page (its
// location, classic Notebook's data-base-url, JupyterLab's page config)
// and prints what `new WebSocket(url)` then opens, and whether the
// constructor was replaced.
const mendHarness = `
const c = JSON.parse(process.argv[process.argv.length - 1]);
const opened = [];
class FakeWebSocket { constructor(url, protocols) { opened.push(url); this.url = url; } }
FakeWebSocket.OPEN = 1;
globalThis.WebSocket = FakeWebSocket;
globalThis.document = {
	location: {host: c.host, protocol: c.protocol},
	body: {dataset: c.classicBase ? {baseUrl: c.classicBase} : {}},
	getElementById: id => (id === 'jupyter-config-data' && c.labConfig) ? {textContent: JSON.stringify(c.labConfig)} : null,
};
eval(c.script);
eval(c.script); // a second display of the script changes nothing
const ws = new WebSocket(c.url);
console.log(JSON.stringify({url: opened[0], wrapped: globalThis.WebSocket !== FakeWebSocket,
	instance: ws instanceof FakeWebSocket, constant: WebSocket.OPEN}));
`

// TestMendWidgetURLScript checks the address rewrite of GoNB's widget
// WebSocket on the pages a student meets: classic Notebook and JupyterLab,
// at the root and under a base URL, over http and https; and that any other
// address (JupyterLab's own kernel connection, with its query) is left as
// it is. It needs node (installed by scripts/setup.sh --lab, which
// scripts/test.sh runs) and is skipped without it.
func TestMendWidgetURLScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH (scripts/setup.sh --lab installs it): the rewrite is tested in the browser tests only")
	}
	const gonb = "ws://127.0.0.1:8888/api/kernels/K/channels" // what GoNB v0.11.4 opens
	tests := []struct {
		name        string
		protocol    string
		classicBase string
		labConfig   map[string]string
		url         string
		want        string
		wrapped     bool
	}{
		{"classic at /", "http:", "/", nil, gonb, gonb, false},
		{"classic under a hub", "http:", "/user/u1/", nil, gonb, "ws://127.0.0.1:8888/user/u1/api/kernels/K/channels", true},
		{"classic over https", "https:", "/", nil, gonb, "wss://127.0.0.1:8888/api/kernels/K/channels", true},
		{"lab at /", "http:", "", map[string]string{"baseUrl": "/", "wsUrl": ""}, gonb, gonb, false},
		{"lab under binder, https", "https:", "", map[string]string{"baseUrl": "/binder/jupyter/user/x-y-z/"}, gonb,
			"wss://127.0.0.1:8888/binder/jupyter/user/x-y-z/api/kernels/K/channels", true},
		{"lab with a wsUrl", "http:", "", map[string]string{"baseUrl": "/user/u2/", "wsUrl": "wss://hub.example/user/u2"}, gonb,
			"wss://hub.example/user/u2/api/kernels/K/channels", true},
		{"lab's own connection is left alone", "http:", "", map[string]string{"baseUrl": "/user/u2/"},
			"ws://127.0.0.1:8888/api/kernels/K/channels?session_id=S", "ws://127.0.0.1:8888/api/kernels/K/channels?session_id=S", true},
		{"other sockets are left alone", "http:", "/user/u1/", nil,
			"ws://127.0.0.1:8888/user/u1/api/events/subscribe", "ws://127.0.0.1:8888/user/u1/api/events/subscribe", true},
	}
	for _, tc := range tests {
		arg, err := json.Marshal(map[string]any{"host": "127.0.0.1:8888", "protocol": tc.protocol, "classicBase": tc.classicBase,
			"labConfig": tc.labConfig, "url": tc.url, "script": view.MendWidgetURLScript})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, "-e", mendHarness, string(arg)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: node: %v\n%s", tc.name, err, out)
		}
		var got struct {
			URL      string `json:"url"`
			Wrapped  bool   `json:"wrapped"`
			Instance bool   `json:"instance"`
			Constant int    `json:"constant"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(string(out))), &got); err != nil {
			t.Fatalf("%s: %v: %q", tc.name, err, out)
		}
		if got.URL != tc.want || got.Wrapped != tc.wrapped || !got.Instance || got.Constant != 1 {
			t.Errorf("%s: opened %q (constructor replaced: %v, instanceof the page's WebSocket: %v, OPEN = %d), want %q (replaced: %v)",
				tc.name, got.URL, got.Wrapped, got.Instance, got.Constant, tc.want, tc.wrapped)
		}
	}
}
