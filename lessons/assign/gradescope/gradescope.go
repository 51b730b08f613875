package gradescope

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/grade"
	"github.com/perceptron-go/lessons/lessons/assign/rpc"
)

// Options are the flags of "assign gradescope", which Flags registers.
type Options struct {
	Assignment string // assignment name (a folder of Lessons); required
	Out        string // the zip to write; "": NAME_autograder.zip
	Repo       string // repository root; "": found from the working folder
	Lessons    string // folder of the assignments; "": Repo/lessons
	GoVersion  string // Go release setup.sh installs; "": go.mod's toolchain, else its go line
	Timeout    string // time limit per test, as run_autograder passes it to the grader
	Secret     string // file of the instructor's secret for the hidden data; "": $LESSONS_SECRET, else none
}

// Flags registers the flags of "assign gradescope" on fs, filling o.
func (o *Options) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Assignment, "assignment", "", "assignment name (a folder of -lessons); required")
	fs.StringVar(&o.Out, "o", "", "the zip to write (default: NAME_autograder.zip)")
	fs.StringVar(&o.Repo, "repo", "", "repository root (default: found from the current folder)")
	fs.StringVar(&o.Lessons, "lessons", "", "folder of the assignments (default: REPO/lessons)")
	fs.StringVar(&o.GoVersion, "go", "", "Go release setup.sh installs (default: go.mod's toolchain, else its go line)")
	fs.StringVar(&o.Timeout, "timeout", "10s", "time limit per test, as run_autograder passes it to the grader")
	fs.StringVar(&o.Secret, "secret", "", "file of the instructor's secret: the zip carries it (repo/lessons-secret, readable by root alone once setup.sh ran) and run_autograder grades each student's hidden data from it and their Gradescope user ID (default: $"+grade.SecretEnv+"; none: the public data)")
}

// Build writes the autograder zip of one assignment, laid out for
// Gradescope, which unpacks it in /autograder/source
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/): at its
// root setup.sh (installs the Go release that go.mod names, checked by
// SHA-256, in /autograder/go, and bubblewrap; downloads the modules; warms
// the build cache), run_autograder (grades /autograder/submission into
// /autograder/results/results.json), assign (the grader, prebuilt), and
// repo/: go.mod, go.sum, the repository's packages the assignment needs and
// the assignment's source.ipynb (its hidden tests). It prints a line saying
// what it wrote on stdout.
func Build(o Options, stdout io.Writer) error {
	if o.Assignment == "" {
		return errors.New("gradescope: no assignment named: use -assignment NAME")
	}
	name, out, goVersion, timeout := &o.Assignment, &o.Out, &o.GoVersion, &o.Timeout
	repo, lessonsDir, err := assignment.RepoDirs(o.Repo, o.Lessons)
	if err != nil {
		return err
	}
	known, err := assignment.Dirs(lessonsDir)
	if err != nil {
		return err
	}
	dir := ""
	for _, d := range known {
		if filepath.Base(d) == *name {
			dir = d
		}
	}
	if dir == "" {
		return fmt.Errorf("no assignment %q in %s", *name, lessonsDir)
	}
	a, err := assignment.LoadAssignment(dir)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = *name + "_autograder.zip"
	}
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return err
	}
	v := *goVersion
	if v == "" {
		v = goModVersion(gomod)
	}
	if v == "" {
		return fmt.Errorf("%s/go.mod names no Go version; use -go", repo)
	}
	sum, err := toolchainSHA256(v)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	modes := map[string]os.FileMode{}
	// The grader, built for Gradescope's linux/amd64 machines.
	tmp, err := os.MkdirTemp("", "assign-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	build := exec.Command("go", "build", "-o", filepath.Join(tmp, "assign"), "./lessons/assign")
	build.Dir = repo
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the grader: %v\n%s", err, b)
	}
	if files["assign"], err = os.ReadFile(filepath.Join(tmp, "assign")); err != nil {
		return err
	}
	modes["assign"] = 0o755
	// The instructor's secret, if any: the hidden tests' data are drawn
	// from it and each student's ID (run_autograder passes both). The zip
	// is the instructor's alone (Gradescope shows students none of it),
	// and setup.sh makes the sources root-only.
	secret, err := grade.ReadSecret(o.Secret)
	if err != nil {
		return err
	}
	if secret != nil {
		files["repo/lessons-secret"] = append(secret, '\n')
		modes["repo/lessons-secret"] = 0o600
	}
	// repo/: the module files, the packages the assignment's code
	// imports (with their embedded data), and the assignment. Gradescope
	// unpacks the zip in /autograder/source, so this is
	// /autograder/source/repo there.
	for _, f := range []string{"go.mod", "go.sum"} {
		if files["repo/"+f], err = os.ReadFile(filepath.Join(repo, f)); err != nil {
			return err
		}
	}
	pkgFiles, err := modulePackageFiles(repo, a)
	if err != nil {
		return err
	}
	for _, rel := range pkgFiles {
		if files["repo/"+rel], err = os.ReadFile(filepath.Join(repo, rel)); err != nil {
			return err
		}
	}
	aRel := "lessons/" + a.Name
	for _, f := range []string{"source.ipynb", "student.ipynb", "grading.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if os.IsNotExist(err) && f != "source.ipynb" {
			continue
		}
		if err != nil {
			return err
		}
		files["repo/"+aRel+"/"+f] = b
	}
	data := map[string]string{"GoVersion": v, "GoSHA256": sum, "Assignment": a.Name, "Timeout": *timeout}
	for name, tmpl := range map[string]string{"setup.sh": setupSh, "run_autograder": runAutograder} {
		var b bytes.Buffer
		if err := template.Must(template.New(name).Parse(tmpl)).Execute(&b, data); err != nil {
			return err
		}
		files[name] = b.Bytes()
		modes[name] = 0o755
	}
	if err := writeZip(*out, files, modes); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s (%d tests, %s points), Go %s (SHA-256 %s), %d files\n",
		*out, a.Name, len(a.Tests), strconv.FormatFloat(a.MaxScore(), 'g', -1, 64), v, sum, len(files))
	return nil
}

var (
	toolchainLine = regexp.MustCompile(`(?m)^toolchain\s+go(\S+)\s*$`)
	goLine        = regexp.MustCompile(`(?m)^go\s+(\S+)\s*$`)
)

// goModVersion is the Go release go.mod names: its toolchain line, else
// its go line ("1.26" is read as "1.26.0").
func goModVersion(gomod []byte) string {
	if m := toolchainLine.FindSubmatch(gomod); m != nil {
		return string(m[1])
	}
	if m := goLine.FindSubmatch(gomod); m != nil {
		v := string(m[1])
		if strings.Count(v, ".") == 1 {
			v += ".0"
		}
		return v
	}
	return ""
}

// toolchainSHA256 returns the SHA-256 of Go release v for linux/amd64 as
// the Go module proxy serves it (module golang.org/toolchain): the go
// command downloads it and checks it against the Go checksum database.
func toolchainSHA256(v string) (string, error) {
	dir, err := os.MkdirTemp("", "assign-toolchain-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("go", "mod", "download", "-json", "golang.org/toolchain@v0.0.1-go"+v+".linux-amd64")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GO111MODULE=on", "GOTOOLCHAIN=local")
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("downloading Go %s from the module proxy: %v\n%s", v, err, b)
	}
	var info struct{ Zip, Error string }
	if err := json.Unmarshal(b, &info); err != nil || info.Zip == "" {
		return "", fmt.Errorf("downloading Go %s from the module proxy: %s %s", v, info.Error, b)
	}
	f, err := os.Open(info.Zip)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// modulePackageFiles returns the files (relative to repo) of the
// repository's packages that the assignment's notebook imports, and of
// the repository's packages they import: Go files (no tests), assembly
// files (the perceptron package's kernels for amd64, Gradescope's machines)
// and embedded files.
func modulePackageFiles(repo string, a *assignment.Assignment) ([]string, error) {
	// Both processes of a test link the call package (boundary.go).
	paths := map[string]bool{rpc.ImportPath: true}
	for _, pcs := range [][]*assignment.ParsedCell{a.CodeCells, a.TestCells} {
		for _, pc := range pcs {
			for _, is := range pc.Imports {
				if is.Path == assignment.ModulePath || strings.HasPrefix(is.Path, assignment.ModulePath+"/") {
					paths[is.Path] = true
				}
			}
		}
	}
	args := []string{"list", "-deps", "-json=ImportPath,Dir,GoFiles,SFiles,EmbedFiles,Module"}
	for p := range paths {
		args = append(args, p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = repo
	// The files of Gradescope's platform, whatever machine builds the bundle.
	cmd.Env = append(assignment.BuildEnv(), "GOOS=linux", "GOARCH=amd64")
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var p struct {
			Dir                         string
			GoFiles, SFiles, EmbedFiles []string
			Module                      *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if p.Module == nil || p.Module.Path != assignment.ModulePath {
			continue
		}
		rel, err := filepath.Rel(repo, p.Dir)
		if err != nil {
			return nil, err
		}
		for _, f := range slices.Concat(p.GoFiles, p.SFiles, p.EmbedFiles) {
			files = append(files, filepath.ToSlash(filepath.Join(rel, f)))
		}
	}
	sort.Strings(files)
	return files, nil
}

func writeZip(path string, files map[string][]byte, modes map[string]os.FileMode) error {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		mode := modes[n]
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(files[n]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// setupSh is Gradescope's setup.sh: it runs once, as root, with the
// network, when the instructor uploads the zip.
//
//go:embed templates/setup.sh
var setupSh string

// runAutograder is Gradescope's run_autograder: it grades the uploaded
// notebook, offline, and writes results.json.
//
//go:embed templates/run_autograder
var runAutograder string
