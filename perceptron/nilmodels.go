package perceptron

// The results that embed a Hyperplane answer the questions of Model through
// it; the methods below make a nil result (the *Result of a call whose
// error was ignored) answer with an error instead of a nil-pointer panic.

// hyperplane returns the learned hyperplane, or an error for a nil result.
func (r *Result) hyperplane() (Hyperplane, error) {
	if r == nil {
		return Hyperplane{}, errNilModel("*Result", "PLA")
	}
	return r.Hyperplane, nil
}

// Dim returns the number of features d (0 for a nil result).
func (r *Result) Dim() int {
	h, _ := r.hyperplane()
	return h.Dim()
}

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *Result) Score(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Score(x)
}

// Predict returns the label of x (see Hyperplane.Predict).
func (r *Result) Predict(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Predict(x)
}

// PredictAll returns Predict of every row of d.
func (r *Result) PredictAll(d *Dataset) ([]float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return nil, err
	}
	return h.PredictAll(d)
}

// Errors returns the number of rows of d the learned hyperplane
// misclassifies.
func (r *Result) Errors(d *Dataset) (int, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Errors(d)
}

// ErrorRate returns Errors divided by the number of rows of d.
func (r *Result) ErrorRate(d *Dataset) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.ErrorRate(d)
}

// hyperplane returns the learned hyperplane, or an error for a nil result.
func (r *PocketResult) hyperplane() (Hyperplane, error) {
	if r == nil {
		return Hyperplane{}, errNilModel("*PocketResult", "Pocket")
	}
	return r.Hyperplane, nil
}

// Dim returns the number of features d (0 for a nil result).
func (r *PocketResult) Dim() int {
	h, _ := r.hyperplane()
	return h.Dim()
}

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *PocketResult) Score(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Score(x)
}

// Predict returns the label of x (see Hyperplane.Predict).
func (r *PocketResult) Predict(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Predict(x)
}

// PredictAll returns Predict of every row of d.
func (r *PocketResult) PredictAll(d *Dataset) ([]float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return nil, err
	}
	return h.PredictAll(d)
}

// Errors returns the number of rows of d the learned hyperplane
// misclassifies.
func (r *PocketResult) Errors(d *Dataset) (int, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Errors(d)
}

// ErrorRate returns Errors divided by the number of rows of d.
func (r *PocketResult) ErrorRate(d *Dataset) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.ErrorRate(d)
}

// hyperplane returns the learned hyperplane, or an error for a nil result.
func (r *AveragedResult) hyperplane() (Hyperplane, error) {
	if r == nil {
		return Hyperplane{}, errNilModel("*AveragedResult", "Averaged")
	}
	return r.Hyperplane, nil
}

// Dim returns the number of features d (0 for a nil result).
func (r *AveragedResult) Dim() int {
	h, _ := r.hyperplane()
	return h.Dim()
}

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *AveragedResult) Score(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Score(x)
}

// Predict returns the label of x (see Hyperplane.Predict).
func (r *AveragedResult) Predict(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Predict(x)
}

// PredictAll returns Predict of every row of d.
func (r *AveragedResult) PredictAll(d *Dataset) ([]float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return nil, err
	}
	return h.PredictAll(d)
}

// Errors returns the number of rows of d the learned hyperplane
// misclassifies.
func (r *AveragedResult) Errors(d *Dataset) (int, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Errors(d)
}

// ErrorRate returns Errors divided by the number of rows of d.
func (r *AveragedResult) ErrorRate(d *Dataset) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.ErrorRate(d)
}

// hyperplane returns the learned hyperplane, or an error for a nil result.
func (r *DualResult) hyperplane() (Hyperplane, error) {
	if r == nil {
		return Hyperplane{}, errNilModel("*DualResult", "Dual")
	}
	return r.Hyperplane, nil
}

// Dim returns the number of features d (0 for a nil result).
func (r *DualResult) Dim() int {
	h, _ := r.hyperplane()
	return h.Dim()
}

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *DualResult) Score(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Score(x)
}

// Predict returns the label of x (see Hyperplane.Predict).
func (r *DualResult) Predict(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Predict(x)
}

// PredictAll returns Predict of every row of d.
func (r *DualResult) PredictAll(d *Dataset) ([]float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return nil, err
	}
	return h.PredictAll(d)
}

// Errors returns the number of rows of d the learned hyperplane
// misclassifies.
func (r *DualResult) Errors(d *Dataset) (int, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Errors(d)
}

// ErrorRate returns Errors divided by the number of rows of d.
func (r *DualResult) ErrorRate(d *Dataset) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.ErrorRate(d)
}

// hyperplane returns the learned hyperplane, or an error for a nil result.
func (r *GDResult) hyperplane() (Hyperplane, error) {
	if r == nil {
		return Hyperplane{}, errNilModel("*GDResult", "GradientDescent or SGD")
	}
	return r.Hyperplane, nil
}

// Dim returns the number of features d (0 for a nil result).
func (r *GDResult) Dim() int {
	h, _ := r.hyperplane()
	return h.Dim()
}

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *GDResult) Score(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Score(x)
}

// Predict returns the label of x (see Hyperplane.Predict).
func (r *GDResult) Predict(x []float64) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Predict(x)
}

// PredictAll returns Predict of every row of d.
func (r *GDResult) PredictAll(d *Dataset) ([]float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return nil, err
	}
	return h.PredictAll(d)
}

// Errors returns the number of rows of d the learned hyperplane
// misclassifies.
func (r *GDResult) Errors(d *Dataset) (int, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.Errors(d)
}

// ErrorRate returns Errors divided by the number of rows of d.
func (r *GDResult) ErrorRate(d *Dataset) (float64, error) {
	h, err := r.hyperplane()
	if err != nil {
		return 0, err
	}
	return h.ErrorRate(d)
}

// errNilModel is the error of a method called on a nil model.
func errNilModel(typ, learner string) error {
	return kindErrorf(ErrModel, "%s is nil: no model (make one with %s, and check its error)", typ, learner)
}
