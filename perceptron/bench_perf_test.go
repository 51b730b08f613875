package perceptron

import (
	"fmt"
	"testing"
)

// The benchmarks of the performance issue that bench_test.go,
// bench_theory_test.go and lfd_test.go do not already have. Run them all with
//
//	go test ./perceptron/ -run '^$' -bench 'Epoch|Pocket|Averaged|Voted|Dual|MaxMargin|LFD|CountErrors'
//
// (BenchmarkPLAEpoch: an epoch with and without an observer;
// BenchmarkPocketEpoch, BenchmarkAveragedEpoch, BenchmarkVotedEpoch;
// BenchmarkDual: the dual perceptron with its Gram matrix; BenchmarkMaxMargin
// n=1000,d=10: the maximum-margin solver on 1000 × 10;
// BenchmarkLFDExperiment */n=100: 1000 runs at N = 100.)

// rowwisePass is one epoch of PLA the plain way, visit after visit, each
// row scored by dot alone: the loop that sweep replaces, kept here to
// measure what the blocked scoring gains.
func (r *run) rowwisePass() {
	r.cur = 0
	for _, i := range r.perm {
		if r.stopped() {
			break
		}
		r.visit(i)
	}
	r.res.UpdateRuns.add(r.cur)
}

// BenchmarkPLASweep compares one cyclic epoch scored row by row (visit)
// with the blocked sweep of PLA, on validated data (no validation inside
// the timer), and the whole PLA call, which folds the finiteness check into
// the epoch.
func BenchmarkPLASweep(b *testing.B) {
	for _, s := range []struct{ n, d int }{{100_000, 100}, {1_000_000, 100}, {100_000, 1000}} {
		data := benchData(b, s.n, s.d)
		opt := DefaultOptions()
		opt.MaxEpochs = 1
		for _, way := range []string{"rowwise", "sweep", "PLA", "Validate+PLA"} {
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
			opt := DefaultOptions()
			opt.MaxEpochs = 1
			for b.Loop() {
				updates := 0
				var rec Recorder
				switch obs {
				case "count":
					opt.Observer = func(Update) { updates++ }
				case "recorder":
					opt.Observer = rec.Observe
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

// BenchmarkPocketNTU times Pocket with MaxUpdates 50 and the Cycle order
// (NTU's homework) on 10k × 100: 50 counts of the training errors.
func BenchmarkPocketNTU(b *testing.B) {
	data := benchData(b, 10_000, 100)
	opt := DefaultOptions()
	opt.MaxUpdates = 50
	opt.Order = Cycle
	for b.Loop() {
		if _, err := Pocket(data, opt); err != nil {
			b.Fatal(err)
		}
	}
}
