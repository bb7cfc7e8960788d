//! Statistics for comparing two runs: rank agreement (overlap, Jaccard, rank-biased
//! overlap, Kendall's tau-b) and paired significance (sign-flip randomisation test,
//! Student's paired t-test, bootstrap confidence interval, Holm's correction).
//!
//! Pure functions over slices; no dependency. The random tests use SplitMix64 with fixed
//! seeds (docs/decisions.md), so every run of the same inputs gives the same numbers on
//! every platform, natively and in wasm.

use crate::lanes::F64x2;
use serde::Serialize;

// ---------------------------------------------------------------------------
// Rank agreement
// ---------------------------------------------------------------------------

/// How many items the first `k` of `a` and the first `k` of `b` share (lists of distinct
/// items). Quadratic in `k`; the callers' `k` is a `returnN` (a few to a few dozen).
pub fn overlap_count<T: PartialEq>(a: &[T], b: &[T], k: usize) -> usize {
    let (a, b) = (&a[..a.len().min(k)], &b[..b.len().min(k)]);
    a.iter().filter(|x| b.contains(x)).count()
}

/// |A ∩ B| / |A ∪ B| of two lists of distinct items; `None` when both are empty.
pub fn jaccard<T: PartialEq>(a: &[T], b: &[T]) -> Option<f64> {
    let common = a.iter().filter(|x| b.contains(x)).count();
    let union = a.len() + b.len() - common;
    (union > 0).then(|| common as f64 / union as f64)
}

/// Rank-biased overlap of two rankings seen to finite depths (Webber, Moffat and Zobel,
/// "A similarity measure for indefinite rankings", TOIS 2010).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Rbo {
    /// RBO_ext, the point estimate extrapolated from the seen prefixes (eq. 32, which is
    /// eq. 30 of the paper's even-length case when both lists have the same length).
    pub ext: f64,
    /// The lower bound: every unseen item agrees with nothing.
    pub min: f64,
    /// The residual: the most the unseen items could add to `min` (`min + residual` is
    /// the upper bound).
    pub residual: f64,
}

/// RBO of two lists of distinct items with persistence `p` in (0, 1); `None` when both
/// lists are empty (nothing to agree on) or `p` is outside (0, 1).
///
/// With `s` the shorter and `l` the longer length and `X_d` the overlap at depth `d`
/// (for `d > s`, the overlap of the whole shorter list with the first `d` of the longer):
/// - `ext = (1-p)/p · (Σ_{d≤l} X_d/d·p^d + Σ_{s<d≤l} X_s(d-s)/(s·d)·p^d)
///   + ((X_l-X_s)/l + X_s/s)·p^l` (eq. 32);
/// - `min` assumes the unseen items of both lists match nothing: the seen agreement up to
///   depth `l`, then `X_l/d` at every deeper `d` (for equal lengths this is eq. 11);
/// - `min + residual` assumes every unseen item matches as early as it can: at depth
///   `s < d ≤ l` the shorter list's `d - s` unseen items match unmatched items of the
///   longer one, and beyond `l` the overlap is `min(d, X_l + 2d - s - l)` (the bound that
///   gives eq. 30).
///
/// Quadratic in the longer length and allocation-free: the callers' lists are accepted
/// lists (a `returnN` long), compared once per pair of traces.
pub fn rbo<T: PartialEq>(a: &[T], b: &[T], p: f64) -> Option<Rbo> {
    if !(p > 0.0 && p < 1.0) || (a.is_empty() && b.is_empty()) {
        return None;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let (s, l) = (short.len(), long.len());
    // X_d for d = 1..=l: one walk down both lists, each item counted when its partner
    // has been seen on the other side.
    let mut overlap = 0usize;
    let mut ext_sum = 0.0;
    let mut min_sum = 0.0;
    let mut max_sum = 0.0;
    let mut pd = 1.0; // p^d, updated at the top of each depth
    let mut x_s = 0usize;
    for d in 1..=l {
        pd *= p;
        let long_item = &long[d - 1];
        if short[..(d - 1).min(s)].contains(long_item) {
            overlap += 1;
        }
        if let Some(short_item) = short.get(d - 1) {
            if long[..d].contains(short_item) {
                overlap += 1;
            }
        }
        if d == s {
            x_s = overlap;
        }
        let df = d as f64;
        let agreement = overlap as f64 / df;
        ext_sum += agreement * pd;
        min_sum += agreement * pd;
        if d > s {
            // s > 0 here only when the shorter list is not empty.
            if s > 0 {
                ext_sum += x_s as f64 * (df - s as f64) / (s as f64 * df) * pd;
            }
            max_sum += (overlap + d - s) as f64 / df * pd;
        } else {
            max_sum += agreement * pd;
        }
    }
    let x_l = overlap;
    let (pf, lf, sf) = (p, l as f64, s as f64);
    let scale = (1.0 - pf) / pf;
    let tail = if s > 0 {
        ((x_l - x_s) as f64 / lf + x_s as f64 / sf) * pd
    } else {
        0.0
    };
    let ext = scale * ext_sum + tail;

    // Σ_{d>l} p^d/d = -ln(1-p) - Σ_{d≤l} p^d/d.
    let head: f64 = (1..=l).map(|d| pf.powi(d as i32) / d as f64).sum();
    let beyond = -(1.0 - pf).ln() - head;
    let min = scale * (min_sum + x_l as f64 * beyond);

    // Beyond l the overlap can reach min(d, x_l + 2d - s - l): below depth
    // f = s + l - x_l it grows by two per level, from f on every item matches.
    let f = s + l - x_l;
    let mut upper_tail = 0.0;
    let mut pd_tail = pd;
    for d in l + 1..f {
        pd_tail *= pf;
        upper_tail += (2.0 - f as f64 / d as f64) * pd_tail;
    }
    // Σ_{d≥max(f, l+1)} p^d = p^start / (1 - p).
    let start = f.max(l + 1);
    upper_tail += pf.powi(start as i32) / (1.0 - pf);
    let max = scale * (max_sum + upper_tail);
    let clamp = |x: f64| x.clamp(0.0, 1.0);
    let (min, max) = (clamp(min), clamp(max));
    Some(Rbo {
        ext: clamp(ext),
        min,
        residual: (max - min).max(0.0),
    })
}

/// Kendall's tau-b of paired observations (ties in either variable handled as tau-b);
/// `None` with fewer than two pairs or when either variable is constant.
/// Quadratic: the callers pass the documents two accepted lists share.
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    if n < 2 {
        return None;
    }
    let (mut concordant, mut discordant) = (0i64, 0i64);
    let (mut tied_x, mut tied_y) = (0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let dx = x[i].partial_cmp(&x[j])?;
            let dy = y[i].partial_cmp(&y[j])?;
            use std::cmp::Ordering::Equal;
            match (dx, dy) {
                (Equal, Equal) => {
                    tied_x += 1;
                    tied_y += 1;
                }
                (Equal, _) => tied_x += 1,
                (_, Equal) => tied_y += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    let pairs = (n * (n - 1) / 2) as i64;
    let denominator = (((pairs - tied_x) as f64) * ((pairs - tied_y) as f64)).sqrt();
    (denominator > 0.0).then(|| (concordant - discordant) as f64 / denominator)
}

// ---------------------------------------------------------------------------
// Paired significance
// ---------------------------------------------------------------------------

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, statistically sound for
/// resampling, identical on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` by Lemire's multiply-shift (bias below 2^-32 for n < 2^32).
    pub fn below(&mut self, n: usize) -> usize {
        multiply_shift(self.next_u64(), n)
    }
}

/// The high 64 bits of `x * n`. For `n < 2^32` (always in wasm32) from two 64-bit
/// products: the 128-bit product is a library call there, once per resampled case.
/// `hi * n + (lo * n >> 32)` cannot overflow: it is below 2^64 - 2^32.
fn multiply_shift(x: u64, n: usize) -> usize {
    match u32::try_from(n) {
        Ok(n) => {
            let n = u64::from(n);
            let (hi, lo) = (x >> 32, x & 0xFFFF_FFFF);
            ((hi * n + ((lo * n) >> 32)) >> 32) as usize
        }
        Err(_) => ((u128::from(x) * n as u128) >> 64) as usize,
    }
}

/// The seed of the sign-flip randomisation test.
pub const PERMUTATION_SEED: u64 = 0x7261_6774_7261_6365; // "ragtrace"
/// The seed of the bootstrap confidence interval.
pub const BOOTSTRAP_SEED: u64 = 0x626F_6F74_7374_7261; // "bootstra"
/// Permutations and bootstrap resamples by default.
pub(crate) const DEFAULT_RESAMPLES: usize = 10_000;

/// Paired differences `b - a` of one measure, one slice per measure, all of one length
/// (the cases both runs have). The tests below share their random draws across the
/// measures: the same sign flips and resamples for each, drawn once.
///
/// Two-sided sign-flip randomisation test of "the mean difference is 0" for every
/// measure: `(1 + #{|mean*| ≥ |mean|}) / (1 + permutations)`, so identical runs give
/// exactly 1. A relative tolerance of 1e-12 in the comparison keeps floating-point
/// noise in the sums from deciding ties.
pub fn sign_flip_p_values(diffs: &[&[f64]], permutations: usize, seed: u64) -> Vec<f64> {
    let (rows, width) = interleave(diffs);
    let observed: Vec<f64> = diffs.iter().map(|d| d.iter().sum::<f64>()).collect();
    let thresholds: Vec<f64> = observed
        .iter()
        .zip(diffs)
        .map(|(sum, d)| {
            let scale: f64 = d.iter().map(|x| x.abs()).sum();
            sum.abs() - 1e-12 * scale.max(1.0)
        })
        .collect();
    let mut at_least = vec![0usize; width];
    let mut rng = SplitMix64::new(seed);
    let mut flipped = vec![0.0; width];
    for _ in 0..permutations {
        flipped.iter_mut().for_each(|f| *f = 0.0);
        // sum* = sum - 2 Σ_{flipped} d_i: one random bit per case, 64 per draw, used as a
        // 0/1 factor rather than a branch (random bits would defeat branch prediction).
        for chunk in rows.chunks(64 * width.max(1)) {
            let mut word = rng.next_u64();
            for row in chunk.chunks_exact(width) {
                let bit = (word & 1) as f64;
                word >>= 1;
                for (f, d) in flipped.iter_mut().zip(row) {
                    *f += bit * d;
                }
            }
        }
        for (m, count) in at_least.iter_mut().enumerate() {
            if (observed[m] - 2.0 * flipped[m]).abs() >= thresholds[m] {
                *count += 1;
            }
        }
    }
    at_least
        .iter()
        .map(|&count| (1 + count) as f64 / (1 + permutations) as f64)
        .collect()
}

/// The measures' values case by case (`[case][measure]`, one row per case), so one pass
/// over a case reads one contiguous row; and the row width. Slices must be of one length.
fn interleave(diffs: &[&[f64]]) -> (Vec<f64>, usize) {
    let width = diffs.len();
    let n = diffs.iter().map(|d| d.len()).min().unwrap_or(0);
    let mut rows = Vec::with_capacity(n * width);
    for i in 0..n {
        rows.extend(diffs.iter().map(|d| d[i]));
    }
    (rows, width)
}

/// Percentile bootstrap interval of the mean of each slice (`level` e.g. 0.95), the
/// quantiles interpolated linearly between order statistics (numpy's default, type 7).
/// The same resampled case indexes serve every measure. `None` for empty input.
pub fn bootstrap_mean_intervals(
    diffs: &[&[f64]],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Vec<Option<(f64, f64)>> {
    let (rows, width) = interleave(diffs);
    let mut bootstrap = BootstrapMeans::new(rows, width, resamples, seed);
    bootstrap.advance(resamples);
    bootstrap.intervals(level)
}

/// Pairs of measures a resample sums side by side: independent sums the processor
/// adds at once, few enough to stay in registers.
const PAIRS_SUMMED_TOGETHER: usize = 7;

/// The percentile bootstrap of [`bootstrap_mean_intervals`] run a few resamples at a
/// time, so a page can spread it over frames: the draws come from one generator in one
/// order, so the intervals do not depend on how the work was split.
#[derive(Debug, Clone)]
pub struct BootstrapMeans {
    /// `[case][measure]`, the measures in pairs (the last pair of an odd width padded
    /// with 0): a drawn case is one contiguous row, added pair by pair into the sums.
    rows: Vec<[f64; 2]>,
    /// Pairs a row.
    stride: usize,
    cases: usize,
    resamples: usize,
    rng: SplitMix64,
    /// Per measure, the resampled means so far.
    means: Vec<Vec<f64>>,
    /// The cases of the resample being summed.
    drawn: Vec<usize>,
}

impl BootstrapMeans {
    /// `rows` holds the measures case by case (`[case][measure]`, `width` a row).
    pub fn new(rows: Vec<f64>, width: usize, resamples: usize, seed: u64) -> Self {
        let cases = rows.len().checked_div(width).unwrap_or(0);
        let resamples = if cases == 0 { 0 } else { resamples };
        let stride = width.div_ceil(2);
        let mut paired = Vec::with_capacity(cases * stride);
        for row in rows.chunks_exact(width.max(1)).take(cases) {
            paired.extend(
                row.chunks(2)
                    .map(|pair| [pair[0], pair.get(1).copied().unwrap_or(0.0)]),
            );
        }
        BootstrapMeans {
            rows: paired,
            stride,
            cases,
            resamples,
            rng: SplitMix64::new(seed),
            means: vec![Vec::with_capacity(resamples); width],
            drawn: Vec::with_capacity(cases),
        }
    }

    /// Resamples drawn so far.
    pub fn done(&self) -> usize {
        self.means.first().map_or(0, Vec::len)
    }

    /// Resamples still to draw.
    pub fn remaining(&self) -> usize {
        self.resamples - self.done().min(self.resamples)
    }

    /// Draws up to `budget` more resamples; returns how many it drew.
    pub fn advance(&mut self, budget: usize) -> usize {
        let steps = budget.min(self.remaining());
        let n = self.cases;
        for _ in 0..steps {
            // The same draws, and each measure summed in the order of its draws, as a
            // case-by-case loop: the same bits, with several sums at a time in registers.
            self.drawn.clear();
            let rng = &mut self.rng;
            self.drawn.extend((0..n).map(|_| rng.below(n)));
            // Groups of at most PAIRS_SUMMED_TOGETHER pairs, as even as possible: a
            // group of one would be a single chain of dependent additions.
            let groups = self.stride.div_ceil(PAIRS_SUMMED_TOGETHER);
            let mut first = 0;
            for g in 0..groups {
                let size = self.stride / groups + usize::from(g < self.stride % groups);
                let measures = 2 * first..(2 * (first + size)).min(self.means.len());
                let group = Group {
                    rows: &self.rows,
                    stride: self.stride,
                    first,
                    drawn: &self.drawn,
                };
                let means = &mut self.means[measures];
                match size {
                    1 => push_means(&group.sums_1(), n, means),
                    2 => push_means(&group.sums_2(), n, means),
                    3 => push_means(&group.sums_3(), n, means),
                    4 => push_means(&group.sums_4(), n, means),
                    5 => push_means(&group.sums_5(), n, means),
                    6 => push_means(&group.sums_6(), n, means),
                    _ => push_means(&group.sums_7(), n, means),
                }
                first += size;
            }
        }
        steps
    }

    /// The intervals of the resamples drawn so far; `None` per measure when none was
    /// drawn (no case, or no resample asked for).
    pub fn intervals(&self, level: f64) -> Vec<Option<(f64, f64)>> {
        let tail = (1.0 - level) / 2.0;
        self.means
            .iter()
            .map(|m| {
                if m.is_empty() {
                    return None;
                }
                let mut sorted = m.clone();
                sorted.sort_by(f64::total_cmp);
                Some((quantile(&sorted, tail), quantile(&sorted, 1.0 - tail)))
            })
            .collect()
    }
}

/// A group of pairs of measures (from pair `first` of each row) summed over a
/// resample's drawn cases.
struct Group<'a> {
    rows: &'a [[f64; 2]],
    stride: usize,
    first: usize,
    drawn: &'a [usize],
}

/// `sums_K`: the sums of the group's `K` pairs over the drawn cases, each in the order of
/// the draws. Written out per `K` with constant indexes, so that the sums live in
/// registers even where loops are not unrolled (the page's size-optimised wasm).
macro_rules! group_sums {
    ($($name:ident: $pairs:literal [$($k:literal)*];)*) => {$(
        #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
        fn $name(&self) -> [F64x2; $pairs] {
            let mut sums = [F64x2::zero(); $pairs];
            for &case in self.drawn {
                let at = case * self.stride + self.first;
                // Always there: a drawn case is below the number of cases.
                if let Some(row) = self.rows.get(at..).and_then(<[_]>::first_chunk::<$pairs>) {
                    $(sums[$k] = sums[$k].add(F64x2::load(&row[$k]));)*
                }
            }
            sums
        }
    )*};
}

impl Group<'_> {
    group_sums! {
        sums_1: 1 [0];
        sums_2: 2 [0 1];
        sums_3: 3 [0 1 2];
        sums_4: 4 [0 1 2 3];
        sums_5: 5 [0 1 2 3 4];
        sums_6: 6 [0 1 2 3 4 5];
        sums_7: 7 [0 1 2 3 4 5 6];
    }
}

/// Adds to each measure's means the mean of its sum (`means` the group's measures; the
/// padding lane of an odd width has none).
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn push_means(sums: &[F64x2], n: usize, means: &mut [Vec<f64>]) {
    for (pair, means) in sums.iter().zip(means.chunks_mut(2)) {
        for (mean, sum) in means.iter_mut().zip([pair.low(), pair.high()]) {
            mean.push(sum / n as f64);
        }
    }
}

/// The `q` quantile of sorted values, linear between order statistics (type 7).
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, frac) = (h.floor() as usize, h - h.floor());
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + frac * (sorted[hi] - sorted[lo])
}

/// Student's paired t-test of "the mean difference is 0", as `scipy.stats.ttest_rel`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TTest {
    pub t: f64,
    pub df: usize,
    /// Two-sided.
    pub p: f64,
}

/// `None` with fewer than two differences, or when every difference is the same
/// (no variance: scipy returns NaN when they are all 0 and ±inf otherwise; the
/// randomisation test answers that case).
pub fn paired_t_test(diffs: &[f64]) -> Option<TTest> {
    let n = diffs.len();
    if n < 2 {
        return None;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let ss: f64 = diffs.iter().map(|d| (d - mean) * (d - mean)).sum();
    let sd = (ss / (n - 1) as f64).sqrt();
    if sd == 0.0 || !sd.is_finite() {
        return None;
    }
    let t = mean / (sd / (n as f64).sqrt());
    let df = n - 1;
    Some(TTest {
        t,
        df,
        p: student_t_two_sided_p(t, df as f64),
    })
}

/// P(|T| ≥ |t|) for Student's t with `df` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
pub(crate) fn student_t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    let t2 = t * t;
    // x and 1 - x computed separately: one of them is tiny, and 1 - x from x would lose it.
    let x = df / (df + t2);
    let one_minus_x = t2 / (df + t2);
    regularized_incomplete_beta(df / 2.0, 0.5, x, one_minus_x).clamp(0.0, 1.0)
}

/// I_x(a, b), the regularised incomplete beta function, for a, b > 0 and x in [0, 1];
/// `one_minus_x` is 1 - x given exactly by the caller. Continued fraction (modified
/// Lentz), on the side of the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where it converges
/// fast.
pub(crate) fn regularized_incomplete_beta(a: f64, b: f64, x: f64, one_minus_x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if one_minus_x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() + b * one_minus_x.ln() - ln_beta(a, b);
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_continued_fraction(b, a, one_minus_x) / b
    }
}

/// The continued fraction of I_x(a, b) (Numerical Recipes §6.4), to full precision.
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-16;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b).
fn ln_beta(a: f64, b: f64) -> f64 {
    ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b)
}

/// ln Γ(x) for x > 0: Lanczos approximation (g = 7, nine coefficients; relative error
/// about 1e-15), with the reflection-free shift for x < 0.5 by Γ(x) = Γ(x+1)/x.
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return ln_gamma(x + 1.0) - x.ln();
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// Holm's step-down adjustment of p-values (family-wise error), in the input order:
/// the i-th smallest p is multiplied by (m - i + 1), made monotone, capped at 1.
/// NaN p-values count as 1.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let clean = |p: f64| if p.is_nan() { 1.0 } else { p };
    let mut order: Vec<usize> = (0..m).collect();
    // An insertion sort: m is a handful (the five metrics), and a general sort would
    // add a few KB to the page's wasm. Tied p-values receive the same adjusted value,
    // so their order does not matter.
    for i in 1..m {
        let mut j = i;
        while j > 0
            && clean(p_values[order[j - 1]])
                .total_cmp(&clean(p_values[order[j]]))
                .is_gt()
        {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let value = ((m - rank) as f64 * clean(p_values[i])).min(1.0);
        running = running.max(value);
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} differs from {expected} by more than {tolerance}"
        );
    }

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    /// `ext` as the PyPI `rbo` package's `rbo_ext` (eq. 32); `min` and `min + residual`
    /// as a brute-force sum to depth 3000 over the lists extended with items that match
    /// nothing, and with the unmatched items of the other list then shared fresh items.
    #[test]
    fn rbo_matches_the_package_and_a_brute_force_extension() {
        let cases = [
            (
                "abcdefg",
                "badcegh",
                0.9,
                0.7872383571428572,
                0.5876432286626961,
                0.8555664857142861,
            ),
            (
                "abcde",
                "cafbghdi",
                0.9,
                0.6147141267857144,
                0.3931826524417976,
                0.7502772744642859,
            ),
            (
                "abcde",
                "cafbghdi",
                0.5,
                0.2948009672619047,
                0.28977622223978133,
                0.29839564732142854,
            ),
            ("abc", "xyz", 0.9, 0.0, 0.0, 0.6794280000000003),
            ("abcdef", "abcdef", 0.9, 1.0, 0.7244847286626962, 1.0),
        ];
        for (a, b, p, ext, min, max) in cases {
            for (x, y) in [(chars(a), chars(b)), (chars(b), chars(a))] {
                let r = rbo(&x, &y, p).unwrap_or_else(|| panic!("defined for {a} {b}"));
                close(r.ext, ext, 1e-12);
                close(r.min, min, 1e-9);
                close(r.min + r.residual, max, 1e-9);
            }
        }
    }

    #[test]
    fn rbo_is_undefined_without_items_or_with_p_outside_0_1() {
        assert_eq!(rbo::<char>(&[], &[], 0.9), None);
        assert_eq!(rbo(&['a'], &['a'], 1.0), None);
        assert_eq!(rbo(&['a'], &['a'], 0.0), None);
        let one_empty = rbo(&['a', 'b'], &[], 0.9);
        assert_eq!(one_empty.map(|r| (r.ext, r.min)), Some((0.0, 0.0)));
    }

    #[test]
    fn overlap_and_jaccard_by_hand() {
        let (a, b) = (chars("abcd"), chars("bxay"));
        assert_eq!(overlap_count(&a, &b, 1), 0);
        assert_eq!(overlap_count(&a, &b, 2), 1);
        assert_eq!(overlap_count(&a, &b, 3), 2);
        assert_eq!(overlap_count(&a, &b, 10), 2);
        // {a, b} shared of {a, b, c, d, x, y}.
        assert_eq!(jaccard(&a, &b), Some(2.0 / 6.0));
        assert_eq!(jaccard::<char>(&[], &[]), None);
    }

    /// scipy.stats.kendalltau (tau-b) on data with ties in both variables.
    #[test]
    fn kendall_tau_b_matches_scipy_with_ties() {
        let x = [1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 5.0];
        let y = [2.0, 1.0, 3.0, 3.0, 5.0, 4.0, 4.0];
        close(
            kendall_tau_b(&x, &y).unwrap_or(f64::NAN),
            0.6842105263157894,
            1e-15,
        );
        let x = [1.0, 1.0, 1.0, 2.0, 2.0, 3.0];
        let y = [1.0, 2.0, 2.0, 2.0, 3.0, 3.0];
        close(
            kendall_tau_b(&x, &y).unwrap_or(f64::NAN),
            0.7272727272727273,
            1e-15,
        );
        assert_eq!(kendall_tau_b(&[1.0, 2.0], &[2.0, 1.0]), Some(-1.0));
        assert_eq!(kendall_tau_b(&[1.0], &[1.0]), None);
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
    }

    /// scipy.stats.ttest_rel(b, a).
    #[test]
    fn paired_t_test_matches_scipy() {
        let a = [0.2, 0.5, 0.1, 0.9, 0.4, 0.3, 0.7, 0.6];
        let b = [0.3, 0.45, 0.4, 1.0, 0.6, 0.3, 0.9, 0.65];
        let d: Vec<f64> = b.iter().zip(&a).map(|(b, a)| b - a).collect();
        let t = paired_t_test(&d).unwrap_or_else(|| panic!("defined"));
        close(t.t, 2.749545416973504, 1e-12);
        assert_eq!(t.df, 7);
        close(t.p, 0.028522667328769395, 1e-12);
        let a = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0];
        let b = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0];
        let d: Vec<f64> = b.iter().zip(&a).map(|(b, a)| b - a).collect();
        let t = paired_t_test(&d).unwrap_or_else(|| panic!("defined"));
        close(t.t, 1.9639610121239315, 1e-12);
        close(t.p, 0.08112618884584057, 1e-12);
        assert_eq!(paired_t_test(&[0.5, 0.5, 0.5]), None);
        assert_eq!(paired_t_test(&[0.5]), None);
    }

    /// 2 * scipy.stats.t.sf(|t|, df), tails included.
    #[test]
    fn student_t_p_matches_scipy() {
        let cases = [
            (2.0, 3.0, 0.13932596855884305),
            (0.1, 10.0, 0.9223207185644082),
            (5.0, 999.0, 6.768361895801103e-07),
            (12.0, 4.0, 0.000276428548502973),
            (1e-3, 2.0, 0.9992928933955901),
        ];
        for (t, df, p) in cases {
            close(student_t_two_sided_p(t, df), p, 1e-12);
            close(student_t_two_sided_p(-t, df), p, 1e-12);
        }
    }

    /// statsmodels.stats.multitest.multipletests(ps, method="holm").
    #[test]
    fn holm_matches_statsmodels() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.2, 0.005]);
        let expected = [0.04, 0.09, 0.09, 0.2, 0.025];
        for (a, e) in adjusted.iter().zip(expected) {
            close(*a, e, 1e-15);
        }
        assert_eq!(holm(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
    }

    #[test]
    fn identical_runs_have_permutation_p_one_and_a_zero_interval() {
        let zeros = [0.0; 30];
        assert_eq!(
            sign_flip_p_values(&[&zeros], 2_000, PERMUTATION_SEED),
            vec![1.0]
        );
        let ci = bootstrap_mean_intervals(&[&zeros], 500, 0.95, BOOTSTRAP_SEED);
        assert_eq!(ci, vec![Some((0.0, 0.0))]);
    }

    /// Ten differences of +1: only the two all-same-sign flips reach |mean| = 1, so the
    /// exact p is 2/1024; the estimate with 20,000 draws is within a few of its SE.
    #[test]
    fn permutation_p_of_a_clear_difference_is_near_the_exact_one() {
        let ones = [1.0; 10];
        let p = sign_flip_p_values(&[&ones], 20_000, PERMUTATION_SEED)[0];
        close(p, 2.0 / 1024.0, 0.0015);
        // Deterministic: the same seed gives the same p.
        assert_eq!(p, sign_flip_p_values(&[&ones], 20_000, PERMUTATION_SEED)[0]);
    }

    #[test]
    fn the_multiply_shift_is_the_high_half_of_the_128_bit_product() {
        let mut rng = SplitMix64::new(7);
        let sizes = [1usize, 2, 3, 1000, 65_537, u32::MAX as usize];
        for _ in 0..10_000 {
            let x = rng.next_u64();
            for n in sizes.into_iter().chain([rng.next_u64() as u32 as usize]) {
                assert_eq!(
                    multiply_shift(x, n),
                    ((u128::from(x) * n as u128) >> 64) as usize
                );
            }
        }
        for x in [0, 1, u64::MAX, u64::MAX - 1, 1 << 32, (1 << 32) - 1] {
            for n in sizes {
                assert_eq!(
                    multiply_shift(x, n),
                    ((u128::from(x) * n as u128) >> 64) as usize
                );
            }
        }
    }

    #[test]
    fn bootstrap_interval_brackets_the_mean() {
        let d = [0.1, 0.3, -0.2, 0.5, 0.0, 0.2, 0.4, -0.1];
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        let ci = bootstrap_mean_intervals(&[&d], 5_000, 0.95, BOOTSTRAP_SEED)[0];
        let (low, high) = ci.unwrap_or((f64::NAN, f64::NAN));
        assert!(
            low < mean && mean < high && low >= -0.2 && high <= 0.5,
            "{low} {high}"
        );
    }

    #[test]
    fn quantile_interpolates_like_numpy() {
        // numpy.percentile([1, 2, 3, 4], [25, 50, 90]) = 1.75, 2.5, 3.7
        let v = [1.0, 2.0, 3.0, 4.0];
        close(quantile(&v, 0.25), 1.75, 1e-15);
        close(quantile(&v, 0.5), 2.5, 1e-15);
        close(quantile(&v, 0.9), 3.7, 1e-15);
    }
}
