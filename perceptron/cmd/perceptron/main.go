// Command perceptron trains the perceptrons of package perceptron on a data
// file, predicts with a trained model and computes the convergence bound.
//
// Usage:
//
//	perceptron train [flags] FILE
//	perceptron predict --model MODEL.json [--header auto|yes|no] FILE
//	perceptron bound [--no-bias] [--features 0,2] [--classes A,B] [--header auto|yes|no] FILE
//
// Run "perceptron help" for the flags. train prints one JSON object, which
// is also the model file that predict reads.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

const usage = `usage:
  perceptron train [flags] FILE
  perceptron predict --model MODEL.json [--header auto|yes|no] FILE
  perceptron bound [--no-bias] [--features LIST] [--classes A,B] [--header auto|yes|no] FILE
  perceptron help

FILE holds one point per line, comma- or whitespace-separated, the label in
the last column. Its first line is a header if --header yes, or (auto) if
one of its feature fields is not a number or its label is not a number while
every other label is. A first line "n_samples,n_features,names..." (the
layout of scikit-learn's data files) is recognised and skipped, and its class
names may be given to --classes.

train flags:
  --algo pla|pocket|averaged|voted   learner (default pla)
  --max-epochs N     most passes over the data, N > 0 (default 1000)
  --max-updates N    stop after N updates, 0 = no limit (default 0)
  --order cyclic|cycle|shuffle|mistake   visiting order (default cyclic)
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

predict reads that JSON as the model and prints one label per line of FILE,
as the labels are written in the training file (classes[0] for -1,
classes[1] for +1; "?" for a score of exactly 0 under --tie mistake, which
counts as an error). FILE has the columns of the training file: with the
label column last (as many columns as the training file), the error rate on
the rows whose label is one of the two classes goes to stderr; without it
(one column fewer) only the labels are printed.

bound prints R, gamma, bound = (R/gamma)^2, separable and the target
hyperplane of the perceptron convergence theorem (bound, gamma and target
are null when the data is not linearly separable).

Errors go to stderr as "perceptron: ..."; the exit status is 2 for a usage
error and 1 for bad data.
`

// exitUsage and exitData are the exit statuses of the two kinds of error.
const (
	exitUsage = 2
	exitData  = 1
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a bad command line (exit status 2); any other error is bad
// data (exit status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "train":
		err = train(args[1:], stdout)
	case "predict":
		err = predict(args[1:], stdout, stderr)
	case "bound":
		err = bound(args[1:], stdout)
	default:
		err = usagef("unknown command %q: want train, predict, bound or help", args[0])
	}
	if err == nil {
		return 0
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

// parseFlags parses args with fs, allowing flags after the file name, and
// returns the one positional argument.
func parseFlags(fs *flag.FlagSet, args []string) (string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	switch len(pos) {
	case 0:
		return "", usagef("%s: missing FILE", fs.Name())
	case 1:
		return pos[0], nil
	}
	return "", usagef("%s: want one FILE, got %d: %s", fs.Name(), len(pos), strings.Join(pos, " "))
}

// dataFlags are the flags that say how to read a data file.
type dataFlags struct {
	features, classes, header *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{
		features: fs.String("features", "", "0-based feature columns"),
		classes:  fs.String("classes", "", "two labels A,B"),
		header:   fs.String("header", "auto", "auto, yes or no"),
	}
}

// dataInfo is what the command knows about a data file beyond the Dataset.
type dataInfo struct {
	columns    int      // fields per line
	features   []int    // the feature columns used
	classNames []string // names of the two classes from a scikit-learn layout first line
}

// parseHeader parses --header.
func parseHeader(s string) (perceptron.HeaderMode, error) {
	switch s {
	case "auto":
		return perceptron.HeaderAuto, nil
	case "yes":
		return perceptron.HeaderYes, nil
	case "no":
		return perceptron.HeaderNo, nil
	}
	return 0, usagef("--header: want auto, yes or no, got %q", s)
}

// parseFeatures parses --features: "" means nil (every column but the last).
func parseFeatures(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		j, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || j < 0 {
			return nil, usagef("--features: want 0-based column numbers separated by commas, got %q", s)
		}
		out = append(out, j)
	}
	return out, nil
}

// parseClasses parses --classes: "" means nil (the file's two labels).
func parseClasses(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	c := strings.Split(s, ",")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	if len(c) != 2 || c[0] == "" || c[1] == "" {
		return nil, usagef("--classes: want two labels separated by a comma, got %q", s)
	}
	if c[0] == c[1] {
		return nil, usagef("--classes: the two labels are both %q", c[0])
	}
	return c, nil
}

// splitter returns how to split the lines of a file whose first non-blank
// line is first: at commas if it holds one, else at runs of blanks.
func splitter(first string) func(string) []string {
	if strings.Contains(first, ",") {
		return func(s string) []string {
			f := strings.Split(s, ",")
			for i := range f {
				f[i] = strings.Trim(strings.TrimSpace(f[i]), `"`)
			}
			return f
		}
	}
	return strings.Fields
}

// headLines returns the first two non-blank lines of the file (fewer if it
// has fewer).
func headLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var out []string
	for len(out) < 2 && sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

// sklearnNames reports whether first is scikit-learn's first line
// "n_samples,n_features,class names..." for data lines of ncol fields, and
// returns the class names.
func sklearnNames(first []string, ncol int) ([]string, bool) {
	if len(first) < 4 {
		return nil, false
	}
	n, err1 := strconv.Atoi(first[0])
	d, err2 := strconv.Atoi(first[1])
	if err1 != nil || err2 != nil || n <= 0 || d != ncol-1 {
		return nil, false
	}
	for _, name := range first[2:] {
		if _, err := strconv.ParseFloat(name, 64); err != nil {
			return first[2:], true
		}
	}
	return nil, false
}

// readData reads the training file as the data flags say.
func readData(path string, df dataFlags) (*perceptron.Dataset, dataInfo, error) {
	var info dataInfo
	mode, err := parseHeader(*df.header)
	if err != nil {
		return nil, info, err
	}
	feats, err := parseFeatures(*df.features)
	if err != nil {
		return nil, info, err
	}
	classes, err := parseClasses(*df.classes)
	if err != nil {
		return nil, info, err
	}
	head, err := headLines(path)
	if err != nil {
		return nil, info, err
	}
	if len(head) == 0 {
		return nil, info, fmt.Errorf("perceptron: %s: empty data: no rows", path)
	}
	split := splitter(head[0])
	info.columns = len(split(head[len(head)-1]))
	if mode == perceptron.HeaderAuto && len(head) == 2 {
		if names, ok := sklearnNames(split(head[0]), info.columns); ok {
			mode = perceptron.HeaderYes
			info.classNames = names
			for i, c := range classes {
				for k, name := range names {
					if c == name {
						classes[i] = strconv.Itoa(k)
					}
				}
			}
		}
	}
	d, err := perceptron.ReadCSVFile(path, perceptron.CSVOptions{Header: mode, Features: feats, Classes: classes})
	if err != nil {
		// Speak of the flag, not of the Go option behind it.
		return nil, info, errors.New(strings.ReplaceAll(err.Error(), "set CSVOptions.Classes", "use --classes A,B"))
	}
	if info.classNames != nil {
		d.Features = nil // the first line held counts and class names
		// Name the two classes kept, -1 first.
		names := make([]string, 2)
		for i, c := range d.Classes {
			k, err := strconv.Atoi(c)
			if err != nil || k < 0 || k >= len(info.classNames) {
				names = nil
				break
			}
			names[i] = info.classNames[k]
		}
		info.classNames = names
	}
	info.features = feats
	if feats == nil {
		for j := 0; j < info.columns-1; j++ {
			info.features = append(info.features, j)
		}
	}
	return d, info, nil
}

// hyper is a hyperplane in JSON.
type hyper struct {
	W []float64 `json:"w"`
	B float64   `json:"b"`
}

// vote is one weight vector of the voted perceptron with its survival count.
type vote struct {
	W     []float64 `json:"w"`
	B     float64   `json:"b"`
	Count int       `json:"count"`
}

// model is the output of train and the model file of predict.
type model struct {
	Algo            string    `json:"algo"`
	W               []float64 `json:"w"`
	B               float64   `json:"b"`
	Updates         int       `json:"updates"`
	Epochs          int       `json:"epochs"`
	Converged       bool      `json:"converged"`
	UpdatesPerEpoch []int     `json:"updates_per_epoch"`
	LastMistakeRow  int       `json:"last_mistake_row"`
	TrainingError   float64   `json:"training_error"`
	TrainingErrors  int       `json:"training_errors"`
	N               int       `json:"n"`
	D               int       `json:"d"`
	Columns         int       `json:"columns"`
	Classes         []string  `json:"classes"`
	ClassNames      []string  `json:"class_names,omitempty"`
	Features        []int     `json:"features"`
	FeatureNames    []string  `json:"feature_names,omitempty"`
	Tie             string    `json:"tie"`
	Order           string    `json:"order"`
	Eta             float64   `json:"eta"`
	Seed            uint64    `json:"seed"`
	MaxEpochs       int       `json:"max_epochs"`
	MaxUpdates      int       `json:"max_updates"`
	NoBias          bool      `json:"no_bias"`
	PocketErrors    *int      `json:"pocket_errors,omitempty"`
	Last            *hyper    `json:"last,omitempty"`
	Explicit        *hyper    `json:"explicit,omitempty"`
	NVectors        int       `json:"n_vectors,omitempty"`
	Vectors         []vote    `json:"vectors,omitempty"`
}

// writeJSON prints v indented.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("perceptron: cannot write the result as JSON (are the weights finite?): %v", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func train(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	algo := fs.String("algo", "pla", "")
	maxEpochs := fs.String("max-epochs", "1000", "")
	maxUpdates := fs.String("max-updates", "0", "")
	order := fs.String("order", "cyclic", "")
	seed := fs.String("seed", "1", "")
	eta := fs.String("eta", "1", "")
	tie := fs.String("tie", "mistake", "")
	noBias := fs.Bool("no-bias", false, "")
	df := addDataFlags(fs)
	path, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	opt := perceptron.DefaultOptions()
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
	if *tie != "mistake" && *tie != "negative" {
		return usagef("--tie: want mistake or negative, got %q", *tie)
	}
	if opt.Tie, err = perceptron.ParseTie(*tie); err != nil {
		return usagef("--tie: %s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	opt.NoBias = *noBias
	d, info, err := readData(path, df)
	if err != nil {
		return err
	}

	m := &model{Algo: *algo, N: d.N(), D: d.D(), Columns: info.columns,
		Classes: d.Classes[:], ClassNames: info.classNames, Features: info.features,
		FeatureNames: d.Features, Tie: opt.Tie.String(), Order: opt.Order.String(),
		Eta: opt.Eta, Seed: opt.Seed, MaxEpochs: opt.MaxEpochs, MaxUpdates: opt.MaxUpdates,
		NoBias: opt.NoBias}
	var res perceptron.Result
	switch *algo {
	case "pla":
		r, err := perceptron.PLA(d, opt)
		if err != nil {
			return err
		}
		res = *r
	case "pocket":
		r, err := perceptron.Pocket(d, opt)
		if err != nil {
			return err
		}
		res = r.Result
		m.PocketErrors = &r.PocketErrors
		m.Last = &hyper{W: r.Last.W, B: r.Last.B}
	case "averaged":
		r, err := perceptron.Averaged(d, opt)
		if err != nil {
			return err
		}
		res = r.Result
		m.Last = &hyper{W: r.Last.W, B: r.Last.B}
		m.Explicit = &hyper{W: r.Explicit.W, B: r.Explicit.B}
	case "voted":
		r, err := perceptron.Voted(d, opt)
		if err != nil {
			return err
		}
		res = r.Result
		for k, h := range r.Vectors {
			m.Vectors = append(m.Vectors, vote{W: h.W, B: h.B, Count: r.Counts[k]})
		}
		m.NVectors = len(m.Vectors)
	}
	m.W, m.B = res.W, res.B
	m.Updates, m.Epochs, m.Converged = res.Updates, res.Epochs, res.Converged
	m.UpdatesPerEpoch, m.LastMistakeRow = res.UpdatesPerEpoch(), res.LastMistakeRow
	if m.UpdatesPerEpoch == nil {
		m.UpdatesPerEpoch = []int{}
	}
	for i := 0; i < d.N(); i++ {
		if m.predict(d.Row(i), opt.Tie) != d.Y[i] {
			m.TrainingErrors++
		}
	}
	m.TrainingError = float64(m.TrainingErrors) / float64(d.N())
	return writeJSON(stdout, m)
}

// predict returns the model's prediction for x: +1, -1 or, for a tie
// under TieMistake, 0. x has the model's dimension.
func (m *model) predict(x []float64, tie perceptron.Tie) float64 {
	if m.Algo != "voted" {
		s, _ := perceptron.Hyperplane{W: m.W, B: m.B}.Score(x)
		return tie.Sign(s)
	}
	var s float64
	for _, v := range m.Vectors {
		if v.Count != 0 {
			sc, _ := perceptron.Hyperplane{W: v.W, B: v.B}.Score(x)
			s += float64(v.Count) * tie.Sign(sc)
		}
	}
	return tie.Sign(s)
}

// readModel reads and checks a model file written by train.
func readModel(path string) (*model, perceptron.Tie, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var m model
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, 0, fmt.Errorf("perceptron: model %s: %v", path, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("perceptron: model %s: "+format, append([]any{path}, args...)...)
	}
	tie, err := perceptron.ParseTie(m.Tie)
	if err != nil {
		return nil, 0, bad("%s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	switch {
	case len(m.W) == 0:
		return nil, 0, bad("no weights \"w\"")
	case len(m.Features) != len(m.W):
		return nil, 0, bad("%d features but %d weights", len(m.Features), len(m.W))
	case len(m.Classes) != 2:
		return nil, 0, bad("want two classes, got %d", len(m.Classes))
	}
	for _, j := range m.Features {
		if j < 0 || j >= m.Columns-1 {
			return nil, 0, bad("feature column %d out of range for %d columns", j, m.Columns)
		}
	}
	switch m.Algo {
	case "pla", "pocket", "averaged":
	case "voted":
		if len(m.Vectors) == 0 {
			return nil, 0, bad("a voted model needs its \"vectors\"")
		}
		for k, v := range m.Vectors {
			if len(v.W) != len(m.W) {
				return nil, 0, bad("vector %d has %d weights, want %d", k, len(v.W), len(m.W))
			}
		}
	default:
		return nil, 0, bad("unknown algo %q", m.Algo)
	}
	return &m, tie, nil
}

// sameLabel reports whether the label field s names the class c: as
// numbers if both parse as numbers, else as strings.
func sameLabel(s, c string) bool {
	a, err1 := strconv.ParseFloat(s, 64)
	b, err2 := strconv.ParseFloat(c, 64)
	if err1 == nil && err2 == nil {
		return a == b
	}
	return s == c
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func predict(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	modelPath := fs.String("model", "", "")
	header := fs.String("header", "auto", "")
	path, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" {
		return usagef("predict: missing --model MODEL.json")
	}
	mode, err := parseHeader(*header)
	if err != nil {
		return err
	}
	m, tie, err := readModel(*modelPath)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var (
		split           func(string) []string
		labelled        bool
		x               = make([]float64, len(m.W))
		out             strings.Builder // printed only if every line is good
		rows, scored, e int
		firstLine       int // the first data line and its number of fields
		firstCols       int
	)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		first := split == nil
		if first {
			split = splitter(s)
		}
		fields := split(s)
		if first {
			switch mode {
			case perceptron.HeaderYes:
				continue
			case perceptron.HeaderAuto:
				if _, ok := sklearnNames(fields, m.Columns); ok {
					continue
				}
				if len(fields) == m.Columns || len(fields) == m.Columns-1 {
					hdr := false
					for _, j := range m.Features {
						hdr = hdr || !isNumber(fields[j])
					}
					if hdr {
						continue
					}
				}
			}
		}
		if rows == 0 {
			switch len(fields) {
			case m.Columns:
				labelled = true
			case m.Columns - 1:
			default:
				return fmt.Errorf("perceptron: %s: line %d has %d fields; the model wants %d (features and label, as in training) or %d (features only)",
					path, line, len(fields), m.Columns, m.Columns-1)
			}
			firstLine, firstCols = line, len(fields)
		} else if len(fields) != firstCols {
			return fmt.Errorf("perceptron: %s: line %d: %d fields, expected %d (as on line %d)", path, line, len(fields), firstCols, firstLine)
		}
		for k, j := range m.Features {
			v, err := strconv.ParseFloat(fields[j], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("perceptron: %s: line %d, column %d: %q is not a finite number", path, line, j, fields[j])
			}
			x[k] = v
		}
		rows++
		p := m.predict(x, tie)
		name := "?"
		switch p {
		case -1:
			name = m.Classes[0]
		case 1:
			name = m.Classes[1]
		}
		out.WriteString(name + "\n")
		if labelled {
			label := fields[m.Columns-1]
			var y float64
			switch {
			case sameLabel(label, m.Classes[0]):
				y = -1
			case sameLabel(label, m.Classes[1]):
				y = 1
			default:
				continue
			}
			scored++
			if p != y {
				e++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("perceptron: %s: %v", path, err)
	}
	if rows == 0 {
		return fmt.Errorf("perceptron: %s: empty data: no rows", path)
	}
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		return err
	}
	if labelled {
		if scored == 0 {
			fmt.Fprintf(stderr, "error rate: no row has label %q or %q\n", m.Classes[0], m.Classes[1])
		} else {
			fmt.Fprintf(stderr, "error rate: %d of %d rows = %g", e, scored, float64(e)/float64(scored))
			if scored < rows {
				fmt.Fprintf(stderr, " (%d rows with other labels not scored)", rows-scored)
			}
			fmt.Fprintln(stderr)
		}
	}
	return nil
}

func bound(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bound", flag.ContinueOnError)
	noBias := fs.Bool("no-bias", false, "")
	df := addDataFlags(fs)
	path, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	d, info, err := readData(path, df)
	if err != nil {
		return err
	}
	b, err := perceptron.Bound(d, *noBias)
	if err != nil {
		return err
	}
	type boundJSON struct {
		R         float64  `json:"R"`
		Gamma     *float64 `json:"gamma"`
		Bound     *float64 `json:"bound"`
		Separable bool     `json:"separable"`
		Target    *hyper   `json:"target"`
		NoBias    bool     `json:"no_bias"`
		N         int      `json:"n"`
		D         int      `json:"d"`
		Classes   []string `json:"classes"`
		Features  []int    `json:"features"`
	}
	out := boundJSON{R: b.R, Separable: b.Separable, NoBias: *noBias, N: d.N(), D: d.D(),
		Classes: d.Classes[:], Features: info.features}
	if b.Separable {
		out.Gamma, out.Bound = &b.Gamma, &b.Bound
		out.Target = &hyper{W: b.Target.W, B: b.Target.B}
	}
	return writeJSON(stdout, out)
}
