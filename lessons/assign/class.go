package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

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
