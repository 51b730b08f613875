package jsonkeys

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestCheckWithPaths: each refusal names the value by its path, keys
// joined by dots and array elements by their index.
func TestCheckWithPaths(t *testing.T) {
	keys := Set{"a": Set{"b": nil, "c": nil}, "v": Set{"w": nil, "n": nil}, "x": nil}
	all := Rules{NoNull: true, AllKeys: true}
	for _, c := range []struct {
		doc  string
		r    Rules
		want string
	}{
		{`{"a":{"b":1,"c":2},"v":[],"x":[[1,2],[3,null]]}`, all, `"x[1][1]" is null`},
		{`{"a":{"b":1,"c":2},"v":[{"w":[1,null],"n":1}],"x":1}`, all, `"v[0].w[1]" is null`},
		{`{"a":{"b":1},"v":[],"x":1}`, all, `key "a.c" is missing`},
		{`{"a":{"b":1,"c":2},"v":[{"w":1,"n":1},{"w":2}],"x":1}`, all, `key "v[1].n" is missing`},
		{`{"a":{"b":1,"c":2},"v":[],"x":1,"y":2}`, all, `unknown key "y"`},
		{`{"a":{"b":1,"b":2,"c":2},"v":[],"x":1}`, all, `key "a.b" appears twice`},
		{`{"a":{"b":null,"c":2}}`, Rules{}, ``},
		{`{"a":{"b":1}}`, Rules{NoNull: true}, ``},
		// An empty key is named as one, after its object's path: it was
		// "a", a valid key (helper-58).
		{`{"a":{"":1,"b":1,"c":2}}`, Rules{}, `unknown key "a."`},
		{`{"":1}`, Rules{}, `unknown key ""`},
	} {
		err := CheckWith([]byte(c.doc), keys, c.r)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%s: %v, want %q", c.doc, err, c.want)
		}
	}
}

// TestCheckWithDeepNesting: the walk takes memory linear in the depth of
// the document (a path string a level took its square: 159 MB for a
// document of 20 kB nested 10,000 deep, helper-57), and it reads the
// depths that encoding/json reads, 10,000 levels and not one more, with
// an empty container or a value innermost (it took 10,001 empty ones,
// helper-58).
func TestCheckWithDeepNesting(t *testing.T) {
	keys := Set{"x": nil}
	walk := func(depth int) (uint64, error) {
		doc := `{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := CheckWith([]byte(doc), keys, Rules{NoNull: true, AllKeys: true})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	small, err := walk(1_000)
	if err != nil {
		t.Fatal(err)
	}
	large, err := walk(9_999)
	if err != nil {
		t.Fatal(err)
	}
	if large > 20*small {
		t.Errorf("nested 10x deeper, the walk allocated %.0fx the memory (%d bytes against %d)", float64(large)/float64(small), large, small)
	}
	var e *Error
	if _, err := walk(20_000); !errors.As(err, &e) || e.Syntax == nil || !strings.Contains(err.Error(), "nested deeper than 10000") {
		t.Errorf("nested 20,000 deep: %v, want a syntax error", err)
	}
	for _, depth := range []int{9_999, 10_000, 10_001} {
		for _, inner := range []string{"", "1", "{}", `{"x":1}`} {
			doc := strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
			var v any
			uerr := json.Unmarshal([]byte(doc), &v)
			cerr := CheckWith([]byte(doc), Set{"x": nil}, Rules{})
			if (uerr == nil) != (cerr == nil) {
				t.Errorf("%d levels around %q: encoding/json %v, CheckWith %v", depth, inner, uerr, cerr)
			}
		}
	}
}
