package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/lessons/assign/collect"
	"github.com/perceptron-go/lessons/lessons/assign/roster"
)

// runRoster parses the flags of "assign roster" and brings the class
// server's accounts to the roster.
func runRoster(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("roster", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o roster.Options
	admins := fs.String("admin", "", "the instructors' accounts, comma-separated: made if missing, JupyterHub admins")
	drop := fs.String("drop", "lock", "what to do with a class member no longer on the roster: lock (account locked, files kept), delete (account and home deleted) or keep")
	fs.StringVar(&o.Group, "group", "perceptron-students", "the Unix group that holds the class")
	fs.StringVar(&o.ConfigDir, "config-dir", "/etc/perceptron-lessons", "where roster.json goes (the shipped jupyterhub_config.py reads it)")
	fs.StringVar(&o.Passwords, "passwords", "new-passwords.csv", "CSV (mode 0600) to append each new account's first password to; empty: set none (another login method, e.g. LDAP or OAuth)")
	fs.BoolVar(&o.DryRun, "n", false, "dry run: print what would be done and change nothing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign roster [flags] ROSTER.csv\nROSTER.csv: Canvas's gradebook export or Moodle's participants download. Run as root on the class server.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
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
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	format, students, err := roster.Read(f, fs.Arg(0))
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
	fmt.Fprintf(stdout, "roster: %s (%s): %d students, %d admins; %d changes\n", fs.Arg(0), format, len(students), len(o.Admins), len(acts))
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

// runCollect parses the flags of "assign collect" and copies the class's
// notebooks of an assignment into the folder grade reads.
func runCollect(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("collect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("assignment", "", "the assignment (its folder under lessons/, e.g. hw2_pla)")
	configDir := fs.String("config-dir", "/etc/perceptron-lessons", "where roster.json is (assign roster)")
	copyDir := fs.String("copy", "perceptron-lessons", "the students' copy of the lessons, in their homes")
	out := fs.String("out", "", "the folder to collect into (default submissions/ASSIGNMENT)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign collect -assignment NAME [-out DIR] [flags]\nCopies each student's notebook of the roster (roster.json), with the time they last saved it, into DIR. Run as root on the class server.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" || fs.NArg() != 0 || strings.ContainsAny(*name, "/\\") || strings.HasPrefix(*name, ".") {
		fs.Usage()
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
