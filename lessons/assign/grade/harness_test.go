package grade

import (
	"testing"
)

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
