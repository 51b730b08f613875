#!/usr/bin/python3
"""Golden values for perceptron/sklearn_test.go: scikit-learn's Perceptron on
real rows, recorded bit for bit.

Regenerate (from the repository root) with Debian's python3-sklearn:

    /usr/bin/python3 perceptron/testdata/sklearn/make_perceptron_golden.py \
        /work/shared/data > perceptron/testdata/sklearn/perceptron_golden.json

Made with Python 3.11.2, NumPy 1.24.2, scikit-learn 1.2.1 (Debian 12,
x86_64); the versions used are also written into the JSON.

The data directory holds the same files the Go package embeds
(perceptron/data): iris.csv, breast_cancer.csv, wine_data.csv (first line
"n_samples,n_features,<class names>", then features and the integer class in
the last column) and digits.csv.gz (no first line). They are the very files
scikit-learn 1.2.1 ships, and the script checks that they equal
sklearn.datasets.load_*.

For every case (two classes neg < pos of a data set, all features or a
subset, rows kept in file order) and every max_iter k it fits

    Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k)

(fit_intercept=True, penalty=None: plain w <- w + y x, b <- b + y on every
y (w.x + b) <= 0, rows in order, k full epochs). scikit-learn maps the
smaller class (neg) to -1 and pos to +1, as Binary(neg, pos) does.
Recorded: coef_ and intercept_ as float.hex strings (exact), n_iter_, the
classes, the predictions as a string of "+" and "-" for +1 and -1, one
character a row (predict: score > 0 gives pos, so a score
of exactly 0 gives -1, the package's TieNegative) and the number of
training errors of those predictions.
"""
import gzip
import json
import sys
import warnings

import numpy as np
import sklearn
from sklearn import datasets
from sklearn.linear_model import Perceptron

MAX_ITERS = [1, 2, 5, 20, 100]


def read_table(path):
    """Returns X (float64) and the integer labels of a data file."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    if not path.endswith(".gz"):
        lines = lines[1:]  # "n_samples,n_features,<class names>"
    rows = [[float(v) for v in line.split(",")] for line in lines if line.strip()]
    a = np.array(rows, dtype=np.float64)
    return a[:, :-1].copy(), a[:, -1].astype(int)


def load(datadir):
    files = {
        "iris": ("iris.csv", datasets.load_iris),
        "breast_cancer": ("breast_cancer.csv", datasets.load_breast_cancer),
        "wine": ("wine_data.csv", datasets.load_wine),
        "digits": ("digits.csv.gz", datasets.load_digits),
    }
    out = {}
    for name, (fname, loader) in files.items():
        X, y = read_table(datadir + "/" + fname)
        ref = loader()
        assert np.array_equal(X, ref.data), name
        assert np.array_equal(y, ref.target), name
        out[name] = (X, y)
    return out


CASES = [
    # (data set, neg, pos, features or None for all)
    ("iris", 0, 1, None), ("iris", 0, 2, None), ("iris", 1, 2, None),
    ("iris", 0, 1, [0, 2]), ("iris", 0, 2, [0, 2]), ("iris", 1, 2, [0, 2]),
    ("breast_cancer", 0, 1, None),
    ("wine", 0, 1, None), ("wine", 0, 2, None), ("wine", 1, 2, None),
    ("digits", 3, 8, None), ("digits", 1, 7, None), ("digits", 4, 9, None),
    ("digits", 0, 1, None), ("digits", 5, 6, None),
]


def write_doc(generator, estimator, cases):
    """Writes the golden document to stdout: who made it, with which
    estimator and library versions, and the cases."""
    doc = {
        "generator": generator,
        "estimator": estimator,
        "versions": {"python": sys.version.split()[0], "numpy": np.__version__,
                     "sklearn": sklearn.__version__},
        "cases": cases,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


def main():
    datadir = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
    data = load(datadir)
    cases = []
    for name, neg, pos, feats in CASES:
        X, y = data[name]
        keep = (y == neg) | (y == pos)
        Xb = X[keep]
        if feats is not None:
            Xb = Xb[:, feats]
        Xb = np.ascontiguousarray(Xb)
        yb = y[keep]
        ypm = np.where(yb == pos, 1, -1)
        fits = []
        for k in MAX_ITERS:
            clf = Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf.fit(Xb, yb)
            assert list(clf.classes_) == [neg, pos]
            pred = np.where(clf.predict(Xb) == pos, 1, -1)
            fits.append({
                "max_iter": k,
                "n_iter": int(clf.n_iter_),
                "coef": [float(v).hex() for v in clf.coef_[0]],
                "intercept": float(clf.intercept_[0]).hex(),
                "predictions": "".join("+" if v > 0 else "-" for v in pred),
                "training_errors": int(np.sum(pred != ypm)),
            })
        cases.append({
            "name": "%s %d vs %d%s" % (name, neg, pos,
                                       "" if feats is None else " features " + ",".join(map(str, feats))),
            "dataset": name,
            "neg": neg,
            "pos": pos,
            "features": feats,
            "n": int(Xb.shape[0]),
            "d": int(Xb.shape[1]),
            "n_pos": int(np.sum(ypm == 1)),
            "fits": fits,
        })
    write_doc("perceptron/testdata/sklearn/make_perceptron_golden.py", "Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k)", cases)


if __name__ == "__main__":
    main()
