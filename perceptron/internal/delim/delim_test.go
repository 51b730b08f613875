package delim

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// records reads every record of text.
func records(t *testing.T, text string, comma rune) ([]Record, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(text), comma)
	if err != nil {
		return nil, err
	}
	var out []Record
	for {
		rec, ok, err := r.Next()
		if err != nil {
			return out, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, rec)
	}
}

func TestReader(t *testing.T) {
	for _, c := range []struct {
		name  string
		text  string
		comma rune
		want  []Record
	}{
		{"commas, BOM, CRLF, blank lines", "\ufeffa, b ,c\r\n\r\n1,2,3\r\n", 0,
			[]Record{{[]string{"a", "b", "c"}, 1}, {[]string{"1", "2", "3"}, 3}}},
		{"blanks and tabs", "  1 \t 2   3  \n\n4 5 6", 0,
			[]Record{{[]string{"1", "2", "3"}, 1}, {[]string{"4", "5", "6"}, 3}}},
		{"quotes lost", `"1" "2" 1` + "\n", 0, []Record{{[]string{"1", "2", "1"}, 1}}},
		{"semicolons", "1;2;x\n", ';', []Record{{[]string{"1", "2", "x"}, 1}}},
		{"separator fixed by line 1", "1 2 3\n4,5 6\n", 0,
			[]Record{{[]string{"1", "2", "3"}, 1}, {[]string{"4,5", "6"}, 2}}},
		{"empty fields kept", "1,,3\n", 0, []Record{{[]string{"1", "", "3"}, 1}}},
	} {
		got, err := records(t, c.text, c.comma)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func TestReaderGzip(t *testing.T) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte("1,2\n3,4\n"))
	z.Close()
	r, err := NewReader(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok, err := r.Next()
	if !ok || err != nil || !reflect.DeepEqual(rec.Fields, []string{"1", "2"}) || !r.Gzip() {
		t.Errorf("gzip: %v, %v, %v, gzip %v", rec, ok, err, r.Gzip())
	}
	// A truncated gzip stream is an error, not a short file.
	b.Reset()
	z2 := gzip.NewWriter(&b)
	z2.Write([]byte(strings.Repeat("1,2\n", 1000)))
	z2.Close()
	trunc := b.Bytes()[:len(b.Bytes())-20]
	if _, err := records(t, string(trunc), 0); err == nil {
		t.Error("truncated gzip: no error")
	}
}

func TestReaderErrors(t *testing.T) {
	long := strings.Repeat("1", MaxLine+1)
	for _, c := range []struct {
		name       string
		text       string
		kind       Kind
		line, col  int
		msgContain string
	}{
		{"zip", "PK\x03\x04...", Format, 0, -1, "zip archive"},
		{"bzip2", "BZh91AY", Format, 0, -1, "bzip2"},
		{"xz", "\xfd7zXZ\x00...", Format, 0, -1, "xz"},
		{"zstd", "\x28\xb5\x2f\xfd...", Format, 0, -1, "zstd"},
		{"NUL", "1,2\n1,\x00\n", Format, 2, -1, "binary"},
		// UTF-16 files (Windows' "Unicode" text) were "binary data" for
		// their NUL bytes; their byte order mark says what they are.
		{"UTF-16LE", "\xff\xfex\x00,\x00y\x00\n\x00", Format, 0, -1, "UTF-16 text (byte order mark FF FE)"},
		{"UTF-16BE", "\xfe\xff\x00x\x00,\x00y\x00\n", Format, 0, -1, "UTF-16 text (byte order mark FE FF)"},
		{"too long", "1,2\n" + long + "\n", Format, 2, -1, "longer than"},
		// Lines ended by CR alone (classic Mac OS) read as one line: the
		// error says why, on that line (it said: cannot parse "a\r3").
		{"CR line ends", "1,2,a\r3,4,b\r5,6,a\r", Format, 1, -1, "carriage return"},
		{"CR inside a later line", "1,2,a\n3,4\r,b\n", Format, 2, -1, "carriage return"},
		// A quote opened and not closed in its field: a separator or a
		// line break inside quotes, named on its line and column (the
		// field count of the next line was blamed).
		{"quoted line break", "1,2,\"a\nb\"\n3,4,c\n", Format, 1, 2, "quoted field \"a"},
		{"quoted comma", "1,2,\"a,b\"\n3,4,c\n", Format, 1, 2, "quoted field \"a"},
		{"quoted space", "1 2 \"a b\"\n3 4 c\n", Format, 1, 2, "quoted field \"a"},
		{"lone quote", "1,2,a\n3,\",b\n", Format, 2, 1, "quoted field \""},
	} {
		_, err := records(t, c.text, 0)
		var e *Error
		if !errors.As(err, &e) || e.Kind != c.kind || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.msgContain) {
			t.Errorf("%s: %v; want kind %d at line %d, column %d, saying %q", c.name, err, c.kind, c.line, c.col, c.msgContain)
		}
	}
}

func TestFloatAndLabel(t *testing.T) {
	for _, c := range []struct {
		s    string
		kind Kind
		ok   bool
	}{
		{"1.5", 0, true}, {"-0", 0, true}, {"1e-320", 0, true},
		{"abc", Format, false}, {"?", Format, false}, {"", Format, false},
		{"NaN", NonFinite, false}, {"-nan", NonFinite, false}, {"inf", NonFinite, false}, {"1e400", NonFinite, false},
	} {
		_, err := Float(c.s, 3, 1)
		var e *Error
		switch {
		case c.ok && err != nil:
			t.Errorf("Float(%q): %v", c.s, err)
		case !c.ok && (!errors.As(err, &e) || e.Kind != c.kind || e.Line != 3 || e.Column != 1):
			t.Errorf("Float(%q): %v; want kind %d at line 3, column 1", c.s, err, c.kind)
		}
	}
	for _, s := range []string{"", "?", "NA", "null", "NaN", "nan", "+NaN", "-nan"} {
		var e *Error
		if err := CheckLabel(s, 2, 4); !errors.As(err, &e) || e.Kind != Label {
			t.Errorf("CheckLabel(%q): %v, want a Label error", s, err)
		}
	}
	for _, s := range []string{"1", "-1", "setosa", "nancy", "0"} {
		if err := CheckLabel(s, 2, 4); err != nil {
			t.Errorf("CheckLabel(%q): %v", s, err)
		}
	}
}

// TestMaxLineIsTheLongestLine: a line of exactly MaxLine bytes is read,
// with an LF or a CR LF after it, and the error for one byte more says
// "longer than MaxLine bytes" on its line. A line of MaxLine bytes was
// refused as "longer than 16777216 bytes", which it was not.
func TestMaxLineIsTheLongestLine(t *testing.T) {
	field := strings.Repeat("0", MaxLine-3) + "1"
	for _, end := range []string{"\n", "\r\n", ""} {
		text := "1,2\n" + field + ",3" + end
		if len(field)+2 != MaxLine {
			t.Fatal("the line is not MaxLine bytes")
		}
		recs, err := records(t, text, 0)
		if err != nil || len(recs) != 2 || recs[1].Fields[0] != field || recs[1].Fields[1] != "3" {
			t.Errorf("a line of MaxLine bytes ended by %q: %d records, %v", end, len(recs), err)
		}
		_, err = records(t, "1,2\n"+field+",34"+end, 0)
		var e *Error
		if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(err.Error(), fmt.Sprintf("longer than %d bytes", MaxLine)) {
			t.Errorf("a line of MaxLine + 1 bytes ended by %q: %v, want line 2 longer than MaxLine", end, err)
		}
	}
	for _, comma := range []rune{-1, 0xD800, 0x110000} {
		if _, err := NewReader(strings.NewReader("1\ufffd2\n"), comma); err == nil {
			t.Errorf("separator %d (not a rune, written as U+FFFD): no error", comma)
		}
	}
}

// TestOnlySpacesAndTabsSeparate: runs of spaces and tabs separate fields,
// and spaces and tabs around a comma-separated field are dropped; other
// Unicode spaces (a no-break space, a vertical tab) are not separators
// and stay in the field, where they make it no number. strings.Fields split
// "1\u00a0002 1" into three fields, 1, 002 and 1, shifting the columns.
func TestOnlySpacesAndTabsSeparate(t *testing.T) {
	for _, c := range []struct {
		text  string
		comma rune
		want  []string
	}{
		{"1\u00a0002 1\n", 0, []string{"1\u00a0002", "1"}},
		{"1\v2\t 3\n", ' ', []string{"1\v2", "3"}},
		{" 1 ,\t2\u00a0, 3\n", 0, []string{"1", "2\u00a0", "3"}},
		{"1\u2003,2\n", ',', []string{"1\u2003", "2"}},
	} {
		recs, err := records(t, c.text, c.comma)
		if err != nil || len(recs) != 1 || !reflect.DeepEqual(recs[0].Fields, c.want) {
			t.Errorf("%q: %v, %v; want one record %q", c.text, recs, err, c.want)
		}
	}
}

// TestLineCountDoesNotWrap: a Reader that has counted the largest int of
// lines stops with a Format error that says so, instead of counting on:
// on 386 the count wrapped after 2^31 − 1 blank lines (2 MB of gzip) and
// errors named line −2147483645. The count is set by hand here.
func TestLineCountDoesNotWrap(t *testing.T) {
	r, err := NewReader(strings.NewReader("1,2\n3,4\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	r.line = math.MaxInt - 1
	if _, ok, err := r.Next(); !ok || err != nil || r.Line() != math.MaxInt {
		t.Fatalf("line %d: ok %v, %v; want the record at line %d", r.Line(), ok, err, math.MaxInt)
	}
	var e *Error
	if _, _, err := r.Next(); !errors.As(err, &e) || e.Kind != Format || !strings.Contains(err.Error(), "more lines than an int counts") || r.Line() != math.MaxInt {
		t.Errorf("the line after line %d: %v (line %d), want a Format error that says why", math.MaxInt, err, r.Line())
	}
}

// TestBlankLabel: a quoted label of only spaces (`" "`) was accepted as a
// class and printed as a blank line; it is as missing as an empty label,
// an error of kind Label that names the line and the column.
func TestBlankLabel(t *testing.T) {
	recs, err := records(t, "1,2,\" \"\n2,1,b\n", 0)
	if err != nil || len(recs) != 2 {
		t.Fatalf("records: %v, %v", recs, err)
	}
	for _, s := range []string{" ", "\t", "  \u00a0"} {
		err := CheckLabel(s, 1, 2)
		var e *Error
		want := fmt.Sprintf("line 1, column 2: the label %q is blank: a missing value, not a class", s)
		if !errors.As(err, &e) || e.Kind != Label || err.Error() != want {
			t.Errorf("CheckLabel(%q): %v; want a Label error %q", s, err, want)
		}
	}
	if err := CheckLabel(" a ", 1, 2); err != nil {
		t.Errorf("CheckLabel(\" a \"): %v", err)
	}
}

// TestLabelOfDecimalCommas: "1,5;a" and "1,5\ta", lines of a ';'- or
// tab-separated file with a decimal comma and one feature, were read as
// comma-separated with the labels "5;a" and "5\ta". The Reader's
// CheckLabel refuses such a label in a comma-separated input, naming the
// line and the column; a ';' or a tab that does not follow a number, or
// in a file that is not comma-separated, is kept.
func TestLabelOfDecimalCommas(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1,5;a\n2,5;b\n", `line 1, column 1: the label "5;a" holds a semicolon after a number: the file may be ';'-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points`},
		{"1,5\ta\n2,5\tb\n", `line 1, column 1: the label "5\ta" holds a tab after a number: the file may be tab-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points`},
		{"1,2,a\tb\n", ""}, {"1,2,a;b\n", ""}, {"1 5;a\n", ""},
	} {
		r, err := NewReader(strings.NewReader(c.text), 0)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		col := len(rec.Fields) - 1
		err = r.CheckLabel(rec.Fields[col], rec.Line, col)
		var e *Error
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v; want no error", c.text, err)
		case c.want != "" && (!errors.As(err, &e) || e.Kind != Format || err.Error() != c.want):
			t.Errorf("%q: %v; want a Format error %q", c.text, err, c.want)
		}
	}
}

// TestNumberIsExact: labels are one class when their exact values are
// equal. As float64, 2^53 and 2^53 + 1, 0.1 and 0.10000000000000000001,
// 1e-400 and 0 were one class each.
func TestNumberIsExact(t *testing.T) {
	num := func(s string) Number {
		n, ok := ParseNumber(s)
		if !ok {
			t.Fatalf("ParseNumber(%q): not a number", s)
		}
		return n
	}
	for _, c := range []struct {
		a, b string
		cmp  int
	}{
		{"9007199254740992", "9007199254740993", -1}, {"0.1", "0.10000000000000000001", -1},
		{"1e-400", "0", 1}, {"-1e-400", "0", -1}, {"1", "1.0", 0}, {"1", "+1", 0}, {"1", "1e0", 0},
		{"10", "1e1", 0}, {"-0", "0", 0}, {"0.0", "-0e5", 0}, {"0x1p-1", "0.5", 0}, {"0x1.8p1", "3", 0},
		{"1_0", "10", 0}, {".5", "5e-1", 0}, {"12", "123", -1}, {"-12", "-123", 1}, {"-2", "1", -1},
		{"99", "100", -1}, {"0.001", "0.01", -1},
	} {
		if got := num(c.a).Cmp(num(c.b)); got != c.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.cmp)
		}
		if got := num(c.b).Cmp(num(c.a)); got != -c.cmp {
			t.Errorf("Cmp(%s, %s) = %d, want %d", c.b, c.a, got, -c.cmp)
		}
		if (num(c.a).Key() == num(c.b).Key()) != (c.cmp == 0) {
			t.Errorf("Key(%s) = %s, Key(%s) = %s", c.a, num(c.a).Key(), c.b, num(c.b).Key())
		}
		if SameLabel(c.a, c.b) != (c.cmp == 0) {
			t.Errorf("SameLabel(%s, %s) = %v", c.a, c.b, !(c.cmp == 0))
		}
	}
	for _, s := range []string{"inf", "NaN", "1e400", "abc", "", "1e-99999999999999999999"} {
		if _, ok := ParseNumber(s); ok {
			t.Errorf("ParseNumber(%q): a number", s)
		}
	}
	for _, c := range []struct {
		s  string
		k  int
		ok bool
	}{{"0", 0, true}, {"2", 2, true}, {"2.0", 2, true}, {"1e1", 10, true}, {"3", 0, false}, {"-1", 0, false}, {"1.5", 0, false}, {"1e30", 0, false}} {
		k, ok := num(c.s).Int(3)
		if c.s == "1e1" {
			k, ok = num(c.s).Int(11)
		}
		if k != c.k || ok != c.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", c.s, k, ok, c.k, c.ok)
		}
	}
}

// TestGzipHeaderDamage: a gzip header with reserved flag bits set (RFC
// 1952 asks a decompressor to refuse it; compress/gzip reads on, gzip -t
// refuses) or a wrong compression method is a corrupt stream, said so;
// one byte of trailing garbage is "1 byte that is" (helper-61).
func TestGzipHeaderDamage(t *testing.T) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte("1,2,a\n2,1,b\n"))
	z.Close()
	good := b.Bytes()
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		msg  string
	}{
		{"reserved flags", func(g []byte) []byte { g[3] |= 0xe0; return g }, "the gzip stream is corrupt: its header sets reserved flag bits (flags 0xe0)"},
		{"method 7", func(g []byte) []byte { g[2] = 7; return g }, "the gzip stream is corrupt (its header cannot be read)"},
		{"a byte after the end", func(g []byte) []byte { return append(g, 'x') }, "1 byte that is not gzip data"},
		{"two bytes after the end", func(g []byte) []byte { return append(g, 'x', 'y') }, "2 bytes that are not gzip data"},
	} {
		_, err := records(t, string(c.edit(bytes.Clone(good))), 0)
		var e *Error
		if !errors.As(err, &e) || e.Kind != Format || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v; want a Format error saying %q", c.name, err, c.msg)
		}
	}
}
