package perceptron

// PocketResult is what Pocket learned: the pocket weights and the history of
// the pocket.
type PocketResult struct {
	// Result holds the pocket weights (the best w met) in its Hyperplane and,
	// in its counters, what the underlying PLA did, as PLA reports them.
	Result
	// Last holds the final PLA weights, which may be worse than the pocket.
	Last Hyperplane
	// PocketErrors is the number of training errors of the pocket weights.
	PocketErrors int
	// History has one entry per update.
	History []PocketStep
}

// PocketStep records one update of Pocket.
type PocketStep struct {
	// Update is the 1-based number of the update.
	Update int
	// Errors is the number of training errors of w after this update.
	Errors int
	// PocketErrors is the number of training errors of the pocket after
	// this update (after a possible replacement).
	PocketErrors int
	// Replaced reports whether this update's w went into the pocket.
	Replaced bool
}

// Pocket runs the pocket algorithm (Gallant 1990) on d: it makes exactly the
// updates PLA makes with the same options (order, Tie, MaxEpochs,
// MaxUpdates), and after every update it counts the training errors of the
// new w and puts w in the pocket if it has strictly fewer errors than the
// pocket. The pocket starts as w = 0, b = 0. Like PLA it stops after a clean
// pass, after MaxEpochs epochs or after MaxUpdates updates (NTU's homework:
// MaxUpdates 50 and the Cycle order); on separable data the pocket then
// holds the final w with 0 errors.
//
// Cost: counting the errors of w exactly takes one O(n·d) scan of the data
// per update, so a run costs O(d) per visited row plus O(n·d) per update.
// The pocket's count is kept, never recomputed, and no other scan is made.
// The scan after an update cannot be avoided or cut short: History records
// the exact number of errors of every w (a scan that stopped once the
// errors reach the pocket's would decide the replacement exactly, but
// would leave Errors a lower bound). The scan scores four rows at a time
// (independent sums): the very same scores as one row at a time, computed
// faster (see BenchmarkCountErrors).
//
// Non-finite scores or weights end the run with an ErrNonFinite error that
// names the row and the epoch; opt.Context and opt.Deadline stop it with
// the partial result and an ErrStopped error, as in PLA.
func Pocket(d *Dataset, opt Options) (*PocketResult, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	r := newRun(d, opt)
	out := &PocketResult{}
	pocket := Hyperplane{W: make([]float64, d.D()), Tie: opt.Tie}
	out.PocketErrors = countErrors(pocket.W, pocket.B, d, opt.Tie)
	r.onStep = func(_ int, updated bool) {
		if !updated {
			return
		}
		e := countErrors(r.w, r.b, d, opt.Tie)
		replaced := e < out.PocketErrors
		if replaced {
			copy(pocket.W, r.w)
			pocket.B = r.b
			out.PocketErrors = e
		}
		out.History = append(out.History, PocketStep{Update: r.res.Updates, Errors: e,
			PocketErrors: out.PocketErrors, Replaced: replaced})
	}
	r.epochs(true)
	if err := r.finish(); err != nil {
		return nil, err
	}
	out.Result = r.res
	out.Hyperplane = pocket
	out.Last = Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}
	return out, r.stop
}
