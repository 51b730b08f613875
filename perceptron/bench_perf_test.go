package perceptron

import (
	"fmt"
	"testing"
)

// The benchmarks of the performance issue that bench_test.go,
// bench_theory_test.go and lfd_test.go do not already have. Run them all with
//
//	go test ./perceptron/ -run '^$' -bench 'Epoch|Pocket|Averaged|Voted|Dual|MaxMargin|LFD|CountErrors|Kernels'
//
// (BenchmarkPLAEpoch: an epoch with and without an observer;
// BenchmarkKernels: the assembly kernels of the epoch against their Go loops;
// BenchmarkPocketEpoch, BenchmarkAveragedEpoch, BenchmarkVotedEpoch;
// BenchmarkDual: the dual perceptron with its Gram matrix; BenchmarkMaxMargin
// n=1000,d=10: the maximum-margin solver on 1000 × 10;
// BenchmarkLFDExperiment */n=100: 1000 runs at N = 100.)

// rowwisePass is one epoch of PLA the plain way, visit after visit, each
// row scored by dot alone: the loop that sweep replaces, kept here to
// measure what the blocked scoring gains.
func (r *run) rowwisePass() {
	r.cur = 0
	for k := 0; k < r.n; k++ {
		if r.stopped() {
			break
		}
		r.visit(r.at(k))
	}
	r.res.UpdateRuns.add(r.cur)
}

// BenchmarkPLASweep compares one cyclic epoch scored row by row (visit,
// with step called for every row) with the sweep of PLA (sweepPLA: only
// possible mistakes leave the loop), on validated data (no validation
// inside the timer), the whole PLA call, which folds the finiteness check
// into the epoch, in both Sum modes, and PLA after Validate.
func BenchmarkPLASweep(b *testing.B) {
	for _, s := range []struct{ n, d int }{{100_000, 100}, {1_000_000, 100}, {100_000, 1000}} {
		data := benchData(b, s.n, s.d)
		opt := Options{}
		opt.MaxEpochs = 1
		for _, way := range []string{"rowwise", "sweep", "PLA", "PLA-FastSum", "Validate+PLA"} {
			b.Run(fmt.Sprintf("n=%d/d=%d/%s", s.n, s.d, way), func(b *testing.B) {
				for b.Loop() {
					switch way {
					case "rowwise":
						newRun(data, opt).rowwisePass()
					case "sweep":
						newRun(data, opt).pass()
					case "PLA":
						if _, err := PLA(data, opt); err != nil {
							b.Fatal(err)
						}
					case "PLA-FastSum":
						fast := opt
						fast.Summation = FastSum
						if _, err := PLA(data, fast); err != nil {
							b.Fatal(err)
						}
					case "Validate+PLA":
						// What PLA cost when it validated at the door.
						if err := data.Validate(); err != nil {
							b.Fatal(err)
						}
						if _, err := PLA(data, opt); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.n), "ns/sample")
			})
		}
	}
}

// BenchmarkPLAEpochObserver times one epoch on 100k × 100 with no Observer,
// with one that only counts, and with the trace observer Recorder.Observe,
// which copies x and w at every update. An Observer makes PLA validate the
// data at the door (a second read of it), so that it never sees an update
// of a run that then fails.
func BenchmarkPLAEpochObserver(b *testing.B) {
	data := benchData(b, 100_000, 100)
	for _, obs := range []string{"none", "count", "recorder"} {
		b.Run(obs, func(b *testing.B) {
			opt := Options{}
			opt.MaxEpochs = 1
			for b.Loop() {
				updates := 0
				var rec Recorder
				switch obs {
				case "count":
					opt.Control.Observer = func(Update) { updates++ }
				case "recorder":
					opt.Control.Observer = rec.Observe
				}
				if _, err := PLA(data, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountErrors times one count of training errors, the scan that
// Pocket makes after every update, row by row (dot) and four rows at a time
// (countMistakes, what countErrors does).
func BenchmarkCountErrors(b *testing.B) {
	data := benchData(b, 10_000, 100)
	res, err := PLA(data, Options{MaxEpochs: 1, Eta: 1})
	if err != nil {
		b.Fatal(err)
	}
	w, bias := res.W, res.B
	b.Run("rowwise", func(b *testing.B) {
		for b.Loop() {
			e := 0
			for i := range data.N() {
				if TieMistake.Mistake(data.Y[i], dot(w, data.Row(i))+bias) {
					e++
				}
			}
		}
	})
	b.Run("blocked", func(b *testing.B) {
		for b.Loop() {
			countMistakes(w, bias, data, TieMistake)
		}
	})
}

// BenchmarkPocketNTU times Pocket with MaxUpdates 50 and the RandomCycle order
// (NTU's homework) on 10k × 100: 50 counts of the training errors.
func BenchmarkPocketNTU(b *testing.B) {
	data := benchData(b, 10_000, 100)
	opt := Options{}
	opt.MaxUpdates = 50
	opt.Order = RandomCycle
	for b.Loop() {
		if _, err := Pocket(data, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPocketLate times Pocket late in a run, where it spends its time
// on data that is almost separable: 5 epochs on 2000 × 50 points with a
// margin and 0.5% of the labels flipped, where most w survive many visits
// and their error counts are mostly known already (see Pocket's cost).
func BenchmarkPocketLate(b *testing.B) {
	data, _, err := NoisyData(2000, 50, 0.05, 0.005, 3)
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{}
	opt.MaxEpochs = 5
	for b.Loop() {
		if _, err := Pocket(data, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRandomMistakeEpoch times one epoch of the RandomMistake order
// (n picks, each scoring all n rows: O(n²·d)) at n = 2000 and 20,000, d = 10.
func BenchmarkRandomMistakeEpoch(b *testing.B) {
	for _, n := range []int{2000, 20_000} {
		b.Run(fmt.Sprintf("n=%d/d=10", n), func(b *testing.B) {
			data := benchData(b, n, 10)
			opt := Options{}
			opt.Order = RandomMistake
			opt.MaxEpochs = 1
			for b.Loop() {
				if _, err := PLA(data, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
