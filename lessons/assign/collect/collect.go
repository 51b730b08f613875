// Package collect gathers the students' notebooks of an assignment from
// their homes on the class server into the folder "assign grade" reads,
// each with the time the student last saved it, recorded in
// collected.csv beside the copies (the submission time of the late
// policy). Run as root: the homes are private.
//
// A student's notebook is HOME/COPY/lessons/ASSIGNMENT/student.ipynb (COPY
// is perceptron-lessons, the copy perceptron-lessons-init makes). The
// student controls everything under their home, so a notebook is copied
// only if it is a regular file owned by the student whose real path stays
// inside their home (never a symbolic link to another student's work or a
// system file), and not larger than MaxSize.
package collect

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/internal/csvfile"
)

// Student is one account to collect from.
type Student struct {
	Login string
	ID    string // the LMS's user ID, "" if unknown
	Home  string
	UID   int
}

// Manifest is the name of the record of a collection in its folder.
const Manifest = "collected.csv"

// FileName is the name of a student's collected notebook: Canvas's
// download name (name_USERID_SUBMISSIONID_FILE) when the roster has the
// student's Canvas ID, so that the gradebook matches the row by ID; else
// LOGIN.ipynb.
func FileName(s Student) string {
	if s.ID != "" {
		return strings.ReplaceAll(s.Login, "_", "") + "_" + s.ID + "_0_student.ipynb"
	}
	return s.Login + ".ipynb"
}

// Collect copies each student's notebook of assignment into out (made if
// missing), keeping its modification time, and writes out/collected.csv
// (login, id, file, modified in UTC RFC 3339, SHA-256). A student without
// the notebook is reported on w and left out; so is a refused one. It
// returns how many it copied.
func Collect(students []Student, assignment, copyDir, out string, w io.Writer) (int, error) {
	if err := os.MkdirAll(out, 0o700); err != nil {
		return 0, err
	}
	var rows [][]string
	n := 0
	for _, s := range students {
		src := filepath.Join(s.Home, copyDir, "lessons", assignment, "student.ipynb")
		b, mod, err := readOwned(src, s.Home, s.UID)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "collect: %s: no %s (not started?)\n", s.Login, src)
			continue
		}
		if err != nil {
			fmt.Fprintf(w, "collect: %s: %v\n", s.Login, err)
			continue
		}
		dst := filepath.Join(out, FileName(s))
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			return n, err
		}
		if err := os.Chtimes(dst, mod, mod); err != nil {
			return n, err
		}
		sum := sha256.Sum256(b)
		rows = append(rows, []string{s.Login, s.ID, FileName(s), mod.UTC().Format(time.RFC3339), hex.EncodeToString(sum[:])})
		n++
	}
	f, err := os.Create(filepath.Join(out, Manifest))
	if err != nil {
		return n, err
	}
	cw := csv.NewWriter(f)
	cw.Write([]string{"login", "id", "file", "modified", "sha256"})
	cw.WriteAll(rows)
	if err := f.Close(); err != nil {
		return n, err
	}
	return n, cw.Error()
}

// Times reads the collected.csv in dir, if there is one: the file name
// of each notebook and its time.
func Times(dir string) (map[string]time.Time, error) {
	path := filepath.Join(dir, Manifest)
	rows, err := csvfile.Read(path, nil)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	times := map[string]time.Time{}
	for i, r := range rows {
		if i == 0 || len(r) < 4 {
			continue
		}
		t, err := time.Parse(time.RFC3339, r[3])
		if err != nil {
			return nil, fmt.Errorf("%s, row %d: time %q: %v", path, i+1, r[3], err)
		}
		times[r[2]] = t
	}
	return times, nil
}
