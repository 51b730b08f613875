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
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
			continue
		case name == "":
			name = f.Name
		}
		keys[name] = nested[name]
	}
	return keys
}

// Error is a key that is not in its Set (spelled exactly, case included)
// or that repeats a key of its object, or a document that is not JSON.
type Error struct {
	// Path names the key: "kernel", "last.w", "vectors[2].count".
	Path string
	// Repeated is true for a key that appears twice in its object.
	Repeated bool
	// Syntax is the decoder's error for a document that is not JSON.
	Syntax error
}

func (e *Error) Error() string {
	switch {
	case e.Syntax != nil:
		return e.Syntax.Error()
	case e.Repeated:
		return fmt.Sprintf("key %q appears twice", e.Path)
	}
	return fmt.Sprintf("unknown key %q", e.Path)
}

func (e *Error) Unwrap() error { return e.Syntax }

// Check reads the first JSON value of data and reports the first object key
// that is not in keys or that repeats a key of its object, as an *Error.
func Check(data []byte, keys Set) error {
	return check(json.NewDecoder(strings.NewReader(string(data))), keys, "")
}

func check(dec *json.Decoder, keys Set, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return &Error{Syntax: err}
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return &Error{Syntax: err}
			}
			key, ok := k.(string)
			if !ok {
				return &Error{Syntax: errors.New("an object key that is not a string")}
			}
			at := strings.TrimPrefix(path+"."+key, ".")
			sub, ok := keys[key]
			if !ok {
				return &Error{Path: at}
			}
			if seen[key] {
				return &Error{Path: at, Repeated: true}
			}
			seen[key] = true
			if err := check(dec, sub, at); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := check(dec, keys, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
	}
	if err != nil {
		return &Error{Syntax: err}
	}
	return nil
}
