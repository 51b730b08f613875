#!/usr/bin/python3
"""Golden maximum-margin separators for the theory tests (MaxMargin, Bound).

Regenerate (from the repository root) with Debian's python3-sklearn:

    /usr/bin/python3 perceptron/testdata/sklearn/make_svc_golden.py \
        /work/shared/data > perceptron/testdata/sklearn/svc_golden.json

Made with Python 3.11.2, NumPy 1.24.2, scikit-learn 1.2.1 (libsvm inside),
Debian 12, x86_64; the versions used are also written into the JSON.

The hard-margin SVM is SVC(kernel="linear", C=1e10, tol=1e-12, shrinking=False): with C this
large no slack is ever worth paying on separable data, so it solves
min ||w||^2 subject to y_i (w.x_i + b) >= 1. Then the margin of the data set
is gamma = 1/||w||, the boundary (w, b) scaled by 1/||w|| is the maximum
margin separator, and the support vectors are the rows with
y_i (w.x_i + b) = 1. libsvm stops near 1e-6 of the optimum, so its support
vectors are then used to solve the KKT equations exactly (see hard_margin),
and the answer is certified: every multiplier alpha_i >= 0 and
min_i y_i (w.x_i + b) = 1 to 1e-12. Cases that fail are left out.

"origin" is the separator through the origin on augmented rows z = [1, x]
(the notational hack: theta = [b, w], no free bias): min ||theta||^2
subject to y_i theta.z_i >= 1. SVC always has a free bias, so it is fitted on
the rows z_i with labels y_i together with their mirror images -z_i with
labels -y_i: a bias c gives constraints y theta.z >= 1 - y c and
y theta.z >= 1 + y c, so c = 0 is always as good, and theta is the
answer (null when that fit fails its certificate: libsvm does not reach
Iris 0 vs 1 on sepal features, whose margin through the origin is tiny).
gamma_origin = 1/||theta|| <= gamma (a line through the origin in
d+1 dimensions is less free than a hyperplane with a bias in d).

R is max_i ||x_i|| and R_aug is max_i ||[1, x_i]||. Rows are kept in file
order; neg maps to -1 and pos to +1. Floats are written as decimals (repr,
round-trip exact) and as float.hex; they are the optimum to about 1e-12
relative (rounding in the KKT solve), not a bit-exact reference.
"""
import sys

import numpy as np
from sklearn.svm import SVC

sys.dont_write_bytecode = True  # no __pycache__ in testdata
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from make_perceptron_golden import load, write_doc  # noqa: E402

CASES = [
    ("iris", 0, 1, [0, 2]), ("iris", 0, 1, None),
    ("iris", 0, 2, [0, 2]), ("iris", 0, 2, None),
    ("iris", 0, 1, [0, 1]),
    ("digits", 0, 1, None), ("digits", 1, 7, None),
]


def hard_margin(Z, y, bias=True):
    """Returns w, b of min ||w||^2 s.t. y_i (w.z_i + b) >= 1 (b = 0 if not
    bias). libsvm finds the support vectors; its answer (good to ~1e-6) is
    then polished by solving the KKT equations on them exactly:
    w = sum_S alpha_i y_i z_i, y_j (w.z_j + b) = 1 for j in S,
    sum_S alpha_i y_i = 0 (with a bias), and the result is certified by
    alpha_i >= 0 and y_i (w.z_i + b) >= 1 for every row."""
    if bias:
        clf = SVC(kernel="linear", C=1e10, tol=1e-12, shrinking=False)
        clf.fit(Z, y)
    else:
        # A bias c on the mirrored set {(z, y), (-z, -y)} is always
        # as good as 0, so SVC there gives the separator through the origin.
        clf = SVC(kernel="linear", C=1e10, tol=1e-12, shrinking=False)
        clf.fit(np.vstack([Z, -Z]), np.concatenate([y, -y]))
    w0, b0 = clf.coef_[0], (float(clf.intercept_[0]) if bias else 0.0)
    f0 = y * (Z @ w0 + b0)
    S = np.nonzero(f0 < 1 + 1e-4)[0]
    ZS, yS = Z[S], y[S].astype(np.float64)
    K = (yS[:, None] * yS[None, :]) * (ZS @ ZS.T)
    if bias:
        m = len(S)
        A = np.zeros((m + 1, m + 1))
        A[:m, :m] = K
        A[:m, m] = yS
        A[m, :m] = yS
        rhs = np.concatenate([np.ones(m), [0.0]])
        sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
        alpha, b = sol[:m], float(sol[m])
    else:
        alpha = np.linalg.lstsq(K, np.ones(len(S)), rcond=None)[0]
        b = 0.0
    w = (alpha * yS) @ ZS
    f = y * (Z @ w + b)
    assert alpha.min() > -1e-9, ("KKT: negative alpha", alpha.min())
    assert abs(f.min() - 1) < 1e-12, ("KKT: margin", f.min())
    assert np.max(np.abs(f[S] - 1)) < 1e-12
    assert np.max(np.abs(w - w0)) < 1e-3 * max(1.0, np.max(np.abs(w0)))
    sv = sorted(int(i) for i in np.nonzero(np.abs(f - 1) < 1e-9)[0])
    return w, b, sv


def hexlist(v):
    return [float(x).hex() for x in v]


def main():
    datadir = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
    data = load(datadir)
    out = []
    for name, neg, pos, feats in CASES:
        X, lab = data[name]
        keep = (lab == neg) | (lab == pos)
        Xb = X[keep]
        if feats is not None:
            Xb = Xb[:, feats]
        Xb = np.ascontiguousarray(Xb)
        y = np.where(lab[keep] == pos, 1, -1)

        try:
            w, b, sv = hard_margin(Xb, y)
        except AssertionError as e:
            print("skip (not separable?): %s %d %d %s: %s"
                  % (name, neg, pos, feats, e), file=sys.stderr)
            continue
        norm = float(np.linalg.norm(w))
        Z = np.hstack([np.ones((Xb.shape[0], 1)), Xb])
        try:
            theta, _, tsv = hard_margin(Z, y, bias=False)
        except AssertionError as e:
            print("no origin separator: %s %d %d %s: %s"
                  % (name, neg, pos, feats, e), file=sys.stderr)
            theta = None

        R = float(np.max(np.linalg.norm(Xb, axis=1)))
        Raug = float(np.max(np.linalg.norm(Z, axis=1)))
        out.append({
            "name": "%s %d vs %d%s" % (name, neg, pos,
                                       "" if feats is None else " features " + ",".join(map(str, feats))),
            "dataset": name, "neg": neg, "pos": pos, "features": feats,
            "n": int(Xb.shape[0]), "d": int(Xb.shape[1]),
            "w": w.tolist(), "b": b, "w_hex": hexlist(w), "b_hex": b.hex(),
            "margin": 1 / norm,
            "support_vectors": sv,
            "R": R,
            "bound": (R * norm) ** 2,
            "origin": None if theta is None else {
                "theta": theta.tolist(), "theta_hex": hexlist(theta),
                "margin": 1 / float(np.linalg.norm(theta)),
                "support_vectors": tsv,
                "R_aug": Raug,
                "bound": (Raug * float(np.linalg.norm(theta))) ** 2,
            },
        })
    write_doc("perceptron/testdata/sklearn/make_svc_golden.py", 'SVC(kernel="linear", C=1e10, tol=1e-12, shrinking=False)', out)


if __name__ == "__main__":
    main()
