package perceptron_test

import (
	"fmt"
	"log"

	"github.com/perceptron-go/lessons/perceptron"
)

// mitSeparable is MIT 6.036's "super_simple_separable_through_origin".
func mitSeparable() *perceptron.Dataset {
	d, err := perceptron.NewDataset([][]float64{{2, 5}, {3, 1}, {9, 6}, {12, 5}}, []float64{1, -1, 1, -1})
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// mitXor is MIT 6.036's "xor": no line separates it.
func mitXor() *perceptron.Dataset {
	d, err := perceptron.NewDataset([][]float64{{1, 1}, {2, 2}, {1, 2}, {2, 1}}, []float64{1, 1, -1, -1})
	if err != nil {
		log.Fatal(err)
	}
	return d
}

func ExamplePLA() {
	opt := perceptron.Options{}
	var rec perceptron.Recorder
	opt.Control.Observer = rec.Observe
	res, err := perceptron.PLA(mitSeparable(), opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range rec.Updates {
		fmt.Printf("epoch %d, row %d, score %v: w = %v, b = %v\n", u.Epoch, u.Row, u.Score, u.W, u.B)
	}
	fmt.Printf("w = %v, b = %v after %d updates in %d epochs, converged: %v\n",
		res.W, res.B, res.Updates, res.Epochs, res.Converged)
	// Output:
	// epoch 0, row 0, score 0: w = [2 5], b = 1
	// epoch 0, row 1, score 12: w = [-1 4], b = 0
	// epoch 0, row 3, score 8: w = [-13 -1], b = -1
	// epoch 1, row 0, score -32: w = [-11 4], b = 0
	// epoch 1, row 2, score -75: w = [-2 10], b = 1
	// epoch 1, row 3, score 27: w = [-14 5], b = 0
	// epoch 2, row 0, score -3: w = [-12 10], b = 1
	// epoch 2, row 2, score -47: w = [-3 16], b = 2
	// epoch 2, row 3, score 46: w = [-15 11], b = 1
	// epoch 3, row 2, score -68: w = [-6 17], b = 2
	// epoch 3, row 3, score 15: w = [-18 12], b = 1
	// epoch 4, row 2, score -89: w = [-9 18], b = 2
	// w = [-9 18], b = 2 after 12 updates in 6 epochs, converged: true
}

func ExampleOnline() {
	o, err := perceptron.NewOnline(2, 1, perceptron.TieMistake)
	if err != nil {
		log.Fatal(err)
	}
	stream := []struct {
		x []float64
		y float64
	}{{[]float64{2, 5}, 1}, {[]float64{3, 1}, -1}, {[]float64{9, 6}, 1}, {[]float64{12, 5}, -1}, {[]float64{2, 5}, 1}}
	for _, p := range stream {
		mistake, err := o.Step(p.x, p.y)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("x = %v, y = %+v: mistake %v, w = %v, b = %v\n", p.x, p.y, mistake, o.W, o.B)
	}
	fmt.Printf("%d mistakes on %d points\n", o.Mistakes, o.Seen)
	// Output:
	// x = [2 5], y = 1: mistake true, w = [2 5], b = 1
	// x = [3 1], y = -1: mistake true, w = [-1 4], b = 0
	// x = [9 6], y = 1: mistake false, w = [-1 4], b = 0
	// x = [12 5], y = -1: mistake true, w = [-13 -1], b = -1
	// x = [2 5], y = 1: mistake true, w = [-11 4], b = 0
	// 4 mistakes on 5 points
}

func ExamplePocket() {
	opt := perceptron.Options{}
	opt.MaxUpdates = 10
	res, err := perceptron.Pocket(mitXor(), opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.History {
		fmt.Printf("update %d: %d errors, pocket %d, replaced %v\n", s.Update, s.Errors, s.PocketErrors, s.Replaced)
	}
	fmt.Printf("pocket w = %v, b = %v with %d errors; last w = %v, b = %v\n",
		res.W, res.B, res.PocketErrors, res.Last.W, res.Last.B)
	// Output:
	// update 1: 2 errors, pocket 2, replaced true
	// update 2: 2 errors, pocket 2, replaced false
	// update 3: 2 errors, pocket 2, replaced false
	// update 4: 2 errors, pocket 2, replaced false
	// update 5: 2 errors, pocket 2, replaced false
	// update 6: 2 errors, pocket 2, replaced false
	// update 7: 3 errors, pocket 2, replaced false
	// update 8: 2 errors, pocket 2, replaced false
	// update 9: 1 errors, pocket 1, replaced true
	// update 10: 2 errors, pocket 1, replaced false
	// pocket w = [2 -2], b = 1 with 1 errors; last w = [0 -3], b = 0
}

func ExampleAveraged() {
	opt := perceptron.Options{}
	opt.MaxEpochs = 100 // MIT 6.036 hw2: T = 100, no early stop
	res, err := perceptron.Averaged(mitSeparable(), opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("last:     w = %v, b = %v\n", res.Last.W, res.Last.B)
	fmt.Printf("averaged: w = [%.4f %.4f], b = %.4f\n", res.W[0], res.W[1], res.B)
	// Output:
	// last:     w = [-9 18], b = 2
	// averaged: w = [-9.0525 17.5825], b = 1.9425
}

func ExampleVoted() {
	opt := perceptron.Options{}
	opt.MaxEpochs = 10
	v, err := perceptron.Voted(mitSeparable(), opt)
	if err != nil {
		log.Fatal(err)
	}
	// The last vector, w = (-9, 18), b = 2, survives the 22 steps of the
	// clean epochs: Voted does not stop after a clean pass.
	fmt.Printf("%d vectors, counts %v\n", len(v.Vectors), v.Counts)
	for _, x := range [][]float64{{2, 5}, {3, 1}, {9, 6}, {12, 5}, {0, 0}} {
		s, _ := v.Score(x)
		p, _ := v.Predict(x)
		fmt.Printf("x = %v: vote %v, prediction %v\n", x, s, p)
	}
	e, _ := v.Errors(mitSeparable())
	fmt.Printf("%d training errors\n", e)
	// Output:
	// 13 vectors, counts [0 1 2 1 2 1 1 2 1 3 1 3 22]
	// x = [2 5]: vote 32, prediction 1
	// x = [3 1]: vote -28, prediction -1
	// x = [9 6]: vote 16, prediction 1
	// x = [12 5]: vote -28, prediction -1
	// x = [0 0]: vote 33, prediction 1
	// 0 training errors
}
