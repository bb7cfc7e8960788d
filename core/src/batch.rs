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

impl ModeSummary {
    fn add(&mut self, t: &TraceAnalysis) {
        self.traces += 1;
        *self.levels.entry(t.relevance_level).or_insert(0) += 1;
        if let Some(recorded) = t.recorded_relevance_level.as_deref() {
            let recorded = normalise_level(recorded);
            *self
                .transitions
                .entry(format!("{recorded}->{}", t.relevance_level.as_str()))
                .or_insert(0) += 1;
            *self.recorded_levels.entry(recorded).or_insert(0) += 1;
        }
        self.low_quality += usize::from(t.low_quality);
        self.retry_unfiltered += usize::from(t.retry_unfiltered);
        self.level_differs += usize::from(t.level_differs);
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

pub fn summarize(traces: &[TraceAnalysis]) -> Summary {
    let mut all = ModeSummary::default();
    let mut by_mode = ByMode::default();
    for t in traces {
        all.add(t);
        match t.mode {
            Some(CanonicalLabel::Dense) => by_mode.dense.add(t),
            Some(CanonicalLabel::Hybrid) => by_mode.hybrid.add(t),
            None => {}
        }
    }
    Summary {
        traces: all.traces,
        levels: all.levels,
        recorded_levels: all.recorded_levels,
        transitions: all.transitions,
        low_quality: all.low_quality,
        retry_unfiltered: all.retry_unfiltered,
        level_differs: all.level_differs,
        by_mode,
    }
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
    let mut tops: Vec<f64> = traces.iter().filter_map(|t| t.top_quality).collect();
    tops.sort_by(f64::total_cmp);
    let total = tops.len();
    (0..=100u32)
        .map(|i| {
            let threshold = f64::from(i) / 100.0;
            let below = tops.partition_point(|&q| q < threshold);
            let fraction = if total == 0 {
                0.0
            } else {
                (total - below) as f64 / total as f64
            };
            SweepPoint {
                threshold,
                fraction,
            }
        })
        .collect()
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
    let mut out: Vec<BatchWarning> = Vec::new();
    for t in traces {
        let mut counted: Vec<&str> = Vec::new();
        for d in &t.diagnostics {
            if d.severity < Severity::Warning || counted.contains(&d.code.as_str()) {
                continue;
            }
            counted.push(&d.code);
            match out.iter_mut().find(|w| w.code == d.code) {
                Some(w) => {
                    w.traces += 1;
                    w.severity = w.severity.max(d.severity);
                    if w.examples.len() < EXAMPLES {
                        w.examples.push(t.name.clone());
                    }
                }
                None => out.push(BatchWarning {
                    code: d.code.clone(),
                    severity: d.severity,
                    traces: 1,
                    message: d.message.clone(),
                    examples: vec![t.name.clone()],
                }),
            }
        }
    }
    out
}
