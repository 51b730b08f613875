package perceptron

import (
	"context"
	"math"
	"math/bits"
)

// Order is the order in which batch learners visit the rows.
type Order int

const (
	// InOrder visits rows 0, 1, …, n-1 in every epoch. The default.
	InOrder Order = iota
	// RandomCycle draws one random permutation from Seed and visits the
	// rows in that order in every epoch (NTU's "fixed, pre-determined
	// random cycle").
	RandomCycle
	// Shuffle draws a new random permutation at the start of every epoch
	// (scikit-learn's shuffle=True).
	Shuffle
	// RandomMistake picks, at every step, one of the currently misclassified
	// rows uniformly at random (the pick rule of Learning From Data). An
	// "epoch" is then n such picks.
	RandomMistake
)

var orderNames = [...]string{InOrder: "in-order", RandomCycle: "random-cycle", Shuffle: "shuffle", RandomMistake: "mistake"}

// String returns the name used by the command line.
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return "Order(?)"
}

// ParseOrder parses the names of Order.String: in-order, random-cycle,
// shuffle, mistake.
func ParseOrder(s string) (Order, error) {
	for i, name := range orderNames {
		if s == name {
			return Order(i), nil
		}
	}
	return 0, kindErrorf(ErrOption, "unknown order %q: want in-order, random-cycle, shuffle or mistake", s)
}

// Options are the hyper-parameters of the batch learners (PLA, Pocket,
// Voted, Averaged, Dual, KernelPerceptron) and of the theory that speaks
// about their runs (Bound, MaxMargin, CheckProof, Separable): what is
// learned depends on them and on the data only. How a run is watched and
// stopped is apart, in Control.
//
// The zero Options is the default: at most 1000 epochs (MaxEpochs 0), no
// limit on updates, η = 1 (Eta 0), the rows in order, seed 0, a score of 0
// counted as a mistake, a free bias, left-to-right sums. Set only the
// fields you change:
//
//	res, err := perceptron.PLA(d, perceptron.Options{Order: perceptron.Shuffle, Seed: 3})
type Options struct {
	// MaxEpochs is the most passes over the data (> 0; 0 means 1000). PLA,
	// Pocket, Dual and KernelPerceptron stop earlier after a pass without
	// a mistake; Voted and Averaged run every epoch.
	MaxEpochs int
	// MaxUpdates, if > 0, also stops learning after that many updates
	// (NTU's "pocket with 50 updates").
	MaxUpdates int
	// Eta is the learning rate η > 0 of the update w ← w + η y x (0 means
	// 1). From w = 0, PLA makes the same updates whatever η in exact
	// arithmetic, and in float64 for η a power of 2 while every value of
	// the run stays in the normal range: no η·x_j, and no product
	// w_j·x_j = η Σ y x_j·x_j summed in a score, below 2^-1022 (nor any
	// value beyond the float64 range). An η of 2^-1000 on features of
	// 1e-12 makes the updates subnormal, and they round; an η of 2^-500
	// on features of 2^-300 keeps the updates normal (2^-800) but makes
	// the scores' products 2^-1100, which round to 0 (η = 1 converges
	// after one update on the rows 2^-300 → +1, 2^-300 → +1 through the
	// origin, η = 2^-500 never does). Either way the run differs from
	// η = 1's; Bound refuses such a run (ηR² below 2^-1022, see Bound).
	Eta float64
	// Order is the order in which rows are visited.
	Order Order
	// Seed seeds the random orders; runs with the same seed are identical.
	// 0 is a seed like any other.
	Seed uint64
	// Tie says whether a score of 0 is a mistake (default) or -1.
	Tie Tie
	// NoBias fixes b = 0: the boundary passes through the origin.
	NoBias bool
	// Summation says how the learners sum w·x: ExactSum (the default) left
	// to right, bit-identical to scikit-learn; FastSum faster, not
	// bit-identical. It applies to PLA, Pocket, Voted and Averaged (Dual and
	// KernelPerceptron sum over their Gram matrix).
	Summation Summation
	// Control holds the run controls: how a run is watched (Observer),
	// stopped (Context) and bounded in memory (MaxGramBytes). They never
	// change what a finished run learns.
	Control Control
}

// Control is how a run is watched and stopped, apart from the
// hyper-parameters of Options. Its zero value watches nothing and never
// stops a run early.
type Control struct {
	// Context, if not nil, stops the run when it is done (cancelled or past
	// its deadline): the one way to stop a run from outside. A learner then
	// returns what it learned so far (with Converged false) and an error
	// that matches ErrStopped and the context's error with errors.Is and
	// says in which epoch it stopped; MaxMargin and Separable return an
	// ErrUndecided error that matches them too. It is checked before
	// anything is read, then every 2^18 values or so (every 1024 rows of
	// up to 256 features, every row of 2^18 or more; the start of an epoch
	// counts as a row, so on small data two looks can be hundreds of epochs
	// apart, not one an epoch: 205 to 539 epochs of XORData's 4 rows,
	// depending on the learner and the order), and in the Gram matrix
	// every 2^18 values read or 64 values of a kernel of the caller's. A
	// learner given a Context done before the call reads no row: it
	// returns its zero result and ErrStopped without checking that the
	// rows are finite (their shape and labels are checked).
	Context context.Context
	// Observer, if not nil, is called after every update of a learner. It
	// costs nothing when nil.
	Observer Observer
	// MaxGramBytes is the most memory, in bytes, that Dual and
	// KernelPerceptron may take for their n × n Gram matrix, of which they
	// keep the upper triangle (8·n(n+1)/2 bytes of values, the rows'
	// headers and a bound on the allocator's 8 KiB pages: at most what is
	// allocated plus 0.4% of the values and a page, and growing with n);
	// 0 means DefaultMaxGramBytes. A larger matrix is refused with an
	// error before anything is allocated.
	MaxGramBytes int64
}

// Summation is how the batch learners sum the score w·x = Σ_j w_j x_j.
type Summation int

const (
	// ExactSum sums left to right, j = 0, 1, …, d-1, with no fused
	// multiply-add, as scikit-learn does: PLA's weights are bit-identical
	// to its, and the lessons use it. The default.
	ExactSum Summation = iota
	// FastSum sums each row with eight partial sums (see asm.DotFastGo for
	// the exact order, and docs/performance.md): near the speed of reading
	// the data from memory, and faster than ExactSum on large data sets in
	// the orders other than InOrder and on CPUs without AVX2 (in the
	// InOrder order with AVX2 both read at the speed of memory). It
	// is deterministic: the same order on every run and every machine (in
	// SSE2, AVX2 or AVX-512 assembly on amd64, in Go elsewhere, bit for bit the same, no
	// fused multiply-add). The update w ← w + η y x is the same in both
	// modes, so the weights differ from ExactSum's (and scikit-learn's)
	// only once a score falls within rounding of 0 and the two sums decide
	// that row differently; from then on the runs part ways. What a run
	// says of its own passes (Converged, a clean pass; Pocket's choice and
	// History) is in the fast sums, while the learned Hyperplane scores
	// left to right, so on such a row the two can disagree (Pocket's
	// PocketErrors is recounted as Errors counts). Pick it for
	// large data when speed matters more than matching scikit-learn bit
	// for bit.
	FastSum
)

// String returns "exact" or "fast".
func (s Summation) String() string {
	switch s {
	case ExactSum:
		return "exact"
	case FastSum:
		return "fast"
	}
	return "Summation(?)"
}

// DefaultMaxGramBytes is the Gram matrix budget of Dual and KernelPerceptron
// when Control.MaxGramBytes is 0: 1 GiB, n up to 16,348 rows.
const DefaultMaxGramBytes = 1 << 30

// The defaults that a zero field of Options stands for.
const (
	defaultMaxEpochs = 1000
	defaultEta       = 1
)

// learningRate is the one rule for the learning rate η of every learner
// (Options.Eta, GDOptions.Eta, Online.Eta and NewOnline): 0 stands for
// the default 1, and any other value must be a finite number > 0 and not
// subnormal (at least 2^-1022, about 2.2e-308): a subnormal η has lost
// bits already, and so has every update η·y·x, so that PLA no longer makes
// the updates it makes with η = 1 (with η = 5e-324 it did not converge on
// separable data). A normal η does not keep η·y·x normal on features
// that small themselves (see Options.Eta). It returns the η to use, or an
// ErrOption error.
func learningRate(eta float64) (float64, error) {
	if eta == 0 {
		return defaultEta, nil
	}
	if !(eta > 0) || eta > math.MaxFloat64 {
		return 0, kindErrorf(ErrOption, "Eta must be a finite number > 0, got %v", eta)
	}
	if eta < 0x1p-1022 {
		return 0, kindErrorf(ErrOption, "Eta %v is subnormal (below 2^-1022, about 2.2e-308): every update η·y·x would lose bits; use a larger Eta (from w = 0, PLA's mistakes do not depend on it in exact arithmetic)", eta)
	}
	return eta, nil
}

// validate replaces the zero MaxEpochs and Eta by their defaults, then
// checks the options, naming the first bad one. Every learner calls it on
// its own copy of the Options at the door.
func (o *Options) validate() error {
	if o.MaxEpochs == 0 {
		o.MaxEpochs = defaultMaxEpochs
	}
	if o.MaxEpochs < 0 {
		return kindErrorf(ErrOption, "MaxEpochs must be > 0, got %d", o.MaxEpochs)
	}
	if o.MaxUpdates < 0 {
		return kindErrorf(ErrOption, "MaxUpdates must be >= 0 (0 means no limit), got %d", o.MaxUpdates)
	}
	eta, err := learningRate(o.Eta)
	if err != nil {
		return err
	}
	o.Eta = eta
	if o.Summation != ExactSum && o.Summation != FastSum {
		return kindErrorf(ErrOption, "unknown Summation %d: want ExactSum or FastSum", int(o.Summation))
	}
	if o.Control.MaxGramBytes < 0 {
		return kindErrorf(ErrOption, "MaxGramBytes must be >= 0 (0 means DefaultMaxGramBytes), got %d", o.Control.MaxGramBytes)
	}
	if o.Order < InOrder || o.Order > RandomMistake {
		return kindErrorf(ErrOption, "unknown order %d: want InOrder, RandomCycle, Shuffle or RandomMistake", int(o.Order))
	}
	return o.Tie.valid()
}

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

// Stats is what a run of a batch learner did, the same for every learner
// (gonum's optimize.Stats plays the same part): every learner's result
// embeds it, so res.Updates, res.Epochs and res.Converged read alike on all.
type Stats struct {
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
func (s Stats) UpdatesPerEpoch() []int { return s.UpdateRuns.Expand() }

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

// Len returns the number of epochs (a run of fewer than 1 epoch, which no
// learner makes, counts as none).
func (h EpochRuns) Len() int {
	n := 0
	for _, r := range h {
		n += max(r.Epochs, 0)
	}
	return n
}

// check reports whether the runs can be a learner's: every run of at least
// one epoch and no negative count, and in all as many epochs and updates
// as s says (without overflow). what names the caller in the error.
func (s Stats) check(what string) error {
	epochs, updates := 0, 0
	for k, r := range s.UpdateRuns {
		if r.Epochs < 1 || r.Updates < 0 {
			return kindErrorf(ErrModel, "%s: stats: run %d has %d epochs of %d updates: want at least 1 epoch and no negative count", what, k, r.Epochs, r.Updates)
		}
		over, u := bits.Mul64(uint64(r.Updates), uint64(r.Epochs))
		if over != 0 || u > math.MaxInt || r.Epochs > math.MaxInt-epochs || int(u) > math.MaxInt-updates {
			return kindErrorf(ErrModel, "%s: stats: the runs' epochs or updates overflow an int at run %d", what, k)
		}
		epochs += r.Epochs
		updates += int(u)
	}
	if len(s.UpdateRuns) > 0 && (epochs != s.Epochs || updates != s.Updates) {
		return kindErrorf(ErrModel, "%s: stats: the runs hold %d epochs and %d updates, the stats say %d and %d", what, epochs, updates, s.Epochs, s.Updates)
	}
	if s.Epochs < 0 || s.Updates < 0 || s.LastMistakeRow < -1 {
		return kindErrorf(ErrModel, "%s: stats: %d epochs, %d updates, last mistake row %d: want no negative count", what, s.Epochs, s.Updates, s.LastMistakeRow)
	}
	return nil
}

// Expand returns the number of updates of every epoch, one element an
// epoch (empty, not nil, without epochs).
func (h EpochRuns) Expand() []int {
	out := make([]int, 0, h.Len())
	for _, r := range h {
		for range max(r.Epochs, 0) {
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
