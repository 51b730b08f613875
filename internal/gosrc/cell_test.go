package gosrc

import (
	"slices"
	"testing"
)

// TestReadCell checks the cell reading against GoNB v0.11.4's own rules
// (specialcmd.Parse, goexec's composer and cell magics), case by case.
func TestReadCell(t *testing.T) {
	tests := []struct {
		src     string
		special []int
		test    bool
		mainAt  int
		magic   string
	}{
		{"func f() {}", nil, false, -1, ""},
		{"%test\nfunc TestA(t *testing.T) {}", []int{0}, true, -1, ""},
		{"% test\nfunc TestA(t *testing.T) {}", []int{0}, true, -1, ""}, // GoNB skips the spaces after %
		{"!*go mod edit \\\n  -replace=a=b\nfunc f() {}", []int{0, 1}, false, -1, ""},
		{"//gonb:!echo a \\\n//gonb:b \\\nc\nfunc f() {}", []int{0, 1, 2}, false, -1, ""},
		{"//gonb:%test\nfunc TestA(t *testing.T) {}", []int{0}, true, -1, ""},
		{"func f() {}\n%%\nf()", []int{1}, false, 1, ""},
		{"func f() {}\n//gonb:%%\nf()", []int{1}, false, 1, ""},
		{"%main\nf()", []int{0}, false, 0, ""},
		{"func g() {}\n%exec g\nfunc h() {}", []int{1}, false, -1, ""}, // a whole main: h stays a declaration
		{"%env A b\n%% --flag\nf()", []int{0, 1}, false, 1, ""},
		{"%%\tx\nf()", []int{0}, false, 0, ""},
		{"%%x\nf()", []int{0}, false, -1, ""},        // not main: %% must end or be followed by a space or tab
		{"  %test\nfunc f() {}", nil, false, -1, ""}, // commands start a line
		{"%\nfunc f() {}", nil, false, -1, ""},       // one character is no command
		{"%testing\nfunc f() {}", []int{0}, false, -1, ""},
		{"%%writefile a.txt\nfunc f() {}\n%%", []int{0, 1, 2}, false, -1, "%%writefile"},
		{"//gonb:%%sh\necho %%", []int{0, 1}, false, -1, "%%sh"},
		{"func f() {}\n%%writefile a.txt", []int{1}, false, -1, ""}, // a cell magic only on the first line
	}
	for _, tc := range tests {
		c := ReadCell(tc.src)
		var special []int
		for i := range c.Lines {
			if c.Special[i] {
				special = append(special, i)
			}
		}
		if !slices.Equal(special, tc.special) || c.Test != tc.test || c.MainAt != tc.mainAt || c.Magic != tc.magic {
			t.Errorf("ReadCell(%q): special %v, test %v, main at %d, magic %q; want %v, %v, %d, %q",
				tc.src, special, c.Test, c.MainAt, c.Magic, tc.special, tc.test, tc.mainAt, tc.magic)
		}
	}
	// GoSource keeps the cell's line numbers: line L of the cell is line
	// L+1 of the file.
	c := ReadCell("package main\n// f doc\nfunc f() {}\n%env A b\n%%\nf()")
	if got, want := c.GoSource(), "package main\n\n// f doc\nfunc f() {}\n\n\n\n"; got != want {
		t.Errorf("GoSource = %q, want %q", got, want)
	}
	if got, want := c.Decls(), []string{"package main", "// f doc", "func f() {}"}; !slices.Equal(got, want) {
		t.Errorf("Decls = %q, want %q", got, want)
	}
	if got, want := c.Body(), []string{"f()"}; !slices.Equal(got, want) {
		t.Errorf("Body = %q, want %q", got, want)
	}
	if got := ReadCell("func f() {}").Body(); got != nil {
		t.Errorf("Body of a cell without %%%% = %q, want none", got)
	}
}
