"""Independent reference for the many-run comparison (core/tests/library/many_runs.rs).

Reads tests/fixtures/many-runs-values.json (per case, per run, the five metrics: hit,
recall@k, P@k, MRR, nDCG@k) and prints, as JSON:

- the randomised Tukey HSD p-value of every pair of runs per metric, by the definition
  (each query's values permuted across the runs; p = share of permutations, the
  observed one counted, whose largest minus smallest run mean reaches the pair's
  absolute difference), from numpy's own generator with 100,000 permutations;
- each run's 95% percentile bootstrap interval of its mean per metric, from
  scipy.stats.bootstrap (method="percentile") with 100,000 resamples.

This is not ranx's or scipy's Tukey HSD: those are the parametric (studentized range)
test. Needs numpy and scipy:

    python -m venv venv && venv/bin/pip install numpy scipy
    venv/bin/python core/tests/reference/many_runs_reference.py
"""

import json
import pathlib
import sys

import numpy as np
from scipy import stats

PERMUTATIONS = 100_000
RESAMPLES = 100_000
BATCH = 500
SEED = 20_241_202

root = pathlib.Path(__file__).resolve().parents[3]
path = root / "tests" / "fixtures" / "many-runs-values.json"
data = json.loads(path.read_text())
values = np.asarray(data["values"], dtype=float)  # (cases, runs, metrics)
cases, runs, metrics = values.shape
rng = np.random.default_rng(SEED)

observed = values.mean(axis=0)  # (runs, metrics)
difference = np.abs(observed[:, None, :] - observed[None, :, :])  # (runs, runs, metrics)
# Ties in floating point: a permuted range counts when it reaches the difference less a
# relative 1e-12 (the same guard as the implementation; the metrics' real differences
# are far larger).
scale = np.abs(values[:, :, None, :] - values[:, None, :, :]).sum(axis=0) / cases
threshold = difference - 1e-12 * np.maximum(scale, 1.0 / cases)

reached = np.zeros((runs, runs, metrics), dtype=np.int64)
done = 0
while done < PERMUTATIONS:
    b = min(BATCH, PERMUTATIONS - done)
    order = np.argsort(rng.random((b, cases, runs)), axis=2)  # a uniform permutation per query
    permuted = np.take_along_axis(values[None, :, :, :], order[:, :, :, None], axis=2)
    means = permuted.mean(axis=1)  # (b, runs, metrics)
    spread = means.max(axis=1) - means.min(axis=1)  # (b, metrics)
    reached += (spread[:, None, None, :] >= threshold[None, :, :, :]).sum(axis=0)
    done += b
p = (1 + reached) / (1 + PERMUTATIONS)

intervals = np.zeros((metrics, runs, 2))
for m in range(metrics):
    for r in range(runs):
        result = stats.bootstrap(
            (values[:, r, m],),
            np.mean,
            n_resamples=RESAMPLES,
            method="percentile",
            confidence_level=0.95,
            random_state=np.random.default_rng(SEED + 1 + m * runs + r),
        )
        intervals[m, r] = (result.confidence_interval.low, result.confidence_interval.high)

json.dump(
    {
        "cases": cases,
        "permutations": PERMUTATIONS,
        "resamples": RESAMPLES,
        "means": [[round(x, 10) for x in observed[:, m]] for m in range(metrics)],
        "tukeyP": [[[round(p[i, j, m], 6) for j in range(runs)] for i in range(runs)] for m in range(metrics)],
        "ci": [[[round(x, 6) for x in intervals[m, r]] for r in range(runs)] for m in range(metrics)],
    },
    sys.stdout,
    indent=1,
)
print()
