// Package similarity compares the Go code of submissions pairwise, as
// MOSS does: each file becomes a stream of tokens with identifiers and
// literals replaced by their kind (so renaming variables changes
// nothing), the hashes of its k-grams are winnowed into fingerprints
// (the least hash of every window of w consecutive k-grams, which
// guarantees that any match of at least w+k-1 tokens is found), the
// fingerprints of the starter code (the base) are removed, and two files
// are as similar as the share of the smaller one's fingerprints they
// share. A pair above a threshold is reported with its shared fragments,
// as line ranges of both files.
package similarity

import (
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strings"
)

// Options are the parameters of the comparison.
type Options struct {
	K         int     // tokens per k-gram (noise threshold: shorter matches are ignored)
	W         int     // winnowing window (matches of W+K-1 tokens or more are always found)
	Threshold float64 // the least similarity of a reported pair, in (0, 1]
}

// Defaults are the parameters of "assign similarity".
var Defaults = Options{K: 12, W: 8, Threshold: 0.5}

// tok is a normalised token and the line it starts on.
type tok struct {
	text string
	line int
}

// Tokens returns the normalised tokens of Go source: comments dropped,
// identifiers as "ID", literals as their kind, everything else as is.
// Source that does not scan is tokenised as far as it goes (the scanner
// skips what it cannot read), as a submission may not compile.
func Tokens(src string) []tok {
	fset := token.NewFileSet()
	f := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(f, []byte(src), func(token.Position, string) {}, 0)
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		text := t.String()
		switch {
		case t == token.SEMICOLON && lit == "\n":
			continue // an inserted semicolon: layout, not code
		case t == token.IDENT:
			text = "ID"
		case t.IsLiteral():
			text = t.String() // INT, FLOAT, IMAG, CHAR, STRING
		}
		toks = append(toks, tok{text, fset.Position(pos).Line})
	}
	return toks
}

// fingerprint is a winnowed k-gram hash and the token index it starts at.
type fingerprint struct {
	hash uint64
	at   int
}

// Fingerprints returns the winnowed fingerprints of toks.
func Fingerprints(toks []tok, k, w int) []fingerprint {
	if len(toks) < k {
		return nil
	}
	hs := make([]uint64, len(toks)-k+1)
	for i := range hs {
		h := fnv.New64a()
		for _, t := range toks[i : i+k] {
			io.WriteString(h, t.text)
			h.Write([]byte{0})
		}
		hs[i] = h.Sum64()
	}
	var fps []fingerprint
	last := -1
	windows := max(len(hs)-w+1, 1)
	for start := 0; start < windows; start++ {
		end := min(start+w, len(hs))
		m := start
		for i := start; i < end; i++ {
			if hs[i] <= hs[m] { // the rightmost least hash
				m = i
			}
		}
		if m != last {
			fps = append(fps, fingerprint{hs[m], m})
			last = m
		}
	}
	return fps
}

// Doc is one submission's code, fingerprinted.
type Doc struct {
	Name  string
	Lines []string
	toks  []tok
	fps   map[uint64][]int // hash: the token indexes of its k-grams
}

// ErrOptions is the error kind of bad parameters.
var ErrOptions = errors.New("similarity: bad options")

func (o Options) check() error {
	if o.K < 2 || o.W < 1 || !(o.Threshold > 0 && o.Threshold <= 1) {
		return fmt.Errorf("%w: k %d (want 2 or more), w %d (want 1 or more), threshold %v (want (0, 1])", ErrOptions, o.K, o.W, o.Threshold)
	}
	return nil
}

// NewDoc fingerprints src, leaving out the fingerprints of base (the
// starter code).
func NewDoc(name, src string, base map[uint64]bool, o Options) *Doc {
	d := &Doc{Name: name, Lines: strings.Split(src, "\n"), toks: Tokens(src), fps: map[uint64][]int{}}
	for _, f := range Fingerprints(d.toks, o.K, o.W) {
		if !base[f.hash] {
			d.fps[f.hash] = append(d.fps[f.hash], f.at)
		}
	}
	return d
}

// Base returns the set of all k-gram hashes of the starter code (every
// k-gram, not only the winnowed ones, so that no fingerprint of starter
// code in a submission survives).
func Base(src string, o Options) map[uint64]bool {
	set := map[uint64]bool{}
	for _, f := range Fingerprints(Tokens(src), o.K, 1) {
		set[f.hash] = true
	}
	return set
}

// Fragment is a shared stretch of code: lines A1-A2 of the first file
// and B1-B2 of the second.
type Fragment struct{ A1, A2, B1, B2 int }

// Pair is a compared pair.
type Pair struct {
	A, B       *Doc
	Similarity float64 // shared fingerprints over the smaller file's
	Shared     int
	Fragments  []Fragment
}

// Compare returns every pair of docs at or above o.Threshold, the most
// similar first.
func Compare(docs []*Doc, o Options) ([]Pair, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	var pairs []Pair
	for i := range docs {
		for j := i + 1; j < len(docs); j++ {
			a, b := docs[i], docs[j]
			if len(a.fps) == 0 || len(b.fps) == 0 {
				continue
			}
			var shared []uint64
			for h := range a.fps {
				if _, ok := b.fps[h]; ok {
					shared = append(shared, h)
				}
			}
			sim := float64(len(shared)) / float64(min(len(a.fps), len(b.fps)))
			if sim < o.Threshold {
				continue
			}
			pairs = append(pairs, Pair{A: a, B: b, Similarity: sim, Shared: len(shared), Fragments: fragments(a, b, shared, o.K)})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Similarity > pairs[j].Similarity })
	return pairs, nil
}

// fragments merges the shared k-grams into line ranges: the token ranges
// of a's matched k-grams, joined where they overlap, each paired with the
// range of b's matching k-grams.
func fragments(a, b *Doc, shared []uint64, k int) []Fragment {
	type span struct{ a1, a2, b1, b2 int } // token indexes
	var spans []span
	for _, h := range shared {
		ai, bi := a.fps[h][0], b.fps[h][0]
		spans = append(spans, span{ai, ai + k - 1, bi, bi + k - 1})
	}
	slices.SortFunc(spans, func(x, y span) int { return x.a1 - y.a1 })
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.a1 <= merged[n-1].a2+1 {
			m := &merged[n-1]
			m.a2 = max(m.a2, s.a2)
			m.b1, m.b2 = min(m.b1, s.b1), max(m.b2, s.b2)
			continue
		}
		merged = append(merged, s)
	}
	var fs []Fragment
	for _, s := range merged {
		fs = append(fs, Fragment{a.toks[s.a1].line, a.toks[s.a2].line, b.toks[s.b1].line, b.toks[s.b2].line})
	}
	return fs
}

// Report writes the pairs as Markdown: a table of the pairs, then each
// pair's fragments with the lines of both files.
func Report(w io.Writer, pairs []Pair, n int, o Options) {
	fmt.Fprintf(w, "# Similarity report\n\n%d submissions compared pairwise (tokens with identifiers and literals normalised, %d-grams winnowed over windows of %d, starter code removed); %d pairs at or above %.0f %%.\n\n",
		n, o.K, o.W, len(pairs), 100*o.Threshold)
	if len(pairs) == 0 {
		return
	}
	fmt.Fprintln(w, "| similarity | first | second | shared fingerprints | fragments |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, p := range pairs {
		fmt.Fprintf(w, "| %.0f %% | %s | %s | %d | %d |\n", 100*p.Similarity, p.A.Name, p.B.Name, p.Shared, len(p.Fragments))
	}
	for _, p := range pairs {
		fmt.Fprintf(w, "\n## %s and %s (%.0f %%)\n", p.A.Name, p.B.Name, 100*p.Similarity)
		for _, f := range p.Fragments {
			fmt.Fprintf(w, "\n%s lines %d-%d, %s lines %d-%d:\n\n```go\n%s\n```\n\n```go\n%s\n```\n",
				p.A.Name, f.A1, f.A2, p.B.Name, f.B1, f.B2, lines(p.A, f.A1, f.A2), lines(p.B, f.B1, f.B2))
		}
	}
}

func lines(d *Doc, from, to int) string {
	from, to = max(from, 1), min(to, len(d.Lines))
	return strings.Join(d.Lines[from-1:to], "\n")
}
