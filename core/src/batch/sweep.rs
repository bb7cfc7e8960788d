//! The threshold sweep of the batch view (contract section 4).

use crate::label::CanonicalLabel;
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;

/// One point of the sweep: for t = i / 100, i = 0..=100, the fraction of the traces
/// with at least one accepted block whose top quality is >= t; 0 when no trace has one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    pub threshold: f64,
    pub fraction: f64,
}

/// Thresholds of the sweep: t = i / 100 for i = 0..=100.
const STEPS: usize = 101;

/// `THRESHOLDS[i]` = i / 100, as the sweep compares with it: counting a trace reads
/// two or three of them, and a division each was a fifth of re-counting a batch.
const THRESHOLDS: [f64; STEPS] = {
    let mut thresholds = [0.0; STEPS];
    let mut i = 0;
    while i < STEPS {
        thresholds[i] = i as f64 / 100.0;
        i += 1;
    }
    thresholds
};

/// What a sweep needs of a set of top qualities: how many there are, and for each
/// threshold how many reach it as their highest. Counted in one pass with no list
/// and no sort, so `analyze` keeps one per scope while it walks the traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepCounts {
    total: usize,
    /// `highest[i]`: tops whose highest threshold reached is i / 100.
    highest: [usize; STEPS],
}

impl Default for SweepCounts {
    fn default() -> Self {
        SweepCounts {
            total: 0,
            highest: [0; STEPS],
        }
    }
}

impl SweepCounts {
    pub fn add(&mut self, top: f64) {
        self.total += 1;
        // The estimate from `top * 100` can be one off either way in floating point;
        // the comparisons below are the sweep's own `top >= i / 100`.
        let reaches = |i: usize| THRESHOLDS.get(i).is_some_and(|&t| top >= t);
        // `as` truncates toward zero and saturates (NaN and negatives to 0), which is
        // `floor().clamp(0.0, 100.0)` for these values without the two calls.
        let mut i = ((top * 100.0) as usize).min(STEPS - 1);
        while i + 1 < STEPS && reaches(i + 1) {
            i += 1;
        }
        while i > 0 && !reaches(i) {
            i -= 1;
        }
        if reaches(i) {
            if let Some(count) = self.highest.get_mut(i) {
                *count += 1;
            }
        }
    }

    /// The sweep: at each threshold the fraction of the tops that reach it.
    pub fn points(&self) -> Vec<SweepPoint> {
        let mut reaching = [0usize; STEPS];
        let mut at_or_above = 0usize;
        for (i, count) in self.highest.iter().enumerate().rev() {
            at_or_above = at_or_above.saturating_add(*count);
            if let Some(slot) = reaching.get_mut(i) {
                *slot = at_or_above;
            }
        }
        reaching
            .iter()
            .enumerate()
            .map(|(i, &n)| SweepPoint {
                threshold: i as f64 / 100.0,
                fraction: if self.total == 0 {
                    0.0
                } else {
                    n as f64 / self.total as f64
                },
            })
            .collect()
    }

    /// No top quality counted.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Adds the counts of another set of tops: the sweep of both sets together.
    pub fn merge(&mut self, other: &SweepCounts) {
        // Saturating: counts decoded from bytes may be anything.
        self.total = self.total.saturating_add(other.total);
        for (count, more) in self.highest.iter_mut().zip(&other.highest) {
            *count = count.saturating_add(*more);
        }
    }

    /// The counts as plain numbers: how many tops, and per threshold how many reach it
    /// as their highest (101 numbers).
    pub fn to_parts(&self) -> (usize, &[usize]) {
        (self.total, &self.highest)
    }

    /// The counts from [`to_parts`](Self::to_parts); `None` unless `highest` has one
    /// number per threshold and they sum to at most `total` (tops below every
    /// threshold, NaN for one, count in `total` only).
    pub fn from_parts(total: usize, highest: &[usize]) -> Option<SweepCounts> {
        let highest: [usize; STEPS] = highest.try_into().ok()?;
        let reaching = highest
            .iter()
            .try_fold(0usize, |sum, &count| sum.checked_add(count))?;
        (reaching <= total).then_some(SweepCounts { total, highest })
    }
}

/// Sweep counts for the whole batch and per canonical mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepScopes {
    pub all: SweepCounts,
    pub dense: SweepCounts,
    pub hybrid: SweepCounts,
}

impl SweepScopes {
    /// Adds another set of traces' counts, scope by scope.
    pub fn merge(&mut self, other: &SweepScopes) {
        self.all.merge(&other.all);
        self.dense.merge(&other.dense);
        self.hybrid.merge(&other.hybrid);
    }

    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        let Some(top) = t.top_quality else {
            return;
        };
        self.all.add(top);
        match t.mode() {
            Some(CanonicalLabel::Dense) => self.dense.add(top),
            Some(CanonicalLabel::Hybrid) => self.hybrid.add(top),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counted sweep equals the definition (sort, then count at each threshold),
    /// including tops that sit exactly on a threshold, where `top * 100` rounds.
    #[test]
    fn counted_sweep_matches_the_definition() {
        let mut tops: Vec<f64> = (0..=100).map(|i| f64::from(i) / 100.0).collect();
        tops.extend([
            0.0,
            1.0,
            0.29,
            0.57,
            0.58,
            0.7,
            0.999_999,
            1e-9,
            0.145,
            2.0 / 3.0,
        ]);
        let mut x = 0.123_456_f64;
        for _ in 0..500 {
            x = (x * 9_301.0 + 0.497_31).fract();
            tops.push(x);
        }
        let mut counts = SweepCounts::default();
        for &top in &tops {
            counts.add(top);
        }
        let mut sorted = tops.clone();
        sorted.sort_by(f64::total_cmp);
        let expected: Vec<SweepPoint> = (0..=100u32)
            .map(|i| {
                let threshold = f64::from(i) / 100.0;
                let below = sorted.partition_point(|&q| q < threshold);
                SweepPoint {
                    threshold,
                    fraction: (sorted.len() - below) as f64 / sorted.len() as f64,
                }
            })
            .collect();
        assert_eq!(counts.points(), expected);
        assert!(SweepCounts::default()
            .points()
            .iter()
            .all(|p| p.fraction == 0.0));
    }
}
