package perceptron

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchSets caches the benchmark data sets: the 1M × 100 one takes 800 MB
// and a few seconds to draw, so each size is built once, outside the timer.
var benchSets sync.Map // "n×d" → *Dataset

// benchData returns n dense Gaussian points in d dimensions, labelled by a
// random hyperplane through the origin with 5% of the labels flipped, so
// that PLA keeps updating. Seeded: every run sees the same data.
func benchData(b testing.TB, n, d int) *Dataset {
	key := fmt.Sprintf("%d×%d", n, d)
	if v, ok := benchSets.Load(key); ok {
		return v.(*Dataset)
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	u := make([]float64, d)
	for j := range u {
		u[j] = rng.NormFloat64()
	}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		row := x[i*d : (i+1)*d]
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		y[i] = 1
		if dot(u, row) < 0 {
			y[i] = -1
		}
		if rng.Float64() < 0.05 {
			y[i] = -y[i]
		}
	}
	data := &Dataset{X: mat.NewDense(n, d, x), Y: y}
	benchSets.Store(key, data)
	return data
}

// benchEpoch times one epoch (MaxEpochs 1) of fit on data and reports the
// cost per visited row.
func benchEpoch(b *testing.B, data *Dataset, opt Options, fit func(*Dataset, Options) error) {
	opt.MaxEpochs = 1
	b.ResetTimer()
	for range b.N {
		if err := fit(data, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(data.N()), "ns/sample")
}

func BenchmarkPLAEpoch(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		for _, observe := range []bool{false, true} {
			name := fmt.Sprintf("n=%d/d=100/observer=%v", n, observe)
			b.Run(name, func(b *testing.B) {
				data := benchData(b, n, 100)
				opt := Options{}
				updates := 0
				if observe {
					opt.Control.Observer = func(Update) { updates++ }
				}
				benchEpoch(b, data, opt, func(d *Dataset, o Options) error {
					_, err := PLA(d, o)
					return err
				})
				if observe && updates == 0 {
					b.Fatal("the observer saw no update")
				}
			})
		}
	}
}

func BenchmarkPocketEpoch(b *testing.B) {
	data := benchData(b, 10_000, 100)
	benchEpoch(b, data, Options{}, func(d *Dataset, o Options) error {
		_, err := Pocket(d, o)
		return err
	})
}

func BenchmarkAveragedEpoch(b *testing.B) {
	data := benchData(b, 10_000, 100)
	benchEpoch(b, data, Options{}, func(d *Dataset, o Options) error {
		_, err := Averaged(d, o)
		return err
	})
}

func BenchmarkVotedEpoch(b *testing.B) {
	data := benchData(b, 10_000, 100)
	benchEpoch(b, data, Options{}, func(d *Dataset, o Options) error {
		_, err := Voted(d, o)
		return err
	})
}

// BenchmarkOnlineEpoch times one pass of the online perceptron (Online.Step
// on every row, with its per-point checks) over 10k × 100.
func BenchmarkOnlineEpoch(b *testing.B) {
	data := benchData(b, 10_000, 100)
	b.ResetTimer()
	for range b.N {
		o, err := NewOnline(data.D(), 1, TieMistake)
		if err != nil {
			b.Fatal(err)
		}
		for i := range data.N() {
			if _, err := o.Step(data.Row(i), data.Y[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(data.N()), "ns/sample")
}

// BenchmarkGradientDescent and BenchmarkSGD time the perceptron loss
// minimisers on 2000 × 20: 20 full-batch steps, and 2000 single-row steps
// (one pass), each recording the loss of the whole data set after every
// step (Path and Losses), as the lessons plot them.
func BenchmarkGradientDescent(b *testing.B) {
	data := benchData(b, 2000, 20)
	for b.Loop() {
		if _, err := GradientDescent(data, GDOptions{Eta: 0.1, Steps: 20}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSGD(b *testing.B) {
	data := benchData(b, 2000, 20)
	for b.Loop() {
		if _, err := SGD(data, GDOptions{Eta: 0.1, Steps: 2000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
