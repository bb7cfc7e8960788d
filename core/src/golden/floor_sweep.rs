//! The floor sweep (contract section 10.2): mean recall@k, mean accepted blocks and
//! `NO_MATCH` traces for `minQuality` and for `relativeQuality` at t = i / 100.
//!
//! Without re-running the pipeline: a floor only takes candidates out of the
//! acceptance walk (a `below_floor` one holds no place in the cap or `returnN` and still
//! marks its key seen), so a trace's accepted list depends on the floor only through
//! which of its distinct candidate qualities reach it. With `m` distinct qualities
//! there are `m + 1` lists ("steps"); each linked trace is walked once per step, each
//! case's recall is worked out once per step, and every floor point then only picks
//! its step per trace (a binary search) and sums.

use super::cases::GoldenCase;
use super::relevance::Relevance;
use super::report::{FloorPoint, FloorSweep, SuggestedFloors};
use crate::pipeline::{best_quality, floor_from, is_below_floor, never_accepted};
use crate::render::{num, Table};
use crate::trace_analysis::{quality_of, TraceAnalysis};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How many points each sweep has: t = i / 100 for i = 0 ..= 100.
pub const FLOOR_POINTS: usize = 101;
/// How much mean recall@k a suggested floor may cost against a floor of 0.
pub const FLOOR_RECALL_TOLERANCE: f64 = 0.01;

/// Which floor a sweep moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloorKind {
    MinQuality,
    RelativeQuality,
}

/// The floor value of point `i`: `i / 100`, computed as that division.
pub(crate) fn floor_at(i: usize) -> f64 {
    i as f64 / 100.0
}

/// One linked trace's accepted lists, one per step: all the sweep reads of a trace, so
/// a partial evaluation carries it in place of the trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TraceSteps {
    /// The distinct qualities of the candidates the walk can accept, ascending. Step
    /// `j < m` accepts from those of quality `>= thresholds[j]`; step `m` from none.
    thresholds: Vec<f64>,
    /// `qMax` of the trace (the relative floor's base).
    best: f64,
    min_quality: f64,
    relative_quality: f64,
    /// The cut-off of the ranking metrics (the trace's `returnN`).
    k: usize,
    /// Accepted blocks at each step.
    blocks: Vec<usize>,
    /// Each step's document ranking (doc slots, each at its first position), stored
    /// one after another; step `j` is `ranking[starts[j]..starts[j + 1]]`.
    ranking: Vec<usize>,
    starts: Vec<usize>,
    /// Each doc slot's docId.
    docs: Vec<Arc<str>>,
}

impl TraceSteps {
    /// Walks `trace` once per step, as section 10.2's walk does under each floor.
    pub(crate) fn of(trace: &TraceAnalysis) -> TraceSteps {
        let config = &trace.config;
        let n = trace.trace.candidates().len();
        let quality = |h: &crate::input::Hot| quality_of(h, n, config).score;
        let walked: Vec<(usize, f64)> = trace
            .trace
            .hot()
            .iter()
            .filter(|h| never_accepted(h).is_none())
            .map(|h| (h.doc_slot, quality(h)))
            .collect();
        let mut thresholds: Vec<f64> = walked.iter().map(|&(_, q)| q).collect();
        thresholds.sort_by(f64::total_cmp);
        thresholds.dedup();
        let mut steps = TraceSteps {
            best: best_quality(&trace.trace, quality),
            min_quality: config.min_quality,
            relative_quality: config.relative_quality,
            k: trace.return_n(),
            blocks: Vec::with_capacity(thresholds.len() + 1),
            ranking: Vec::new(),
            starts: vec![0],
            thresholds,
            docs: vec![Arc::from(""); trace.trace.doc_count()],
        };
        for c in trace.trace.candidates() {
            if let Some(doc) = steps.docs.get_mut(c.doc_slot) {
                doc.clone_from(&c.doc_id);
            }
        }
        let mut per_doc = vec![0usize; trace.trace.doc_count()];
        for step in 0..=steps.thresholds.len() {
            let least = steps.thresholds.get(step).copied();
            per_doc.fill(0);
            let mut accepted = 0usize;
            for &(slot, q) in &walked {
                // Below this step's least quality is below its floor.
                if least.is_none_or(|least| q < least) {
                    continue;
                }
                let held = per_doc.get(slot).copied().unwrap_or(0);
                if held >= config.max_chunks_per_document || accepted >= config.return_n {
                    continue;
                }
                accepted += 1;
                if held == 0 {
                    steps.ranking.push(slot);
                }
                if let Some(h) = per_doc.get_mut(slot) {
                    *h += 1;
                }
            }
            steps.blocks.push(accepted);
            steps.starts.push(steps.ranking.len());
        }
        steps
    }

    /// The step the walk takes under `floor`: how many distinct qualities are below it.
    pub(crate) fn step_at(&self, floor: f64) -> usize {
        if floor > 0.0 {
            self.thresholds
                .partition_point(|&q| is_below_floor(q, floor))
        } else {
            0
        }
    }

    /// The trace's floor at point `t` of the sweep of `kind`.
    pub(crate) fn floor(&self, kind: FloorKind, t: f64) -> f64 {
        match kind {
            FloorKind::MinQuality => floor_from(t, self.relative_quality, self.best),
            FloorKind::RelativeQuality => floor_from(self.min_quality, t, self.best),
        }
    }

    fn ranking(&self, step: usize) -> &[usize] {
        match (self.starts.get(step), self.starts.get(step + 1)) {
            (Some(&from), Some(&to)) => self.ranking.get(from..to).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// recall@k of `case` at every step, as the golden evaluation computes it.
    fn recalls(&self, case: &GoldenCase, relevant_grade: usize) -> Vec<f64> {
        let relevance = Relevance::of(case, relevant_grade);
        let relevant = relevance.relevant_docs().count();
        if relevant == 0 {
            return vec![0.0; self.blocks.len()];
        }
        let least = i64::try_from(relevant_grade).unwrap_or(i64::MAX);
        let slot_relevant: Vec<bool> = self
            .docs
            .iter()
            .map(|doc| relevance.grade(doc) >= least)
            .collect();
        (0..self.blocks.len())
            .map(|step| {
                let hits = self
                    .ranking(step)
                    .iter()
                    .take(self.k)
                    .filter(|&&slot| slot_relevant.get(slot).copied().unwrap_or(false))
                    .count();
                hits as f64 / relevant as f64
            })
            .collect()
    }
}

/// The floor sweep of `cases` linked (as the golden evaluation links them) to traces:
/// `links[c]` is the index of case `c`'s trace, `steps_of(t)` trace `t`'s steps (asked
/// once per linked trace), of `traces` traces in all.
pub(crate) fn floor_sweep(
    cases: &[GoldenCase],
    links: &[Option<usize>],
    traces: usize,
    steps_of: impl Fn(usize) -> Option<TraceSteps>,
    relevant_grade: usize,
) -> FloorSweep {
    // Each linked trace walked once, however many cases link to it.
    let mut step_of_trace: Vec<Option<usize>> = vec![None; traces];
    let mut steps: Vec<TraceSteps> = Vec::new();
    // Per linked case, in case order: its trace's steps and where its recall at each
    // step starts in `recalls` (one flat list: the sums below read it 202 times).
    let mut linked_cases: Vec<(usize, usize)> = Vec::with_capacity(cases.len());
    let mut recalls: Vec<f64> = Vec::new();
    for (case, link) in cases.iter().zip(links) {
        let Some(t) = *link else {
            continue;
        };
        let at = match step_of_trace.get(t).copied().flatten() {
            Some(at) => at,
            None => {
                let Some(of_trace) = steps_of(t) else {
                    continue;
                };
                steps.push(of_trace);
                let at = steps.len() - 1;
                if let Some(slot) = step_of_trace.get_mut(t) {
                    *slot = Some(at);
                }
                at
            }
        };
        if let Some(s) = steps.get(at) {
            linked_cases.push((at, recalls.len()));
            recalls.extend(s.recalls(case, relevant_grade));
        }
    }
    let linked = Linked {
        steps: &steps,
        cases: &linked_cases,
        recalls: &recalls,
        case_count: cases.len(),
    };
    let min_quality = linked.sweep(FloorKind::MinQuality);
    let relative_quality = linked.sweep(FloorKind::RelativeQuality);
    let suggested = SuggestedFloors {
        min_quality: suggested_floor(&min_quality),
        relative_quality: suggested_floor(&relative_quality),
    };
    FloorSweep {
        min_quality,
        relative_quality,
        suggested,
    }
}

/// One floor of the sweep over a whole batch (no cases): what the floor leaves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchFloorPoint {
    pub floor: f64,
    /// Mean accepted blocks per trace, over every trace of the batch; 0 without one.
    pub mean_blocks: f64,
    /// Traces left with no accepted block (`NO_MATCH`).
    pub no_match: usize,
}

/// The floor sweep of a batch without cases (contract section 10.2, the page's Batch
/// tab): the sweep's blocks and `NO_MATCH` over every trace, each of the 101 points of
/// each kind with the other floor at its current value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchFloorSweep {
    pub min_quality: Vec<BatchFloorPoint>,
    pub relative_quality: Vec<BatchFloorPoint>,
}

/// [`BatchFloorSweep`] of an analysis: every trace walked once per step, as the sweep
/// over cases walks the linked ones.
pub fn batch_floor_sweep(analysis: &crate::analysis::Analysis) -> BatchFloorSweep {
    let steps: Vec<TraceSteps> = analysis.traces.iter().map(TraceSteps::of).collect();
    let every_trace = Linked {
        steps: &steps,
        cases: &[],
        recalls: &[],
        case_count: 0,
    };
    let points = |kind| {
        every_trace
            .sweep(kind)
            .into_iter()
            .map(|p| BatchFloorPoint {
                floor: p.floor,
                mean_blocks: p.mean_blocks,
                no_match: p.no_match,
            })
            .collect()
    };
    BatchFloorSweep {
        min_quality: points(FloorKind::MinQuality),
        relative_quality: points(FloorKind::RelativeQuality),
    }
}

/// The linked traces' steps and the linked cases' recalls at each step.
struct Linked<'a> {
    steps: &'a [TraceSteps],
    /// Per linked case, in case order: `(its trace's steps, where its recalls start)`.
    cases: &'a [(usize, usize)],
    recalls: &'a [f64],
    /// All cases, linked or not: the means' denominator.
    case_count: usize,
}

impl Linked<'_> {
    /// The 101 points of one kind's sweep.
    fn sweep(&self, kind: FloorKind) -> Vec<FloorPoint> {
        // A trace's floor never falls as t grows, so its step only moves forward: each
        // point advances it past the qualities its floor now exceeds.
        let mut step_now = vec![0usize; self.steps.len()];
        (0..FLOOR_POINTS)
            .map(|i| {
                let t = floor_at(i);
                let mut blocks = 0usize;
                let mut no_match = 0usize;
                for (s, now) in self.steps.iter().zip(step_now.iter_mut()) {
                    let floor = s.floor(kind, t);
                    while s
                        .thresholds
                        .get(*now)
                        .is_some_and(|&q| is_below_floor(q, floor))
                    {
                        *now += 1;
                    }
                    debug_assert_eq!(*now, s.step_at(floor));
                    let b = s.blocks.get(*now).copied().unwrap_or(0);
                    blocks += b;
                    no_match += usize::from(b == 0);
                }
                // Summed in case order, as the evaluation's means are; a case without a
                // trace adds its recall of 0.
                let total = self
                    .cases
                    .iter()
                    .map(|&(at, from)| {
                        step_now
                            .get(at)
                            .and_then(|&step| self.recalls.get(from + step))
                            .copied()
                            .unwrap_or(0.0)
                    })
                    .fold(0.0, |total, x| total + x);
                FloorPoint {
                    floor: t,
                    mean_recall: mean(total, self.case_count),
                    mean_blocks: mean(blocks as f64, self.steps.len()),
                    no_match,
                }
            })
            .collect()
    }
}

fn mean(total: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        total / n as f64
    }
}

/// The largest floor whose mean recall@k is at least that of the first point (a floor
/// of 0) minus [`FLOOR_RECALL_TOLERANCE`]; 0 for an empty sweep.
pub(crate) fn suggested_floor(points: &[FloorPoint]) -> f64 {
    let Some(first) = points.first() else {
        return 0.0;
    };
    let least = first.mean_recall - FLOOR_RECALL_TOLERANCE;
    points
        .iter()
        .rev()
        .find(|p| p.mean_recall >= least)
        .map_or(0.0, |p| p.floor)
}

/// Every this many points a row of the compact table (0, 0.05, 0.1, ...).
const TABLE_EVERY: usize = 5;

/// The point index of a suggested floor (`t = i / 100`).
fn index_of(floor: f64) -> usize {
    (floor * 100.0).round() as usize
}

/// The compact floor-sweep table of report.md and calibration.md: every 0.05, and the
/// suggested floors' rows marked.
pub(crate) fn floor_sweep_table(sweep: &FloorSweep) -> Table {
    let suggested = [
        index_of(sweep.suggested.min_quality),
        index_of(sweep.suggested.relative_quality),
    ];
    let rows = (0..FLOOR_POINTS)
        .filter(|i| i % TABLE_EVERY == 0 || suggested.contains(i))
        .filter_map(|i| {
            let by_min = sweep.min_quality.get(i)?;
            let by_relative = sweep.relative_quality.get(i)?;
            let mut marks = Vec::new();
            if suggested[0] == i {
                marks.push("minQuality");
            }
            if suggested[1] == i {
                marks.push("relativeQuality");
            }
            let mut floor = format!("{:.2}", floor_at(i));
            if !marks.is_empty() {
                floor.push_str(&format!(" (suggested {})", marks.join(", ")));
            }
            Some(vec![
                floor,
                num(by_min.mean_recall),
                num(by_min.mean_blocks),
                by_min.no_match.to_string(),
                num(by_relative.mean_recall),
                num(by_relative.mean_blocks),
                by_relative.no_match.to_string(),
            ])
        })
        .collect();
    Table {
        header: vec![
            "floor",
            "minQuality: recall@k",
            "blocks",
            "NO_MATCH",
            "relativeQuality: recall@k",
            "blocks",
            "NO_MATCH",
        ],
        rows,
    }
}

/// The one line `ragtrace eval` and `ragtrace calibrate` print about the sweep.
pub(crate) fn floor_sweep_line(sweep: &FloorSweep) -> String {
    let at = |points: &[FloorPoint], floor: f64| {
        points.get(index_of(floor)).map_or_else(String::new, |p| {
            format!(
                " (recall@k {}, {} blocks per trace)",
                num(p.mean_recall),
                num(p.mean_blocks)
            )
        })
    };
    format!(
        "suggested score floors (recall@k within {FLOOR_RECALL_TOLERANCE} of no floor): \
         minQuality {}{}, relativeQuality {}{}",
        sweep.suggested.min_quality,
        at(&sweep.min_quality, sweep.suggested.min_quality),
        sweep.suggested.relative_quality,
        at(&sweep.relative_quality, sweep.suggested.relative_quality),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(floor: f64, mean_recall: f64) -> FloorPoint {
        FloorPoint {
            floor,
            mean_recall,
            mean_blocks: 0.0,
            no_match: 0,
        }
    }

    #[test]
    fn the_suggestion_is_the_last_floor_within_the_tolerance() {
        // 0.5 - 0.01 = 0.49: 0.2 keeps 0.495, 0.3 drops to 0.48 and 0.4 is back at 0.491.
        let points = [
            point(0.0, 0.5),
            point(0.1, 0.5),
            point(0.2, 0.495),
            point(0.3, 0.48),
            point(0.4, 0.491),
            point(0.5, 0.1),
        ];
        assert_eq!(suggested_floor(&points), 0.4);
        assert_eq!(suggested_floor(&points[..4]), 0.2);
        assert_eq!(suggested_floor(&[]), 0.0);
    }
}
