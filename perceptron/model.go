package perceptron

// Model is what every learned binary classifier of the package answers, the
// same questions in the same way (as every scikit-learn estimator answers
// predict, decision_function and score):
//
//   - Dim, the number of features d it expects;
//   - Score, its decision value for a point (w·x + b for a hyperplane, the
//     vote for the voted perceptron, Σ α_i η y_i k(x_i, x) + b for a kernel
//     model): positive means +1;
//   - Predict, the label of a point: +1, -1, or for a score of exactly 0 what
//     the model's tie policy says (0, always a mistake, with TieMistake; -1
//     with TieNegative). The tie policy is stored in the model: the Tie of
//     the Options it was trained with;
//   - PredictAll, Errors and ErrorRate, the predictions, the number of
//     misclassified rows and their fraction on a data set.
//
// Hyperplane and every learner's result implement it: Result (PLA),
// PocketResult, VotedModel, AveragedResult, DualResult, KernelModel and the
// GradientDescent/SGD result. A point or a data set of the wrong dimension,
// or one that is not finite, is an error.
type Model interface {
	Dim() int
	Score(x []float64) (float64, error)
	Predict(x []float64) (float64, error)
	PredictAll(d *Dataset) ([]float64, error)
	Errors(d *Dataset) (int, error)
	ErrorRate(d *Dataset) (float64, error)
}

// errorRate is Errors / N for the models that count their own errors.
func errorRate(m Model, d *Dataset) (float64, error) {
	e, err := m.Errors(d)
	if err != nil {
		return 0, err
	}
	return float64(e) / float64(d.N()), nil
}

// The results that embed a Hyperplane (Result, PocketResult,
// AveragedResult, DualResult, GDResult) answer Model through their method
// model: the hyperplane they learned, or, for a nil result (the *Result of
// a call whose error was ignored), a nilModel, whose every answer is an
// ErrModel error instead of a nil-pointer panic. Each result declares the
// six Model methods and Validate as single calls of model().

// nilModel is the Model of a nil result: Dim is 0 and every other method
// returns the ErrModel error naming the result's type and the learner that
// makes one.
type nilModel struct{ typ, learner string }

func (m nilModel) err() error {
	return kindErrorf(ErrModel, "%s is nil: no model (make one with %s, and check its error)", m.typ, m.learner)
}

// Dim is 0: a nil result expects no features.
func (nilModel) Dim() int { return 0 }

// Score returns the nil-model error.
func (m nilModel) Score([]float64) (float64, error) { return 0, m.err() }

// Predict returns the nil-model error.
func (m nilModel) Predict([]float64) (float64, error) { return 0, m.err() }

// PredictAll returns the nil-model error.
func (m nilModel) PredictAll(*Dataset) ([]float64, error) { return nil, m.err() }

// Errors returns the nil-model error.
func (m nilModel) Errors(*Dataset) (int, error) { return 0, m.err() }

// ErrorRate returns the nil-model error.
func (m nilModel) ErrorRate(*Dataset) (float64, error) { return 0, m.err() }

// Validate returns the nil-model error.
func (m nilModel) Validate() error { return m.err() }

// validModel is a Model with its Validate: the Model of a result
// (model), whose Validate the result declares too, so that a nil result's
// Validate is an ErrModel error like its other answers, not the
// nil-pointer panic of the Hyperplane method it would promote.
type validModel interface {
	Model
	Validate() error
}
