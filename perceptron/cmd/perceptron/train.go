package main

import (
	"flag"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

// runTrain is the train command: it trains on FILE and prints the model file.
func runTrain(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	algo := fs.String("algo", "pla", "")
	maxEpochs := fs.String("max-epochs", "1000", "")
	maxUpdates := fs.String("max-updates", "0", "")
	order := fs.String("order", "in-order", "")
	seed := fs.String("seed", "1", "")
	eta := fs.String("eta", "1", "")
	tie := fs.String("tie", "mistake", "")
	noBias := fs.Bool("no-bias", false, "")
	df := addDataFlags(fs)
	path, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	opt := perceptron.Options{}
	switch *algo {
	case "pla", "pocket", "averaged", "voted":
	default:
		return usagef("--algo: unknown algorithm %q: want pla, pocket, averaged or voted", *algo)
	}
	if opt.MaxEpochs, err = strconv.Atoi(*maxEpochs); err != nil || opt.MaxEpochs <= 0 {
		return usagef("--max-epochs: want an integer > 0, got %q", *maxEpochs)
	}
	if opt.MaxUpdates, err = strconv.Atoi(*maxUpdates); err != nil || opt.MaxUpdates < 0 {
		return usagef("--max-updates: want an integer >= 0 (0 means no limit), got %q", *maxUpdates)
	}
	if opt.Order, err = perceptron.ParseOrder(*order); err != nil {
		return usagef("--order: %s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	if opt.Seed, err = strconv.ParseUint(*seed, 10, 64); err != nil {
		return usagef("--seed: want an integer in [0, 2^64), got %q", *seed)
	}
	if opt.Eta, err = strconv.ParseFloat(*eta, 64); err != nil || !(opt.Eta > 0) || math.IsInf(opt.Eta, 0) {
		return usagef("--eta: want a finite number > 0, got %q", *eta)
	}
	if opt.Eta < 0x1p-1022 { // the library's one η rule
		return usagef("--eta: %q is subnormal (below 2^-1022, about 2.2e-308): every update would lose bits; use a larger value", *eta)
	}
	if *tie != "mistake" && *tie != "negative" {
		return usagef("--tie: want mistake or negative, got %q", *tie)
	}
	if opt.Tie, err = perceptron.ParseTie(*tie); err != nil {
		return usagef("--tie: %s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	opt.NoBias = *noBias
	d, info, err := readData(path, stdin, df)
	if err != nil {
		return err
	}

	var learned perceptron.Model
	switch *algo {
	case "pla":
		learned, err = perceptron.PLA(d, opt)
	case "pocket":
		learned, err = perceptron.Pocket(d, opt)
	case "averaged":
		learned, err = perceptron.Averaged(d, opt)
	case "voted":
		learned, err = perceptron.Voted(d, opt)
	}
	if err != nil {
		return err
	}
	m, err := newModelFile(learned)
	if err != nil {
		return err
	}
	m.Algo = *algo
	m.N, m.D, m.Columns = d.N(), d.D(), info.columns
	m.Classes, m.ClassNames, m.Features, m.FeatureNames = d.Classes[:], info.classNames, info.features, d.Features
	m.Order, m.Eta, m.Seed = opt.Order.String(), opt.Eta, opt.Seed
	m.MaxEpochs, m.MaxUpdates, m.NoBias = opt.MaxEpochs, opt.MaxUpdates, opt.NoBias
	if m.TrainingErrors, err = learned.Errors(d); err != nil {
		return err
	}
	m.TrainingError = float64(m.TrainingErrors) / float64(d.N())
	return m.WriteJSON(stdout)
}
