package plots_test

import (
	"bytes"
	"encoding/gob"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestDisplayInNotebook plays the GoNB kernel: it points gonbui at two
// plain files in place of the kernel's pipes and checks that Display sends
// exactly the bytes of PNG as image/png and DisplayGIF an HTML <img>.
// gonbui keeps its pipes open for the life of the process, so the files
// are made once per process (and left in the temporary directory) and
// with -count > 1 the last two messages are checked.
// pipeDir holds the files that stand in for GoNB's pipes.
var pipeDir string

func TestDisplayInNotebook(t *testing.T) {
	if os.Getenv(protocol.GONB_PIPE_ENV) != "" {
		t.Skip("running inside GoNB")
	}
	if pipeDir == "" {
		dir, err := os.MkdirTemp("", "plots-gonb-")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"pipe", "pipe_back"} {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		pipeDir = dir
	}
	out, back := filepath.Join(pipeDir, "pipe"), filepath.Join(pipeDir, "pipe_back")
	t.Setenv(protocol.GONB_PIPE_ENV, out)
	t.Setenv(protocol.GONB_PIPE_BACK_ENV, back)
	gonbui.IsNotebook = true
	defer func() { gonbui.IsNotebook = false }()

	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	if err := plots.Display(p, 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatalf("Display: %v", err)
	}
	gifBytes := []byte("GIF89a")
	if err := plots.DisplayGIF(gifBytes, "anim"); err != nil {
		t.Fatalf("DisplayGIF: %v", err)
	}

	sent, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	dec := gob.NewDecoder(bytes.NewReader(sent))
	var msgs []protocol.DisplayData
	for {
		var m protocol.DisplayData
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding message %d: %v", len(msgs), err)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) < 2 {
		t.Fatalf("%d messages sent, want 2", len(msgs))
	}
	first, second := msgs[len(msgs)-2], msgs[len(msgs)-1]
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
}
