package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestClaimUID checks that a test uid is never given twice while it is
// held, in this process or in another grader process, that a released uid
// is given again, and that a lock folder others may enter is refused.
func TestClaimUID(t *testing.T) {
	if os.Getenv("SANDBOX_CLAIM_CHILD") != "" {
		// The other grader process: claim one uid, print it, hold it
		// until stdin closes.
		uidLockDir = os.Getenv("SANDBOX_CLAIM_CHILD")
		uid, release, err := claimUID()
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(uid)
		os.Stdin.Read(make([]byte, 1))
		release()
		os.Exit(0)
	}
	defer func(d string) { uidLockDir = d }(uidLockDir)
	uidLockDir = filepath.Join(t.TempDir(), "uids")

	a, releaseA, err := claimUID()
	if err != nil {
		t.Fatal(err)
	}
	b, releaseB, err := claimUID()
	if err != nil {
		t.Fatal(err)
	}
	if a != testUIDBase || b != testUIDBase+1 {
		t.Errorf("two claims gave uids %d and %d, want %d and %d", a, b, testUIDBase, testUIDBase+1)
	}

	// Another process, while this one holds a and b.
	child := exec.Command(os.Args[0], "-test.run=^TestClaimUID$")
	child.Env = append(os.Environ(), "SANDBOX_CLAIM_CHILD="+uidLockDir)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 64)
	k, _ := out.Read(line)
	c, err := strconv.Atoi(strings.TrimSpace(string(line[:k])))
	if err != nil || c != testUIDBase+2 {
		t.Errorf("the other process claimed %q, want uid %d (a and b are held here)", line[:k], testUIDBase+2)
	}
	// While the other process holds c, this one cannot have it.
	releaseA()
	d, releaseD, err := claimUID()
	if err != nil || d != a {
		t.Errorf("after releasing %d, a claim gave %d, %v; want %d again", a, d, err, a)
	}
	e, releaseE, err := claimUID()
	if err != nil || e != testUIDBase+3 {
		t.Errorf("with %d, %d here and %d in the other process, a claim gave %d, %v; want %d", d, b, c, e, err, testUIDBase+3)
	}
	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Errorf("the other process: %v", err)
	}
	releaseB()
	releaseD()
	releaseE()

	// A lock folder others may enter (made by someone else, say) is refused.
	if err := os.Chmod(uidLockDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := claimUID(); err == nil || !strings.Contains(err.Error(), "no one else may enter") {
		t.Errorf("a lock folder of mode 0755: %v, want it refused", err)
	}
}
