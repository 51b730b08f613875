package exercises

import (
	"fmt"
	"math/rand/v2"
)

// CheckGramBreakEven checks lesson 9's Exercise 2: f(n, active) returns the
// smallest number of steps S after which building the Gram matrix of n rows
// (n(n+1)/2 kernel evaluations, once) has cost fewer kernel evaluations
// than scoring without it (active evaluations per step): the smallest S
// with S·active > n(n+1)/2.
func CheckGramBreakEven(f func(n, active int) int) bool {
	return runOwn("Exercise 2 (GramBreakEven)", f, func(c *checker) {
		for _, tc := range [][3]int{ // n, active, want
			{357, 44, 1453},
			{4, 4, 3},
			{10, 5, 12}, // 55/5 = 11 exactly: 11 steps only tie
			{1, 1, 2},
			{1000, 1000, 501},
			randomBreakEven(c.random()),
		} {
			c.equal(fmt.Sprintf("n = %d, |A| = %d", tc[0], tc[1]), tc[2], f(tc[0], tc[1]))
		}
	})
}

// randomBreakEven draws n and |A| ≤ n with the smallest S such that
// S·|A| > n(n+1)/2.
func randomBreakEven(rng *rand.Rand) [3]int {
	n := 2 + rng.IntN(2000)
	active := 1 + rng.IntN(n)
	return [3]int{n, active, n*(n+1)/2/active + 1}
}

// CheckPhiPoly2 checks lesson 9's Exercise 3: f(x) is a feature map φ of
// 2-D points for the kernel (x·z + 1)², with six features and
// φ(x)·φ(z) = (x·z + 1)² on fixed pairs (any order of the six features is
// right).
func CheckPhiPoly2(f func(x []float64) []float64) bool {
	return runOwn("Exercise 3 (PhiPoly2)", f, func(c *checker) {
		rng := c.random()
		pts := [][]float64{{1, 2}, {-0.5, 3}, {0, 0}, {2, -1}, {0.3, 0.7}, normals(rng, 2, 2), normals(rng, 2, 2)}
		for _, x := range pts {
			c.equal(fmt.Sprintf("len(φ(%v))", x), 6, len(f(x)))
		}
		for a := range pts {
			for b := a; b < len(pts); b++ {
				x, z := pts[a], pts[b]
				k := dotProduct(x, z) + 1
				px, pz := f(x), f(z)
				got := 0.0
				if len(px) == len(pz) {
					got = dotProduct(px, pz)
				}
				c.close(fmt.Sprintf("φ(%v)·φ(%v)", x, z), k*k, got, 1e-12)
			}
		}
	})
}
