package view_test

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// fakeKernel plays the GoNB kernel's side of gonbui's two named pipes: it
// decodes every message the program sends, answers gonbui.Sync requests as
// GoNB does, and passes every other message on. gonbui keeps its pipes open
// for the life of the process, so there is one fake kernel per process.
var fakeKernel struct {
	once  sync.Once
	out   string // the pipe gonbui writes to
	back  string // the pipe gonbui reads from
	msgs  chan protocol.DisplayData
	syncs atomic.Int64 // sync requests answered
	dir   string       // holds the two pipes; TestMain removes it
	err   error

	mu  sync.Mutex   // guards enc
	enc *gob.Encoder // writes to the program (back)
}

// TestMain removes the fake kernel's pipes, if a test made them.
func TestMain(m *testing.M) {
	code := m.Run()
	if fakeKernel.dir != "" {
		os.RemoveAll(fakeKernel.dir)
	}
	os.Exit(code)
}

// answer sends v to the program as if the browser had sent it through
// GoNB's widget channel.
func answer(v protocol.CommValue) error {
	fakeKernel.mu.Lock()
	defer fakeKernel.mu.Unlock()
	return fakeKernel.enc.Encode(&v)
}

func startFakeKernel() error {
	fakeKernel.once.Do(func() {
		dir, err := os.MkdirTemp("", "plots-gonb-")
		if err != nil {
			fakeKernel.err = err
			return
		}
		fakeKernel.dir = dir
		fakeKernel.out, fakeKernel.back = filepath.Join(dir, "pipe"), filepath.Join(dir, "pipe_back")
		for _, f := range []string{fakeKernel.out, fakeKernel.back} {
			if err := syscall.Mkfifo(f, 0o600); err != nil {
				fakeKernel.err = err
				return
			}
		}
		fakeKernel.msgs = make(chan protocol.DisplayData, 256)
		go serveFakeKernel()
	})
	return fakeKernel.err
}

func serveFakeKernel() {
	// gonbui opens its writer first, then its reader: open ours in that order.
	in, err := os.OpenFile(fakeKernel.out, os.O_RDONLY, 0)
	if err != nil {
		return
	}
	back, err := os.OpenFile(fakeKernel.back, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	dec := gob.NewDecoder(in)
	fakeKernel.mu.Lock()
	fakeKernel.enc = gob.NewEncoder(back)
	fakeKernel.mu.Unlock()
	for {
		var m protocol.DisplayData
		if err := dec.Decode(&m); err != nil {
			return
		}
		if v, ok := m.Data[protocol.MIMECommValue]; ok {
			var cv protocol.CommValue
			switch c := v.(type) {
			case protocol.CommValue:
				cv = c
			case *protocol.CommValue:
				cv = *c
			}
			if cv.Address == protocol.GonbuiSyncAddress {
				fakeKernel.syncs.Add(1)
				_ = answer(protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: cv.Value})
				continue
			}
		}
		fakeKernel.msgs <- m
	}
}

// next returns the next message the fake kernel received.
func next(t *testing.T) protocol.DisplayData {
	t.Helper()
	select {
	case m := <-fakeKernel.msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message reached the fake kernel within 10 s")
	}
	return protocol.DisplayData{}
}

// TestDisplayInNotebook plays the GoNB kernel (fakeKernel) and checks that
// Display sends exactly the bytes of PNG as image/png, DisplayGIF an HTML
// <img>, Show the PNG at the figures' size, and that Display waits for
// GoNB's acknowledgement (gonbui.Sync) so that a program that exits at
// once does not lose its figure.
func TestDisplayInNotebook(t *testing.T) {
	startInNotebook(t) // also drops what earlier tests left in the pipe

	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	syncs := fakeKernel.syncs.Load()
	if err := view.Display(p, 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatalf("Display: %v", err)
	}
	if got := fakeKernel.syncs.Load() - syncs; got != 1 {
		t.Errorf("Display returned after %d answered sync requests, want 1", got)
	}
	gifBytes := []byte("GIF89a")
	if err := view.DisplayGIF(gifBytes, "anim"); err != nil {
		t.Fatalf("DisplayGIF: %v", err)
	}

	first, second := next(t), next(t)
	want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := first.Data[protocol.MIMEImagePNG].([]byte); !ok || !bytes.Equal(got, want) {
		t.Errorf("Display sent %v, want the %d bytes of PNG as image/png", first.Data, len(want))
	}
	if got := second.Data[protocol.MIMETextHTML]; got != plots.GIFHTML(gifBytes, "anim") {
		t.Errorf("DisplayGIF sent %v, want %q as text/html", second.Data, plots.GIFHTML(gifBytes, "anim"))
	}
	// Show is Display at the size of the committed figures.
	if err := view.Show(p); err != nil {
		t.Fatalf("Show: %v", err)
	}
	want, err = plots.PNG(p, plots.Width, plots.Height)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := next(t).Data[protocol.MIMEImagePNG].([]byte); !ok || !bytes.Equal(got, want) {
		t.Errorf("Show did not send the PNG of the figure at plots.Width × plots.Height")
	}
}

func TestStepperOutsideNotebook(t *testing.T) {
	if gonbui.IsNotebook {
		t.Skip("running inside GoNB")
	}
	frames := []*plot.Plot{plot.New(), plot.New()}
	if _, err := view.Stepper(frames, 3*vg.Inch, 2*vg.Inch, nil); err != view.ErrNotNotebook {
		t.Fatalf("Stepper outside a notebook: got %v, want ErrNotNotebook", err)
	}
}

// boundFigure is a small scatter plot with a line, to display.
func boundFigure() (*plot.Plot, error) {
	s, err := plots.Scatter([]float64{4, 9, 16, 25}, []float64{3, 5, 11, 12})
	if err != nil {
		return nil, err
	}
	id, err := plots.Identity(0, 30)
	if err != nil {
		return nil, err
	}
	p := plots.New("Convergence bound vs actual updates", "(R/γ)²", "updates")
	p.Add(id, s)
	return p, nil
}
