package grade

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"strings"
	"text/template"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// The verdict channel. The grader never reads a verdict from what a test
// prints or from its exit code: the generated harness (TestMain, compiled
// into the trusted test binary, which holds no student code: see
// boundary.go) reads a fresh random key from fd 3, runs one test through a
// wrapper that records whether it returned normally and did not fail, and
// after testing.M.Run writes "NAME pass|fail HMAC-SHA256(key, NAME
// pass|fail)" on fd 4. The student's code runs in another process, which
// has neither descriptor nor the key, and reaches the test only through
// the replies the stubs decode. A process that dies, panics or is killed
// writes no verdict: 0 points.

// harnessName is the wrapper test of source test name.
func harnessName(test string) string { return "TestGraded_" + test }

// harnessTemplate is the harness: TestMain and a wrapper per test.
//
//go:embed templates/harness_test.go.tmpl
var harnessTemplate string

// harnessFile returns the Go file of the harness for tests.
func harnessFile(tests []assignment.TestFunc) string {
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.Name
	}
	var b strings.Builder
	if err := template.Must(template.New("harness").Parse(harnessTemplate)).Execute(&b, names); err != nil {
		panic(err) // the embedded template is the grader's own
	}
	return b.String()
}

// passed reports whether verdict holds a line, authenticated with key,
// saying that test passed.
func passed(verdict, key []byte, test string) bool {
	for _, l := range bytes.Split(verdict, []byte("\n")) {
		f := strings.Fields(string(l))
		if len(f) != 3 || f[0] != test || f[1] != "pass" {
			continue
		}
		sum, err := hex.DecodeString(f[2])
		if err != nil {
			continue
		}
		want, _ := hex.DecodeString(macHex(key, test+" pass"))
		if hmac.Equal(sum, want) {
			return true
		}
	}
	return false
}

// macHex is HMAC-SHA256(key, msg) in hex, as the harness writes it.
func macHex(key []byte, msg string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msg))
	return hex.EncodeToString(mac.Sum(nil))
}

// newKey returns a fresh random key for one test process's verdict.
func newKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}
