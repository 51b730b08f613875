package grade

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perceptron-go/lessons/lessons/assign/internal/ident"
)

// Hidden values per student. The hidden tests draw their data from a
// random source (the source notebook's hiddenRand) seeded by the test's
// name and the variant, a key the grader derives from the instructor's
// secret, the assignment and the student:
//
//	variant = HMAC-SHA256(secret, "lessons variant\x00" + assignment + "\x00" + student)
//
// The grader hands the variant to the trusted test process only, after
// the verdict key on fd 3 (the harness puts it in LESSONS_VARIANT for the
// tests); the student's process never holds it, nor the secret. Without a
// secret the variant is empty: the hidden tests draw the public data that
// anyone can compute from the repository. The reference answers are
// computed from the drawn data by the tests, never stored.

// SecretEnv names the environment variable that holds the instructor's
// secret when no -secret file is given.
const SecretEnv = "LESSONS_SECRET"

// ReadSecret returns the instructor's secret: the contents of file (if
// not "", its surrounding white space trimmed), else $LESSONS_SECRET,
// else nil (the hidden tests draw the public data). A secret shorter than
// 16 bytes is refused: it could be guessed.
func ReadSecret(file string) ([]byte, error) {
	var s string
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("-secret: %w", err)
		}
		s = strings.TrimSpace(string(b))
		if s == "" {
			return nil, fmt.Errorf("-secret %s: the file is empty", file)
		}
	} else {
		s = strings.TrimSpace(os.Getenv(SecretEnv))
		if s == "" {
			return nil, nil
		}
	}
	if len(s) < 16 {
		return nil, errors.New("the secret is shorter than 16 bytes: make one with `head -c 32 /dev/urandom | base64`")
	}
	return []byte(s), nil
}

// studentKey is who a submission is for the variant: the gradebook's ID
// its file name carries (stable across resubmissions), else the student's
// name, else the file's name without its extension.
func studentKey(sub string) string {
	st := ident.Of(sub)
	switch {
	case st.ID != "":
		return "id:" + st.ID
	case st.Name != "":
		return "name:" + st.Name
	}
	return "file:" + strings.TrimSuffix(filepath.Base(sub), ".ipynb")
}

// Variant returns the variant of assignment for student under secret, in
// hex, or "" without a secret.
func Variant(secret []byte, assignment, student string) string {
	if len(secret) == 0 {
		return ""
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("lessons variant\x00" + assignment + "\x00" + student))
	return hex.EncodeToString(mac.Sum(nil))
}

// variantOf is the variant of a submission graded by g.
func (g *Grader) variantOf(subPath, assignment string) string {
	student := g.Student
	if student == "" {
		student = studentKey(subPath)
	} else {
		student = "id:" + student
	}
	return Variant(g.Secret, assignment, student)
}

// variantLabel names a variant in the instructor's report without giving
// it away: the first 12 hex digits of its SHA-256, or "public".
func variantLabel(v string) string {
	if v == "" {
		return "public (no secret: the hidden tests draw the data anyone can compute from the repository)"
	}
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:6])
}
