// Package class holds the assign command's subcommands for a class on
// one server and its gradebook: roster, collect, written, similarity and
// export with its late policy and written answers. Each is a Command: its
// Flags register the flags, then Run takes the arguments left.
package class

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/collect"
	"github.com/perceptron-go/lessons/lessons/assign/export"
	"github.com/perceptron-go/lessons/lessons/assign/late"
	"github.com/perceptron-go/lessons/lessons/assign/roster"
	"github.com/perceptron-go/lessons/lessons/assign/similarity"
	"github.com/perceptron-go/lessons/lessons/assign/written"
)

// rosterFlags registers the flags of "assign roster" and returns the
// command that brings the class server's accounts to the roster.
func rosterFlags(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) error {
	var o roster.Options
	admins := fs.String("admin", "", "the instructors' accounts, comma-separated: made if missing, JupyterHub admins")
	drop := fs.String("drop", "lock", "what to do with a class member no longer on the roster: lock (account locked, files kept), delete (account and home deleted) or keep")
	fs.StringVar(&o.Group, "group", "perceptron-students", "the Unix group that holds the class")
	fs.StringVar(&o.ConfigDir, "config-dir", "/etc/perceptron-lessons", "where roster.json goes (the shipped jupyterhub_config.py reads it)")
	fs.StringVar(&o.Passwords, "passwords", "new-passwords.csv", "CSV (mode 0600) to append each new account's first password to; empty: set none (another login method, e.g. LDAP or OAuth)")
	fs.BoolVar(&o.DryRun, "n", false, "dry run: print what would be done and change nothing")
	return func(args []string, stdout, stderr io.Writer) error {
		if len(args) != 1 {
			return errors.New("roster takes one CSV file")
		}
		switch roster.Drop(*drop) {
		case roster.DropLock, roster.DropDelete, roster.DropKeep:
			o.Drop = roster.Drop(*drop)
		default:
			return fmt.Errorf("roster: -drop %q: want lock, delete or keep", *drop)
		}
		for _, a := range strings.Split(*admins, ",") {
			if a = strings.TrimSpace(a); a != "" {
				o.Admins = append(o.Admins, a)
			}
		}
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		format, students, err := roster.Read(f, args[0])
		f.Close()
		if err != nil {
			return err
		}
		for _, a := range o.Admins {
			if err := roster.CheckLogin(a); err != nil {
				return fmt.Errorf("roster: -admin: %w", err)
			}
		}
		logins := append([]string{}, o.Admins...)
		for _, s := range students {
			logins = append(logins, s.Login)
		}
		st, err := roster.System(o.Group, logins)
		if err != nil {
			return err
		}
		acts := roster.Plan(students, o.Admins, o.Group, o.Drop, st, roster.PrivateHome)
		fmt.Fprintf(stdout, "roster: %s (%s): %d students, %d admins; %d changes\n", args[0], format, len(students), len(o.Admins), len(acts))
		if o.DryRun {
			for _, a := range acts {
				fmt.Fprintln(stdout, "roster: would", a)
			}
			fmt.Fprintln(stdout, "roster: dry run: nothing changed")
			return nil
		}
		if os.Geteuid() != 0 {
			return errors.New("roster: run it as root on the class server (it makes accounts); -n shows what it would do")
		}
		if err := roster.Apply(acts, students, o, stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "roster: wrote %s/roster.json; restart JupyterHub for its allow list to take it\n", o.ConfigDir)
		return nil
	}
}

// collectFlags registers the flags of "assign collect" and returns the
// command that copies the class's notebooks of an assignment into the
// folder grade reads.
func collectFlags(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) error {
	name := fs.String("assignment", "", "the assignment (its folder under lessons/, e.g. hw2_pla)")
	configDir := fs.String("config-dir", "/etc/perceptron-lessons", "where roster.json is (assign roster)")
	copyDir := fs.String("copy", "perceptron-lessons", "the students' copy of the lessons, in their homes")
	out := fs.String("out", "", "the folder to collect into (default submissions/ASSIGNMENT)")
	return func(args []string, stdout, stderr io.Writer) error {
		if *name == "" || len(args) != 0 || strings.ContainsAny(*name, "/\\") || strings.HasPrefix(*name, ".") {
			return errors.New("collect takes -assignment NAME (a folder name) and no arguments")
		}
		if *out == "" {
			*out = filepath.Join("submissions", *name)
		}
		r, err := roster.ReadJSON(filepath.Join(*configDir, "roster.json"))
		if err != nil {
			return fmt.Errorf("collect: the class's roster: %w (make it with assign roster)", err)
		}
		var students []collect.Student
		for _, login := range r.Students {
			u, err := user.Lookup(login)
			if err != nil {
				fmt.Fprintf(stderr, "collect: %s: %v\n", login, err)
				continue
			}
			uid, _ := strconv.Atoi(u.Uid)
			students = append(students, collect.Student{Login: login, ID: r.IDs[login], Home: u.HomeDir, UID: uid})
		}
		n, err := collect.Collect(students, *name, *copyDir, *out, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "collect: %d of %d students' %s notebooks in %s (times in %s)\n", n, len(r.Students), *name, *out, collect.Manifest)
		return nil
	}
}

// exportAdjust registers export's flags of the written answers and the
// late policy on fs; once fs is parsed, the function it returns gives the
// export.Adjust they ask for (nil for none).
func exportAdjust(fs *flag.FlagSet) func() (export.Adjust, error) {
	var lf late.Flags
	lf.Register(fs)
	sheet := fs.String("written", "", "the filled written-answer sheet (assign written's written.csv): its points are added to each submission's")
	return func() (export.Adjust, error) {
		p, err := lf.Policy()
		if err != nil {
			return nil, err
		}
		var s *written.Sheet
		if *sheet != "" {
			if s, err = written.ReadSheet(*sheet); err != nil {
				return nil, err
			}
		}
		if s == nil && p.Due.IsZero() {
			return nil, nil
		}
		return func(gs []export.Grade, w io.Writer) ([]export.Grade, []export.Column, error) {
			if s != nil {
				if gs, _, err = s.Merge(gs, w); err != nil {
					return nil, nil, err
				}
			}
			return p.Apply(gs, w)
		}, nil
	}
}

// writtenFlags registers the flags of "assign written" and returns the
// command that writes the pages of the written answers and the
// manual-score sheet.
func writtenFlags(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) error {
	name := fs.String("assignment", "", "the assignment (its folder under lessons/)")
	out := fs.String("out", "written", "the folder of the pages and of written.csv")
	jupyter := fs.String("jupyter", "", "the jupyter command of the pinned environment (default: the repository's .venv, else the shared install's)")
	repoFlag := fs.String("repo", "", "repository root (default: found from the current folder)")
	return func(args []string, stdout, stderr io.Writer) error {
		if *name == "" || len(args) == 0 {
			return errors.New("written takes -assignment NAME and the submissions")
		}
		repo := *repoFlag
		if repo == "" {
			var err error
			if repo, err = assignment.FindRepo("."); err != nil {
				return err
			}
		}
		src, err := notebook.Read(filepath.Join(repo, "lessons", *name, "source.ipynb"))
		if err != nil {
			return err
		}
		qs, err := written.Questions(src, *name)
		if err != nil {
			return err
		}
		if len(qs) == 0 {
			return fmt.Errorf("written: %s has no written question", *name)
		}
		if *jupyter == "" {
			for _, j := range []string{filepath.Join(repo, ".venv/bin/jupyter"), "/usr/local/lib/perceptron-lessons/venv/bin/jupyter"} {
				if _, err := os.Stat(j); err == nil {
					*jupyter = j
					break
				}
			}
			if *jupyter == "" {
				return errors.New("written: no Jupyter environment (run scripts/setup.sh, or give -jupyter)")
			}
		}
		var subs []string
		for _, a := range args {
			err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".ipynb") {
					subs = append(subs, p)
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		if err := os.MkdirAll(*out, 0o700); err != nil {
			return err
		}
		pages := filepath.Join(*out, ".pages")
		if err := os.MkdirAll(pages, 0o700); err != nil {
			return err
		}
		defer os.RemoveAll(pages)
		var made []string
		for _, sub := range subs {
			nb, err := notebook.Read(sub)
			if err != nil {
				fmt.Fprintf(stderr, "written: %v: no page\n", err)
				continue
			}
			base := strings.TrimSuffix(filepath.Base(sub), ".ipynb")
			p := filepath.Join(pages, base+".ipynb")
			if err := written.Page(nb, qs, base).WriteFile(p); err != nil {
				return err
			}
			made = append(made, p)
		}
		if len(made) > 0 {
			// One nbconvert for all pages; the students' HTML sanitized (no
			// script of theirs runs in the instructor's browser).
			cmd := exec.Command(*jupyter, append([]string{"nbconvert", "--to", "html", "--HTMLExporter.sanitize_html=True", "--log-level=WARN", "--output-dir", *out}, made...)...)
			cmd.Stdout, cmd.Stderr = stderr, stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("written: nbconvert: %v", err)
			}
		}
		sheet := filepath.Join(*out, "written.csv")
		added, err := written.WriteSheet(sheet, qs, subs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "written: %d pages in %s; %s: %d questions, %d new rows (fill it, then: assign export -written %s)\n", len(made), *out, sheet, len(qs), added, sheet)
		return nil
	}
}

// similarityFlags registers the flags of "assign similarity" and returns
// the command that writes the report of the pairs of submissions above
// the threshold.
func similarityFlags(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) error {
	o := similarity.Defaults
	name := fs.String("assignment", "", "the assignment: its student.ipynb is the starter code, removed before comparing")
	base := fs.String("base", "", "the starter code instead of the assignment's student.ipynb (a notebook or a .go file)")
	out := fs.String("o", "", "the Markdown report to write (default: standard output)")
	repoFlag := fs.String("repo", "", "repository root (default: found from the current folder)")
	fs.IntVar(&o.K, "k", o.K, "tokens per k-gram: shorter common runs are ignored")
	fs.IntVar(&o.W, "w", o.W, "winnowing window: common runs of w+k-1 tokens or more are always found")
	fs.Float64Var(&o.Threshold, "threshold", o.Threshold, "the least similarity of a listed pair (shared fingerprints over the smaller submission's)")
	return func(args []string, stdout, stderr io.Writer) error {
		if (*name == "") == (*base == "") || len(args) == 0 {
			return errors.New("similarity takes -assignment NAME or -base FILE, and the submissions")
		}
		if *base == "" {
			repo := *repoFlag
			if repo == "" {
				var err error
				if repo, err = assignment.FindRepo("."); err != nil {
					return err
				}
			}
			*base = filepath.Join(repo, "lessons", *name, "student.ipynb")
		}
		code := func(path string) (string, error) {
			if strings.HasSuffix(path, ".go") {
				b, err := os.ReadFile(path)
				return string(b), err
			}
			nb, err := notebook.Read(path)
			if err != nil {
				return "", err
			}
			return export.GoCode(nb), nil
		}
		baseCode, err := code(*base)
		if err != nil {
			return fmt.Errorf("similarity: the starter code: %w", err)
		}
		starter := similarity.Base(baseCode, o)
		var docs []*similarity.Doc
		for _, a := range args {
			err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() || !(strings.HasSuffix(p, ".ipynb") || strings.HasSuffix(p, ".go")) {
					return err
				}
				src, err := code(p)
				if err != nil {
					fmt.Fprintf(stderr, "similarity: %v: left out\n", err)
					return nil
				}
				docs = append(docs, similarity.NewDoc(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), src, starter, o))
				return nil
			})
			if err != nil {
				return err
			}
		}
		pairs, err := similarity.Compare(docs, o)
		if err != nil {
			return err
		}
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		similarity.Report(w, pairs, len(docs), o)
		if *out != "" {
			fmt.Fprintf(stdout, "similarity: %d submissions, %d pairs at or above %.0f %%: %s\n", len(docs), len(pairs), 100*o.Threshold, *out)
		}
		return nil
	}
}

// A Command is a subcommand written as a function that registers its
// flags and returns what runs on the arguments left.
type Command struct {
	flags func(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) error
	run   func(args []string, stdout, stderr io.Writer) error
}

// Flags registers the command's flags on fs.
func (c *Command) Flags(fs *flag.FlagSet) { c.run = c.flags(fs) }

// Run runs the command on the arguments left after its flags.
func (c *Command) Run(args []string, stdout, stderr io.Writer) error {
	return c.run(args, stdout, stderr)
}

// Roster brings the class server's accounts to an LMS roster.
func Roster() *Command { return &Command{flags: rosterFlags} }

// Collect copies each student's notebook of an assignment, with its save time.
func Collect() *Command { return &Command{flags: collectFlags} }

// Written gathers the written answers: a page per submission and a sheet.
func Written() *Command { return &Command{flags: writtenFlags} }

// Similarity reports the pairs of submissions that share code beyond the starter.
func Similarity() *Command { return &Command{flags: similarityFlags} }

// Export is export with the written answers and the late policy
// (exportAdjust) on top of export's own flags.
type Export struct {
	export.Options
	adjust func() (export.Adjust, error)
}

func (c *Export) Flags(fs *flag.FlagSet) {
	c.Options.Flags(fs)
	c.adjust = exportAdjust(fs)
}

func (c *Export) Run(args []string, stdout, stderr io.Writer) error {
	var err error
	if c.Options.Adjust, err = c.adjust(); err != nil {
		return err
	}
	return c.Options.Run(args, stdout, stderr)
}
