//! Batch view (contract section 4): level counts, transitions, split by mode, and the sweep.

use crate::analysis::TraceAnalysis;
use crate::diagnostic::Severity;
use crate::label::CanonicalLabel;
use crate::outcome::{normalise_level, Level};
use serde::Serialize;
use std::collections::BTreeMap;

/// Counts over a set of traces. Count maps list only keys with a count >= 1.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeSummary {
    pub traces: usize,
    pub levels: BTreeMap<Level, usize>,
    /// Keyed by the recorded level, trimmed and uppercased; traces without one are left out.
    pub recorded_levels: BTreeMap<String, usize>,
    /// `"FROM->TO"`, recorded -> recomputed.
    pub transitions: BTreeMap<String, usize>,
    pub low_quality: usize,
    pub retry_unfiltered: usize,
    /// Beyond the contract: traces whose recorded level differs from the recomputed one.
    pub level_differs: usize,
}

/// Recorded levels as small indices: the five levels first (`Level as usize`), then any
/// other normalised text in order of first appearance. Counting by index instead of
/// by `String` key allocates nothing per trace; the maps are built once at the end.
#[derive(Debug, Default)]
struct RecordedKeys {
    other: Vec<String>,
}

impl RecordedKeys {
    fn key(&mut self, recorded: &str) -> usize {
        if let Some(level) = Level::parse_recorded(recorded) {
            return level as usize;
        }
        let normalised = normalise_level(recorded);
        let at = match self.other.iter().position(|k| *k == normalised) {
            Some(at) => at,
            None => {
                self.other.push(normalised);
                self.other.len() - 1
            }
        };
        Level::ALL.len() + at
    }

    fn name(&self, key: usize) -> &str {
        match Level::ALL.get(key) {
            Some(level) => level.as_str(),
            None => self
                .other
                .get(key - Level::ALL.len())
                .map_or("", String::as_str),
        }
    }
}

/// A [`ModeSummary`] being counted.
#[derive(Debug, Default)]
struct Tally {
    traces: usize,
    levels: [usize; 5],
    /// `[recorded key][recomputed level]`.
    transitions: Vec<[usize; 5]>,
    low_quality: usize,
    retry_unfiltered: usize,
    level_differs: usize,
}

impl Tally {
    fn add(&mut self, t: &TraceAnalysis, recorded: Option<usize>) {
        let level = t.relevance_level as usize;
        self.traces += 1;
        if let Some(count) = self.levels.get_mut(level) {
            *count += 1;
        }
        if let Some(key) = recorded {
            if self.transitions.len() <= key {
                self.transitions.resize(key + 1, [0; 5]);
            }
            if let Some(count) = self.transitions.get_mut(key).and_then(|r| r.get_mut(level)) {
                *count += 1;
            }
        }
        self.low_quality += usize::from(t.low_quality);
        self.retry_unfiltered += usize::from(t.retry_unfiltered);
        self.level_differs += usize::from(t.level_differs);
    }

    fn finish(&self, keys: &RecordedKeys) -> ModeSummary {
        let mut out = ModeSummary {
            traces: self.traces,
            low_quality: self.low_quality,
            retry_unfiltered: self.retry_unfiltered,
            level_differs: self.level_differs,
            ..ModeSummary::default()
        };
        for (level, &count) in Level::ALL.iter().zip(&self.levels) {
            if count > 0 {
                out.levels.insert(*level, count);
            }
        }
        for (key, row) in self.transitions.iter().enumerate() {
            let from = keys.name(key);
            let total: usize = row.iter().sum();
            if total == 0 {
                continue;
            }
            out.recorded_levels.insert(from.to_owned(), total);
            for (to, &count) in Level::ALL.iter().zip(row) {
                if count > 0 {
                    out.transitions
                        .insert(format!("{from}->{}", to.as_str()), count);
                }
            }
        }
        out
    }
}

/// Builds a [`Summary`] one trace at a time, so `analyze` can count each trace while it
/// is still in cache instead of walking the whole result again.
#[derive(Debug, Default)]
pub(crate) struct SummaryBuilder {
    keys: RecordedKeys,
    all: Tally,
    dense: Tally,
    hybrid: Tally,
}

impl SummaryBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        let recorded = t
            .trace
            .recorded_relevance_level
            .as_deref()
            .map(|r| self.keys.key(r));
        self.all.add(t, recorded);
        match t.mode() {
            Some(CanonicalLabel::Dense) => self.dense.add(t, recorded),
            Some(CanonicalLabel::Hybrid) => self.hybrid.add(t, recorded),
            None => {}
        }
    }

    pub(crate) fn finish(&self) -> Summary {
        let all = self.all.finish(&self.keys);
        Summary {
            traces: all.traces,
            levels: all.levels,
            recorded_levels: all.recorded_levels,
            transitions: all.transitions,
            low_quality: all.low_quality,
            retry_unfiltered: all.retry_unfiltered,
            level_differs: all.level_differs,
            by_mode: ByMode {
                dense: self.dense.finish(&self.keys),
                hybrid: self.hybrid.finish(&self.keys),
            },
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ByMode {
    pub dense: ModeSummary,
    pub hybrid: ModeSummary,
}

/// The whole batch, and the same counts per canonical trace mode
/// (traces whose mode is unknown count only in the totals).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub traces: usize,
    pub levels: BTreeMap<Level, usize>,
    pub recorded_levels: BTreeMap<String, usize>,
    pub transitions: BTreeMap<String, usize>,
    pub low_quality: usize,
    pub retry_unfiltered: usize,
    pub level_differs: usize,
    pub by_mode: ByMode,
}

impl ModeSummary {
    /// Traces recomputed at the level named `key` (0 for a name that is not a level).
    pub fn recomputed(&self, key: &str) -> usize {
        Level::parse(key).map_or(0, |level| self.levels.get(&level).copied().unwrap_or(0))
    }

    /// Traces whose recorded level normalises to `key`.
    pub fn recorded(&self, key: &str) -> usize {
        self.recorded_levels.get(key).copied().unwrap_or(0)
    }

    /// How the count at `key` moved from recorded to recomputed (recomputed - recorded).
    pub fn change(&self, key: &str) -> i64 {
        let signed = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        signed(self.recomputed(key)) - signed(self.recorded(key))
    }

    /// Recorded spellings that are none of the five levels, in key order.
    pub fn other_recorded(&self) -> impl Iterator<Item = &str> {
        self.recorded_levels
            .keys()
            .map(String::as_str)
            .filter(|key| Level::parse(key).is_none())
    }

    /// The rows of a distribution table: the five levels, then the other recorded spellings.
    pub fn distribution_keys(&self) -> Vec<String> {
        Level::ALL
            .iter()
            .map(|level| level.as_str())
            .chain(self.other_recorded())
            .map(str::to_owned)
            .collect()
    }

    /// The rows of a transition matrix: the recorded keys with at least one trace, the
    /// five levels first (in level order), then the other spellings. Empty when no trace
    /// recorded a level.
    pub fn transition_keys(&self) -> Vec<String> {
        Level::ALL
            .iter()
            .map(|level| level.as_str())
            .filter(|key| self.recorded(key) > 0)
            .chain(self.other_recorded())
            .map(str::to_owned)
            .collect()
    }

    /// Traces recorded as `from` and recomputed as `to`.
    pub fn transition(&self, from: &str, to: Level) -> usize {
        self.transitions
            .get(&format!("{from}->{}", to.as_str()))
            .copied()
            .unwrap_or(0)
    }
}

/// The names of [`Summary::scopes`], in its order.
pub const SCOPES: [&str; 3] = ["all", "dense", "hybrid"];

impl Summary {
    /// The scopes a batch view splits by: all traces, dense, hybrid (see [`SCOPES`]).
    pub fn scopes(&self) -> [(&'static str, ModeSummary); 3] {
        [
            (SCOPES[0], self.totals()),
            (SCOPES[1], self.by_mode.dense.clone()),
            (SCOPES[2], self.by_mode.hybrid.clone()),
        ]
    }

    /// The batch-wide counts in the shape of one mode's, so a caller can treat
    /// "all", "dense" and "hybrid" alike.
    pub fn totals(&self) -> ModeSummary {
        ModeSummary {
            traces: self.traces,
            levels: self.levels.clone(),
            recorded_levels: self.recorded_levels.clone(),
            transitions: self.transitions.clone(),
            low_quality: self.low_quality,
            retry_unfiltered: self.retry_unfiltered,
            level_differs: self.level_differs,
        }
    }
}

pub fn summarize(traces: &[TraceAnalysis]) -> Summary {
    let mut builder = SummaryBuilder::default();
    for t in traces {
        builder.add(t);
    }
    builder.finish()
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    pub threshold: f64,
    pub fraction: f64,
}

/// For t = i / 100, i = 0..=100: the fraction of the traces with at least one accepted
/// block whose top quality is >= t; 0 when no trace has an accepted block.
pub fn sweep(traces: &[TraceAnalysis]) -> Vec<SweepPoint> {
    sweep_of(traces)
}

/// [`sweep`] over any selection of traces (e.g. one mode's), without copying them.
pub fn sweep_of<'a>(traces: impl IntoIterator<Item = &'a TraceAnalysis>) -> Vec<SweepPoint> {
    let mut counts = SweepCounts::default();
    for top in traces.into_iter().filter_map(|t| t.top_quality) {
        counts.add(top);
    }
    counts.points()
}

/// Thresholds of the sweep: t = i / 100 for i = 0..=100.
const STEPS: usize = 101;

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
        let reaches = |i: usize| top >= i as f64 / 100.0;
        let mut i = (top * 100.0).floor().clamp(0.0, 100.0) as usize;
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
        let mut at_or_above = 0;
        for (i, count) in self.highest.iter().enumerate().rev() {
            at_or_above += count;
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
}

/// Sweep counts for the whole batch and per canonical mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepScopes {
    pub all: SweepCounts,
    pub dense: SweepCounts,
    pub hybrid: SweepCounts,
}

impl SweepScopes {
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

/// One kind of finding across the batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchWarning {
    pub code: String,
    pub severity: Severity,
    /// Traces with at least one finding of this code.
    pub traces: usize,
    /// The first finding's message.
    pub message: String,
    /// Names of the first few traces concerned.
    pub examples: Vec<String>,
}

const EXAMPLES: usize = 5;

/// Warnings and errors of every trace, grouped by code, in order of first appearance.
pub fn collect_warnings(traces: &[TraceAnalysis]) -> Vec<BatchWarning> {
    let mut builder = WarningsBuilder::default();
    for t in traces {
        builder.add(t);
    }
    builder.finish()
}

/// [`collect_warnings`] one trace at a time (while the trace is still in cache).
#[derive(Debug, Default)]
pub(crate) struct WarningsBuilder {
    out: Vec<BatchWarning>,
    /// Indices into `out` already counted for the current trace; reused across traces.
    counted: Vec<usize>,
}

impl WarningsBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        self.counted.clear();
        for finding in t.findings() {
            let severity = finding.severity();
            if severity < Severity::Warning {
                continue;
            }
            match self.out.iter().position(|w| w.code == finding.code()) {
                Some(at) => {
                    if self.counted.contains(&at) {
                        continue;
                    }
                    self.counted.push(at);
                    if let Some(w) = self.out.get_mut(at) {
                        w.traces += 1;
                        w.severity = w.severity.max(severity);
                        if w.examples.len() < EXAMPLES {
                            w.examples.push(t.name().into_owned());
                        }
                    }
                }
                None => {
                    // The message is written only for the first trace with this code.
                    let d = finding.diagnostic(t);
                    self.counted.push(self.out.len());
                    self.out.push(BatchWarning {
                        code: d.code,
                        severity,
                        traces: 1,
                        message: d.message,
                        examples: vec![t.name().into_owned()],
                    });
                }
            }
        }
    }

    pub(crate) fn finish(self) -> Vec<BatchWarning> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

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

    /// The counting-array summary against the direct definition (one `String` key per trace).
    #[test]
    fn summary_counts_match_the_definition() {
        let text = [
            r#"{"mode":"dense","relevanceLevel":" highly-relevant ","candidates":[{"score":0.1}]}"#,
            r#"{"mode":"hybrid","relevanceLevel":"weird","candidates":[{"score":0.1}]}"#,
            r#"{"mode":"hybrid","relevanceLevel":"Weird ","candidates":[]}"#,
            r#"{"mode":"dense","relevanceLevel":"no match","candidates":[{"score":0.9}]}"#,
            r#"{"candidates":[{"score":0.9}]}"#,
            r#"{"mode":"x","relevanceLevel":"précise","candidates":[{"score":0.9}]}"#,
        ]
        .join("\n");
        let batch = crate::input::parse_document("t", &text);
        let analysis = crate::analysis::analyze(&batch, &Settings::default(), false);
        let Ok(analysis) = analysis else {
            panic!("default settings are valid");
        };
        let mut recorded = BTreeMap::new();
        let mut transitions = BTreeMap::new();
        let mut levels = BTreeMap::new();
        for t in &analysis.traces {
            *levels.entry(t.relevance_level).or_insert(0) += 1;
            if let Some(r) = t.trace.recorded_relevance_level.as_deref() {
                let r = normalise_level(r);
                *transitions
                    .entry(format!("{r}->{}", t.relevance_level.as_str()))
                    .or_insert(0) += 1;
                *recorded.entry(r).or_insert(0) += 1;
            }
        }
        assert_eq!(analysis.summary, summarize(&analysis.traces));
        assert_eq!(analysis.summary.traces, 6);
        assert_eq!(analysis.summary.levels, levels);
        assert_eq!(analysis.summary.recorded_levels, recorded);
        assert_eq!(analysis.summary.transitions, transitions);
        assert_eq!(analysis.summary.recorded_levels.get("WEIRD"), Some(&2));
        assert_eq!(analysis.summary.by_mode.hybrid.recorded_levels.len(), 1);
        assert_eq!(analysis.summary.by_mode.dense.traces, 2);

        // The accessors a distribution table and a transition matrix read.
        let all = analysis.summary.totals();
        assert_eq!(all.distribution_keys().len(), 5 + 2); // WEIRD and PRéCISE
        assert_eq!(all.distribution_keys()[5], "PRéCISE"); // ASCII-only uppercasing
        for key in all.distribution_keys() {
            let level_count =
                Level::parse(&key).map_or(0, |l| levels.get(&l).copied().unwrap_or(0));
            assert_eq!(all.recomputed(&key), level_count, "{key}");
            assert_eq!(
                all.recorded(&key),
                recorded.get(&key).copied().unwrap_or(0),
                "{key}"
            );
            assert_eq!(
                all.change(&key),
                all.recomputed(&key) as i64 - all.recorded(&key) as i64
            );
        }
        assert_eq!(all.change("WEIRD"), -2);
        let rows = all.transition_keys();
        assert_eq!(rows, ["HIGHLY_RELEVANT", "NO_MATCH", "PRéCISE", "WEIRD"]);
        let row_total: usize = Level::ALL
            .iter()
            .map(|&to| all.transition("WEIRD", to))
            .sum();
        assert_eq!(row_total, 2);
        let scopes = analysis.summary.scopes();
        assert_eq!(
            scopes.map(|(name, m)| (name, m.traces)),
            [("all", 6), ("dense", 2), ("hybrid", 2)]
        );
    }
}
