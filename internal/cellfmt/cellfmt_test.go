package cellfmt

import (
	"errors"
	"go/format"
	"strings"
	"testing"
)

// cell joins lines with newlines, so that tabs and spaces show in the table.
func cell(lines ...string) string { return strings.Join(lines, "\n") }

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"%% body is the body of main, not indented",
			cell("%%", "x:=1", "  if x>0 {", "fmt.Println( x )", "    }"),
			cell("%%", "x := 1", "if x > 0 {", "\tfmt.Println(x)", "}")},
		{"%main is %%",
			cell("%main", "for i:=0;i<3;i++{", "_=i}"),
			cell("%main", "for i := 0; i < 3; i++ {", "\t_ = i", "}")},
		{"declarations before %% format as a file",
			cell("import \"fmt\"", "func   add(a,b int) int {return a+b}", "%%", "fmt.Println(add(1,2))"),
			cell("import \"fmt\"", "", "func add(a, b int) int { return a + b }", "%%", "fmt.Println(add(1, 2))")},
		{"declarations only",
			cell("type point struct{", "x float64", "yy float64}", "", "", "", "func (p point) norm() float64 {", "return p.x*p.x+p.yy*p.yy", "}"),
			cell("type point struct {", "\tx  float64", "\tyy float64", "}", "", "func (p point) norm() float64 {", "\treturn p.x*p.x + p.yy*p.yy", "}")},
		{"magic and shell lines kept as they are",
			cell("%env  GOFLAGS  -mod=mod", "!echo   'a  b' \\", "   && ls", "import \"os\"", "%%", "!date  -u", "os.Exit( 0 )", "//gonb:%env A  b"),
			cell("%env  GOFLAGS  -mod=mod", "!echo   'a  b' \\", "   && ls", "import \"os\"", "%%", "!date  -u", "os.Exit(0)", "//gonb:%env A  b")},
		{"a cell magic's cell is not Go",
			cell("%%writefile  a.go", "package  a", "func F( ) {}"),
			cell("%%writefile  a.go", "package  a", "func F( ) {}")},
		{"a blank line before %% kept, one",
			cell("func f() {}", "", "", "%%", "", "f()"),
			cell("func f() {}", "", "%%", "f()")},
		{"%test cell",
			cell("%test", "func TestAdd(t *testing.T){", "if add(1,2)!=3{t.Fatal(\"1+2\")}", "}"),
			cell("%test", "func TestAdd(t *testing.T) {", "\tif add(1, 2) != 3 {", "\t\tt.Fatal(\"1+2\")", "\t}", "}")},
		{"a raw string's lines stay as they are",
			cell("%%", "s:=`a", "\tb", "c`", "if true {", "t := `x", "\ty`", "_=t}", "_=s"),
			cell("%%", "s := `a", "\tb", "c`", "if true {", "\tt := `x", "\ty`", "\t_ = t", "}", "_ = s")},
		{"comments kept",
			cell("// Package doc", "%%", "// the answer", "x:=42 // forty-two", "_=x"),
			cell("// Package doc", "%%", "// the answer", "x := 42 // forty-two", "_ = x")},
		{"a cell with a package clause formats as a file",
			cell("package main", "func main(){}"),
			cell("package main", "", "func main() {}")},
		{"empty cell", "", ""},
		{"magics only", cell("%reset", "!ls"), cell("%reset", "!ls")},
		{"trailing newline and blank lines dropped", "%%\n\nx:=1\n_=x\n\n", cell("%%", "x := 1", "_ = x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format(tc.in)
			if err != nil {
				t.Fatalf("Format(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Fatalf("Format(%q) =\n%s\nwant\n%s", tc.in, got, tc.want)
			}
			again, err := Format(got)
			if err != nil || again != got {
				t.Fatalf("Format is not idempotent: Format(%q) = %q, %v", got, again, err)
			}
		})
	}
}

// TestFormatAsGofmt checks a declarations-only cell against go/format on the
// same code as a file: the cell's format is gofmt's.
func TestFormatAsGofmt(t *testing.T) {
	code := "const (\na=1\nbcd=2 // two\n)\nvar m=map[string]int{\"a\":1,\n\"bb\":2,\n}\nfunc f(x int)(int,error){\nswitch{\ncase x>0: return x,nil\n}\nreturn 0,nil}"
	want, err := format.Source([]byte("package p\n\n" + code))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Format(code)
	if err != nil {
		t.Fatal(err)
	}
	if "package p\n\n"+got+"\n" != string(want) {
		t.Fatalf("Format =\n%s\ngofmt:\n%s", got, want)
	}
}

func TestFormatErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		kind     error
		line     string
	}{
		{"a statement without %%", cell("%env A 1", "x := 1"), ErrSyntax, "line 2:"},
		{"a body that does not parse", cell("import \"fmt\"", "%%", "fmt.Println(", "x := 1"), ErrSyntax, "line 4:"},
		{"a declaration that does not parse", cell("func f( {", "}", "%%", "f()"), ErrSyntax, "line 1:"},
		{"an unclosed brace", cell("%%", "if true {", "x := 1", ""), ErrSyntax, "line 3: the code ends too early"},
		{"an unclosed call", cell("%%", "fmt.Println(", "", ""), ErrSyntax, "line 2: the code ends too early"},
		{"an unclosed declaration", cell("func f() {", "%%", "f()"), ErrSyntax, "line 1: the code ends too early"},
		{"an indented magic is Go to GoNB", cell("import \"os\"", "  %env A 1", "%%", "os.Exit(0)"), ErrSyntax, "line 2:"},
		{"a magic line in a statement", cell("%%", "x := f(1,", "%env A 1", "2)", "y := 1"), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format(tc.in)
			if tc.kind == nil {
				// gofmt keeps the place holder on its line here: the cell
				// formats with the magic line where it was.
				if err != nil || !strings.Contains(got, "\n%env A 1\n") {
					t.Fatalf("Format(%q) = %q, %v", tc.in, got, err)
				}
				return
			}
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Format(%q): error %v, want %v", tc.in, err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.line) {
				t.Fatalf("Format(%q): error %q does not name %q", tc.in, err, tc.line)
			}
			if got != tc.in {
				t.Fatalf("Format(%q) changed the cell on an error: %q", tc.in, got)
			}
		})
	}
}
