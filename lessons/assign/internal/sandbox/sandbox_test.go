package sandbox

import (
	"strings"
	"testing"
)

// TestSandboxRefuses checks that the grader stops with a clear message,
// rather than running tests unisolated, when bubblewrap is missing, and
// that an unknown level is an error.
func TestSandboxRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := New(LevelBwrap, 2048)
	want := "the sandbox needs bubblewrap: apt-get install bubblewrap (or, where user namespaces are blocked, -sandbox=setpriv; see lessons/README.md)"
	if err == nil || err.Error() != want {
		t.Errorf("without bwrap: %v, want %q", err, want)
	}
	if _, err := New("chroot", 2048); err == nil || err.Error() != `unknown -sandbox "chroot": want bwrap, setpriv or none` {
		t.Errorf("unknown level: %v", err)
	}
	sb, err := New(LevelNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := sb.Describe(); !strings.HasPrefix(d, "NO ISOLATION") {
		t.Errorf("level none describes itself as %q", d)
	}
}
