// Package roster keeps the class server's accounts in step with the
// course's roster as the LMS exports it: Canvas's gradebook export
// (Grades > Export: Student, ID, SIS User ID, SIS Login ID, Section, ...,
// with a "Points Possible" row) and Moodle's participants download
// (Participants > Download table data as CSV: First name, Last name, the
// identity fields such as Username, Email address or ID number, Roles,
// Groups, ...) or its gradebook export (the same names and identity
// fields). Each student's login is Canvas's SIS Login ID, or Moodle's
// Username, else the local part of their email address.
//
// Plan compares the roster with the machine (a Unix group holds the class)
// and returns what to do; Apply does it with useradd, usermod, gpasswd and
// chpasswd, and writes roster.json, which the shipped JupyterHub
// configuration reads as its allow list and admins. Running it twice does
// nothing the second time.
package roster

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Student is one row of a roster.
type Student struct {
	Login string // the account name on the server
	Name  string // the full name, as the LMS writes it
	ID    string // the LMS's user ID (Canvas's ID column), "" if the roster has none
	Row   int    // the row of the CSV file (1 is the header)
}

// ErrRoster is the error kind of a roster that cannot be read.
var ErrRoster = errors.New("roster: bad roster CSV")

// validLogin is an account name useradd accepts on Debian and most
// distributions: lower case, a letter or underscore first, at most 32.
var validLogin = regexp.MustCompile(`^[a-z_][a-z0-9_.-]{0,31}$`)

// Read reads a Canvas or Moodle roster CSV (the format is told by its
// header) and returns its students in file order. A row whose login
// cannot be found or is not a valid account name is an error naming the
// row; so is a login given twice. Canvas's "Points Possible" row and its
// "Test Student" are skipped, and so are Moodle participants whose role
// (a Roles column) is not a student's.
func Read(r io.Reader, name string) (format string, students []Student, err error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return "", nil, fmt.Errorf("%w: %s: %v", ErrRoster, name, err)
	}
	if len(rows) == 0 {
		return "", nil, fmt.Errorf("%w: %s is empty", ErrRoster, name)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) // Excel's byte-order mark
		if _, dup := col[strings.ToLower(h)]; !dup {
			col[strings.ToLower(h)] = i
		}
	}
	get := func(r []string, h string) string {
		i, ok := col[h]
		if !ok || i >= len(r) {
			return ""
		}
		return strings.TrimSpace(r[i])
	}
	_, hasStudent := col["student"]
	_, hasSISLogin := col["sis login id"]
	_, hasFirst := col["first name"]
	_, hasLast := col["last name"]
	switch {
	case hasStudent && hasSISLogin:
		format = "canvas"
	case hasFirst && hasLast:
		format = "moodle"
		_, u := col["username"]
		_, e := col["email address"]
		if !u && !e {
			return "", nil, fmt.Errorf("%w: %s: a Moodle roster needs a Username or an Email address column to name the accounts (add it to the download: Site administration > Users > Permissions > User policies > Show user identity)", ErrRoster, name)
		}
	default:
		return "", nil, fmt.Errorf("%w: %s: the header %q is neither Canvas's gradebook export (Student, ID, SIS User ID, SIS Login ID, ...) nor Moodle's participants or grades download (First name, Last name, Email address, ...)", ErrRoster, name, strings.Join(rows[0], ","))
	}
	seen := map[string]int{}
	var problems []string
	for i, r := range rows[1:] {
		row := i + 2
		if len(r) == 1 && strings.TrimSpace(r[0]) == "" {
			continue
		}
		var s Student
		switch format {
		case "canvas":
			s.Name = get(r, "student")
			if strings.TrimSpace(s.Name) == "Points Possible" || s.Name == "Student, Test" || s.Name == "Test Student" {
				continue
			}
			s.Login = get(r, "sis login id")
			s.ID = get(r, "id")
			if s.Login == "" {
				problems = append(problems, fmt.Sprintf("row %d (%s): no SIS Login ID", row, s.Name))
				continue
			}
		case "moodle":
			if roles := get(r, "roles"); roles != "" && !strings.Contains(strings.ToLower(roles), "student") {
				continue
			}
			s.Name = strings.TrimSpace(get(r, "first name") + " " + get(r, "last name"))
			s.Login = get(r, "username")
			if s.Login == "" {
				email := get(r, "email address")
				at := strings.LastIndexByte(email, '@')
				if at <= 0 {
					problems = append(problems, fmt.Sprintf("row %d (%s): no Username and no email address %q to take one from", row, s.Name, email))
					continue
				}
				s.Login = email[:at]
			}
		}
		s.Login = strings.ToLower(s.Login)
		s.Row = row
		if !validLogin.MatchString(s.Login) {
			problems = append(problems, fmt.Sprintf("row %d (%s): %q is not an account name (lower-case letters, digits, '_', '.', '-', a letter first, at most 32)", row, s.Name, s.Login))
			continue
		}
		if first, dup := seen[s.Login]; dup {
			problems = append(problems, fmt.Sprintf("row %d (%s): the login %q is also row %d's", row, s.Name, s.Login, first))
			continue
		}
		seen[s.Login] = row
		students = append(students, s)
	}
	if len(problems) > 0 {
		return format, nil, fmt.Errorf("%w: %s:\n  %s", ErrRoster, name, strings.Join(problems, "\n  "))
	}
	if len(students) == 0 {
		return format, nil, fmt.Errorf("%w: %s has no student", ErrRoster, name)
	}
	return format, students, nil
}

// Account is what the machine knows of an account.
type Account struct {
	Exists  bool
	Locked  bool // its password is locked or the account expired
	InGroup bool // a member of the class's group
}

// State is the machine's accounts, as Plan needs them: the class group's
// members and each account asked about.
type State struct {
	GroupExists bool
	Members     []string // the class group's members
	Accounts    map[string]Account
}

// Action is one step of a plan.
type Action struct {
	Kind  string // "group", "create", "join", "unlock", "home", "lock", "delete"
	Login string
	Name  string
	Admin bool
}

func (a Action) String() string {
	who := a.Login
	if a.Name != "" {
		who += " (" + a.Name + ")"
	}
	role := "student"
	if a.Admin {
		role = "admin"
	}
	switch a.Kind {
	case "group":
		return "create the group " + a.Login
	case "create":
		return "create the " + role + " account " + who
	case "join":
		return "add " + who + " to the class group"
	case "unlock":
		return "unlock " + who + " (back on the roster)"
	case "home":
		return "make the home of " + who + " private (0700)"
	case "lock":
		return "lock " + who + " (dropped: not on the roster; their files stay) and take them out of the class group"
	case "delete":
		return "delete " + who + " and their home (dropped: not on the roster)"
	}
	return a.Kind + " " + who
}

// Drop is what happens to a class member who is no longer on the roster.
type Drop string

const (
	DropLock   Drop = "lock"   // lock the account and keep the home
	DropDelete Drop = "delete" // delete the account and its home
	DropKeep   Drop = "keep"   // leave it as it is (it still may not log in: roster.json leaves it out)
)

// Plan returns the actions that bring the machine (st) to the roster:
// the class group, an account in it for each student and admin (unlocked,
// its home private), and each member no longer on the roster dropped.
// privateHome says whether a login's home is already 0700.
func Plan(students []Student, admins []string, group string, drop Drop, st State, privateHome func(login string) bool) []Action {
	var acts []Action
	if !st.GroupExists {
		acts = append(acts, Action{Kind: "group", Login: group})
	}
	want := map[string]bool{}
	add := func(login, name string, admin bool) {
		if want[login] {
			return
		}
		want[login] = true
		a := st.Accounts[login]
		if !a.Exists {
			acts = append(acts, Action{Kind: "create", Login: login, Name: name, Admin: admin})
			return
		}
		if !a.InGroup {
			acts = append(acts, Action{Kind: "join", Login: login, Name: name, Admin: admin})
		}
		if a.Locked {
			acts = append(acts, Action{Kind: "unlock", Login: login, Name: name, Admin: admin})
		}
		if !privateHome(login) {
			acts = append(acts, Action{Kind: "home", Login: login, Name: name, Admin: admin})
		}
	}
	for _, a := range admins {
		add(a, "", true)
	}
	for _, s := range students {
		add(s.Login, s.Name, false)
	}
	members := slices.Clone(st.Members)
	slices.Sort(members)
	for _, m := range members {
		if want[m] || drop == DropKeep {
			continue
		}
		switch drop {
		case DropDelete:
			acts = append(acts, Action{Kind: "delete", Login: m})
		default:
			acts = append(acts, Action{Kind: "lock", Login: m})
		}
	}
	return acts
}

// CheckLogin returns an error unless login is an account name Read accepts.
func CheckLogin(login string) error {
	if !validLogin.MatchString(login) {
		return fmt.Errorf("%q is not an account name (lower-case letters, digits, '_', '.', '-', a letter first, at most 32)", login)
	}
	return nil
}
