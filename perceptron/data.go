package perceptron

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron/internal/delim"
)

// The embedded tables are scikit-learn 1.2.1's copies; data/README.md says
// where each comes from.
//
//go:embed data/iris.csv data/breast_cancer.csv data/digits.csv.gz data/wine_data.csv
var dataFiles embed.FS

var (
	irisOnce = sync.OnceValue(func() *MultiDataset {
		return mustLoad("iris.csv", true, []string{
			"sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"})
	})
	cancerOnce = sync.OnceValue(func() *MultiDataset {
		var names []string
		for _, kind := range []string{"mean ", "", "worst "} {
			for _, f := range []string{"radius", "texture", "perimeter", "area", "smoothness",
				"compactness", "concavity", "concave points", "symmetry", "fractal dimension"} {
				if kind == "" {
					names = append(names, f+" error")
				} else {
					names = append(names, kind+f)
				}
			}
		}
		return mustLoad("breast_cancer.csv", true, names)
	})
	digitsOnce = sync.OnceValue(func() *MultiDataset {
		names := make([]string, 0, 64)
		for i := range 8 {
			for j := range 8 {
				names = append(names, fmt.Sprintf("pixel_%d_%d", i, j))
			}
		}
		return mustLoad("digits.csv.gz", false, names)
	})
	wineOnce = sync.OnceValue(func() *MultiDataset {
		return mustLoad("wine_data.csv", true, []string{"alcohol", "malic_acid", "ash",
			"alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
			"nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
			"od280/od315_of_diluted_wines", "proline"})
	})
)

// Iris returns Fisher's iris data: 150 flowers, 4 features (sepal length,
// sepal width, petal length, petal width, in cm) and 3 classes of 50 rows
// each, setosa (0), versicolor (1) and virginica (2), in the order of
// scikit-learn's load_iris. Setosa is linearly separable from the others;
// versicolor and virginica are not separable from each other. Every call
// returns a new copy.
func Iris() *MultiDataset { return irisOnce().clone() }

// BreastCancer returns the Wisconsin diagnostic breast cancer data: 569
// rows, 30 features (the mean, standard error and worst value of ten cell
// nucleus measurements) and 2 classes, malignant (0, 212 rows) and benign
// (1, 357 rows), as scikit-learn's load_breast_cancer. Every call returns a
// new copy.
func BreastCancer() *MultiDataset { return cancerOnce().clone() }

// Digits returns the handwritten digits data: 1797 images of 8×8 pixels
// with integer values 0..16, flattened row by row into 64 features named
// pixel_<row>_<column>, and 10 classes, the digits "0" to "9", as
// scikit-learn's load_digits. Every call returns a new copy.
func Digits() *MultiDataset { return digitsOnce().clone() }

// Wine returns the wine recognition data: 178 wines, 13 chemical features
// and 3 cultivars, class_0 (59 rows), class_1 (71) and class_2 (48), as
// scikit-learn's load_wine. Every call returns a new copy.
func Wine() *MultiDataset { return wineOnce().clone() }

// mustLoad parses an embedded table. The files are part of the package, so
// a failure is a bug of the package and panics.
func mustLoad(name string, header bool, features []string) *MultiDataset {
	m, err := loadSklearn(name, header, features)
	if err != nil {
		panic(err)
	}
	return m
}

// loadSklearn parses a table in scikit-learn's layout: an optional first
// line "n_samples,n_features,class names...", then the features and the
// integer class of every row. Both parts are read by the package's one
// reader of delimited text (a gzip file decompressed by it); errors keep
// their kind.
func loadSklearn(name string, header bool, features []string) (*MultiDataset, error) {
	raw, err := dataFiles.ReadFile("data/" + name)
	if err != nil {
		return nil, wrapf(err, "embedded %s", name)
	}
	var n, d int
	var classNames []string
	body := raw
	if header {
		end := bytes.IndexByte(raw, '\n')
		if end < 0 {
			end = len(raw)
		}
		in, err := delim.NewReader(bytes.NewReader(raw[:end]), ',')
		if err != nil {
			return nil, wrapf(parseError(err), "embedded %s", name)
		}
		first, _, err := in.Next()
		if err != nil {
			return nil, wrapf(parseError(err), "embedded %s", name)
		}
		f := first.Fields
		if len(f) < 4 {
			return nil, kindErrorf(ErrFormat, "embedded %s: header %q is not n_samples,n_features,classes", name, f)
		}
		if n, err = delim.Int(f[0], 1, 0); err == nil {
			d, err = delim.Int(f[1], 1, 1)
		}
		if err != nil {
			return nil, wrapf(parseError(err), "embedded %s", name)
		}
		classNames = f[2:]
		body = raw[min(end+1, len(raw)):]
	}
	m, err := ReadMultiCSV(bytes.NewReader(body), CSVOptions{Header: HeaderNo, Comma: ','})
	if err != nil {
		var pe *ParseError
		if header && errors.As(err, &pe) && pe.Line > 0 {
			pe.Line++ // the line of the file, header included
		}
		return nil, wrapf(err, "embedded %s", name)
	}
	for i, c := range m.ClassNames {
		if c != strconv.Itoa(i) {
			return nil, kindErrorf(ErrClasses, "embedded %s: class %d is labelled %q", name, i, c)
		}
	}
	if header {
		if m.N() != n || m.D() != d || len(m.ClassNames) != len(classNames) {
			return nil, kindErrorf(ErrDimension, "embedded %s: read %d×%d with %d classes, header says %d×%d with %d",
				name, m.N(), m.D(), len(m.ClassNames), n, d, len(classNames))
		}
		m.ClassNames = classNames
	}
	if len(features) != m.D() {
		return nil, kindErrorf(ErrDimension, "embedded %s: %d feature names for %d features", name, len(features), m.D())
	}
	m.Features = features
	return m, nil
}

// clone returns a deep copy of m.
func (m *MultiDataset) clone() *MultiDataset {
	return &MultiDataset{
		X:          mat.DenseCopyOf(m.X),
		Labels:     slices.Clone(m.Labels),
		Features:   slices.Clone(m.Features),
		ClassNames: slices.Clone(m.ClassNames),
	}
}

// numClasses returns k: the number of class names, or one more than the
// largest label if that is larger.
func (m *MultiDataset) numClasses() int {
	k := len(m.ClassNames)
	for _, l := range m.Labels {
		k = max(k, l+1)
	}
	return k
}

// Class returns the label of the class with the given name.
func (m *MultiDataset) Class(name string) (int, error) {
	if m == nil {
		return 0, kindErrorf(ErrEmpty, "class %q: the data set is nil", name)
	}
	if i := slices.Index(m.ClassNames, name); i >= 0 {
		return i, nil
	}
	q := make([]string, len(m.ClassNames))
	for i, c := range m.ClassNames {
		q[i] = strconv.Quote(c)
	}
	return 0, kindErrorf(ErrClasses, "unknown class %q: the classes are %s", name, strings.Join(q, ", "))
}

// Binary returns the binary data set of two classes: the rows of class neg,
// labelled -1, and of class pos, labelled +1, in their order in m. With
// features, only those 0-based columns are kept, in that order; without,
// all of them. Features and Classes carry the names over. It is an error
// for neg or pos to be out of range or equal, for a class to have no rows,
// or for a feature index to be out of range or repeated.
func (m *MultiDataset) Binary(neg, pos int, features ...int) (*Dataset, error) {
	if m == nil || m.X == nil || m.X.IsEmpty() {
		return nil, ErrEmpty
	}
	if len(m.Labels) != m.N() {
		return nil, kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", m.N(), len(m.Labels))
	}
	k := m.numClasses()
	for _, c := range []int{neg, pos} {
		if c < 0 || c >= k {
			return nil, kindErrorf(ErrClasses, "binary: class %d out of range [0, %d)", c, k)
		}
	}
	if neg == pos {
		return nil, kindErrorf(ErrClasses, "binary: neg and pos are both class %d", neg)
	}
	d := m.D()
	if len(features) == 0 {
		features = make([]int, d)
		for j := range features {
			features[j] = j
		}
	}
	seen := make(map[int]bool, len(features))
	for _, j := range features {
		if j < 0 || j >= d {
			return nil, kindErrorf(ErrOption, "binary: feature %d out of range [0, %d)", j, d)
		}
		if seen[j] {
			return nil, kindErrorf(ErrOption, "binary: feature %d repeated", j)
		}
		seen[j] = true
	}
	var data, y []float64
	counts := map[int]int{}
	for i, l := range m.Labels {
		if l != neg && l != pos {
			continue
		}
		counts[l]++
		row := m.Row(i)
		for _, j := range features {
			data = append(data, row[j])
		}
		if l == pos {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	for _, c := range []int{neg, pos} {
		if counts[c] == 0 {
			return nil, kindErrorf(ErrClasses, "binary: class %d has no rows", c)
		}
	}
	out := &Dataset{X: mat.NewDense(len(y), len(features), data), Y: y}
	if m.Features != nil && len(m.Features) == d {
		out.Features = make([]string, len(features))
		for k, j := range features {
			out.Features[k] = m.Features[j]
		}
	}
	if neg < len(m.ClassNames) && pos < len(m.ClassNames) {
		out.Classes = [2]string{m.ClassNames[neg], m.ClassNames[pos]}
	}
	return out, nil
}
