package perceptron

// Recorder keeps every Update a learner reports. Use it as
//
//	var rec perceptron.Recorder
//	opt.Control.Observer = rec.Observe
//
// and read rec.Updates after the run.
type Recorder struct {
	// Updates holds the updates in the order they were made.
	Updates []Update
}

// Observe appends u to r.Updates, copying X and W so that they keep the
// values they had at the time of the update.
func (r *Recorder) Observe(u Update) {
	u.X = append([]float64(nil), u.X...)
	u.W = append([]float64(nil), u.W...)
	r.Updates = append(r.Updates, u)
}
