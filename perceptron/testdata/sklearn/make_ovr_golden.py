#!/usr/bin/python3
"""Golden one-vs-rest perceptron results for the OneVsRest tests.

Regenerate (from the repository root) with Debian's python3-sklearn:

    /usr/bin/python3 perceptron/testdata/sklearn/make_ovr_golden.py \
        /work/shared/data > perceptron/testdata/sklearn/ovr_golden.json

Each case fits
OneVsRestClassifier(Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k))
on every row of the data set, in file order: one binary perceptron per class,
that class +1 and the rest -1, visiting the rows cyclically for exactly k
epochs (no early stop; an epoch without a mistake changes nothing, so this
equals PLA that stops after its first clean epoch). It records each class's
weights (decimal and float.hex), the predicted class of every row (argmax of
the decision functions; OneVsRestClassifier.predict gives a tie to the highest
class, Perceptron.predict and the Go OneVsRest to the lowest: these cases have
no tie at the maximum) and the training error rate.
"""
import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron
from sklearn.multiclass import OneVsRestClassifier

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from make_perceptron_golden import load, write_doc  # noqa: E402

CASES = [("iris", 1), ("iris", 10), ("iris", 1000), ("digits", 5)]


def main():
    datadir = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
    data = load(datadir)
    out = []
    for name, k in CASES:
        X, y = data[name]
        clf = OneVsRestClassifier(Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(X, y)
        pred = clf.predict(X)
        models = []
        for est in clf.estimators_:
            w, b = est.coef_[0], float(est.intercept_[0])
            models.append({"w": w.tolist(), "b": b,
                           "w_hex": [float(v).hex() for v in w], "b_hex": b.hex(),
                           "n_iter": int(est.n_iter_)})
        out.append({"dataset": name, "max_iter": k, "n": int(X.shape[0]),
                    "models": models, "predictions": [int(p) for p in pred],
                    "error_rate": float(np.mean(pred != y))})
    write_doc("perceptron/testdata/sklearn/make_ovr_golden.py", "OneVsRestClassifier(Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k))", out)


if __name__ == "__main__":
    main()
