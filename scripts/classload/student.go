package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/notebook"
)

// errBudget is returned once the run's request budget is spent.
var errBudget = errors.New("the run's request budget (-max-requests) is spent")

// client is one student's HTTP side: the hub's REST API and their server's,
// with their token, counted against the run's budget.
type client struct {
	base, name, token string
	budget            *atomic.Int64
}

// do sends one request (body is JSON, or nil) and decodes a JSON answer into
// out (if not nil); an answer outside 2xx is an error that names it.
func (c *client) do(ctx context.Context, method, path string, body, out any) error {
	if c.budget.Add(-1) < 0 {
		return errBudget
	}
	_, err := localhub.API{Base: c.base, Token: c.token}.Do(ctx, method, path, body, out)
	return err
}

// waitReady waits until the student's server is ready as JupyterHub's
// spawn page does: it follows the hub's event stream of the spawn's progress
// (GET /hub/api/users/NAME/server/progress, server-sent events) until an
// event says ready (or failed). The hub pushes that event as soon as it
// has seen the server answer; polling the user's model instead, once a
// second for each student, would add the hub work a browser does not make.
func (c *client) waitReady(ctx context.Context) error {
	if c.budget.Add(-1) < 0 {
		return errBudget
	}
	path := "/hub/api/users/" + c.name + "/server/progress"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+c.token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("GET %s: %s: %.200s", path, resp.Status, b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var ev struct {
			Ready   bool   `json:"ready"`
			Failed  bool   `json:"failed"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return fmt.Errorf("GET %s: an event that is not JSON: %.200s", path, data)
		}
		if ev.Failed {
			return fmt.Errorf("the hub says the server failed to start: %s", ev.Message)
		}
		if ev.Ready {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return fmt.Errorf("GET %s: the stream ended before the server was ready", path)
}

// think is the distribution of a student's pauses before each cell:
// uniform between lo and hi.
type think struct{ lo, hi time.Duration }

func (t think) draw(r *mrand.Rand) time.Duration {
	if t.hi <= t.lo {
		return t.lo
	}
	return t.lo + time.Duration(r.Int64N(int64(t.hi-t.lo)))
}

// newRand returns a student's random source for the seed.
func newRand(seed uint64) *mrand.Rand { return mrand.New(mrand.NewPCG(seed, 0x636c6173736c6f61)) }

// result is what one student saw.
type result struct {
	name      string
	started   bool          // the server started
	startTime time.Duration // from asking for the server until it was ready
	cells     []time.Duration
	byCell    map[int][]time.Duration // the same times by the cell's index in its lesson
	// completions and inspects: the latency of each complete_request and
	// inspect_request answered; noMatch and notFound count the replies
	// with no match, or no documentation found.
	completions, inspects []time.Duration
	noMatch, notFound     int
	kernelCPU             time.Duration // the CPU time of its kernels, builds and cells included
	failures              []string      // each: what failed, where
}

func (r *result) fail(format string, args ...any) {
	r.failures = append(r.failures, r.name+": "+fmt.Sprintf(format, args...))
}

// student runs one simulated student: log in through the hub's REST API
// (the authenticator checks the password), start the server and wait for
// it, then for each lesson open the notebook (the contents API), start its
// kernel (a session, as JupyterLab does), connect to the kernel's channels
// websocket, and run the code cells in order with execute_request, after a
// think time each. Cell latency: from sending execute_request until the
// kernel reports idle for it (the cell's outputs have all arrived).
func student(ctx context.Context, h *hub, name string, lessons []string, th think, complete float64, cellTimeout, spawnTimeout time.Duration,
	budget *atomic.Int64, seed uint64) *result {
	res := &result{name: name}
	rng := newRand(seed)
	// The completions' own source, so that the think times are the same
	// with completion asked or not.
	askRng := newRand(seed ^ 0x636f6d706c657465)
	c := &client{base: h.base, name: name, budget: budget}
	var tok struct {
		Token string `json:"token"`
	}
	if err := c.do(ctx, http.MethodPost, "/hub/api/users/"+name+"/tokens",
		map[string]any{"auth": map[string]string{"username": name, "password": h.password}, "note": "classload"}, &tok); err != nil {
		res.fail("logging in: %v", err)
		return res
	}
	c.token = tok.Token
	start := time.Now()
	if err := c.do(ctx, http.MethodPost, "/hub/api/users/"+name+"/server", nil, nil); err != nil {
		res.fail("asking for a server: %v", err)
		return res
	}
	sctx, cancel := context.WithTimeout(ctx, spawnTimeout-time.Since(start))
	err := c.waitReady(sctx)
	cancel()
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			res.fail("the server was not ready within %v", spawnTimeout)
		} else {
			res.fail("waiting for the server: %v", err)
		}
		return res
	}
	res.started, res.startTime = true, time.Since(start)
	for _, lesson := range lessons {
		if err := runLesson(ctx, c, res, lesson, th, complete, cellTimeout, rng, askRng); err != nil {
			res.fail("%s: %v", lesson, err)
			if errors.Is(err, errBudget) || ctx.Err() != nil {
				return res
			}
		}
	}
	return res
}

// runLesson opens one lesson and runs its code cells in a kernel of its own
// (shut down afterwards, as closing the notebook's kernel does).
func runLesson(ctx context.Context, c *client, res *result, lesson string, th think, complete float64, cellTimeout time.Duration,
	rng, askRng *mrand.Rand) error {
	server := "/user/" + c.name
	path := "perceptron-lessons/notebooks/" + lesson
	var model struct {
		Content json.RawMessage `json:"content"` // the notebook, in nbformat
	}
	if err := c.do(ctx, http.MethodGet, server+"/api/contents/"+path+"?content=1", nil, &model); err != nil {
		return fmt.Errorf("opening the notebook: %w", err)
	}
	nb, err := notebook.Parse(model.Content)
	if err != nil {
		return fmt.Errorf("opening the notebook: %w", err)
	}
	var session struct {
		ID     string `json:"id"`
		Kernel struct {
			ID string `json:"id"`
		} `json:"kernel"`
	}
	if err := c.do(ctx, http.MethodPost, server+"/api/sessions", map[string]any{
		"path": path, "name": lesson, "type": "notebook", "kernel": map[string]string{"name": "gonb"},
	}, &session); err != nil {
		return fmt.Errorf("starting its kernel: %w", err)
	}
	defer func() {
		res.kernelCPU += kernelCPU(session.Kernel.ID)
		// A fresh context: the run's may be done, and the kernel must stop.
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.do(sctx, http.MethodDelete, server+"/api/sessions/"+session.ID, nil, nil); err != nil && !errors.Is(err, errBudget) {
			res.fail("%s: shutting its kernel down: %v", lesson, err)
		}
	}()
	k, err := dialKernel(ctx, c, session.Kernel.ID)
	if err != nil {
		return err
	}
	defer k.close()
	if _, err := k.request(ctx, "kernel_info_request", map[string]any{}, false, 2*time.Minute); err != nil {
		return fmt.Errorf("kernel_info_request: %w", err)
	}
	type codeCell struct {
		index int
		src   string
	}
	var cells []codeCell
	var srcs []string
	for i, cell := range nb.Cells {
		if cell.Type == "code" && strings.TrimSpace(cell.Source) != "" {
			cells = append(cells, codeCell{i, cell.Source})
			srcs = append(srcs, cell.Source)
		}
	}
	asks := chooseAsks(srcs, complete, askRng)
	for j, cell := range cells {
		i, src := cell.index, cell.src
		wait := th.draw(rng)
		if a := asks[j]; a != nil {
			// Halfway through the think time, the student asks for
			// completion and help while writing the cell; the cell runs
			// when the think time is over (or when the answers came, if
			// later).
			thinking := time.Now()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait / 2):
			}
			if err := askKernel(ctx, c, k, res, lesson, i, a); err != nil {
				return err
			}
			wait -= time.Since(thinking)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(max(wait, 0)):
		}
		if c.budget.Add(-1) < 0 {
			return errBudget
		}
		began := time.Now()
		reply, err := k.request(ctx, "execute_request", map[string]any{
			"code": src, "silent": false, "store_history": true, "user_expressions": map[string]any{},
			"allow_stdin": false, "stop_on_error": true,
		}, true, cellTimeout)
		if err != nil {
			res.fail("%s: cell %d: %v", lesson, i, err)
			if ctx.Err() != nil || errors.Is(err, errTimeout) {
				return nil // the kernel is stuck or the run is over: the next lesson, if any
			}
			continue
		}
		took := time.Since(began)
		res.cells = append(res.cells, took)
		if res.byCell == nil {
			res.byCell = map[int][]time.Duration{}
		}
		res.byCell[i] = append(res.byCell[i], took)
		if reply.status != "ok" {
			res.fail("%s: cell %d: execute_reply status %q: %s", lesson, i, reply.status, reply.errText)
		}
	}
	return nil
}

// completeTimeout bounds one complete_request or inspect_request: GoNB's
// own bound on a call to gopls is 25 s (scripts/gonb-patches/0003).
const completeTimeout = time.Minute

// askKernel sends the kernel a complete_request, then an inspect_request,
// at the places a says, and records their latencies and whether they held
// an answer. A request that fails or times out is a failure; an error
// returned ends the lesson (the run is over or its budget spent).
func askKernel(ctx context.Context, c *client, k *kernel, res *result, lesson string, cell int, a *ask) error {
	for _, q := range []struct {
		msgType string
		content map[string]any
	}{
		{"complete_request", map[string]any{"code": a.code, "cursor_pos": a.completeAt}},
		{"inspect_request", map[string]any{"code": a.code, "cursor_pos": a.inspectAt, "detail_level": 0}},
	} {
		if c.budget.Add(-1) < 0 {
			return errBudget
		}
		began := time.Now()
		r, err := k.request(ctx, q.msgType, q.content, false, completeTimeout)
		took := time.Since(began)
		if err != nil {
			res.fail("%s: cell %d: %s at %s: %v", lesson, cell, q.msgType, a.selector, err)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue
		}
		if r.status != "ok" {
			res.fail("%s: cell %d: %s at %s: status %q: %s", lesson, cell, q.msgType, a.selector, r.status, r.errText)
			continue
		}
		var ct struct {
			Matches []string `json:"matches"`
			Found   bool     `json:"found"`
		}
		if err := json.Unmarshal(r.content, &ct); err != nil {
			res.fail("%s: cell %d: %s at %s: a reply that is not JSON: %v", lesson, cell, q.msgType, a.selector, err)
			continue
		}
		if q.msgType == "complete_request" {
			res.completions = append(res.completions, took)
			if len(ct.Matches) == 0 {
				res.noMatch++
			}
		} else {
			res.inspects = append(res.inspects, took)
			if !ct.Found {
				res.notFound++
			}
		}
	}
	return nil
}

// errTimeout: the kernel did not finish a request in time.
var errTimeout = errors.New("no answer in time")

// kernel is a connection to a kernel's channels websocket (the Jupyter
// kernel messaging protocol, its JSON form, without a subprotocol: each
// message carries its channel).
type kernel struct {
	conn    *websocket.Conn
	session string
}

func dialKernel(ctx context.Context, c *client, id string) (*kernel, error) {
	sess := newID()
	u, err := url.Parse(c.base)
	if err != nil {
		return nil, err
	}
	u.Scheme = "ws"
	u.Path = "/user/" + c.name + "/api/kernels/" + id + "/channels"
	u.RawQuery = url.Values{"session_id": {sess}}.Encode()
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, _, err := websocket.Dial(dctx, u.String(), &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"token " + c.token}},
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to the kernel's websocket: %w", err)
	}
	conn.SetReadLimit(64 << 20) // figures arrive as base64 PNG or SVG
	return &kernel{conn: conn, session: sess}, nil
}

func (k *kernel) close() { k.conn.Close(websocket.StatusNormalClosure, "") }

type message struct {
	Header       map[string]any  `json:"header"`
	ParentHeader map[string]any  `json:"parent_header"`
	Metadata     map[string]any  `json:"metadata"`
	Content      json.RawMessage `json:"content"`
	Channel      string          `json:"channel"`
	Buffers      []any           `json:"buffers"`
}

type reply struct {
	status  string
	errText string
	content json.RawMessage // the reply's content
}

// request sends a shell request and waits, at most limit, for its reply and,
// if waitIdle, for the kernel to be idle again after it (as JupyterLab's
// kernel future does before a cell counts as done). The server may drop
// iopub messages sent before the websocket's iopub channel is ready (its
// first kernel_info_request checks that), so that one waits for its reply
// only.
func (k *kernel) request(ctx context.Context, msgType string, content any, waitIdle bool, limit time.Duration) (reply, error) {
	var r reply
	id := newID()
	body, err := json.Marshal(content)
	if err != nil {
		return r, err
	}
	msg := message{
		Header: map[string]any{"msg_id": id, "msg_type": msgType, "session": k.session, "username": "classload",
			"date": time.Now().UTC().Format(time.RFC3339Nano), "version": "5.3"},
		ParentHeader: map[string]any{}, Metadata: map[string]any{}, Content: body, Channel: "shell", Buffers: []any{},
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return r, err
	}
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if err := k.conn.Write(rctx, websocket.MessageText, b); err != nil {
		return r, fmt.Errorf("sending %s: %w", msgType, err)
	}
	gotReply, idle := false, !waitIdle
	for !gotReply || !idle {
		_, data, err := k.conn.Read(rctx)
		if err != nil {
			if rctx.Err() != nil && ctx.Err() == nil {
				return r, fmt.Errorf("%s: %w after %v (reply %v, idle %v)", msgType, errTimeout, limit, gotReply, idle)
			}
			return r, fmt.Errorf("%s: reading the websocket: %w", msgType, err)
		}
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			return r, fmt.Errorf("%s: a message that is not JSON: %w", msgType, err)
		}
		if m.ParentHeader["msg_id"] != id {
			continue
		}
		typ, _ := m.Header["msg_type"].(string)
		var ct struct {
			Status         string   `json:"status"`
			ExecutionState string   `json:"execution_state"`
			Ename          string   `json:"ename"`
			Evalue         string   `json:"evalue"`
			Traceback      []string `json:"traceback"`
		}
		json.Unmarshal(m.Content, &ct)
		switch {
		case m.Channel == "shell" && strings.HasSuffix(typ, "_reply"):
			gotReply = true
			r.status = ct.Status
			r.content = m.Content
			if ct.Status != "ok" {
				r.errText = strings.TrimSpace(ct.Ename + ": " + ct.Evalue)
			}
		case typ == "status" && ct.ExecutionState == "idle":
			idle = true
		case typ == "error" && r.errText == "":
			r.errText = strings.TrimSpace(ct.Ename + ": " + ct.Evalue + " " + strings.Join(ct.Traceback, " "))
		}
	}
	return r, nil
}

func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return fmt.Sprintf("%x", b)
}

// percentile returns the p-th percentile (0 < p <= 100) of sorted values,
// by the nearest-rank method, or NaN if there are none.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1].Seconds()
}
