// Package jsonkeys checks the keys of a JSON document against the json
// tags of the Go types it decodes into. encoding/json matches keys without
// regard to case and keeps the last of repeated keys, so "KERNEL" or a
// second "kernel" silently replaced a value: a file edited by hand must
// say what it means once, spelled as written. The package's kernel model
// files and the command line's model files read through it.
package jsonkeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Set is the keys an object may hold, each with the keys of its value
// when that is an object or an array of objects (nil for any other value).
type Set map[string]Set

// Tags returns the json keys of the exported fields of struct type t (the
// tag's name, or the field's name without one; none for "-"), with the key
// sets of nested objects from nested.
func Tags(t reflect.Type, nested Set) Set {
	keys := Set{}
	for _, name := range Names(t) {
		keys[name] = nested[name]
	}
	return keys
}

// Names returns the json keys of struct type t, as Tags does, in the
// order of its fields (the order encoding/json writes them in).
func Names(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
			continue
		case name == "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// Error is a key that is not in its Set (spelled exactly, case included)
// or that repeats a key of its object, a null or a missing key that the
// Rules refuse, or a document that is not JSON.
type Error struct {
	// Path names the key: "kernel", "last.w", "vectors[2].count", or an
	// element of an array: "alpha[3]".
	Path string
	// Repeated is true for a key that appears twice in its object.
	Repeated bool
	// Null is true for a null value (Rules.NoNull).
	Null bool
	// Missing is true for a key of the Set that its object lacks
	// (Rules.AllKeys).
	Missing bool
	// Syntax is the decoder's error for a document that is not JSON.
	Syntax error
}

func (e *Error) Error() string {
	switch {
	case e.Syntax != nil:
		return e.Syntax.Error()
	case e.Repeated:
		return fmt.Sprintf("key %q appears twice", e.Path)
	case e.Null:
		return fmt.Sprintf("%q is null", e.Path)
	case e.Missing:
		return fmt.Sprintf("key %q is missing", e.Path)
	}
	return fmt.Sprintf("unknown key %q", e.Path)
}

// Rules are what CheckWith refuses besides unknown and repeated keys.
// encoding/json reads a null, or a missing key, as the zero value: a
// weight of 0 where the file gives none.
type Rules struct {
	// NoNull refuses a null anywhere: as a value of a key or as an
	// element of an array.
	NoNull bool
	// AllKeys refuses an object that lacks a key of its Set (every
	// object the Set describes: nested ones and the elements of arrays
	// of objects too).
	AllKeys bool
}

func (e *Error) Unwrap() error { return e.Syntax }

// Check reads the first JSON value of data and reports the first object key
// that is not in keys or that repeats a key of its object, as an *Error.
func Check(data []byte, keys Set) error {
	return CheckWith(data, keys, Rules{})
}

// CheckWith is Check that also refuses what r says: the first null, or
// the first object that lacks a key of its Set, in the order of the
// document.
func CheckWith(data []byte, keys Set, r Rules) error {
	w := walker{Rules: r, dec: json.NewDecoder(strings.NewReader(string(data)))}
	return w.check(keys)
}

// maxDepth is the deepest nesting CheckWith reads, as encoding/json's
// decoder (which refuses a document nested deeper).
const maxDepth = 10000

// walker reads a document's tokens, with the path to the value it reads
// as a stack of keys and array indices: the path is written out only for
// an error, so that the walk takes time and memory linear in the
// document (a path string a level cost the square of the depth).
type walker struct {
	Rules
	dec  *json.Decoder
	path []step
}

// step is one level of a path: an object's key, or an array's index.
type step struct {
	key   string
	index int // -1 for a key
}

// at writes out the path of the value being read.
func (w *walker) at() string {
	var b strings.Builder
	for _, s := range w.path {
		if s.index >= 0 {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// atKey writes out the path of key in the object being read ("last."
// for an empty key in "last", as the walk wrote it before).
func (w *walker) atKey(key string) string {
	if len(w.path) == 0 {
		return key
	}
	return w.at() + "." + key
}

func (w *walker) check(keys Set) error {
	tok, err := w.dec.Token()
	if err != nil {
		return &Error{Syntax: err}
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') && len(w.path) >= maxDepth {
		// The container that would be the 10,001st level: encoding/json
		// refuses it too.
		return &Error{Syntax: fmt.Errorf("nested deeper than %d levels", maxDepth)}
	}
	switch tok {
	case nil:
		if w.NoNull {
			return &Error{Path: w.at(), Null: true}
		}
	case json.Delim('{'):
		seen := map[string]bool{}
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return &Error{Syntax: err}
			}
			key, ok := k.(string)
			if !ok {
				return &Error{Syntax: errors.New("an object key that is not a string")}
			}
			sub, ok := keys[key]
			if !ok {
				return &Error{Path: w.atKey(key)}
			}
			if seen[key] {
				return &Error{Path: w.atKey(key), Repeated: true}
			}
			seen[key] = true
			w.path = append(w.path, step{key: key, index: -1})
			if err := w.check(sub); err != nil {
				return err
			}
			w.path = w.path[:len(w.path)-1]
		}
		if w.AllKeys {
			// The least missing key, so that the one reported is the same
			// on every run.
			missing, found := "", false
			for key := range keys {
				if !seen[key] && (!found || key < missing) {
					missing, found = key, true
				}
			}
			if found {
				return &Error{Path: w.atKey(missing), Missing: true}
			}
		}
		_, err = w.dec.Token() // '}'
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			w.path = append(w.path, step{index: i})
			if err := w.check(keys); err != nil {
				return err
			}
			w.path = w.path[:len(w.path)-1]
		}
		_, err = w.dec.Token() // ']'
	}
	if err != nil {
		return &Error{Syntax: err}
	}
	return nil
}
