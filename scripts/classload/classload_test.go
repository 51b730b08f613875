package main

import (
	"math"
	"testing"
	"time"
)

// TestClassloadPercentile checks the nearest-rank percentile on values whose
// ranks are known: of 1..20 s, p50 is the 10th value, p95 the 19th, p100
// the largest; of one value, every percentile is it; of none, NaN.
func TestClassloadPercentile(t *testing.T) {
	var v []time.Duration
	for i := 1; i <= 20; i++ {
		v = append(v, time.Duration(i)*time.Second)
	}
	for _, c := range []struct{ p, want float64 }{{50, 10}, {95, 19}, {100, 20}, {1, 1}, {96, 20}} {
		if got := percentile(v, c.p); got != c.want {
			t.Errorf("p%v of 1..20 s = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile([]time.Duration{3 * time.Second}, 95); got != 3 {
		t.Errorf("p95 of one value 3 s = %v, want 3", got)
	}
	if got := percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("p50 of no values = %v, want NaN", got)
	}
}

// TestClassloadParseThink checks the think-time flag: a range, one value,
// and the malformed ranges it refuses.
func TestClassloadParseThink(t *testing.T) {
	got, err := parseThink("10s-40s")
	if err != nil || got != (think{10 * time.Second, 40 * time.Second}) {
		t.Errorf(`parseThink("10s-40s") = %v, %v; want 10s-40s`, got, err)
	}
	got, err = parseThink("3s")
	if err != nil || got != (think{3 * time.Second, 3 * time.Second}) {
		t.Errorf(`parseThink("3s") = %v, %v; want 3s-3s`, got, err)
	}
	for _, bad := range []string{"40s-10s", "ten-40s", "10s-", "", "-1s"} {
		if _, err := parseThink(bad); err == nil {
			t.Errorf("parseThink(%q) accepted it", bad)
		}
	}
	if _, err := parseSizes("2,5,0"); err == nil {
		t.Error(`parseSizes("2,5,0") accepted a class of 0`)
	}
	if ns, err := parseSizes("10, 20"); err != nil || len(ns) != 2 || ns[0] != 10 || ns[1] != 20 {
		t.Errorf(`parseSizes("10, 20") = %v, %v`, ns, err)
	}
}

// TestClassloadThinkDraw checks that drawn think times stay in their range
// and that a seeded student draws the same times again.
func TestClassloadThinkDraw(t *testing.T) {
	th := think{2 * time.Second, 5 * time.Second}
	a, b := newRand(7), newRand(7)
	for i := 0; i < 1000; i++ {
		x, y := th.draw(a), th.draw(b)
		if x < th.lo || x >= th.hi {
			t.Fatalf("draw %d = %v, outside [%v, %v)", i, x, th.lo, th.hi)
		}
		if x != y {
			t.Fatalf("draw %d: %v, then %v with the same seed", i, x, y)
		}
	}
}
