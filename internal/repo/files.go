package repo

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MustRead returns the content of the file at path, or fails the test.
func MustRead(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Write writes data to the file at path (mode 0644), making its folders,
// and returns path; or fails the test.
func Write(t testing.TB, path, data string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ReadCSV returns the records of the CSV file at path, or fails the test.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(MustRead(t, path))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}
