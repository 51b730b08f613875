package perceptron_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron"
)

// gzipped returns a gzip-compressed CSV of n rows.
func gzipped(t *testing.T, n int) []byte {
	t.Helper()
	var text strings.Builder
	text.WriteString("x1,x2,y\n")
	for i := range n {
		fmt.Fprintf(&text, "%d.%d,%d,%d\n", i, i*7%10, i%13, 1-2*(i%2))
	}
	return gzipText(t, text.String())
}

// gzipText returns text compressed as one gzip member.
func gzipText(t *testing.T, text string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGzipTruncated: a gzip file cut short is an ErrFormat *ParseError
// that says the gzip stream is truncated (and names the file), whether it
// is cut in the compressed data or in the header; a corrupt checksum is
// ErrFormat too. The whole file reads.
func TestGzipTruncated(t *testing.T) {
	full := gzipped(t, 2000)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	d, err := perceptron.ReadCSVFile(write("full.csv.gz", full), perceptron.CSVOptions{})
	if err != nil || d.N() != 2000 {
		t.Fatalf("the whole file: %v rows, %v", d, err)
	}
	// Members (cat a.gz b.gz) are their texts one after the other, as
	// gzip -d reads them: 3 rows after a header, 150 empty members, then 2
	// rows.
	two := gzipped(t, 3)
	for range 150 { // empty members (gzip < /dev/null), read on
		two = append(two, gzipText(t, "")...)
	}
	two = append(two, gzipText(t, "7.5,2,1\n8.5,3,-1\n")...)
	if d, err := perceptron.ReadCSV(bytes.NewReader(two), perceptron.CSVOptions{}); err != nil || d.N() != 5 || d.X.At(4, 0) != 8.5 {
		t.Errorf("two members: %v, %v; want 5 rows, the last 8.5, 3", d, err)
	}
	var more strings.Builder // a second member of 500 rows, no header
	for i := range 500 {
		fmt.Fprintf(&more, "%d,%d,%d\n", i, i%7, 1-2*(i%2))
	}
	rows := gzipText(t, more.String())
	bad := append([]byte(nil), full...)
	bad[len(bad)-5] ^= 0xff // the CRC-32 of the trailer
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"half.csv.gz", full[:len(full)/2], "gzip stream is truncated"},
		{"no-trailer.csv.gz", full[:len(full)-4], "gzip stream is truncated"},
		{"header.csv.gz", full[:5], "gzip stream is truncated"},
		{"checksum.csv.gz", bad, "gzip stream is corrupt"},
		// Data after the end of the stream that is not another member:
		// shorter than a gzip header (compress/gzip said "truncated"),
		// longer (it said "invalid header"), NUL padding.
		{"garbage.csv.gz", append(append([]byte(nil), full...), "garbage"...), "trailing garbage"},
		{"long-garbage.csv.gz", append(append([]byte(nil), full...), "garbage, garbage and more garbage"...), "trailing garbage"},
		{"zeros.csv.gz", append(append([]byte(nil), full...), make([]byte, 512)...), "trailing garbage"},
		// A second member cut short is a truncated stream.
		{"second-cut.csv.gz", append(append([]byte(nil), full...), rows[:len(rows)/2]...), "gzip stream is truncated"},
		{"second-one-byte.csv.gz", append(append([]byte(nil), full...), rows[:1]...), "gzip stream is truncated"},
		{"second-two-bytes.csv.gz", append(append([]byte(nil), full...), rows[:2]...), "gzip stream is truncated"},
		{"one-byte.csv.gz", full[:1], "gzip stream is truncated"},
		{"two-bytes.csv.gz", full[:2], "gzip stream is truncated"},
	} {
		path := write(c.name, c.data)
		_, err := perceptron.ReadCSVFile(path, perceptron.CSVOptions{})
		var pe *perceptron.ParseError
		if !errors.Is(err, perceptron.ErrFormat) || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: %v; want an ErrFormat *ParseError that names the file and says %q", c.name, err, c.want)
		}
		if _, err := perceptron.ReadCSV(bytes.NewReader(c.data), perceptron.CSVOptions{}); !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadCSV, %s: %v; want ErrFormat, %q", c.name, err, c.want)
		}
	}
}

// TestCorruptGzipBodyIsErrFormat: a flipped bit in the deflate data can
// decompress to wrong text that reads on until a line fails, before the
// checksum at the end of the stream is checked. That was reported as the
// line's error (helper-50: "line 2, column 1: the label "-" is a missing
// value", ErrLabel). A line that fails in a gzip input now has the rest of
// the stream read first: a damaged stream is ErrFormat, "corrupt" (or
// truncated), and names the line's error as what it caused. Every bit of
// every byte after the header is flipped in turn; each read is either
// the data unchanged (a bit that deflate does not use), or an ErrFormat
// error that calls the stream corrupt or truncated.
func TestCorruptGzipBodyIsErrFormat(t *testing.T) {
	text := "x,y\n" + strings.Repeat("1,a\n-1,b\n", 20)
	var buf bytes.Buffer
	z, err := gzip.NewWriterLevel(&buf, gzip.HuffmanOnly)
	if err != nil {
		t.Fatal(err)
	}
	z.Write([]byte(text))
	z.Close()
	gz := buf.Bytes()
	want, err := perceptron.ReadCSV(strings.NewReader(text), perceptron.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	flipped := 0
	for i := 10; i < len(gz); i++ {
		for bit := range 8 {
			bad := bytes.Clone(gz)
			bad[i] ^= 1 << bit
			d, err := perceptron.ReadCSV(bytes.NewReader(bad), perceptron.CSVOptions{})
			if err == nil {
				// Unused bits (the padding after the last deflate block)
				// change nothing: the same data, or the checksum fails.
				if !mat.Equal(d.X, want.X) || !slices.Equal(d.Y, want.Y) {
					t.Errorf("byte %d, bit %d flipped: other data with no error", i, bit)
				}
				continue
			}
			flipped++
			msg := err.Error()
			if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(msg, "gzip stream is") || errors.Is(err, perceptron.ErrLabel) {
				t.Errorf("byte %d, bit %d flipped: %v; want ErrFormat, a corrupt or truncated gzip stream", i, bit, err)
			}
		}
	}
	if flipped == 0 || want.N() != 40 {
		t.Fatalf("no flip tested (%d), or the data read wrong (%d rows)", flipped, want.N())
	}
	// helper-50's case, with the line's error named as what the damage did.
	bad := bytes.Clone(gz)
	bad[31] ^= 0x08
	_, err = perceptron.ReadCSV(bytes.NewReader(bad), perceptron.CSVOptions{})
	t.Logf("byte 31 ^ 0x08: %v", err)
	if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "the gzip stream is corrupt") {
		t.Errorf("byte 31 ^ 0x08: %v; want ErrFormat, a corrupt gzip stream", err)
	}
}

// TestDamagedReadIsBounded: a bad line in a gzip stream that never ends
// (a pipe from a program that goes on writing) is its own error after at
// most delim.DamagedReadMax bytes of text more, not a read forever
// (helper-52: predict of `yes | gzip` hung).
func TestDamagedReadIsBounded(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		z, _ := gzip.NewWriterLevel(pw, gzip.BestSpeed)
		z.Write([]byte("1,2,?\n"))
		line := []byte(strings.Repeat("1,2,a\n", 1000))
		for {
			if _, err := z.Write(line); err != nil {
				return
			}
		}
	}()
	defer pr.Close()
	_, err := perceptron.ReadCSV(pr, perceptron.CSVOptions{})
	if !errors.Is(err, perceptron.ErrLabel) || errors.Is(err, perceptron.ErrFormat) {
		t.Errorf("a missing label on line 1 of an endless gzip stream: %v; want its ErrLabel", err)
	}
}

// TestCorruptGzipWithFeatures: with Features chosen, a flipped bit that
// changes the first line's fields made them not fit (helper-51: "feature
// column 2 is the label column", ErrOption); a damaged stream is
// ErrFormat whatever the error it causes.
func TestCorruptGzipWithFeatures(t *testing.T) {
	text := "a,b,c,y\n" + strings.Repeat("1,2,3,p\n-1,-2,-3,n\n", 20)
	gz := gzipText(t, text)
	opt := perceptron.CSVOptions{Features: []int{0, 2}}
	want, err := perceptron.ReadCSV(strings.NewReader(text), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := 10; i < len(gz); i++ {
		for bit := range 8 {
			bad := bytes.Clone(gz)
			bad[i] ^= 1 << bit
			d, err := perceptron.ReadCSV(bytes.NewReader(bad), opt)
			switch {
			case err == nil && (!mat.Equal(d.X, want.X) || !slices.Equal(d.Y, want.Y)):
				t.Errorf("byte %d, bit %d flipped: other data with no error", i, bit)
			case err != nil && (!errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "gzip stream is")):
				t.Errorf("byte %d, bit %d flipped: %v; want ErrFormat, a corrupt or truncated gzip stream", i, bit, err)
			}
		}
	}
}

// TestGzipHoldsBinary: what a gzip stream holds is sniffed as a file is, so
// that a gzip-compressed UTF-16 CSV is said to be UTF-16 text, and gzip,
// bzip2, xz, zstd or zip data inside the stream is named (helper-70: all
// were "line 1: a NUL byte: binary data, not text", or an unparsable
// number). Each is an ErrFormat *ParseError; plain UTF-8 text with a byte
// order mark still reads.
func TestGzipHoldsBinary(t *testing.T) {
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "x1,y\n1,1\n2,-1\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	for _, c := range []struct {
		name, inner, msg string
	}{
		{"UTF-16 LE", string(utf16), "the gzip stream holds UTF-16 text (byte order mark FF FE)"},
		{"UTF-16 BE", "\xfe\xff\x00x\x001", "the gzip stream holds UTF-16 text (byte order mark FE FF)"},
		{"gzip", string(gzipText(t, "1,1\n2,-1\n")), "gzip-compressed data inside the gzip stream"},
		{"bzip2", "BZh91AY&SY", "the gzip stream holds bzip2-compressed data"},
		{"xz", "\xfd7zXZ\x00\x00", "the gzip stream holds xz-compressed data"},
		{"zstd", "\x28\xb5\x2f\xfd\x00\x00", "the gzip stream holds zstd-compressed data"},
		{"zip", "PK\x03\x04\x14\x00", "the gzip stream holds a zip archive"},
	} {
		_, err := perceptron.ReadCSV(bytes.NewReader(gzipText(t, c.inner)), perceptron.CSVOptions{})
		var pe *perceptron.ParseError
		if !errors.Is(err, perceptron.ErrFormat) || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s in gzip: %v; want an ErrFormat *ParseError saying %q", c.name, err, c.msg)
		}
	}
	d, err := perceptron.ReadCSV(bytes.NewReader(gzipText(t, "\ufeffx1,y\n1,1\n2,-1\n")), perceptron.CSVOptions{})
	if err != nil || d.N() != 2 || d.Features[0] != "x1" {
		t.Errorf("gzip of UTF-8 text with a byte order mark: %v, %v", d, err)
	}
}

// TestGzipTruncatedSniff: a gzip stream cut short is "truncated" at every
// cut point also where the text it holds starts as another format's magic
// would: a header whose first column is "BZh9" cut after those 4 bytes was
// "the gzip stream holds bzip2-compressed data" (the sniff read the head
// the cut stream gave, short of its 10 bytes, as a bzip2 stream's as far
// as it went, helper-73). The whole stream reads.
func TestGzipTruncatedSniff(t *testing.T) {
	for _, text := range []string{
		"BZh9,b,y\n1,2,1\n2,1,-1\n",
		"BZh11A,b,y\n1,2,1\n2,1,-1\n",
		"x1,x2,y\n1,2,1\n2,1,-1\n",
	} {
		full := gzipText(t, text)
		if d, err := perceptron.ReadCSV(bytes.NewReader(full), perceptron.CSVOptions{}); err != nil || d.N() != 2 {
			t.Errorf("%q whole: %v, %v; want 2 rows", text, d, err)
		}
		for cut := 1; cut < len(full); cut++ {
			_, err := perceptron.ReadCSV(bytes.NewReader(full[:cut]), perceptron.CSVOptions{})
			if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "gzip stream is truncated") {
				t.Errorf("%q cut after %d of %d bytes: %v; want ErrFormat, truncated", text, cut, len(full), err)
			}
		}
	}
}
