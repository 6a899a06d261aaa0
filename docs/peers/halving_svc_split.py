#!/usr/bin/python3
"""scikit-learn's HalvingRandomSearchCV (../shared/bench/halving_svc.py) on gitui's own
validation split: the same search (RBF SVC, C log-uniform [0.1, 1000], gamma log-uniform
[1e-4, 1e-1], 81 candidates, factor 3, resource n_samples, min_resources 'exhaust'), but
the 1,000 validation digits are the rows that `gitui tune svc-halving` carved (its study
directory's split.json, which depends only on the data and the seed), so that both
searches score on the same digits. Prints the same JSON line as halving_svc.py.

Run: /usr/bin/python3 halving_svc_split.py --data ../shared/data/mnist --split STUDY/split.json [--bench ../shared/bench]
"""
import argparse, json, os, sys, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--split", required=True, help="split.json of a gitui study")
    ap.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "../../../shared/bench"))
    ap.add_argument("--candidates", type=int, default=81)
    ap.add_argument("--factor", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    sys.path.insert(0, a.bench)
    import numpy as np
    from halving_svc import load_idx
    from scipy.stats import loguniform
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingRandomSearchCV
    from sklearn.svm import SVC

    split = json.load(open(a.split))
    n = split["pool"]
    pre = "train10k" if os.path.exists(os.path.join(a.data, "train10k-images-idx3-ubyte.gz")) else "train"
    X = load_idx(os.path.join(a.data, f"{pre}-images-idx3-ubyte.gz"), True)[:n]
    y = load_idx(os.path.join(a.data, f"{pre}-labels-idx1-ubyte.gz"), False)[:n]
    Xt = load_idx(os.path.join(a.data, "t10k-images-idx3-ubyte.gz"), True)
    yt = load_idx(os.path.join(a.data, "t10k-labels-idx1-ubyte.gz"), False)
    val = np.array(split["validation"])
    tr = np.setdiff1d(np.arange(n), val)
    space = {"C": loguniform(0.1, 1000), "gamma": loguniform(1e-4, 1e-1)}
    search = HalvingRandomSearchCV(
        SVC(kernel="rbf"), space, n_candidates=a.candidates, factor=a.factor, resource="n_samples",
        min_resources="exhaust", cv=[(tr, val)], refit=False, random_state=a.seed, n_jobs=1)
    t0 = time.perf_counter()
    search.fit(X, y)
    wall = time.perf_counter() - t0
    best = search.best_params_
    t1 = time.perf_counter()
    clf = SVC(kernel="rbf", **best).fit(X[tr], y[tr])
    test = float((clf.predict(Xt) == yt).mean())
    print(json.dumps({
        "peer": "sklearn HalvingRandomSearchCV (gitui's split)", "search_seconds": round(wall, 2),
        "refit_seconds": round(time.perf_counter() - t1, 2), "best": {k: float(v) for k, v in best.items()},
        "validation": float(search.best_score_), "test": test,
        "rungs": [{"candidates": int(c), "samples": int(r)} for c, r in zip(search.n_candidates_, search.n_resources_)],
    }))


if __name__ == "__main__":
    main()
