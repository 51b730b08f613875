package perceptron_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestKernelModelFileStatsAreChecked: a kernel model file whose stats no
// run can make is an ErrModel error when read, where it was read and
// UpdatesPerEpoch then panicked (a run of −2 epochs, or of 2^62 epochs:
// "makeslice: cap out of range"); runs that disagree with the totals or
// whose sums overflow are refused too. A model's own stats read back, and
// hand-built runs of fewer than one epoch expand to nothing, not a panic.
func TestKernelModelFileStatsAreChecked(t *testing.T) {
	const model = `{"kernel":"linear","alpha":[1],"b":0,"eta":1,"tie":"mistake","x":[[1]],"y":[1],"stats":%s}`
	for _, stats := range []string{
		`{"Updates":1,"Epochs":-2,"UpdateRuns":[{"Updates":1,"Epochs":-2}]}`,
		`{"UpdateRuns":[{"Updates":1,"Epochs":-2}]}`,
		`{"UpdateRuns":[{"Updates":1,"Epochs":4611686018427387903}]}`,
		`{"Updates":4611686018427387903,"Epochs":4611686018427387903,"UpdateRuns":[{"Updates":1,"Epochs":4611686018427387903},{"Updates":1,"Epochs":4611686018427387903}]}`,
		`{"Updates":-1,"Epochs":1,"UpdateRuns":[{"Updates":-1,"Epochs":1}]}`,
		`{"Updates":3,"Epochs":2,"UpdateRuns":[{"Updates":1,"Epochs":2}]}`,
		`{"Updates":0,"Epochs":-1}`,
		`{"Updates":0,"Epochs":0,"LastMistakeRow":-2}`,
	} {
		var m perceptron.KernelModel
		err := json.Unmarshal([]byte(fmt.Sprintf(model, stats)), &m)
		if !errors.Is(err, perceptron.ErrModel) {
			t.Errorf("stats %s: %v, want ErrModel", stats, err)
		}
	}
	m, b := kernelModelFile(t)
	var back perceptron.KernelModel
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("a model's own file: %v", err)
	}
	if !slices.Equal(back.UpdatesPerEpoch(), m.UpdatesPerEpoch()) || back.Epochs != m.Epochs {
		t.Errorf("read back %v in %d epochs, trained %v in %d", back.UpdatesPerEpoch(), back.Epochs, m.UpdatesPerEpoch(), m.Epochs)
	}
	s := perceptron.Stats{UpdateRuns: perceptron.EpochRuns{{Updates: 1, Epochs: -5}, {Updates: 2, Epochs: 2}}}
	if got := s.UpdatesPerEpoch(); !slices.Equal(got, []int{2, 2}) {
		t.Errorf("runs of -5 and 2 epochs expand to %v, want [2 2]", got)
	}
}

// TestKernelModelFileKeysAreExact: a kernel model file's keys are spelled
// as written, each once, and nothing follows the model: encoding/json took
// "KERNEL" for "kernel", kept the last of two "kernel" keys, and a direct
// UnmarshalJSON call ignored trailing data. The command line's model files
// already refused all three.
func TestKernelModelFileKeysAreExact(t *testing.T) {
	_, b := kernelModelFile(t)
	good := string(b)
	for name, bad := range map[string]string{
		"KERNEL":          strings.Replace(good, `"kernel":"poly:2:1"`, `"kernel":"poly:2:1","KERNEL":"linear"`, 1),
		"kernel twice":    strings.Replace(good, `"kernel":"poly:2:1"`, `"kernel":"poly:2:1","kernel":"linear"`, 1),
		"Stats":           strings.Replace(good, `"stats":`, `"Stats":`, 1),
		"updateRuns":      strings.Replace(good, `"UpdateRuns":`, `"updateRuns":`, 1),
		"a run's epochs":  strings.Replace(good, `"Epochs":1}`, `"epochs":1}`, 1),
		"trailing object": good + ` {}`,
	} {
		if bad == good && name != "trailing object" {
			t.Fatalf("%s: the model file changed; the test's edit did not apply", name)
		}
		var back perceptron.KernelModel
		if err := back.UnmarshalJSON([]byte(bad)); !errors.Is(err, perceptron.ErrModel) {
			t.Errorf("%s: %v, want ErrModel", name, err)
		}
	}
	var back perceptron.KernelModel
	if err := back.UnmarshalJSON(b); err != nil {
		t.Errorf("the model's own file: %v", err)
	}
}

// kernelModelFile returns a kernel model trained on four points and its
// JSON file.
func kernelModelFile(t *testing.T) (*perceptron.KernelModel, []byte) {
	t.Helper()
	d, err := perceptron.NewDataset([][]float64{{1, 0}, {0, 1}, {-1, 0.5}, {0, -1}}, []float64{1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := perceptron.KernelPerceptron(d, perceptron.PolyKernel{Degree: 2, C: 1}, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return m, b
}

// TestKernelModelFileRunAgreesWithAlpha: a kernel model file whose run
// contradicts its α (every update adds 1 to one α) or itself is refused
// when read, and a model whose stats would be refused is refused when
// written: a negative count was written and could not be read back, and
// α of 5 after 1 update, Converged after an epoch of updates, or a last
// mistake row without α were read (helper-72).
func TestKernelModelFileRunAgreesWithAlpha(t *testing.T) {
	const model = `{"kernel":"linear","alpha":%s,"b":1,"eta":1,"tie":"mistake","x":[[1],[-1]],"y":[1,-1],"stats":{"Updates":1,"Epochs":2,"UpdateRuns":%s,"LastMistakeRow":%d,"Converged":%v}}`
	const runs = `[{"Updates":1,"Epochs":1},{"Updates":0,"Epochs":1}]`
	var m perceptron.KernelModel
	if err := json.Unmarshal([]byte(fmt.Sprintf(model, "[1,0]", runs, 0, true)), &m); err != nil {
		t.Fatalf("a run that agrees with α: %v", err)
	}
	for name, bad := range map[string]string{
		"α of 5 after 1 update":      fmt.Sprintf(model, "[5,0]", runs, 0, true),
		"last mistake row without α": fmt.Sprintf(model, "[1,0]", runs, 1, true),
		"last mistake row -1":        fmt.Sprintf(model, "[1,0]", runs, -1, true),
		"converged after updates":    fmt.Sprintf(model, "[1,0]", `[{"Updates":0,"Epochs":1},{"Updates":1,"Epochs":1}]`, 0, true),
	} {
		var back perceptron.KernelModel
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, perceptron.ErrModel) || !strings.Contains(err.Error(), "stats") {
			t.Errorf("%s: %v, want an ErrModel error about the stats", name, err)
		}
	}
	hand := m
	hand.Stats = perceptron.Stats{Updates: -1}
	if _, err := json.Marshal(hand); !errors.Is(err, perceptron.ErrModel) {
		t.Errorf("writing a model of -1 updates: %v, want ErrModel", err)
	}
	hand.Stats = perceptron.Stats{}
	if b, err := json.Marshal(hand); err != nil {
		t.Errorf("writing a model made by hand (no run): %v", err)
	} else if err := json.Unmarshal(b, new(perceptron.KernelModel)); err != nil {
		t.Errorf("reading back a model made by hand (no run): %v", err)
	}
}
