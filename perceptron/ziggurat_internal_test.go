package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestZigguratMatchesMathRand: normFloat64 and expFloat64 make the draws of
// math/rand/v2's NormFloat64 and ExpFloat64, bit for bit, on 3 million
// draws of each from three seeds, and the draws reach the tails and the
// wedges (where the two differed under GOAMD64=v3, whose FMAs math/rand/v2
// takes). The comparison is made only where the standard library fuses
// nothing (amd64 without GOAMD64=v3, 386): elsewhere its draws are not
// the reference (TestBuildsAgree then checks that this package's draws are
// the same bits on every build).
func TestZigguratMatchesMathRand(t *testing.T) {
	fuses := runtime.GOARCH != "amd64" && runtime.GOARCH != "386" || amd64v3
	var tails, wedges int
	for seed := uint64(1); seed <= 3; seed++ {
		a, b := rand.New(rand.NewPCG(seed, 9)), rand.New(rand.NewPCG(seed, 9))
		for k := 0; k < 1_000_000; k++ {
			got, want := normFloat64(a), b.NormFloat64()
			if math.Float64bits(got) != math.Float64bits(want) && !fuses {
				t.Fatalf("seed %d, draw %d: normFloat64 %v, NormFloat64 %v", seed, k, got, want)
			}
			if math.Abs(got) > zigNormR {
				tails++
			}
			got, want = expFloat64(a), b.ExpFloat64()
			if math.Float64bits(got) != math.Float64bits(want) && !fuses {
				t.Fatalf("seed %d, draw %d: expFloat64 %v, ExpFloat64 %v", seed, k, got, want)
			}
			if a.Uint64() != b.Uint64() && !fuses { // both consumed the same
				t.Fatalf("seed %d, draw %d: the generators are out of step", seed, k)
			}
		}
	}
	// A draw that took the wedge test consumed one more Float64: count them
	// on a copy, by the draws' consumption.
	r := rand.New(rand.NewPCG(4, 9))
	for k := 0; k < 1_000_000; k++ {
		u := r.Uint64()
		j := int32(u)
		i := u >> 32 & 0x7f
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj >= zigNorm.k[i] && i != 0 {
			wedges++
		}
	}
	if tails < 500 || wedges < 5000 {
		t.Errorf("%d tail draws, %d wedge tests: the draws test too little", tails, wedges)
	}
	t.Logf("%d normal draws beyond r, %d wedge tests in 1M; the standard library fuses: %v", tails, wedges, fuses)
}
