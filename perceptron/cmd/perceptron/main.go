// Command perceptron trains the perceptrons of package perceptron on a data
// file, predicts with a trained model and computes the convergence bound.
//
// Usage:
//
//	perceptron train [flags] FILE
//	perceptron predict --model MODEL.json [--header auto|yes|no] FILE
//	perceptron bound [--no-bias] [--features 0,2] [--classes A,B] [--header auto|yes|no] FILE
//	perceptron version
//
// Run "perceptron help" for the flags, or "perceptron CMD --help" for one
// command's. train prints one JSON object, which is also the model file
// that predict reads (ModelFile, in modelfile.go; predict refuses a file
// with anything after that one object). FILE "-" is standard input.
//
// The exit status is 0 on success (and for --help), 2 for a usage error (an
// unknown command or flag, a bad flag value, a missing argument) and 1 for
// an error in the data or the model file, or for a report that could not
// be written (the model, the labels, predict's error rate on stderr, the
// help: a full disk or a closed pipe is no success).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

const usageHead = `usage:
  perceptron train [flags] FILE
  perceptron predict --model MODEL.json [--header auto|yes|no] FILE
  perceptron bound [--no-bias] [--features LIST] [--classes A,B] [--header auto|yes|no] FILE
  perceptron version
  perceptron help [COMMAND]

FILE holds one point per line, comma- or whitespace-separated, the label in
the last column (a UTF-8 byte order mark is ignored). Its first line is a
header if --header yes, or (auto) if none of its feature fields is a number
or a missing-value marker such as "?" or "NA": any other first line is
data, so no data row is ever dropped. A first line
"n_samples,n_features,names..." (the layout of scikit-learn's data files:
distinct names that are not numbers, n_features one less than the data's
fields, then labels 0, 1, ... that index the names) is recognised and
skipped, and its class names may be given to --classes; every label must
then be an index of a name and, without --classes (which picks rows: a
file cut to two of the classes trains), the file must have n_samples rows.
Labels that are numbers are one class when their values are equal ("1",
"1.0", "+1"), exactly: 2^53 and 2^53 + 1 are two. A blank label is
missing; in a comma-separated file, a label such as "5;a" (a ';' or a
tab after a number) is refused: the file may be ';'- or tab-separated
with decimal commas, which this reader does not take.
Labels -1 and +1 name their classes even if one of them is absent.
Labels and header names must be UTF-8 text (the model is JSON, which
keeps them byte for byte): a file saved as Windows-1252 or Latin-1 is
refused with the line and column of the first field that is not.
`

const trainUsage = `train flags:
  --algo pla|pocket|averaged|voted   learner (default pla)
  --max-epochs N     most passes over the data, N > 0 (default 1000)
  --max-updates N    stop after N updates, 0 = no limit (default 0)
  --order in-order|random-cycle|shuffle|mistake   visiting order (default in-order)
  --seed N           seed of the random orders (default 1)
  --eta X            learning rate, X > 0 (default 1)
  --tie mistake|negative   a score of 0 is a mistake (default) or -1
  --no-bias          fix b = 0
  --features LIST    0-based feature columns, e.g. 0,2 (default all but the last)
  --classes A,B      the two labels to keep, A -> -1 and B -> +1
                     (default: the file's two labels, the smaller -> -1)
  --header auto|yes|no   (default auto)
train prints one JSON object: the learned w and b, what the run did
(updates, epochs, converged, updates_per_epoch, last_mistake_row), the
training error, the data (n, d, columns, classes, features) and the options.
pocket adds pocket_errors and the last PLA weights ("last"), averaged the
last weights and the explicitly computed average, voted its weight vectors
with their survival counts ("vectors", "n_vectors").
`

const predictUsage = `predict flags:
  --model MODEL.json   the model printed by train (required)
  --header auto|yes|no   (default auto)
predict reads that JSON as the model (checking it: finite weights,
dimensions that agree, a known tie policy, no negative vote counts, and
no contradiction a hand edit makes: b = 0 under no_bias, w the explicit
average (averaged, which needs it) or the last vector (voted), names as
many as the features and classes, pocket_errors at most n, no field of
another algo's model) and
prints one label per line of FILE, as the labels are written in the
training file (classes[0] for -1, classes[1] for +1; "?" for a score of
exactly 0 of a model trained with --tie mistake, which counts as an
error). FILE has the
columns of the training file: with the label column last (as many columns
as the training file), the error rate over every row goes to stderr (a
row whose label is neither class, a third class of the file, is an
error); without it (one column fewer) only the labels are printed. If
the model was trained with a header and FILE has one, its feature
columns must carry the same names in the same order (compared up to
case and the spaces around them); a first line that carries them
(numbers too, as "2019,2020" read with --header yes) and no class as its
label is that header.
`

const boundUsage = `bound flags:
  --no-bias          the theorem for PLA without a bias (through the origin)
  --features LIST    0-based feature columns (default all but the last)
  --classes A,B      the two labels to keep
  --header auto|yes|no   (default auto)
bound prints R, gamma, bound = (R/gamma)^2, separable and the target
hyperplane of the perceptron convergence theorem (bound, gamma and target
are null when the data is not linearly separable).
`

const versionUsage = `version:
  prints the module version ("(devel)" when built from a checkout, with the
  commit when known) and the Go version it was built with.
`

const usageTail = `
FILE "-" is standard input ("train - < data.csv", "zcat d.gz | train -");
a file named "-" is "./-". Flags may come before or after FILE; "--" ends
them (a FILE named "-x.csv" follows it).

Errors go to stderr as "perceptron: ..."; the exit status is 2 for a usage
error (unknown command or flag, bad flag value, missing argument) and 1 for
bad data, a bad model file, or output that could not be written.
`

// usage is the text of "perceptron help".
const usage = usageHead + "\n" + trainUsage + "\n" + predictUsage + "\n" + boundUsage + "\n" + versionUsage + usageTail

// commandUsage is the text of "perceptron CMD --help".
var commandUsage = map[string]string{
	"train":   "usage: perceptron train [flags] FILE\n\n" + trainUsage,
	"predict": "usage: perceptron predict --model MODEL.json [--header auto|yes|no] FILE\n\n" + predictUsage,
	"bound":   "usage: perceptron bound [--no-bias] [--features LIST] [--classes A,B] [--header auto|yes|no] FILE\n\n" + boundUsage,
	"version": "usage: perceptron version\n\n" + versionUsage,
}

// exitUsage and exitData are the exit statuses of the two kinds of error.
const (
	exitUsage = 2
	exitData  = 1
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	cmd := args[0]
	switch cmd {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if u, ok := commandUsage[args[1]]; ok {
				return printed(stdout, stderr, u)
			}
			err = usagef("help: unknown command %q: want train, predict, bound or version", args[1])
			break
		}
		return printed(stdout, stderr, usage)
	case "train":
		err = runTrain(args[1:], stdin, stdout)
	case "predict":
		err = runPredict(args[1:], stdin, stdout, stderr)
	case "bound":
		err = runBound(args[1:], stdin, stdout)
	case "version":
		err = runVersion(args[1:], stdout)
	default:
		err = usagef("unknown command %q: want train, predict, bound, version or help", cmd)
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, errHelp) {
		return printed(stdout, stderr, commandUsage[cmd])
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "perceptron: ") {
		msg = "perceptron: " + msg
	}
	fmt.Fprintln(stderr, msg)
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitData
}

// printed writes text, a help the command prints, to stdout and returns
// the exit status: 0, or 1 (with the error on stderr) when the write
// fails, as for every report of the commands (the model train prints,
// predict's labels and error rate): a report that was not written is no
// success.
func printed(stdout, stderr io.Writer, text string) int {
	if _, err := io.WriteString(stdout, text); err != nil {
		fmt.Fprintf(stderr, "perceptron: writing the help: %v\n", err)
		return exitData
	}
	return 0
}
