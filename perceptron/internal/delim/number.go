package delim

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Number is the exact value of a label spelled as a finite number. Labels
// are one class when their values are equal, so they are compared exactly,
// not as float64: "9007199254740992" and "9007199254740993" (2^53 and
// 2^53 + 1), "0.1" and "0.10000000000000000001", "1e-400" and "0" are
// each two classes, which float64 would merge into one, while "1", "1.0",
// "+1" and "1e0" are one. The value is ±0.Digits × 10^Exp, Digits without
// leading or trailing zeros ("" for zero, whose sign is dropped: "-0" is
// "0").
type Number struct {
	neg    bool
	digits string
	exp    int64
}

// maxExp bounds the decimal exponent of a Number, far beyond any float64
// (whose finite values lie within 10^±325): a label such as
// "1e-99999999999999999999", which ParseFloat reads as 0, is a name rather
// than a number whose exponent overflows. maxHexShift bounds the binary
// exponent of a hexadecimal label converted to decimal (the conversion
// takes one decimal digit per bit below the point).
const (
	maxExp      = 1 << 50
	maxHexShift = 1 << 14
)

// ParseNumber returns the exact value of s when s parses as a finite
// float64 (strconv.ParseFloat's syntax: decimal or hexadecimal, with an
// exponent, underscores between digits; values too small for a float64
// included), and false for anything else: NaN, ±Inf, a value that
// overflows, and the absurd exponents that maxExp and maxHexShift bound.
func ParseNumber(s string) (Number, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return Number{}, false
	}
	t := strings.ReplaceAll(s, "_", "")
	var n Number
	switch {
	case strings.HasPrefix(t, "-"):
		n.neg, t = true, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		return parseHex(n.neg, t[2:])
	}
	mant, expStr, _ := strings.Cut(strings.ToLower(t), "e")
	var exp int64
	if expStr != "" {
		e, err := strconv.ParseInt(expStr, 10, 64)
		if err != nil || e > maxExp || e < -maxExp {
			return Number{}, false
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	return n.set(intPart+frac, exp+int64(len(intPart)))
}

// set sets n to ±0.digits × 10^exp, trimming the zeros.
func (n Number) set(digits string, exp int64) (Number, bool) {
	trimmed := strings.TrimLeft(digits, "0")
	exp -= int64(len(digits) - len(trimmed))
	n.digits = strings.TrimRight(trimmed, "0")
	n.exp = exp
	if n.digits == "" {
		return Number{}, true
	}
	return n, true
}

// parseHex converts the hexadecimal mantissa and binary exponent of a
// ParseFloat number ("1.8p1", its "0x" and sign removed) to decimal.
func parseHex(neg bool, t string) (Number, bool) {
	mant, expStr, _ := strings.Cut(strings.ToLower(t), "p")
	e2, err := strconv.ParseInt(expStr, 10, 64)
	if err != nil {
		return Number{}, false
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	m, ok := new(big.Int).SetString(intPart+frac, 16)
	if !ok {
		m = new(big.Int) // "0x.p0" does not parse; "0x0p0" and "0x.0p0" are 0
	}
	if m.Sign() == 0 {
		return Number{}, true
	}
	e2 -= 4 * int64(len(frac))
	if e2 > maxHexShift || e2 < -maxHexShift {
		return Number{}, false
	}
	var exp int64
	if e2 >= 0 {
		m.Lsh(m, uint(e2))
	} else {
		// m × 2^e2 = m × 5^-e2 × 10^e2.
		m.Mul(m, new(big.Int).Exp(big.NewInt(5), big.NewInt(-e2), nil))
		exp = e2
	}
	digits := m.String()
	return Number{neg: neg}.set(digits, exp+int64(len(digits)))
}

// Key returns a string that is equal for two Numbers exactly when their
// values are.
func (n Number) Key() string {
	if n.digits == "" {
		return "0"
	}
	sign := ""
	if n.neg {
		sign = "-"
	}
	return sign + "0." + n.digits + "e" + strconv.FormatInt(n.exp, 10)
}

// Cmp compares the values of n and m: -1 if n < m, 0 if equal, +1 if n > m.
func (n Number) Cmp(m Number) int {
	sn, sm := n.sign(), m.sign()
	switch {
	case sn != sm:
		if sn < sm {
			return -1
		}
		return 1
	case sn == 0:
		return 0
	}
	c := 0 // the comparison of the magnitudes
	switch {
	case n.exp != m.exp:
		c = 1
		if n.exp < m.exp {
			c = -1
		}
	default:
		// Same exponent: digit strings without trailing zeros compare as
		// their values ("12" < "123", as 0.12 < 0.123).
		c = strings.Compare(n.digits, m.digits)
	}
	return c * sn
}

func (n Number) sign() int {
	switch {
	case n.digits == "":
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// Int returns n as an int if it is an integer in [0, max), as a class index
// is.
func (n Number) Int(max int) (int, bool) {
	if n.digits == "" {
		return 0, max > 0
	}
	if n.neg || n.exp < int64(len(n.digits)) || n.exp > 18 {
		return 0, false
	}
	v, err := strconv.ParseInt(n.digits+strings.Repeat("0", int(n.exp)-len(n.digits)), 10, 64)
	if err != nil || v >= int64(max) {
		return 0, false
	}
	return int(v), true
}

// SameLabel reports whether the labels a and b name one class, as the
// readers compare labels: by exact value when both are finite numbers
// (ParseNumber), else as strings ("inf", "Inf" and "NaN" are names).
func SameLabel(a, b string) bool {
	x, ok1 := ParseNumber(a)
	y, ok2 := ParseNumber(b)
	if ok1 && ok2 {
		return x.Cmp(y) == 0
	}
	return a == b
}
