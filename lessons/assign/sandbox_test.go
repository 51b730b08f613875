package main

import (
	"strings"
	"testing"
)

// TestSandboxRefuses checks that the grader stops with a clear message,
// rather than running tests unisolated, when bubblewrap is missing, and
// that an unknown level is an error.
func TestSandboxRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := NewSandbox(LevelBwrap, 2048)
	want := "the sandbox needs bubblewrap: apt-get install bubblewrap (or, where user namespaces are blocked, -sandbox=setpriv; see lessons/README.md)"
	if err == nil || err.Error() != want {
		t.Errorf("without bwrap: %v, want %q", err, want)
	}
	if _, err := NewSandbox("chroot", 2048); err == nil || err.Error() != `unknown -sandbox "chroot": want bwrap, setpriv or none` {
		t.Errorf("unknown level: %v", err)
	}
	sb, err := NewSandbox(LevelNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := sb.Describe(); !strings.HasPrefix(d, "NO ISOLATION") {
		t.Errorf("level none describes itself as %q", d)
	}
}

// TestVerdict checks the verdict channel's authentication: only a line
// with the test's name, "pass" and the HMAC of both under the run's key
// counts.
func TestVerdict(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	other := []byte("fedcba9876543210fedcba9876543210")
	line := func(k []byte, name, v string) []byte {
		return []byte(name + " " + v + " " + macHex(k, name+" "+v) + "\n")
	}
	for _, tc := range []struct {
		verdict []byte
		want    bool
	}{
		{line(key, "TestDot", "pass"), true},
		{line(key, "TestDot", "fail"), false},
		{line(other, "TestDot", "pass"), false},                         // another run's key
		{line(key, "TestSign", "pass"), false},                          // another test's verdict
		{[]byte("TestDot pass 00\n--- PASS: TestDot (0.00s)\n"), false}, // forged
		{nil, false}, // the process died before writing one
	} {
		if got := passed(tc.verdict, key, "TestDot"); got != tc.want {
			t.Errorf("verdict %q: passed %v, want %v", tc.verdict, got, tc.want)
		}
	}
}
