package perceptron

import (
	"math"
	"reflect"
)

// Learner trains a binary model on a data set labelled -1/+1. Any of the
// package's learners fits in a closure: its result is a Model, whose Score
// (a larger one means more confidently positive) OneVsRest compares.
type Learner func(*Dataset) (Model, error)

// PLALearner returns the Learner that runs PLA with opt and scores with the
// learned hyperplane w·x + b. Other learners (Pocket, a kernel perceptron)
// can be wrapped the same way in a closure.
func PLALearner(opt Options) Learner {
	return func(d *Dataset) (Model, error) {
		r, err := PLA(d, opt)
		if err != nil {
			return nil, err
		}
		return r.Hyperplane, nil
	}
}

// OneVsRestModel is k binary models, one per class: model c separates class
// c (+1) from all the others (−1).
type OneVsRestModel struct {
	// Classes names the classes, indexed by label.
	Classes []string
	// Models[c] scores class c against the rest.
	Models []Model
}

// OneVsRest trains one binary model per class of m with learn: for class c
// the rows of class c are labelled +1 and all the others −1, in their
// original order. It learns what scikit-learn's OneVsRestClassifier learns
// (with PLALearner, the weights of Perceptron(shuffle=False, tol=None,
// eta0=1), bit for bit), and Predict answers as scikit-learn's multi-class
// Perceptron.predict, the argmax with a tie to the lowest class.
// OneVsRestClassifier.predict gives a tie to the highest class instead: on
// integer features, where the scores of PLA are integers and ties are
// common, the two disagree (see Predict). m needs at least two classes and
// every class at least one row. A learner that returns no model, a model
// of another dimension than m's, or one whose Validate method refuses it,
// is an ErrModel error naming the class.
func OneVsRest(m *MultiDataset, learn Learner) (*OneVsRestModel, error) {
	if learn == nil {
		return nil, kindErrorf(ErrOption, "one-vs-rest: learner is nil")
	}
	if err := checkMulti(m); err != nil {
		return nil, err
	}
	k := len(m.ClassNames)
	model := &OneVsRestModel{Classes: append([]string(nil), m.ClassNames...), Models: make([]Model, k)}
	for c := 0; c < k; c++ {
		y := make([]float64, m.N())
		for i, l := range m.Labels {
			y[i] = -1
			if l == c {
				y[i] = 1
			}
		}
		d := &Dataset{X: m.X, Y: y, Features: m.Features, Classes: [2]string{"not " + m.ClassNames[c], m.ClassNames[c]}}
		s, err := learn(d)
		if err != nil {
			return nil, wrapf(err, "one-vs-rest: class %d (%s)", c, m.ClassNames[c])
		}
		if s == nil || isNilModel(s) {
			return nil, kindErrorf(ErrModel, "one-vs-rest: class %d (%s): the learner returned no model and no error", c, m.ClassNames[c])
		}
		// A model that cannot score the rows it learned from is refused
		// here, as a nil one is (helper-70: a model of another dimension,
		// or one its own Validate refuses, was kept, and every Predict
		// failed later).
		// Validate first: an untrained model (a zero Hyperplane, a
		// VotedModel without vectors) has 0 features, and was called
		// one of another dimension, ErrDimension (helper-73).
		if err := validateModel(s); err != nil {
			return nil, modelError(wrapf(err, "one-vs-rest: class %d (%s): the learner returned a model that is not valid", c, m.ClassNames[c]))
		}
		if s.Dim() != m.D() {
			return nil, causeErrorf([]error{ErrModel, ErrDimension}, "one-vs-rest: class %d (%s): the learner returned a model of %d features for data of %d", c, m.ClassNames[c], s.Dim(), m.D())
		}
		model.Models[c] = s
	}
	return model, nil
}

// checkMulti checks that m is non-empty and finite, with at least two
// classes, one label per row in 0..k-1 and at least one row per class.
func checkMulti(m *MultiDataset) error {
	if m == nil || m.X == nil || m.X.IsEmpty() {
		return ErrEmpty
	}
	if len(m.Labels) != m.N() {
		return kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", m.N(), len(m.Labels))
	}
	k := len(m.ClassNames)
	if k < 2 {
		return kindErrorf(ErrClasses, "one-vs-rest: need at least 2 classes, got %d", k)
	}
	count := make([]int, k)
	for i := 0; i < m.N(); i++ {
		if err := checkFinite(m.Row(i), i); err != nil {
			return err
		}
		l := m.Labels[i]
		if l < 0 || l >= k {
			return kindErrorf(ErrLabel, "row %d: class label %d out of range [0, %d)", i, l, k)
		}
		count[l]++
	}
	for c, n := range count {
		if n == 0 {
			return kindErrorf(ErrClasses, "one-vs-rest: class %d (%s) has no rows", c, m.ClassNames[c])
		}
	}
	return nil
}

// Predict returns the class whose model scores x highest, argmax_c f_c(x);
// a tie goes to the lowest class, as in NumPy's argmax and scikit-learn's
// multi-class Perceptron.predict. (scikit-learn's OneVsRestClassifier.predict
// keeps the last class that reaches the maximum, so where the classes tie
// it answers the highest: with PLALearner on the rows -1, 2 and 0 of
// classes 0, 1 and 2 all three models score -1 at 0, and it says 2 where
// Predict, like Perceptron, says 0.) When every model is a *VotedModel, their
// votes are compared exactly, before Score rounds them to float64 (votes
// beyond 2^53 that differ by 1 are not a tie).
func (o *OneVsRestModel) Predict(x []float64) (int, error) {
	if err := o.Validate(); err != nil {
		return 0, err
	}
	voters := true
	for _, s := range o.Models {
		_, ok := s.(*VotedModel)
		voters = voters && ok
	}
	if voters {
		return o.predictVotes(x)
	}
	best, arg := 0.0, -1
	for c, s := range o.Models {
		v, err := s.Score(x)
		if err != nil {
			return 0, err
		}
		if math.IsNaN(v) {
			return 0, kindErrorf(ErrNonFinite, "one-vs-rest: the model of class %d scores NaN", c)
		}
		if arg < 0 || v > best {
			best, arg = v, c
		}
	}
	return arg, nil
}

// Validate reports a OneVsRestModel that cannot predict: nil, with no
// models, with class names that do not match its models one for one (a
// class without a model could never be predicted, a model without a class
// would predict a class that does not exist; an empty Classes, no names
// at all, is allowed), a nil model, a model whose own Validate refuses it
// (named by its class, with that error's kinds), or models of different
// dimensions. Its errors match ErrModel (and ErrDimension for the
// dimensions).
// OneVsRest builds valid models; Predict, PredictAll and ErrorRate call
// Validate first.
func (o *OneVsRestModel) Validate() error { return modelError(o.validate()) }

// validate is Validate with the errors of their own kinds only.
func (o *OneVsRestModel) validate() error {
	if o == nil || len(o.Models) == 0 {
		return kindErrorf(ErrModel, "one-vs-rest: model has no classes")
	}
	if len(o.Classes) > 0 && len(o.Classes) != len(o.Models) {
		return kindErrorf(ErrModel, "one-vs-rest: %d class names but %d models: want one model per class", len(o.Classes), len(o.Models))
	}
	dim := -1
	for c, s := range o.Models {
		if s == nil || isNilModel(s) {
			return kindErrorf(ErrModel, "one-vs-rest: the model of class %d is nil", c)
		}
		// The class's model checked whole, as Predict would meet it: its
		// error named no class, and Validate accepted it (helper-72).
		if err := validateModel(s); err != nil {
			return wrapf(err, "one-vs-rest: the model of class %d%s", c, o.className(c))
		}
		if dim >= 0 && s.Dim() != dim {
			return kindErrorf(ErrDimension, "one-vs-rest: the model of class %d has %d features, that of class 0 has %d", c, s.Dim(), dim)
		}
		dim = s.Dim()
	}
	return nil
}

// validateModel returns the error of s's Validate method, if it has one (a
// Model of the caller's may not).
func validateModel(s Model) error {
	if v, ok := s.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

// className is " (name)" for class c when the model names its classes.
func (o *OneVsRestModel) className(c int) string {
	if c < len(o.Classes) {
		return " (" + o.Classes[c] + ")"
	}
	return ""
}

// predictVotes is Predict when every model is a *VotedModel: the argmax of
// their exact votes, a tie to the lowest class.
func (o *OneVsRestModel) predictVotes(x []float64) (int, error) {
	var best vote
	arg := -1
	for c, s := range o.Models {
		v, err := s.(*VotedModel).exactVote(x)
		if err != nil {
			return 0, err
		}
		if arg < 0 || best.less(v) {
			best, arg = v, c
		}
	}
	return arg, nil
}

// PredictAll returns Predict of every row of m.
func (o *OneVsRestModel) PredictAll(m *MultiDataset) ([]int, error) {
	if m == nil || m.X == nil || m.X.IsEmpty() {
		return nil, ErrEmpty
	}
	out := make([]int, m.N())
	for i := range out {
		p, err := o.Predict(m.Row(i))
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// ErrorRate returns the fraction of rows of m whose predicted class differs
// from their label. A label outside the model's classes is an ErrLabel error
// naming the row (it counted as a mistake).
func (o *OneVsRestModel) ErrorRate(m *MultiDataset) (float64, error) {
	if m != nil && m.X != nil && len(m.Labels) != m.N() {
		return 0, kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", m.N(), len(m.Labels))
	}
	p, err := o.PredictAll(m)
	if err != nil {
		return 0, err
	}
	if len(m.Labels) != m.N() {
		return 0, kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", m.N(), len(m.Labels))
	}
	e := 0
	for i, c := range p {
		if l := m.Labels[i]; l < 0 || l >= len(o.Models) {
			return 0, kindErrorf(ErrLabel, "row %d: class label %d out of the model's range [0, %d)", i, l, len(o.Models))
		}
		if c != m.Labels[i] {
			e++
		}
	}
	return float64(e) / float64(len(p)), nil
}

// isNilModel reports whether s holds a nil pointer (a typed nil, such as a
// (*Result)(nil), which is not == nil as an interface).
func isNilModel(s Model) bool {
	v := reflect.ValueOf(s)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface:
		return v.IsNil()
	}
	return false
}
