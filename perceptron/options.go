package perceptron

import (
	"context"
	"time"
)

// Order is the order in which batch learners visit the rows.
type Order int

const (
	// Cyclic visits rows 0, 1, …, n-1 in every epoch.
	Cyclic Order = iota
	// Cycle draws one random permutation from Seed and visits the rows in
	// that order in every epoch (NTU's "fixed, pre-determined random cycle").
	Cycle
	// Shuffle draws a new random permutation at the start of every epoch
	// (scikit-learn's shuffle=True).
	Shuffle
	// RandomMistake picks, at every step, one of the currently misclassified
	// rows uniformly at random (the pick rule of Learning From Data). An
	// "epoch" is then n such picks.
	RandomMistake
)

var orderNames = [...]string{Cyclic: "cyclic", Cycle: "cycle", Shuffle: "shuffle", RandomMistake: "mistake"}

// String returns the name used by the command line.
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return "Order(?)"
}

// ParseOrder parses the names of Order.String: cyclic, cycle, shuffle, mistake.
func ParseOrder(s string) (Order, error) {
	for i, name := range orderNames {
		if s == name {
			return Order(i), nil
		}
	}
	return 0, errorf("unknown order %q: want cyclic, cycle, shuffle or mistake", s)
}

// Options are the hyper-parameters of the batch learners (PLA, Pocket,
// Voted, Averaged, Dual, KernelPerceptron). They are set before fitting and
// never changed by it. Start from DefaultOptions and change what you need.
//
// The zero Options is valid: a MaxEpochs or an Eta of 0 means the default
// (1000 epochs, η = 1), so Options{} trains as DefaultOptions does except
// for Seed, which is taken as given (0 is a seed like any other; it only
// matters for the random orders).
type Options struct {
	// MaxEpochs is the most passes over the data (> 0; 0 means 1000). PLA
	// and Pocket stop earlier after a pass without a mistake.
	MaxEpochs int
	// MaxUpdates, if > 0, also stops learning after that many updates
	// (NTU's "pocket with 50 updates").
	MaxUpdates int
	// Eta is the learning rate η > 0 of the update w ← w + η y x (0 means
	// 1).
	Eta float64
	// Order is the order in which rows are visited.
	Order Order
	// Seed seeds the random orders; runs with the same seed are identical.
	Seed uint64
	// Tie says whether a score of 0 is a mistake (default) or -1.
	Tie Tie
	// NoBias fixes b = 0: the boundary passes through the origin.
	NoBias bool
	// Observer, if not nil, is called after every update. It costs nothing
	// when nil.
	Observer Observer
	// Context, if not nil, stops the run when it is done (cancelled or past
	// its deadline). The learner then returns what it learned so far (with
	// Converged false) and an error that matches ErrStopped and the
	// context's error with errors.Is and says in which epoch it stopped.
	// It is checked every few thousand rows and at every epoch.
	Context context.Context
	// Deadline, if not zero, stops the run the same way once the clock
	// passes it.
	Deadline time.Time
	// Sum says how the learners sum w·x: ExactSum (the default) left to
	// right, bit-identical to scikit-learn; FastSum faster, not
	// bit-identical. See Sum. It applies to PLA, Pocket, Voted and Averaged
	// (Dual and KernelPerceptron sum over their Gram matrix).
	Sum Sum
	// MaxGramBytes is the most memory, in bytes, that Dual and
	// KernelPerceptron may take for their n × n Gram matrix (8·n² bytes);
	// 0 means DefaultMaxGramBytes. A larger matrix is refused with an error
	// before anything is allocated.
	MaxGramBytes int64
}

// Sum is how the batch learners sum the score w·x = Σ_j w_j x_j.
type Sum int

const (
	// ExactSum sums left to right, j = 0, 1, …, d-1, with no fused
	// multiply-add, as scikit-learn does: PLA's weights are bit-identical
	// to its, and the lessons use it. The default.
	ExactSum Sum = iota
	// FastSum sums each row with eight partial sums (see dotFastGo for
	// the exact order, and the README's performance section): faster on
	// large data sets, near the speed of reading the data from memory. It
	// is deterministic: the same order on every run and every machine (in
	// SSE2 assembly on amd64, in Go elsewhere, bit for bit the same, no
	// fused multiply-add). The update w ← w + η y x is the same in both
	// modes, so the weights differ from ExactSum's (and scikit-learn's)
	// only once a score falls within rounding of 0 and the two sums decide
	// that row differently; from then on the runs part ways. Pick it for
	// large data when speed matters more than matching scikit-learn bit
	// for bit.
	FastSum
)

// String returns "exact" or "fast".
func (s Sum) String() string {
	switch s {
	case ExactSum:
		return "exact"
	case FastSum:
		return "fast"
	}
	return "Sum(?)"
}

// DefaultMaxGramBytes is the Gram matrix budget of Dual and KernelPerceptron
// when Options.MaxGramBytes is 0: 1 GiB, n up to 11,585 rows.
const DefaultMaxGramBytes = 1 << 30

// DefaultOptions returns MaxEpochs 1000, Eta 1, cyclic order, seed 1, a
// score of 0 counted as a mistake, and a free bias.
func DefaultOptions() Options {
	return Options{MaxEpochs: 1000, Eta: 1, Order: Cyclic, Seed: 1, Tie: TieMistake}
}

// validate replaces the zero MaxEpochs and Eta by their defaults, then
// checks the options, naming the first bad one. Every learner calls it on
// its own copy of the Options at the door.
func (o *Options) validate() error {
	if o.MaxEpochs == 0 {
		o.MaxEpochs = DefaultOptions().MaxEpochs
	}
	if o.Eta == 0 {
		o.Eta = DefaultOptions().Eta
	}
	if o.MaxEpochs < 0 {
		return errorf("MaxEpochs must be > 0, got %d", o.MaxEpochs)
	}
	if o.MaxUpdates < 0 {
		return errorf("MaxUpdates must be >= 0 (0 means no limit), got %d", o.MaxUpdates)
	}
	if !(o.Eta > 0) || o.Eta != o.Eta || o.Eta > maxFloat {
		return errorf("Eta must be a finite number > 0, got %v", o.Eta)
	}
	if o.Sum != ExactSum && o.Sum != FastSum {
		return errorf("unknown Sum %d: want ExactSum or FastSum", int(o.Sum))
	}
	if o.MaxGramBytes < 0 {
		return errorf("MaxGramBytes must be >= 0 (0 means DefaultMaxGramBytes), got %d", o.MaxGramBytes)
	}
	if o.Order < Cyclic || o.Order > RandomMistake {
		return errorf("unknown order %d: want Cyclic, Cycle, Shuffle or RandomMistake", int(o.Order))
	}
	return o.Tie.valid()
}

const maxFloat = 1.7976931348623157e308

// Update is what an Observer sees after each update: the epoch (0-based),
// the row that was misclassified, its point x and label y, the score
// w·x + b it had before the update, and w and b after it. X and W are
// views that are only valid during the call: copy them to keep them.
type Update struct {
	Epoch int
	Row   int
	X     []float64
	Y     float64
	Score float64
	W     []float64
	B     float64
}

// Observer is called after every update of a learner.
type Observer func(Update)

// Result is what a batch learner learned and what happened on the way.
type Result struct {
	// Hyperplane holds the learned w and b.
	Hyperplane
	// Updates is the total number of updates (mistakes corrected).
	Updates int
	// Epochs is the number of passes made, the clean one included.
	Epochs int
	// UpdateRuns is the number of updates in every epoch, run-length
	// encoded so that its memory does not grow with the epochs; the method
	// UpdatesPerEpoch expands it.
	UpdateRuns EpochRuns
	// LastMistakeRow is the 0-based row of the last update, or -1 if none.
	LastMistakeRow int
	// Converged reports whether a pass over the data made no mistake.
	Converged bool
}

// UpdatesPerEpoch returns the number of updates in every epoch: element e
// is the number of updates in epoch e (0-based). It expands UpdateRuns, so
// it costs 8 bytes an epoch: on very long runs read UpdateRuns instead.
func (r Result) UpdatesPerEpoch() []int { return r.UpdateRuns.Expand() }

// EpochRun is a run of consecutive epochs with the same number of updates.
type EpochRun struct {
	// Updates is the number of updates in each epoch of the run.
	Updates int
	// Epochs is the number of epochs in the run, at least 1.
	Epochs int
}

// EpochRuns is a run-length encoded list of updates per epoch: the runs in
// the order of the epochs. A run of any length costs 16 bytes, so a learner
// that makes the same number of updates epoch after epoch (a cycle of
// mistakes on data that is not separable, or clean epochs) keeps a history
// of constant size. (An encoding by runs cannot shrink a history whose
// counts change at every epoch; that one costs 16 bytes an epoch.)
type EpochRuns []EpochRun

// Len returns the number of epochs.
func (h EpochRuns) Len() int {
	n := 0
	for _, r := range h {
		n += r.Epochs
	}
	return n
}

// Expand returns the number of updates of every epoch, one element an
// epoch (empty, not nil, without epochs).
func (h EpochRuns) Expand() []int {
	out := make([]int, 0, h.Len())
	for _, r := range h {
		for range r.Epochs {
			out = append(out, r.Updates)
		}
	}
	return out
}

// add appends an epoch with u updates.
func (h *EpochRuns) add(u int) {
	if k := len(*h) - 1; k >= 0 && (*h)[k].Updates == u {
		(*h)[k].Epochs++
		return
	}
	*h = append(*h, EpochRun{Updates: u, Epochs: 1})
}
