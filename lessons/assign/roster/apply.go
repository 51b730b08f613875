package roster

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Options are the flags of "assign roster".
type Options struct {
	Group     string // the Unix group of the class
	Admins    []string
	Drop      Drop
	ConfigDir string // where roster.json goes
	Passwords string // CSV of the new accounts' first passwords; "": no passwords set
	DryRun    bool
	Home      string // the folder of new homes ("" : useradd's default)
}

// System reads the machine's accounts from /etc/group and the account
// database (getent), as Plan needs them.
func System(group string, logins []string) (State, error) {
	st := State{Accounts: map[string]Account{}}
	out, err := exec.Command("getent", "group", group).Output()
	if err == nil {
		st.GroupExists = true
		f := strings.Split(strings.TrimSpace(string(out)), ":")
		if len(f) == 4 && f[3] != "" {
			st.Members = strings.Split(f[3], ",")
		}
	}
	for _, l := range append(slices.Clone(logins), st.Members...) {
		if _, ok := st.Accounts[l]; ok {
			continue
		}
		a := Account{}
		if exec.Command("getent", "passwd", l).Run() == nil {
			a.Exists = true
			a.InGroup = slices.Contains(st.Members, l)
			a.Locked = locked(l)
		}
		st.Accounts[l] = a
	}
	return st, nil
}

// locked reports whether an account's password is locked by usermod
// --lock (a "!" in front of its hash) or the account expired, as this
// package's lock leaves it. A new account whose password was never set
// ("!" or "*" alone) is not locked.
func locked(login string) bool {
	out, err := exec.Command("getent", "shadow", login).Output()
	if err != nil {
		return false
	}
	f := strings.Split(strings.TrimSpace(string(out)), ":")
	if len(f) < 8 {
		return false
	}
	return (strings.HasPrefix(f[1], "!") && len(f[1]) > 1) || f[7] == "1"
}

// HomeOf returns the home folder of login from the account database.
func HomeOf(login string) string {
	out, err := exec.Command("getent", "passwd", login).Output()
	if err != nil {
		return ""
	}
	f := strings.Split(strings.TrimSpace(string(out)), ":")
	if len(f) < 6 {
		return ""
	}
	return f[5]
}

// PrivateHome reports whether login's home folder exists with mode 0700
// (only its owner may enter it).
func PrivateHome(login string) bool {
	h := HomeOf(login)
	if h == "" {
		return true // no home: nothing to make private
	}
	fi, err := os.Stat(h)
	return err != nil || fi.Mode().Perm() == 0o700
}

// Apply does acts with the system's tools, and writes roster.json in
// o.ConfigDir with the logins of students and admins. The new accounts'
// first passwords (random, 12 characters) are appended to o.Passwords
// (mode 0600) unless it is "". It prints each action on w.
func Apply(acts []Action, students []Student, o Options, w io.Writer) error {
	var pw *bufio.Writer
	if o.Passwords != "" && slices.ContainsFunc(acts, func(a Action) bool { return a.Kind == "create" }) {
		f, err := os.OpenFile(o.Passwords, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := f.Chmod(0o600); err != nil {
			return err
		}
		pw = bufio.NewWriter(f)
		defer pw.Flush()
	}
	run := func(a Action, name string, args ...string) error {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("roster: %s: %s %s: %v\n%s", a, name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	for _, a := range acts {
		fmt.Fprintln(w, "roster:", a)
		var err error
		switch a.Kind {
		case "group":
			err = run(a, "groupadd", a.Login)
		case "create":
			args := []string{"--create-home", "--shell", "/bin/bash", "--groups", o.Group, "--comment", strings.ReplaceAll(a.Name, ":", " "), "-K", "HOME_MODE=0700"}
			if o.Home != "" {
				args = append(args, "--base-dir", o.Home)
			}
			if err = run(a, "useradd", append(args, a.Login)...); err != nil {
				break
			}
			if err = chmodHome(a.Login); err != nil {
				break
			}
			if pw != nil {
				p, perr := password()
				if perr != nil {
					return perr
				}
				cmd := exec.Command("chpasswd")
				cmd.Stdin = strings.NewReader(a.Login + ":" + p + "\n")
				if out, cerr := cmd.CombinedOutput(); cerr != nil {
					return fmt.Errorf("roster: chpasswd for %s: %v\n%s", a.Login, cerr, out)
				}
				fmt.Fprintf(pw, "%s,%s\n", a.Login, p)
			}
		case "join":
			err = run(a, "gpasswd", "--add", a.Login, o.Group)
		case "unlock":
			if err = run(a, "usermod", "--expiredate", "", a.Login); err == nil && locked(a.Login) {
				err = run(a, "usermod", "--unlock", a.Login)
			}
		case "home":
			err = chmodHome(a.Login)
		case "lock":
			if err = run(a, "usermod", "--lock", "--expiredate", "1", a.Login); err == nil {
				err = run(a, "gpasswd", "--delete", a.Login, o.Group)
			}
		case "delete":
			err = run(a, "userdel", "--remove", a.Login)
		}
		if err != nil {
			return err
		}
	}
	return WriteJSON(o.ConfigDir, students, o.Admins)
}

func chmodHome(login string) error {
	h := HomeOf(login)
	if h == "" {
		return nil
	}
	return os.Chmod(h, 0o700)
}

// password returns a random password of 12 characters without the ones
// read alike (0/O, 1/l/I).
func password() (string, error) {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 12)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			return "", err
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b), nil
}

// File is the content of roster.json.
type File struct {
	Students []string          `json:"students"`
	Admins   []string          `json:"admins"`
	Names    map[string]string `json:"names"` // login: full name
	IDs      map[string]string `json:"ids"`   // login: the LMS's user ID (Canvas)
}

// ReadJSON reads a roster.json that WriteJSON wrote.
func ReadJSON(path string) (File, error) {
	var f File
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%w: %s: %v", ErrRoster, path, err)
	}
	return f, nil
}

// WriteJSON writes dir/roster.json (mode 0644, replaced atomically).
func WriteJSON(dir string, students []Student, admins []string) error {
	f := File{Students: []string{}, Admins: slices.Clone(admins), Names: map[string]string{}, IDs: map[string]string{}}
	if f.Admins == nil {
		f.Admins = []string{}
	}
	for _, s := range students {
		f.Students = append(f.Students, s.Login)
		f.Names[s.Login] = s.Name
		if s.ID != "" {
			f.IDs[s.Login] = s.ID
		}
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(dir, ".roster.json.tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "roster.json"))
}
