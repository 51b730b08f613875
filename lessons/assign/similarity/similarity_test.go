package similarity

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCompare: alice's solution, alice's copied as is, bob's (alice's with
// every variable renamed and comments changed) and carol's (her own), all
// on the same starter code (testdata/base.go), which is removed first.
func TestCompare(t *testing.T) {
	o := Defaults
	base := Base(read(t, "base.go"), o)
	docs := []*Doc{
		NewDoc("alice", read(t, "alice.go"), base, o),
		NewDoc("copy", read(t, "alice.go"), base, o),
		NewDoc("bob", read(t, "bob.go"), base, o),
		NewDoc("carol", read(t, "carol.go"), base, o),
	}
	pairs, err := Compare(docs, Options{K: o.K, W: o.W, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	sim := map[string]float64{}
	for _, p := range pairs {
		sim[p.A.Name+"-"+p.B.Name] = p.Similarity
	}
	for _, k := range []string{"alice-copy", "alice-bob", "copy-bob"} {
		if sim[k] != 1 {
			t.Errorf("%s: similarity %v, want 1 (identical tokens once names are normalised)", k, sim[k])
		}
	}
	for _, k := range []string{"alice-carol", "copy-carol", "bob-carol"} {
		if sim[k] >= 0.25 {
			t.Errorf("%s: similarity %v, want under 0.25 (independent solutions on the same starter code)", k, sim[k])
		}
	}
	// The report at the default threshold lists the three copies, with
	// alice's loop among bob's shared lines, and not carol.
	pairs, _ = Compare(docs, o)
	var b bytes.Buffer
	Report(&b, pairs, len(docs), o)
	rep := b.String()
	if len(pairs) != 3 || strings.Contains(rep, "carol") {
		t.Errorf("report at %v: %d pairs:\n%s", o.Threshold, len(pairs), rep)
	}
	if !strings.Contains(rep, "weights[k] += y[n] * row[k]") || !strings.Contains(rep, "w[j] += y[i] * x[j]") {
		t.Errorf("the report does not show the shared loop of alice and bob:\n%s", rep)
	}
	// Without removing the starter code, carol would look like alice
	// through the code both were given.
	bare := []*Doc{NewDoc("alice", read(t, "alice.go"), nil, o), NewDoc("carol", read(t, "carol.go"), nil, o)}
	p, _ := Compare(bare, Options{K: o.K, W: o.W, Threshold: 0.01})
	if len(p) != 1 || p[0].Similarity <= sim["alice-carol"] {
		t.Errorf("the starter code does not raise alice-carol without its removal: %+v vs %v", p, sim["alice-carol"])
	}
}

// TestWinnowingGuarantee: any shared run of w+k-1 tokens yields a shared
// fingerprint, wherever it sits in two otherwise different files.
func TestWinnowingGuarantee(t *testing.T) {
	o := Options{K: 5, W: 4, Threshold: 0.01}
	run := "x := a[i] * b[j] + c / d - e % f"
	for pad := 0; pad < 6; pad++ {
		a := strings.Repeat("if p { q() }\n", pad) + run + "\nfor { }\n"
		b := "switch { case r: s = t }\n" + run + strings.Repeat("\ngo u(v)", pad)
		pairs, _ := Compare([]*Doc{NewDoc("a", a, nil, o), NewDoc("b", b, nil, o)}, o)
		if len(pairs) != 1 {
			t.Errorf("pad %d: the shared run of %d tokens was not found", pad, len(Tokens(run)))
		}
	}
	if _, err := Compare(nil, Options{K: 1, W: 4, Threshold: 0.5}); !errors.Is(err, ErrOptions) {
		t.Errorf("k = 1: %v, want ErrOptions", err)
	}
}
