package perceptron_test

import (
	"fmt"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

var theorySizes = []struct{ n, d int }{{100, 2}, {1000, 10}, {10000, 20}}

func benchData(b *testing.B, n, d int) *perceptron.Dataset {
	b.Helper()
	data, _, err := perceptron.SeparableData(n, d, 0.01, 1)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkMaxMargin(b *testing.B) {
	for _, s := range theorySizes {
		data := benchData(b, s.n, s.d)
		for _, noBias := range []bool{false, true} {
			set := data
			if noBias {
				set = perceptron.Augment(data)
			}
			b.Run(fmt.Sprintf("n=%d,d=%d,noBias=%v", s.n, s.d, noBias), func(b *testing.B) {
				for b.Loop() {
					if _, _, err := perceptron.MaxMargin(set, perceptron.Options{NoBias: noBias}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkSeparable(b *testing.B) {
	for _, s := range theorySizes[:2] {
		data := benchData(b, s.n, s.d)
		b.Run(fmt.Sprintf("n=%d,d=%d", s.n, s.d), func(b *testing.B) {
			for b.Loop() {
				if s, err := perceptron.Separable(data, perceptron.Options{}); err != nil || !s.Separable {
					b.Fatal(s.Separable, err)
				}
			}
		})
	}
}

func BenchmarkDual(b *testing.B) {
	for _, n := range []int{100, 500, 2000} {
		data := benchData(b, n, 5)
		opt := perceptron.Options{}
		opt.MaxEpochs = 20
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := perceptron.Dual(data, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKernelPerceptron(b *testing.B) {
	for _, n := range []int{100, 500, 2000} {
		data, err := perceptron.Circles(n, 0.05, 1)
		if err != nil {
			b.Fatal(err)
		}
		opt := perceptron.Options{}
		opt.MaxEpochs = 20
		b.Run(fmt.Sprintf("rbf,n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := perceptron.KernelPerceptron(data, perceptron.RBFKernel{Gamma: 2}, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
