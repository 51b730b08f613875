package figures

import (
	"bytes"
	"os"
	"testing"
)

// TestFiguresDeterministicAndCommitted renders every figure twice and checks
// the bytes are equal, then that the copy committed in this folder is the
// same: run `go run ./figures/regen` from the repository root to update.
func TestFiguresDeterministicAndCommitted(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("no figures registered")
	}
	for _, f := range all {
		t.Run(f.Name, func(t *testing.T) {
			a := Must(f.Make())(t)
			b := Must(f.Make())(t)
			if !bytes.Equal(a, b) {
				t.Fatalf("two renderings differ (%d and %d bytes): the figure is not deterministic", len(a), len(b))
			}
			c, err := os.ReadFile(f.Name)
			if err != nil {
				t.Fatalf("figures/%s is not committed: run go run ./figures/regen (%v)", f.Name, err)
			}
			if !bytes.Equal(a, c) {
				t.Fatalf("figures/%s is out of date: run go run ./figures/regen", f.Name)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("no-such.png"); err == nil || err.Error() != `figures: no figure "no-such.png"` {
		t.Fatalf("Lookup of an unknown figure: got %v", err)
	}
}
