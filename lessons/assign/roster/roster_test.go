package roster

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// canvasExport is a Canvas gradebook export as Grades > Export writes it:
// the five identity columns, an assignment column with its ID, read-only
// score columns, the "Points Possible" row (indented, as Canvas writes
// it) and the course's Test Student.
const canvasExport = `Student,ID,SIS User ID,SIS Login ID,Section,hw1_hyperplanes (1201),Current Score,Final Score
    Points Possible,,,,,10,(read only),(read only)
"Doe, Jane",5001,S123,jdoe,Section 1,8,80,80
"Roe, Richard",5002,S124,RRoe,Section 1,,,0
"Student, Test",5003,,,Section 1,,,
`

// moodleParticipants is Moodle's participants download with the
// Username and Email address identity fields, a teacher among the rows.
const moodleParticipants = "\ufeff" + `First name,Last name,Username,Email address,Roles,Groups,Last access to course
Jane,Doe,jdoe,jane.doe@uni.example,Student,,Never
Ann,Teacher,ateach,ann@uni.example,Teacher,,Now
Richard,Roe,,rroe@uni.example,Student,,Never
`

func logins(ss []Student) []string {
	var l []string
	for _, s := range ss {
		l = append(l, s.Login)
	}
	return l
}

func TestReadCanvasAndMoodle(t *testing.T) {
	for _, c := range []struct {
		name, csv, format string
		want              []string
	}{
		{"canvas", canvasExport, "canvas", []string{"jdoe", "rroe"}},
		{"moodle", moodleParticipants, "moodle", []string{"jdoe", "rroe"}},
		{"moodle grades", "First name,Last name,ID number,Institution,Department,Email address,Assignment: hw1 (Real)\nJane,Doe,77,,,jane.doe@uni.example,8.00\n", "moodle", []string{"jane.doe"}},
	} {
		format, ss, err := Read(strings.NewReader(c.csv), c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if format != c.format || !slices.Equal(logins(ss), c.want) {
			t.Errorf("%s: got %s %v, want %s %v", c.name, format, logins(ss), c.format, c.want)
		}
	}
	_, ss, _ := Read(strings.NewReader(canvasExport), "canvas")
	if ss[0].Name != "Doe, Jane" || ss[0].Row != 3 {
		t.Errorf("canvas: first student %+v, want Doe, Jane on row 3", ss[0])
	}
}

func TestReadRefuses(t *testing.T) {
	for _, c := range []struct{ name, csv, want string }{
		{"no login", "Student,ID,SIS User ID,SIS Login ID,Section\n\"Doe, Jane\",5001,,,S1\n", "row 2 (Doe, Jane): no SIS Login ID"},
		{"bad login", "Student,ID,SIS User ID,SIS Login ID,Section\nX,1,,root;rm,S1\n", `"root;rm" is not an account name`},
		{"twice", "Student,ID,SIS User ID,SIS Login ID,Section\nA,1,,ab,S1\nB,2,,AB,S1\n", `row 3 (B): the login "ab" is also row 2's`},
		{"unknown", "name,mail\nx,y\n", "neither Canvas's"},
		{"moodle without login", "First name,Last name,Roles\nA,B,Student\n", "needs a Username or an Email address"},
		{"empty", "", "is empty"},
		{"no student", "Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n", "has no student"},
	} {
		_, _, err := Read(strings.NewReader(c.csv), c.name)
		if !errors.Is(err, ErrRoster) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrRoster with %q", c.name, err, c.want)
		}
	}
}

func kinds(acts []Action) []string {
	var k []string
	for _, a := range acts {
		k = append(k, a.Kind+" "+a.Login)
	}
	return k
}

func TestPlan(t *testing.T) {
	students := []Student{{Login: "jdoe"}, {Login: "rroe"}, {Login: "back"}}
	private := func(l string) bool { return l != "rroe" }
	// A first run on an empty machine: the group, the admin, the students.
	got := kinds(Plan(students, []string{"teacher"}, "cls", DropLock, State{Accounts: map[string]Account{}}, private))
	want := []string{"group cls", "create teacher", "create jdoe", "create rroe", "create back"}
	if !slices.Equal(got, want) {
		t.Errorf("empty machine: %v, want %v", got, want)
	}
	// Later: jdoe done, rroe exists outside the group with a 0755 home,
	// back was locked when dropped and is back, gone dropped.
	st := State{GroupExists: true, Members: []string{"teacher", "jdoe", "gone"}, Accounts: map[string]Account{
		"teacher": {Exists: true, InGroup: true}, "jdoe": {Exists: true, InGroup: true},
		"rroe": {Exists: true}, "back": {Exists: true, Locked: true}, "gone": {Exists: true, InGroup: true},
	}}
	got = kinds(Plan(students, []string{"teacher"}, "cls", DropLock, st, private))
	want = []string{"join rroe", "home rroe", "join back", "unlock back", "lock gone"}
	if !slices.Equal(got, want) {
		t.Errorf("update: %v, want %v", got, want)
	}
	if got := kinds(Plan(students, []string{"teacher"}, "cls", DropDelete, st, private)); got[len(got)-1] != "delete gone" {
		t.Errorf("-drop delete: %v, want delete gone last", got)
	}
	if got := kinds(Plan(students, []string{"teacher"}, "cls", DropKeep, st, private)); slices.Contains(got, "lock gone") {
		t.Errorf("-drop keep: %v drops gone", got)
	}
	// Applied, the plan is empty (idempotent).
	done := State{GroupExists: true, Members: []string{"teacher", "jdoe", "rroe", "back"}, Accounts: map[string]Account{
		"teacher": {Exists: true, InGroup: true}, "jdoe": {Exists: true, InGroup: true},
		"rroe": {Exists: true, InGroup: true}, "back": {Exists: true, InGroup: true},
	}}
	if got := Plan(students, []string{"teacher"}, "cls", DropLock, done, func(string) bool { return true }); len(got) != 0 {
		t.Errorf("applied: %v, want nothing", kinds(got))
	}
}
