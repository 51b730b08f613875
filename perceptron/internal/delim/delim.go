// Package delim reads delimited text (comma- or whitespace-separated
// values, one record a line) as a stream. It is the one reader behind the
// perceptron package's ReadCSV, its embedded data sets and the command
// line, so that they accept and refuse the same files with the same
// errors. Its errors are *Error values that give the line, the column and
// the kind of the problem.
package delim

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of a parse error.
type Kind int

const (
	// Format: the text cannot be read as records: a line with another
	// number of fields, a value that is not a number, a line too long, a
	// compressed or binary file, a bad separator.
	Format Kind = iota
	// NonFinite: a value parses as NaN or ±Inf, or overflows to ±Inf.
	NonFinite
	// Label: a label is empty, a missing-value marker or NaN.
	Label
	// Empty: no record.
	Empty
)

// Error is a parse error: the 1-based line (0 when it is about no line),
// the 0-based column (-1 when it is about no one field), the kind and what
// is wrong.
type Error struct {
	Line, Column int
	Kind         Kind
	Msg          string
}

// Error returns "line L, column C: MSG", "line L: MSG" or "MSG".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column >= 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

func errorf(kind Kind, line, col int, format string, args ...any) *Error {
	return &Error{Line: line, Column: col, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// MaxLine is the longest line a Reader accepts.
const MaxLine = 16 << 20

// Record is one non-blank line split into fields.
type Record struct {
	Fields []string
	Line   int // 1-based
}

// Reader returns the non-blank lines of its input one at a time, split
// into fields. A UTF-8 byte order mark at the start is dropped, trailing
// spaces, tabs and carriage returns are ignored, so are spaces and tabs
// around a comma-separated field (other Unicode spaces are not
// separators: they stay in the field), a field wrapped in double
// quotes loses them (quoting is not otherwise supported: a quote opened
// and not closed in its field is an error, as is a carriage return inside
// a line, the line end of classic Mac OS). The separator is
// fixed by the first non-blank line unless given: ',' if that line holds a
// comma, else runs of spaces and tabs. A gzip-compressed input is
// decompressed; other compressed or binary inputs are errors that say so.
type Reader struct {
	sc *bufio.Scanner
	fr *failReader // the decompressed text of a gzip input, else nil
	// gzFailed: the error of Next was the gzip stream's (Damaged has
	// nothing to add).
	gzFailed bool
	comma    rune
	split    func(string) []string
	line     int
	bytes    int64
	gz       bool
	ahead    []Record
	err      error
}

// NewReader returns a Reader of r. comma 0 detects the separator; ' ' and
// '\t' mean runs of spaces and tabs; any other rune but '\n', '\r', '"' and
// utf8.RuneError is the separator.
func NewReader(r io.Reader, comma rune) (*Reader, error) {
	switch {
	case comma == '\n' || comma == '\r' || comma == '"' || comma == 0xFFFD || !utf8.ValidRune(comma):
		return nil, errorf(Format, 0, -1, "invalid separator %q", comma)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(10)
	var src io.Reader = br
	gz := false
	switch {
	case bytes.Equal(head, []byte{0x1f}):
		// The whole file is the first byte of gzip's magic number.
		return nil, errorf(Format, 0, -1, "the gzip stream is truncated (it ends inside its header): the file was cut short")
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		if len(head) > 3 && head[3]&0xe0 != 0 {
			// RFC 1952: a decompressor must refuse set reserved flag
			// bits (compress/gzip ignores them; gzip -t refuses).
			return nil, errorf(Format, 0, -1, "the gzip stream is corrupt: its header sets reserved flag bits (flags %#02x)", head[3])
		}
		z, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return nil, errorf(Format, 0, -1, "the gzip stream is truncated (it ends inside its header): the file was cut short")
			}
			return nil, errorf(Format, 0, -1, "the gzip stream is corrupt (its header cannot be read): %v", err)
		}
		z.Multistream(false)
		// What the gzip stream holds is sniffed as a file is: UTF-16
		// text or other compressed data inside it was called binary
		// for its first NUL byte (helper-70). A read error here (a
		// stream cut short) is left to the scan, which reports it, and
		// the head that came before it is not sniffed: "BZh9" of a
		// header "BZh9,b,y" cut after 4 bytes was bzip2 (helper-73).
		zb := bufio.NewReaderSize(&gzipMembers{z: z, br: br}, 64<<10)
		inner, err := zb.Peek(10)
		switch {
		case err != nil && err != io.EOF:
		case bytes.HasPrefix(inner, []byte{0x1f, 0x8b}):
			return nil, errorf(Format, 0, -1, "gzip-compressed data inside the gzip stream, not text: decompress it twice")
		default:
			if msg := sniffBinary(inner); msg != "" {
				return nil, errorf(Format, 0, -1, "the gzip stream holds %s", msg)
			}
		}
		src, gz = zb, true
	default:
		if msg := sniffBinary(head); msg != "" {
			return nil, errorf(Format, 0, -1, "%s", msg)
		}
	}
	var sc *bufio.Scanner
	var fr *failReader
	if !gz {
		sc = bufio.NewScanner(src)
	} else {
		// A truncated stream must not pass its cut last line off as a
		// line: the read error ends the scan before it.
		fr = &failReader{r: src}
		sc = bufio.NewScanner(fr)
		sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
			if atEOF && fr.err != nil && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
				return 0, nil, fr.err
			}
			return bufio.ScanLines(data, atEOF)
		})
	}
	// Room for a line of MaxLine bytes and its CR LF; Next refuses a
	// longer line that fits.
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine+2)
	return &Reader{sc: sc, fr: fr, comma: comma, gz: gz}, nil
}

// sniffBinary says what head, the first bytes of a file or of what its gzip
// stream holds, shows the data to be when it is not UTF-8 text that the
// reader can read, and "" otherwise.
func sniffBinary(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}), bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		// A UTF-16 (or UTF-32) byte order mark: text, but not UTF-8 (it
		// was called binary for its NUL bytes).
		return fmt.Sprintf("UTF-16 text (byte order mark % X), not UTF-8: save the file as UTF-8", head[:2])
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "a zip archive, not text: extract the file first"
	case isBzip2(head):
		return "bzip2-compressed data, not text: decompress it first (bunzip2)"
	case bytes.HasPrefix(head, []byte("\xfd7zXZ\x00")):
		return "xz-compressed data, not text: decompress it first (unxz)"
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd-compressed data, not text: decompress it first (unzstd)"
	}
	return ""
}

// isBzip2 reports whether head starts as a bzip2 stream does: "BZh", a block
// size '1' to '9', then the magic of a block ("1AY&SY") or of the end of an
// empty stream ("\x17rE8P\x90"), as far as head holds them. "BZh" alone is
// text: a header whose first column is named "BZh" or "BZhang" was refused
// as bzip2-compressed data (helper-70).
func isBzip2(head []byte) bool {
	if len(head) < 4 || !bytes.HasPrefix(head, []byte("BZh")) || head[3] < '1' || head[3] > '9' {
		return false
	}
	rest := head[4:min(len(head), 10)]
	return bytes.HasPrefix([]byte("1AY&SY"), rest) || bytes.HasPrefix([]byte("\x17rE8P\x90"), rest)
}

// gzipMembers reads the members of a gzip file one after the other, as
// gzip -d does (a file of concatenated .gz files is their concatenated
// text), and reports data after the last member that is not another
// member as a *trailingError (compress/gzip's multistream mode called it
// a truncated stream, or a bad header). NUL bytes there, the padding of
// some tape formats, are trailing data too.
type gzipMembers struct {
	z  *gzip.Reader
	br *bufio.Reader
}

// trailingError is data after the end of the gzip stream that is not a
// gzip member: n bytes (or more), starting head.
type trailingError struct {
	n    int
	head []byte
}

func (e *trailingError) Error() string {
	return fmt.Sprintf("%d bytes after the end of the gzip stream", e.n)
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.z.Read(p)
		if err != io.EOF {
			return n, err
		}
		// The end of a member: another member, the end of the file, or
		// trailing data.
		head, _ := g.br.Peek(2)
		switch {
		case len(head) == 0:
			return n, io.EOF
		case bytes.Equal(head, []byte{0x1f}):
			// The file ends after the first byte of another member.
			return n, io.ErrUnexpectedEOF
		case !bytes.Equal(head, []byte{0x1f, 0x8b}):
			rest, _ := g.br.Peek(64 << 10)
			return n, &trailingError{n: len(rest), head: append([]byte(nil), rest[:min(len(rest), 16)]...)}
		}
		if err := g.z.Reset(g.br); err != nil {
			return n, err
		}
		g.z.Multistream(false)
		if n > 0 {
			return n, nil
		}
		// An empty member: read on (a run of empty reads would stop the
		// scanner with io.ErrNoProgress).
	}
}

// failReader is r that keeps the first error other than io.EOF it returns.
type failReader struct {
	r   io.Reader
	err error
}

func (f *failReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && err != io.EOF && f.err == nil {
		f.err = err
	}
	return n, err
}

// Gzip reports whether the input was gzip-compressed.
func (r *Reader) Gzip() bool { return r.gz }

// Bytes returns the number of bytes of (decompressed) text read so far.
func (r *Reader) Bytes() int64 { return r.bytes }

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Next returns the next non-blank line; ok is false at the end of the
// input.
func (r *Reader) Next() (rec Record, ok bool, err error) {
	if len(r.ahead) > 0 {
		rec, r.ahead = r.ahead[0], r.ahead[1:]
		return rec, true, nil
	}
	if r.err != nil {
		return Record{}, false, r.err
	}
	for r.sc.Scan() {
		if r.line == math.MaxInt {
			// 2^31 − 1 lines on a 32-bit platform (386), where the count
			// wrapped and errors named line −2147483645.
			r.err = errorf(Format, r.line, -1, "more lines than an int counts on this platform")
			return Record{}, false, r.err
		}
		r.line++
		b := r.sc.Bytes()
		r.bytes += int64(len(b)) + 1
		if len(b) > MaxLine {
			r.err = errorf(Format, r.line, -1, "longer than %d bytes", MaxLine)
			return Record{}, false, r.err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			r.err = errorf(Format, r.line, -1, "a NUL byte: binary data, not text")
			return Record{}, false, r.err
		}
		s := string(b)
		if r.line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		s = strings.TrimRight(s, " \t\r")
		if strings.Trim(s, " \t") == "" {
			continue
		}
		if strings.IndexByte(s, '\r') >= 0 {
			// A lone CR ends a line only in classic Mac OS text: read as
			// LF lines, the whole file would be one line of nonsense.
			r.err = errorf(Format, r.line, -1, "a carriage return (CR) inside the line: the file's lines end in CR alone (classic Mac OS); save it with LF or CR LF line ends")
			return Record{}, false, r.err
		}
		if r.split == nil {
			r.split, r.comma = splitter(r.comma, s)
		}
		f := r.split(s)
		for i := range f {
			if strings.HasPrefix(f[i], `"`) && (len(f[i]) < 2 || !strings.HasSuffix(f[i], `"`)) {
				// A quote opened and not closed in its field: a separator
				// or a line break inside quotes.
				r.err = errorf(Format, r.line, i, "the quoted field %s… does not end in its field: a separator or a line break inside double quotes is not supported (only one pair of quotes around a whole field)", prefixRunes(f[i], 20))
				return Record{}, false, r.err
			}
			f[i] = Unquote(f[i])
		}
		return Record{Fields: f, Line: r.line}, true, nil
	}
	if err := r.sc.Err(); err != nil {
		switch {
		case errors.Is(err, bufio.ErrTooLong):
			r.err = errorf(Format, r.line+1, -1, "longer than %d bytes", MaxLine)
		case r.gz && gzipError(err) != "":
			r.err = errorf(Format, r.line+1, -1, "%s", gzipError(err))
			r.gzFailed = true
		default:
			r.err = fmt.Errorf("reading: %w", err)
		}
		return Record{}, false, r.err
	}
	return Record{}, false, nil
}

// DamagedReadMax is the most text Damaged reads to find a damaged gzip
// stream: 64 MiB, a fraction of a second.
const DamagedReadMax = 64 << 20

// gzipError describes err, a read error of a gzip stream, when it is the
// stream's fault (truncated, corrupt, trailing garbage), else "".
func gzipError(err error) string {
	var trailing *trailingError
	switch {
	case errors.As(err, &trailing):
		what := fmt.Sprintf("%d bytes that are", trailing.n)
		switch trailing.n {
		case 1:
			what = "1 byte that is"
		case 64 << 10:
			what = fmt.Sprintf("%d bytes or more that are", trailing.n)
		}
		return fmt.Sprintf("after the end of the gzip stream, %s not gzip data (starting %q): trailing garbage; the file is damaged or not one gzip file", what, trailing.head)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the gzip stream is truncated (the compressed data ends before its end mark): the file was cut short"
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || isFlateCorrupt(err):
		return fmt.Sprintf("the gzip stream is corrupt: %v", err)
	}
	return ""
}

// Damaged is for a caller that finds a line of a gzip input wrong (a
// value that is not a number, a missing label, a field too many): a
// corrupt stream decompresses to wrong text, and its checksum, at the end
// of the stream, is read only after. Damaged reads on, at most
// DamagedReadMax more bytes of text, and when the stream is truncated,
// corrupt or followed by garbage, returns that error (kind Format), which
// names the line's error beside it; otherwise (the stream is sound, or
// the input is not gzip, or longer than that: a pipe may never end) nil,
// and the line's error stands. The Reader is done after it.
func (r *Reader) Damaged(lineErr error) error {
	if r.fr == nil || r.gzFailed {
		return nil
	}
	if r.fr.err == nil {
		// The error, if any, is kept in r.fr.err.
		io.Copy(io.Discard, io.LimitReader(r.fr, DamagedReadMax))
	}
	msg := gzipError(r.fr.err)
	if msg == "" {
		if r.err == nil {
			r.err = lineErr // the text read past is gone
		}
		return nil
	}
	line, detail := r.line, lineErr.Error()
	var e *Error
	if errors.As(lineErr, &e) {
		if e.Line > 0 {
			line = e.Line
		}
		detail = e.Msg
	}
	r.err = errorf(Format, line, -1, "%s, and this line, decompressed from it, is not data: %s", msg, detail)
	r.gzFailed = true
	return r.err
}

// isFlateCorrupt reports whether err is a corrupt deflate stream.
func isFlateCorrupt(err error) bool {
	var c flate.CorruptInputError
	return errors.As(err, &c)
}

// Peek returns the next non-blank line without consuming it.
func (r *Reader) Peek() (Record, bool, error) {
	rec, ok, err := r.Next()
	if ok {
		r.ahead = append(r.ahead, rec)
	}
	return rec, ok, err
}

// Unread puts rec back: the next call of Next returns it.
func (r *Reader) Unread(rec Record) {
	r.ahead = append([]Record{rec}, r.ahead...)
}

// splitter returns the function that splits a line into fields, and the
// separator it splits by (' ' for runs of spaces and tabs).
func splitter(comma rune, first string) (func(string) []string, rune) {
	if comma == 0 {
		if strings.ContainsRune(first, ',') {
			comma = ','
		} else {
			comma = ' '
		}
	}
	// Spaces and tabs only: strings.Fields and strings.TrimSpace also take
	// a no-break space (U+00A0) or a vertical tab for one, which split
	// "1\u00a0002" into the two features 1 and 2.
	if comma == ' ' || comma == '\t' {
		return func(s string) []string { return strings.FieldsFunc(s, isBlank) }, ' '
	}
	sep := string(comma)
	return func(s string) []string {
		f := strings.Split(s, sep)
		for i := range f {
			f[i] = strings.Trim(f[i], " \t")
		}
		return f
	}, comma
}

// isBlank reports whether r separates fields in a line split by runs of
// spaces and tabs.
func isBlank(r rune) bool { return r == ' ' || r == '\t' }

// prefixRunes returns at most n runes of s.
func prefixRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// Unquote removes one pair of surrounding double quotes.
func Unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// Missing holds the usual spellings of a missing value.
var Missing = map[string]bool{"": true, "?": true, "NA": true, "N/A": true, "na": true, "n/a": true,
	"null": true, "NULL": true, "None": true, "-": true}

// IsNumber reports whether s parses as a float64 (NaN and ±Inf included),
// or is a NaN as C's printf writes it ("-nan", "+NaN"), which Float also
// takes for a NaN: a header test must see the numbers that Float sees.
func IsNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange) || isNaN(s)
}

// Float parses the value s of the given line and column: a finite number,
// else an error of kind Format (not a number) or NonFinite (NaN, ±Inf, or
// a value that overflows).
func Float(s string, line, col int) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, errorf(NonFinite, line, col, "%q overflows to %v", s, v)
	case err != nil && isNaN(s):
		return 0, errorf(NonFinite, line, col, "value is NaN") // "-nan", as C's printf writes it
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, errorf(Format, line, col, "cannot parse %q as a number", s)
	case math.IsNaN(v):
		return 0, errorf(NonFinite, line, col, "value is NaN")
	case math.IsInf(v, 0):
		return 0, errorf(NonFinite, line, col, "value is %v", v)
	}
	return v, nil
}

// Int parses the integer s of the given line and column.
func Int(s string, line, col int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, errorf(Format, line, col, "cannot parse %q as an integer", s)
	}
	return v, nil
}

// CheckLabel checks the label s of the given line and column: it is an error
// (kind Label) for it to be empty, a missing-value marker or NaN, which are
// no class.
func CheckLabel(s string, line, col int) error {
	if Missing[s] {
		if s == "" {
			return errorf(Label, line, col, "the label is empty")
		}
		return errorf(Label, line, col, "the label %q is a missing value", s)
	}
	if isNaN(s) {
		return errorf(Label, line, col, "the label %q is NaN, not a class", s)
	}
	if strings.TrimFunc(s, unicode.IsSpace) == "" {
		// Only quotes keep blanks in a field (" "): a blank label is as
		// missing as an empty one, and would print as a blank line.
		return errorf(Label, line, col, "the label %q is blank: a missing value, not a class", s)
	}
	return nil
}

// CheckLabel checks the label s of the given line and column as the
// package's CheckLabel does and, in a comma-separated input, refuses a
// label that holds a ';' or a tab after a number: "1,5;a" is a line of a
// ';'-separated file whose decimal comma made "1" the feature and "5;a"
// the label (two or more features of such a line are not numbers, and are
// refused as such; the label is the one field that a number-like split
// leaves unchecked). A label with a tab or a ';' elsewhere ("a\tb") is
// kept.
func (r *Reader) CheckLabel(s string, line, col int) error {
	if err := CheckLabel(s, line, col); err != nil {
		return err
	}
	if r.Comma() != ',' {
		return nil
	}
	i := strings.IndexAny(s, ";\t")
	if i <= 0 || !IsNumber(s[:i]) {
		return nil
	}
	sep, name := "';'", "semicolon"
	if s[i] == '\t' {
		sep, name = "tab", "tab"
	}
	return errorf(Format, line, col, "the label %q holds a %s after a number: the file may be %s-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points", s, name, sep)
}

// Comma returns the separator of the fields: ',' (or another rune given
// to NewReader), ' ' for runs of spaces and tabs, and 0 before the first
// non-blank line has been read when it is detected.
func (r *Reader) Comma() rune {
	return r.comma
}

// FieldCount returns the error of a line with n fields where want were
// expected (as on line ref).
func FieldCount(line, n, want, ref int) error {
	return errorf(Format, line, -1, "%d fields, expected %d (as on line %d)", n, want, ref)
}

// isNaN reports whether s spells NaN, signed or not, in any case.
func isNaN(s string) bool {
	return len(s) <= 4 && strings.EqualFold(strings.TrimLeft(s, "+-"), "nan")
}

// Errorf returns an *Error.
func Errorf(kind Kind, line, col int, format string, args ...any) error {
	return errorf(kind, line, col, format, args...)
}
