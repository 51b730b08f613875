package rpc

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"
)

// reply records what a server writes when a client's first call (id 1)
// asks F(x): a valid reply to that call.
func reply(t testing.TB, x []float64) []byte {
	var call bytes.Buffer
	if err := New(bytes.NewReader(nil), &call).send(header{Kind: kindCall, ID: 1, Name: "F", N: 1}, []reflect.Value{reflect.ValueOf(x)}); err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	out := &signalWriter{wrote: make(chan struct{})}
	server := New(in, out)
	server.Register("F", func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	})
	go server.Serve()
	go feed.Write(call.Bytes())
	<-out.wrote
	feed.Close()
	return out.buf.Bytes()
}

// signalWriter keeps what is written to it and closes wrote at the first
// write (a peer flushes a message in one write).
type signalWriter struct {
	buf   bytes.Buffer
	wrote chan struct{}
}

func (w *signalWriter) Write(b []byte) (int, error) {
	n, err := w.buf.Write(b)
	if w.buf.Len() == n {
		close(w.wrote)
	}
	return n, err
}

// FuzzReply feeds the trusted side whatever the student's process might
// send: the call ends with a result, a RemoteError or a CallError, never
// another panic or a hang, and a result is the exact one only when the
// bytes are the valid reply.
func FuzzReply(f *testing.F) {
	valid := reply(f, []float64{1, 2, 3.5})
	if len(valid) == 0 {
		f.Fatal("no reply recorded")
	}
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(append(append([]byte{}, valid...), valid...))
	f.Add([]byte("TestDot pass 0000\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		client := New(bytes.NewReader(b), io.Discard)
		client.Start()
		var r float64
		x := []float64{1, 2, 3.5}
		func() {
			defer func() {
				switch e := recover().(type) {
				case nil, RemoteError:
				case error:
					var ce CallError
					if !errors.As(e, &ce) {
						t.Fatalf("a reply of %d bytes: the call panicked with %v", len(b), e)
					}
				default:
					t.Fatalf("a reply of %d bytes: the call panicked with %v", len(b), e)
				}
			}()
			client.Call("F", false, []any{&x}, []any{&r})
		}()
	})
}

// TestValidReply checks the recorded reply itself: F([1 2 3.5]) = 6.5.
func TestValidReply(t *testing.T) {
	// The reply is fed once the call is sent, as a server would answer:
	// a reply read before its call is registered is a reply to no call.
	b := reply(t, []float64{1, 2, 3.5})
	in, feed := io.Pipe()
	sent := &signalWriter{wrote: make(chan struct{})}
	go func() {
		<-sent.wrote
		feed.Write(b)
		feed.Close()
	}()
	client := New(in, sent)
	client.Start()
	var r float64
	x := []float64{1, 2, 3.5}
	client.Call("F", false, []any{&x}, []any{&r})
	if r != 6.5 {
		t.Errorf("F([1 2 3.5]) through a recorded reply = %v, want 6.5", r)
	}
}
