package perceptron

import (
	"context"
	"encoding/binary"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// fuzzScales are the magnitudes the fuzzer multiplies small integers by:
// ordinary, tiny (subnormal products), and huge (overflowing products).
var fuzzScales = [...]float64{1, 0.5, 1e-300, 1e154, 1e300, math.MaxFloat64}

// fuzzEtas are the learning rates the fuzzer picks from.
var fuzzEtas = [...]float64{1, 0.1, 1e-320, 1e154, 1e306, 1e308}

// fuzzData decodes a data set and options from raw bytes: byte 0 the number
// of rows (1-8), byte 1 the features (1-4), byte 2 the options (order, tie,
// bias, learner), byte 3 the rate and the scale; then, per value, either 8
// raw bytes (any float64: NaN, ±Inf, subnormals) when bit 7 of byte 2 is
// set, or one byte, a small integer times the scale; the labels come from
// the bits of the last bytes (a few of them 0 or NaN, which are bad labels).
// The Dataset is built without validation, as a user could build it.
func fuzzData(b []byte) (*Dataset, Options, int, bool) {
	if len(b) < 4 {
		return nil, Options{}, 0, false
	}
	n, dim, flags, rate := int(b[0]%8)+1, int(b[1]%4)+1, b[2], b[3]
	b = b[4:]
	raw := flags&0x80 != 0
	scale := fuzzScales[int(rate>>4)%len(fuzzScales)]
	x := make([]float64, n*dim)
	for k := range x {
		switch {
		case raw && len(b) >= 8:
			x[k] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		case len(b) >= 1:
			x[k] = float64(int(b[0]%9)-4) * scale
			b = b[1:]
		}
	}
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
		if i < len(b) {
			switch b[i] % 16 {
			case 15:
				y[i] = math.NaN()
			case 14:
				y[i] = 0
			default:
				if b[i]&1 == 0 {
					y[i] = -1
				}
			}
		} else if i%2 == 1 {
			y[i] = -1
		}
	}
	opt := Options{}
	opt.MaxEpochs = 20
	opt.Order = Order(flags % 4)
	opt.Tie = Tie((flags >> 2) % 2)
	opt.NoBias = flags&0x10 != 0
	opt.Eta = fuzzEtas[int(rate&0x0f)%len(fuzzEtas)]
	opt.Seed = uint64(rate)
	learner := int(flags>>5) % 3
	return &Dataset{X: mat.NewDense(n, dim, x), Y: y}, opt, learner, true
}

// allFinite reports whether w and b hold no NaN or ±Inf.
func allFinite(w []float64, b float64) bool {
	return firstNonFinite(w) < 0 && !math.IsNaN(b) && !math.IsInf(b, 0)
}

// FuzzLearners runs the learners on arbitrary data, finite or not, with
// arbitrary rates: they must never panic, and a nil error must come with
// finite weights, and with Converged true only when the weights classify
// every row correctly (a NaN score counts as a mistake), as the clean-pass
// stop promises. Each input runs PLA, Pocket, Averaged and one of Voted,
// Dual and KernelPerceptron (byte 2 picks). The seeds (f.Add) run with
// plain go test.
func FuzzLearners(f *testing.F) {
	seeds := [][]byte{
		{4, 2, 0, 0, 4, 5, 3, 1, 8, 0, 2, 6, 0, 1, 2, 3},                                     // small integers, cyclic
		{4, 2, 1, 0x30, 4, 5, 3, 1, 8, 0, 2, 6, 0, 1, 2, 3},                                  // × 1e154, cycle order
		{4, 2, 2, 0x05, 4, 5, 3, 1, 8, 0, 2, 6, 0, 1, 2, 3},                                  // Eta 1e308, shuffle
		{5, 1, 3, 0x54, 1, 2, 3, 4, 5, 0, 1, 0, 1, 0},                                        // max float, mistake order
		{3, 3, 0x44, 0x21, 0, 0, 0, 8, 8, 8, 1, 7, 3, 0, 1, 1},                               // 1e-300, tie negative, Dual
		{2, 1, 0x60, 0x00, 4, 4, 0, 1},                                                       // the same point twice, kernel
		{2, 1, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 0, 1}, // NaN and +Inf raw
		{3, 2, 0x90, 0x02, 0, 0, 0, 0, 0, 0, 0x10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 1, 2, 15}, // subnormals, bad label
		{6, 4, 0x20, 0x14, 9, 9, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 4, 4, 4, 4, 2, 2, 2, 2, 0, 1, 0, 1, 14, 1},                                                                                                  // Voted, label 0
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, opt, learner, ok := fuzzData(b)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // a hang is a failure, not a stuck fuzzer
		defer cancel()
		opt.Control.Context = ctx
		if !ok {
			return
		}
		check := func(name string, h Hyperplane, converged bool, err error) {
			if err != nil {
				return
			}
			if !allFinite(h.W, h.B) {
				t.Fatalf("%s: success with non-finite weights w = %v, b = %v (data %v, y %v, options %+v)", name, h.W, h.B, d.X.RawMatrix().Data, d.Y, opt)
			}
			if converged {
				if e := countMistakes(h.W, h.B, d, opt.Tie); e != 0 {
					t.Fatalf("%s: converged, yet %d rows are misclassified by w = %v, b = %v (data %v, y %v, options %+v)", name, e, h.W, h.B, d.X.RawMatrix().Data, d.Y, opt)
				}
			}
		}
		if res, err := PLA(d, opt); err == nil {
			check("PLA", res.Hyperplane, res.Converged, err)
		}
		if res, err := Pocket(d, opt); err == nil {
			check("Pocket", res.Hyperplane, false, err)
			check("Pocket (last)", res.Last, res.Converged, err)
		}
		if res, err := Averaged(d, opt); err == nil {
			check("Averaged", res.Hyperplane, false, err)
			check("Averaged (explicit)", res.Explicit, false, err)
			check("Averaged (last)", res.Last, res.Converged, err)
		}
		switch learner {
		case 0:
			if res, err := Voted(d, opt); err == nil {
				check("Voted", res.Last(), res.Converged, err)
				for k, v := range res.Vectors {
					check("Voted vector", v, false, err)
					if res.Counts[k] < 0 {
						t.Fatalf("Voted: count %d of vector %d", res.Counts[k], k)
					}
				}
			}
		case 1:
			if res, err := Dual(d, opt); err == nil {
				// Dual's w is recovered from α after the run, with another
				// rounding than the scores it trained on, so only its
				// finiteness is checked.
				check("Dual", res.Hyperplane, false, err)
			}
		case 2:
			if m, err := KernelPerceptron(d, PolyKernel{Degree: 2, C: 1}, opt); err == nil {
				if math.IsNaN(m.B) || math.IsInf(m.B, 0) {
					t.Fatalf("KernelPerceptron: success with b = %v", m.B)
				}
				if m.Converged {
					if e, err := m.Errors(d); err != nil || e != 0 {
						t.Fatalf("KernelPerceptron: converged, yet Errors = %d, %v", e, err)
					}
				}
			}
		}
	})
}
