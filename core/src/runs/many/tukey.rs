//! The randomised Tukey HSD test (Carterette 2012; Sakai 2014): under the null
//! hypothesis that the runs are exchangeable on every query, each query's values are
//! permuted across the runs; for a pair of runs, p is the share of permutations whose
//! largest minus smallest run mean reaches the pair's observed absolute difference.
//! Comparing every pair against the range of all runs controls the family-wise error
//! across the pairs, so no further correction is applied.
//!
//! Built for speed: one permutation of the runs per query serves the five metrics; a
//! query's values are stored once, `[run][metric]`, and a permutation of few runs is an
//! index into the table of all orderings; sums are plain f64 arrays. The work runs in
//! chunks ([`RandomisedTukey::advance`]) and the draws come from one generator in one
//! order, so the p-values do not depend on the chunking.

use crate::golden::{Metric, MetricValues};
use crate::lanes::F64x2;
use crate::stats::SplitMix64;

/// The metrics' values of one run on one query, in [`Metric::ALL`] order.
pub(super) type Values = MetricValues;

/// Up to this many runs, a query's permutation is drawn as an index into the table of
/// all orderings (8! = 40,320 orderings of 8 bytes); beyond, by a Fisher-Yates shuffle.
const MOST_RUNS_TABULATED: usize = 8;

/// The relative tolerance under which a permuted range counts as reaching the observed
/// difference: floating-point noise in the sums must not decide ties (as the two-run
/// sign-flip test).
const TIE_SCALE: f64 = 1e-12;

/// The state of a randomised Tukey HSD test over `runs` runs and the queries they share.
#[derive(Debug, Clone)]
pub struct RandomisedTukey {
    runs: usize,
    /// Per query whose values differ between runs, its position among all `queries`.
    active: Vec<u32>,
    /// `[active query][run]`.
    values: Vec<Values>,
    /// All orderings of the runs, `runs` bytes each, in lexicographic order (for two
    /// runs: kept, swapped); for many runs, rebuilt per permutation, one per active query.
    orderings: Vec<u8>,
    /// Per active query, the index of its ordering in `orderings`.
    chosen: Vec<u32>,
    /// Per pair of runs (in [`pair_index`] order) and metric: the observed absolute
    /// difference of the sums, less the tolerance.
    thresholds: Vec<Values>,
    /// Per pair and metric: permutations whose range reached the threshold.
    at_least: Vec<[u32; Metric::COUNT]>,
    sums: Vec<Values>,
    /// Two runs: the random bits of one permutation, one per query.
    words: Vec<u64>,
    rng: SplitMix64,
    permutations: usize,
    done: usize,
}

/// The pairs `(i, j)`, `i < j`, in order (0, 1), (0, 2), ..., (1, 2), ...
pub(super) fn pairs(runs: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..runs).flat_map(move |i| (i + 1..runs).map(move |j| (i, j)))
}

/// Every ordering of `0..n`, lexicographic, `n` bytes each.
fn all_orderings(n: usize) -> Vec<u8> {
    let mut current: Vec<u8> = (0..n as u8).collect();
    let mut out = current.clone();
    // Next lexicographic permutation until the last (descending) one.
    while let Some(i) = (1..n).rev().find(|&i| current[i - 1] < current[i]) {
        let pivot = i - 1;
        // current[i] > current[pivot], so the search always finds one.
        let j = (i..n)
            .rev()
            .find(|&j| current[j] > current[pivot])
            .unwrap_or(i);
        current.swap(pivot, j);
        current[i..].reverse();
        out.extend_from_slice(&current);
    }
    out
}

impl RandomisedTukey {
    /// `values` is `[query][run]` over the queries all runs share (`runs` a row, at
    /// most 255 runs).
    pub fn new(values: &[Values], runs: usize, permutations: usize, seed: u64) -> Self {
        let queries = values.len().checked_div(runs).unwrap_or(0);
        let mut active = Vec::new();
        let mut kept = Vec::new();
        for (q, row) in values.chunks_exact(runs.max(1)).enumerate() {
            if row.iter().any(|v| v != &row[0]) {
                active.push(q as u32);
                kept.extend_from_slice(row);
            }
        }
        let observed = sums_of(values, runs);
        let thresholds = pairs(runs)
            .map(|(i, j)| {
                let mut threshold = [0.0; Metric::COUNT];
                for (m, slot) in threshold.iter_mut().enumerate() {
                    let scale: f64 = values
                        .chunks_exact(runs)
                        .map(|row| (row[i][m] - row[j][m]).abs())
                        .sum();
                    *slot = (observed[i][m] - observed[j][m]).abs() - TIE_SCALE * scale.max(1.0);
                }
                threshold
            })
            .collect::<Vec<_>>();
        let orderings = if runs <= MOST_RUNS_TABULATED {
            all_orderings(runs)
        } else {
            vec![0; active.len() * runs]
        };
        RandomisedTukey {
            runs,
            chosen: vec![0; active.len()],
            at_least: vec![[0; Metric::COUNT]; thresholds.len()],
            thresholds,
            active,
            values: kept,
            orderings,
            sums: vec![[0.0; Metric::COUNT]; runs],
            words: vec![0; if runs == 2 { queries.div_ceil(64) } else { 0 }],
            rng: SplitMix64::new(seed),
            permutations,
            done: 0,
        }
    }

    /// Permutations drawn so far.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Permutations still to draw.
    pub fn remaining(&self) -> usize {
        self.permutations - self.done.min(self.permutations)
    }

    /// Queries whose values differ between the runs (the others cannot move the test).
    pub fn queries_that_differ(&self) -> usize {
        self.active.len()
    }

    /// Draws up to `budget` more permutations; returns how many it drew.
    pub fn advance(&mut self, budget: usize) -> usize {
        let steps = budget.min(self.remaining());
        for _ in 0..steps {
            self.draw_orderings();
            self.accumulate();
            self.count();
        }
        self.done += steps;
        steps
    }

    /// One ordering per active query. Two runs: one random bit per query of all the
    /// queries, 64 per draw, as the two-run sign-flip test draws them (so two runs give
    /// its p-values); up to [`MOST_RUNS_TABULATED`] runs: a uniform index into the
    /// orderings, two per draw; more: a Fisher-Yates shuffle.
    fn draw_orderings(&mut self) {
        let runs = self.runs;
        if runs == 2 {
            // The words of all queries are drawn, in order, whether or not a query moves.
            for word in &mut self.words {
                *word = self.rng.next_u64();
            }
            for (slot, &q) in self.chosen.iter_mut().zip(&self.active) {
                *slot = ((self.words[q as usize / 64] >> (q % 64)) & 1) as u32;
            }
        } else if runs <= MOST_RUNS_TABULATED {
            // Two indexes per draw, from its two 32-bit halves by multiply-shift (the
            // bias, at most 8!/2^32 < 1e-5 relative, is far below the Monte Carlo error).
            let count = (self.orderings.len() / runs) as u64;
            let index = |half: u64| ((half * count) >> 32) as u32;
            for pair in self.chosen.chunks_mut(2) {
                let word = self.rng.next_u64();
                pair[0] = index(word & 0xFFFF_FFFF);
                if let Some(second) = pair.get_mut(1) {
                    *second = index(word >> 32);
                }
            }
        } else {
            for (a, ordering) in self.orderings.chunks_exact_mut(runs).enumerate() {
                for (r, slot) in ordering.iter_mut().enumerate() {
                    *slot = r as u8;
                }
                for i in (1..runs).rev() {
                    let j = self.rng.below(i + 1);
                    ordering.swap(i, j);
                }
                self.chosen[a] = a as u32;
            }
        }
    }

    /// The permuted sums: run `r` receives, on each query, the values of run
    /// `ordering[r]`. Specialised for each number of runs the table covers.
    fn accumulate(&mut self) {
        let kernel = Permuted {
            values: &self.values,
            orderings: &self.orderings,
            chosen: &self.chosen,
        };
        match self.runs {
            2 => copy_sums(&kernel.sums_2(), &mut self.sums),
            3 => copy_sums(&kernel.sums_3(), &mut self.sums),
            4 => copy_sums(&kernel.sums_4(), &mut self.sums),
            5 => copy_sums(&kernel.sums_5(), &mut self.sums),
            6 => copy_sums(&kernel.sums_6(), &mut self.sums),
            7 => copy_sums(&kernel.sums_7(), &mut self.sums),
            8 => copy_sums(&kernel.sums_8(), &mut self.sums),
            _ => self.accumulate_any(),
        }
    }

    fn accumulate_any(&mut self) {
        let runs = self.runs;
        for s in &mut self.sums {
            *s = [0.0; Metric::COUNT];
        }
        for (row, &chosen) in self.values.chunks_exact(runs).zip(&self.chosen) {
            let at = chosen as usize * runs;
            let ordering = &self.orderings[at..at + runs];
            for (sum, &from) in self.sums.iter_mut().zip(ordering) {
                let v = &row[from as usize];
                for (s, x) in sum.iter_mut().zip(v) {
                    *s += x;
                }
            }
        }
    }

    fn count(&mut self) {
        let mut range = [0.0; Metric::COUNT];
        for (m, slot) in range.iter_mut().enumerate() {
            let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
            for s in &self.sums {
                low = low.min(s[m]);
                high = high.max(s[m]);
            }
            *slot = high - low;
        }
        for (counts, threshold) in self.at_least.iter_mut().zip(&self.thresholds) {
            for m in 0..Metric::COUNT {
                counts[m] += u32::from(range[m] >= threshold[m]);
            }
        }
    }

    /// Per metric, the `runs x runs` matrix of p-values (`1` on the diagonal) from the
    /// permutations drawn so far: `(1 + reached) / (1 + permutations)`, the observed
    /// assignment counted as one of the permutations (so identical runs give exactly 1).
    pub fn p_values(&self) -> Vec<Vec<Vec<f64>>> {
        let runs = self.runs;
        let denominator = (1 + self.done) as f64;
        (0..Metric::COUNT)
            .map(|m| {
                let mut matrix = vec![vec![1.0; runs]; runs];
                for ((i, j), counts) in pairs(runs).zip(&self.at_least) {
                    let p = (1 + counts[m]) as f64 / denominator;
                    matrix[i][j] = p;
                    matrix[j][i] = p;
                }
                matrix
            })
            .collect()
    }
}

/// The values, the orderings and the chosen ordering of each query: what a
/// permutation's sums read.
struct Permuted<'a> {
    values: &'a [Values],
    orderings: &'a [u8],
    chosen: &'a [u32],
}

/// The metrics summed two at a time.
const PAIRS: usize = Metric::COUNT / 2;

/// A run's permuted sums: the metrics in pairs, and the last alone when their count is odd.
#[derive(Clone, Copy)]
struct RunSums {
    pairs: [F64x2; PAIRS],
    last: f64,
}

impl RunSums {
    fn zero() -> RunSums {
        RunSums {
            pairs: [F64x2::zero(); PAIRS],
            last: 0.0,
        }
    }

    /// Adds a run's values (a loop of constant length: unrolled).
    #[inline]
    fn add(&mut self, values: &Values) {
        for (p, sum) in self.pairs.iter_mut().enumerate() {
            if let Some(pair) = values.get(2 * p..).and_then(<[f64]>::first_chunk::<2>) {
                *sum = sum.add(F64x2::load(pair));
            }
        }
        if Metric::COUNT % 2 == 1 {
            self.last += values[Metric::COUNT - 1];
        }
    }

    fn values(&self) -> Values {
        let mut out = [0.0; Metric::COUNT];
        for (p, pair) in self.pairs.iter().enumerate() {
            out[2 * p] = pair.low();
            out[2 * p + 1] = pair.high();
        }
        if Metric::COUNT % 2 == 1 {
            out[Metric::COUNT - 1] = self.last;
        }
        out
    }
}

/// `sums_N`: the permuted sums of `N` runs, each in the order of the queries. Written
/// out per `N` with constant indexes, so that the sums live in registers even where
/// loops are not unrolled (the page's size-optimised wasm).
macro_rules! permuted_sums {
    ($($name:ident: $runs:literal [$($r:literal)*];)*) => {$(
        #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
        fn $name(&self) -> [RunSums; $runs] {
            let mut sums = [RunSums::zero(); $runs];
            for (row, &chosen) in self.values.chunks_exact($runs).zip(self.chosen) {
                let at = chosen as usize * $runs;
                // Always there: rows of `$runs` runs, indexes into the table of orderings.
                let (Some(ordering), Some(row)) = (
                    self.orderings.get(at..).and_then(<[u8]>::first_chunk::<$runs>),
                    row.first_chunk::<$runs>(),
                ) else {
                    continue;
                };
                $(
                    if let Some(from) = row.get(usize::from(ordering[$r])) {
                        sums[$r].add(from);
                    }
                )*
            }
            sums
        }
    )*};
}

impl Permuted<'_> {
    permuted_sums! {
        sums_2: 2 [0 1];
        sums_3: 3 [0 1 2];
        sums_4: 4 [0 1 2 3];
        sums_5: 5 [0 1 2 3 4];
        sums_6: 6 [0 1 2 3 4 5];
        sums_7: 7 [0 1 2 3 4 5 6];
        sums_8: 8 [0 1 2 3 4 5 6 7];
    }
}

#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn copy_sums(permuted: &[RunSums], sums: &mut [Values]) {
    for (sum, run) in sums.iter_mut().zip(permuted) {
        *sum = run.values();
    }
}

/// Per run, the sums of the metrics over the queries.
pub(super) fn sums_of(values: &[Values], runs: usize) -> Vec<Values> {
    let mut sums = vec![[0.0; Metric::COUNT]; runs];
    for row in values.chunks_exact(runs.max(1)) {
        for (sum, v) in sums.iter_mut().zip(row) {
            for (s, x) in sum.iter_mut().zip(v) {
                *s += x;
            }
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orderings_are_all_distinct_and_lexicographic() {
        assert_eq!(all_orderings(2), vec![0, 1, 1, 0]);
        let three = all_orderings(3);
        assert_eq!(
            three,
            vec![0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0]
        );
        let five = all_orderings(5);
        assert_eq!(five.len(), 120 * 5);
        let mut rows: Vec<&[u8]> = five.chunks(5).collect();
        rows.dedup();
        assert_eq!(rows.len(), 120);
    }
}
