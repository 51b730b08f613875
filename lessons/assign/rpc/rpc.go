// Package rpc carries calls of Go functions between the grader's trusted
// test process and the sandboxed process that runs a student's code.
//
// The trusted process holds the instructor's tests, the reference and the
// verdict; it has no student code. Each student function it calls is a
// generated stub that sends the arguments (gob) to the student's process,
// which calls the real function and sends back the results and the
// arguments as the function left them, so that a test can still see that
// an argument was modified, and which results share an argument's array
// (a slice returned without copying). A function value crosses as a
// handle: calling it calls back into the process that owns it, so a kernel
// the test passes to a student's Gram runs in the trusted process and a
// kernel a student's Poly returns runs in the student's.
//
// Both processes run the same Peer. A reply the trusted side cannot read
// (garbage, too large, the other process gone) makes the stub panic: that
// test fails, and nothing the student's process sends can do more than
// give the stub its results.
package rpc

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"sync"
)

// ImportPath is this package's import path: the generated programs of
// both processes of a test import it.
const ImportPath = "github.com/perceptron-go/lessons/lessons/assign/rpc"

// Message kinds.
const (
	kindCall  = 1
	kindReply = 2
	kindPanic = 3
)

// header starts every message; N values follow it, each a slot and, unless
// the slot says nil or a function handle, the value.
type header struct {
	Kind   int
	ID     int64  // the caller's number for the call; the reply carries it back
	Name   string // call: a registered function by name
	Handle int64  // call: a function value by handle (Name empty)
	N      int
	Alias  []Alias // reply: results that share an argument's array
	Text   string  // panic: the message
}

// Alias says that result Result is the slice argument Arg from element
// Offset on: the function returned (part of) an argument without copying.
type Alias struct{ Result, Arg, Offset int }

// slot says how the value that follows is sent.
type slot struct {
	Nil    bool  // a nil slice, map, pointer, function or interface: no value follows
	Handle int64 // a function: the sender's handle for it, no value follows
}

// MaxMessage bounds the bytes of one message a Peer reads.
const MaxMessage = 64 << 20

// ErrBroken is the error of every call once the connection failed.
var ErrBroken = errors.New("rpc: connection to the other process lost")

// RemoteError is what a call panics with when the called function
// panicked in the other process (or could not be called there).
type RemoteError struct{ Text string }

func (e RemoteError) Error() string { return e.Text }

// CallError is what a call panics with when the other process did not
// answer: it ended, or sent something that is not a reply.
type CallError struct {
	Func string
	Err  error
}

func (e CallError) Error() string {
	return fmt.Sprintf("calling %s in the process that runs your code: %v", e.Func, e.Err)
}

// Peer is one end of a connection.
type Peer struct {
	wmu sync.Mutex
	enc *gob.Encoder
	bw  *bufio.Writer

	lim *limitReader
	dec *gob.Decoder

	mu      sync.Mutex
	err     error // set once the connection is broken
	nextID  int64
	pending map[int64]*call
	byName  map[string]reflect.Value
	handles map[int64]reflect.Value
	nextH   int64
	done    chan struct{}
}

type call struct {
	name string
	ft   reflect.Type
	ch   chan result
}

type result struct {
	out, args []reflect.Value
	alias     []Alias
	panicked  bool
	panicText string
	err       error
}

// New returns a peer reading messages from r and writing them to w.
func New(r io.Reader, w io.Writer) *Peer {
	lim := &limitReader{r: bufio.NewReaderSize(r, 64<<10)}
	bw := bufio.NewWriterSize(w, 64<<10)
	return &Peer{enc: gob.NewEncoder(bw), bw: bw, lim: lim, dec: gob.NewDecoder(lim),
		pending: map[int64]*call{}, byName: map[string]reflect.Value{},
		handles: map[int64]reflect.Value{}, done: make(chan struct{})}
}

// Register makes fn (a function) callable by name from the other side.
func (p *Peer) Register(name string, fn any) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		panic("rpc: Register " + name + ": not a function")
	}
	p.byName[name] = v
}

// Serve reads and handles messages until the connection ends; it returns
// nil at a clean end of the input.
func (p *Peer) Serve() error {
	err := p.loop()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Start runs Serve in a goroutine: a caller needs it to receive replies.
func (p *Peer) Start() { go p.Serve() }

// Call calls the function name of the other side. args and results are
// pointers to the arguments and to the result variables; after the call
// the arguments hold what the function left in them (slice elements,
// fields reached through slices and pointers) and a result that shares an
// argument's array shares it here too. variadic says the last argument is
// a ...T parameter (passed as a slice). It panics with a RemoteError if
// the function panicked there, and with a CallError if the other side
// did not answer. CallFunc calls a function that must leave its
// arguments alone.
func (p *Peer) Call(name string, variadic bool, args, results []any) {
	modifies := make([]bool, len(args))
	for i := range modifies {
		modifies[i] = true
	}
	p.CallFunc(Func{Name: name, Variadic: variadic, Modifies: modifies}, args, results)
}

// Func describes a function of the other side for CallFunc.
type Func struct {
	Name     string   // the name it is registered under
	Variadic bool     // the last argument is a ...T parameter (passed as a slice)
	Params   []string // the parameters' names, for messages ("": argument i)
	// Modifies says, per argument, that the function may change it: its
	// changes are written back into the caller's memory. Any other
	// argument is the caller's own: a change the function makes to it is
	// never written back, and the call panics with a ChangedError.
	Modifies []bool
}

// ChangedError is what a call panics with when the function changed an
// argument it must leave alone (a slice's element, a field reached
// through a slice or pointer). The caller's argument is as it was.
type ChangedError struct {
	Func  string // the function, or "a function value"
	Param string // the parameter's name, or "argument N"
	At    string // where the first change is: "y[0]", "X[2][1]", "r.W[0]"
	Was   string // the value there before the call
	Now   string // what the function left there
}

func (e ChangedError) Error() string {
	return fmt.Sprintf("%s changed its argument %s (%s was %s, the function left %s), and it must leave its arguments alone: "+
		"the caller's %s is as it was, and the test that made this call fails", e.Func, e.Param, e.At, e.Was, e.Now, e.Param)
}

// CallFunc calls f on the other side, as Call does, except that only the
// arguments f.Modifies names are written back; a change to any other
// argument panics with a ChangedError and leaves the caller's argument as
// it was, so no function of the other side can change what the caller
// computes from its own values after the call.
func (p *Peer) CallFunc(f Func, args, results []any) {
	in := make([]reflect.Value, len(args))
	inT := make([]reflect.Type, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a).Elem()
		inT[i] = in[i].Type()
	}
	outT := make([]reflect.Type, len(results))
	for i, r := range results {
		outT[i] = reflect.TypeOf(r).Elem()
	}
	ft := reflect.FuncOf(inT, outT, f.Variadic)
	out := p.invoke(f, 0, ft, in)
	for i, r := range results {
		reflect.ValueOf(r).Elem().Set(out[i])
	}
}

// invoke sends a call and waits for its reply. A function value (handle
// not 0) must leave its arguments alone.
func (p *Peer) invoke(f Func, handle int64, ft reflect.Type, in []reflect.Value) []reflect.Value {
	what := f.Name
	if what == "" {
		what = "a function value"
	}
	c := &call{name: what, ft: ft, ch: make(chan result, 1)}
	p.mu.Lock()
	if p.err != nil {
		err := p.err
		p.mu.Unlock()
		panic(CallError{what, err})
	}
	p.nextID++
	id := p.nextID
	p.pending[id] = c
	p.mu.Unlock()
	if err := p.send(header{Kind: kindCall, ID: id, Name: f.Name, Handle: handle, N: len(in)}, in); err != nil {
		p.fail(err)
	}
	r := <-c.ch
	switch {
	case r.err != nil:
		panic(CallError{what, r.err})
	case r.panicked:
		panic(RemoteError{r.panicText})
	}
	for i, a := range in {
		if i < len(f.Modifies) && f.Modifies[i] {
			restore(a, r.args[i], 0)
			continue
		}
		param := fmt.Sprintf("argument %d", i+1)
		if i < len(f.Params) && f.Params[i] != "" {
			param = f.Params[i]
		}
		if at, was, now := changed(a, r.args[i], param, 0); at != "" {
			panic(ChangedError{Func: what, Param: param, At: at, Was: was, Now: now})
		}
	}
	for _, al := range r.alias {
		res, arg := r.out[al.Result], in[al.Arg]
		if end := al.Offset + res.Len(); end <= arg.Cap() {
			r.out[al.Result] = arg.Slice(al.Offset, end)
		}
	}
	return r.out
}

// changed finds the first place where got, the argument as the function
// left it, differs from orig, the caller's, in memory they share (slice
// elements, what pointers point to, maps): its path from name, and the
// value before and after; "" if none. A NaN equals a NaN; functions,
// channels and interfaces are not compared (a function crosses as a
// handle).
func changed(orig, got reflect.Value, path string, depth int) (at, was, now string) {
	if depth > 64 || !got.IsValid() || orig.Type() != got.Type() {
		return "", "", ""
	}
	switch orig.Kind() {
	case reflect.Slice:
		if orig.IsNil() != got.IsNil() || orig.Len() != got.Len() {
			if depth > 0 {
				return path, fmt.Sprintf("of length %d", orig.Len()), fmt.Sprintf("one of length %d", got.Len())
			}
			return "", "", "" // the caller's own header: not shared
		}
		for i := range orig.Len() {
			if at, was, now := changed(orig.Index(i), got.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); at != "" {
				return at, was, now
			}
		}
	case reflect.Array:
		for i := range orig.Len() {
			if at, was, now := changed(orig.Index(i), got.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); at != "" {
				return at, was, now
			}
		}
	case reflect.Struct:
		for i := range orig.NumField() {
			if orig.Type().Field(i).IsExported() {
				if at, was, now := changed(orig.Field(i), got.Field(i), path+"."+orig.Type().Field(i).Name, depth+1); at != "" {
					return at, was, now
				}
			}
		}
	case reflect.Pointer:
		if orig.IsNil() || got.IsNil() {
			if orig.IsNil() != got.IsNil() && depth > 0 {
				return path, "nil or not", "the other"
			}
			return "", "", ""
		}
		return changed(orig.Elem(), got.Elem(), "(*"+path+")", depth+1)
	case reflect.Map:
		if orig.IsNil() || got.IsNil() {
			return "", "", ""
		}
		if orig.Len() != got.Len() {
			return path, fmt.Sprintf("%d entries", orig.Len()), fmt.Sprintf("%d", got.Len())
		}
		it := orig.MapRange()
		for it.Next() {
			v := got.MapIndex(it.Key())
			if !v.IsValid() {
				return fmt.Sprintf("%s[%v]", path, it.Key()), "present", "none"
			}
			if at, was, now := changed(it.Value(), v, fmt.Sprintf("%s[%v]", path, it.Key()), depth+1); at != "" {
				return at, was, now
			}
		}
	case reflect.Func, reflect.Interface, reflect.Chan:
	case reflect.Float32, reflect.Float64:
		a, b := orig.Float(), got.Float()
		if depth > 0 && a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			return path, fmt.Sprint(a), fmt.Sprint(b)
		}
	case reflect.Complex64, reflect.Complex128:
		a, b := orig.Complex(), got.Complex()
		same := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
		if depth > 0 && !(same(real(a), real(b)) && same(imag(a), imag(b))) {
			return path, fmt.Sprint(a), fmt.Sprint(b)
		}
	default:
		if depth > 0 && orig.CanInterface() && got.CanInterface() && orig.Interface() != got.Interface() {
			return path, fmt.Sprint(orig.Interface()), fmt.Sprint(got.Interface())
		}
	}
	return "", "", ""
}

// send writes one message: the header and the values, a function value as
// a new handle of this side.
func (p *Peer) send(h header, vals []reflect.Value) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if err := p.enc.Encode(h); err != nil {
		return err
	}
	for _, v := range vals {
		var s slot
		switch v.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			s.Nil = v.IsNil()
		case reflect.Func:
			if v.IsNil() {
				s.Nil = true
			} else {
				p.mu.Lock()
				p.nextH++
				s.Handle = p.nextH
				p.handles[s.Handle] = v
				p.mu.Unlock()
			}
		}
		if err := p.enc.Encode(s); err != nil {
			return err
		}
		if s.Nil || s.Handle != 0 {
			continue
		}
		if err := p.enc.EncodeValue(v); err != nil {
			return fmt.Errorf("cannot send a value of type %v: %v", v.Type(), err)
		}
	}
	return p.bw.Flush()
}

// fail breaks the connection: every call waiting, and every later one,
// gets err.
func (p *Peer) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
	for id, c := range p.pending {
		c.ch <- result{err: p.err}
		delete(p.pending, id)
	}
}

// loop reads messages until an error.
func (p *Peer) loop() error {
	for {
		p.lim.n = MaxMessage
		var h header
		if err := p.dec.Decode(&h); err != nil {
			p.fail(err)
			return err
		}
		switch h.Kind {
		case kindCall:
			fn, err := p.lookup(h)
			if err != nil {
				p.fail(err)
				return err
			}
			ft := fn.Type()
			if h.N != ft.NumIn() {
				err := fmt.Errorf("a call of %s with %d arguments, want %d", h.Name, h.N, ft.NumIn())
				p.fail(err)
				return err
			}
			args, err := p.values(ft.In, h.N)
			if err != nil {
				p.fail(err)
				return err
			}
			go p.serve(h.ID, fn, args)
		case kindReply, kindPanic:
			p.mu.Lock()
			c := p.pending[h.ID]
			delete(p.pending, h.ID)
			p.mu.Unlock()
			if c == nil {
				err := fmt.Errorf("a reply to no call (%d)", h.ID)
				p.fail(err)
				return err
			}
			if h.Kind == kindPanic {
				if h.Text == "" {
					h.Text = "panic"
				}
				c.ch <- result{panicked: true, panicText: h.Text}
				continue
			}
			nout, nin := c.ft.NumOut(), c.ft.NumIn()
			if h.N != nout+nin {
				err := fmt.Errorf("a reply of %s with %d values, want %d", c.name, h.N, nout+nin)
				c.ch <- result{err: err}
				p.fail(err)
				return err
			}
			vals, err := p.values(func(i int) reflect.Type {
				if i < nout {
					return c.ft.Out(i)
				}
				return c.ft.In(i - nout)
			}, h.N)
			if err != nil {
				c.ch <- result{err: err}
				p.fail(err)
				return err
			}
			for _, a := range h.Alias {
				if a.Result < 0 || a.Result >= nout || a.Arg < 0 || a.Arg >= nin || a.Offset < 0 ||
					vals[a.Result].Kind() != reflect.Slice || vals[a.Result].Type() != vals[nout+a.Arg].Type() {
					err := fmt.Errorf("a reply of %s with a wrong alias %+v", c.name, a)
					c.ch <- result{err: err}
					p.fail(err)
					return err
				}
			}
			c.ch <- result{out: vals[:nout], args: vals[nout:], alias: h.Alias}
		default:
			err := fmt.Errorf("a message of unknown kind %d", h.Kind)
			p.fail(err)
			return err
		}
	}
}

// lookup finds the local function a call names.
func (p *Peer) lookup(h header) (reflect.Value, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h.Name != "" {
		if fn, ok := p.byName[h.Name]; ok {
			return fn, nil
		}
		return reflect.Value{}, fmt.Errorf("a call of %q, which is not registered", h.Name)
	}
	if fn, ok := p.handles[h.Handle]; ok {
		return fn, nil
	}
	return reflect.Value{}, fmt.Errorf("a call of function value %d, which does not exist", h.Handle)
}

// values reads n values, the i-th of type typ(i).
func (p *Peer) values(typ func(int) reflect.Type, n int) ([]reflect.Value, error) {
	vals := make([]reflect.Value, n)
	for i := range vals {
		t := typ(i)
		var s slot
		if err := p.dec.Decode(&s); err != nil {
			return nil, err
		}
		switch {
		case s.Nil:
			vals[i] = reflect.Zero(t)
		case s.Handle != 0:
			if t.Kind() != reflect.Func {
				return nil, fmt.Errorf("a function handle for a value of type %v", t)
			}
			h := s.Handle
			vals[i] = reflect.MakeFunc(t, func(in []reflect.Value) []reflect.Value {
				return p.invoke(Func{}, h, t, in)
			})
		default:
			if t.Kind() == reflect.Func {
				return nil, fmt.Errorf("a value for a function of type %v", t)
			}
			v := reflect.New(t)
			if err := p.dec.DecodeValue(v); err != nil {
				return nil, fmt.Errorf("a value of type %v: %v", t, err)
			}
			vals[i] = v.Elem()
		}
	}
	return vals, nil
}

func (p *Peer) sendPanic(id int64, text string) {
	if err := p.send(header{Kind: kindPanic, ID: id, Text: text}, nil); err != nil {
		p.fail(err)
	}
}

// serve calls fn with args and sends the reply: the results, the
// arguments as fn left them, and which results share an argument's array.
// A panic of fn is sent as a panic, with the frames of the cells it went
// through.
func (p *Peer) serve(id int64, fn reflect.Value, args []reflect.Value) {
	var out []reflect.Value
	panicked := true
	func() {
		defer func() {
			if !panicked {
				return
			}
			r := recover()
			msg := fmt.Sprint(r)
			if e, ok := r.(error); ok {
				msg = e.Error()
			}
			p.sendPanic(id, msg+cellFrames())
		}()
		if fn.Type().IsVariadic() {
			out = fn.CallSlice(args)
		} else {
			out = fn.Call(args)
		}
		panicked = false
	}()
	if panicked {
		return
	}
	var alias []Alias
	for i, r := range out {
		if r.Kind() != reflect.Slice || r.Cap() == 0 || r.Type().Elem().Size() == 0 {
			continue
		}
		size := r.Type().Elem().Size()
		for j, a := range args {
			if a.Kind() != reflect.Slice || a.Type() != r.Type() || a.Cap() == 0 {
				continue
			}
			start, rp := a.Pointer(), r.Pointer()
			if rp >= start && rp < start+uintptr(a.Cap())*size && (rp-start)%size == 0 {
				off := int((rp - start) / size)
				if off+r.Len() <= a.Len() {
					alias = append(alias, Alias{Result: i, Arg: j, Offset: off})
					break
				}
			}
		}
	}
	if err := p.send(header{Kind: kindReply, ID: id, N: len(out) + len(args), Alias: alias}, append(out, args...)); err != nil {
		p.fail(err)
	}
}

// cellFrames lists the frames of the panicking goroutine that lie in a
// submission's cells ("cell7" files): "\nin:\n    Epoch (your cell 7, line 3)".
func cellFrames() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	for {
		f, more := frames.Next()
		if cell, ok := strings.CutPrefix(f.File, "cell"); ok && cell != "" && strings.Trim(cell, "0123456789") == "" {
			fn := f.Function
			if i := strings.LastIndex(fn, "."); i >= 0 && strings.HasPrefix(fn, "main.") {
				fn = strings.TrimPrefix(fn, "main.")
			}
			if b.Len() == 0 {
				b.WriteString("\nin:")
			}
			fmt.Fprintf(&b, "\n    %s (your cell %s, line %d)", fn, cell, f.Line)
		}
		if !more {
			break
		}
	}
	return b.String()
}

// restore writes into dst, where it shares memory with the caller (slice
// elements, through pointers and maps), the value src that the other side
// left there.
func restore(dst, src reflect.Value, depth int) {
	if depth > 64 || !src.IsValid() || dst.Type() != src.Type() {
		return
	}
	switch dst.Kind() {
	case reflect.Slice:
		for i := range min(dst.Len(), src.Len()) {
			restore(dst.Index(i), src.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range dst.Len() {
			restore(dst.Index(i), src.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := range dst.NumField() {
			if dst.Type().Field(i).IsExported() {
				restore(dst.Field(i), src.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		if !dst.IsNil() && !src.IsNil() {
			restore(dst.Elem(), src.Elem(), depth+1)
		}
	case reflect.Map:
		if dst.IsNil() || src.IsNil() {
			return
		}
		dst.Clear()
		it := src.MapRange()
		for it.Next() {
			dst.SetMapIndex(it.Key(), it.Value())
		}
	case reflect.Func, reflect.Interface, reflect.Chan:
		// Not sent back: a function crosses as a handle.
	default:
		if dst.CanSet() {
			dst.Set(src)
		}
	}
}

// limitReader fails a read past n bytes (reset for each message).
type limitReader struct {
	r *bufio.Reader
	n int64
}

func (l *limitReader) Read(b []byte) (int, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("a message longer than %d MiB", MaxMessage>>20)
	}
	if int64(len(b)) > l.n {
		b = b[:l.n]
	}
	n, err := l.r.Read(b)
	l.n -= int64(n)
	return n, err
}

func (l *limitReader) ReadByte() (byte, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("a message longer than %d MiB", MaxMessage>>20)
	}
	c, err := l.r.ReadByte()
	if err == nil {
		l.n--
	}
	return c, err
}
