//! Baseline comparison: the same batch under pinned settings and under the current
//! ones, trace by trace and block by block.
//!
//! Both analyses must come from the same parsed batch (same traces in the same
//! order); traces are matched by position in it, blocks by their candidate. Each
//! comparison checks that they do: an analysis holds the parsed traces it read, so
//! two analyses are of the same batch when they hold the very same traces.

use crate::analysis::Analysis;
use crate::outcome::Level;
use crate::pipeline::Status;
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Two analyses (or two analysed traces) that are not of the same parsed batch, so
/// pairing them by position would compare unrelated traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DifferentBatches;

impl fmt::Display for DifferentBatches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "the baseline and the current analysis are of different batches; analyse both from the same parsed batch",
        )
    }
}

impl std::error::Error for DifferentBatches {}

/// Both analyses read the very same parsed traces, in the same order (not merely
/// equal ones: an analysis shares its batch's traces, so this is a pointer check).
pub fn same_batch(a: &Analysis, b: &Analysis) -> bool {
    a.traces.len() == b.traces.len()
        && a.traces
            .iter()
            .zip(&b.traces)
            .all(|(x, y)| Arc::ptr_eq(&x.trace, &y.trace))
}

/// A trace whose relevance level differs between the baseline and the current analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelChange {
    /// Index into `Analysis::traces`.
    pub index: usize,
    pub name: String,
    pub baseline: Level,
    pub current: Level,
}

/// The traces whose level changed, in batch order; an error when the analyses are
/// not of the same batch.
pub fn level_changes(
    baseline: &Analysis,
    current: &Analysis,
) -> Result<Vec<LevelChange>, DifferentBatches> {
    if !same_batch(baseline, current) {
        return Err(DifferentBatches);
    }
    Ok(baseline
        .traces
        .iter()
        .zip(&current.traces)
        .enumerate()
        .filter(|(_, (b, c))| b.relevance_level != c.relevance_level)
        .map(|(index, (b, c))| LevelChange {
            index,
            name: c.name().into_owned(),
            baseline: b.relevance_level,
            current: c.relevance_level,
        })
        .collect())
}

/// What happened to one block between the baseline and the current analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum BlockChange {
    /// Accepted at the same rank in both, or in neither.
    Same,
    /// Accepted now, not in the baseline.
    Entered { accepted_rank: usize },
    /// Accepted in the baseline, not now.
    Left { was_rank: usize },
    /// Accepted in both, at another rank.
    Moved {
        was_rank: usize,
        accepted_rank: usize,
    },
}

/// One entry per block of `current`, in its processing order. Blocks are matched by
/// their candidate, which no setting changes; an error when the two are analyses of
/// different parsed traces.
pub fn block_changes(
    baseline: &TraceAnalysis,
    current: &TraceAnalysis,
) -> Result<Vec<BlockChange>, DifferentBatches> {
    if !Arc::ptr_eq(&baseline.trace, &current.trace) {
        return Err(DifferentBatches);
    }
    // The baseline's accepted rank per candidate, read once rather than searched per block.
    let was: HashMap<usize, usize> = baseline
        .accepted_blocks()
        .filter_map(|b| Some((b.candidate.input_index, b.accepted_rank?)))
        .collect();
    Ok(current
        .blocks()
        .map(|block| {
            let was = was.get(&block.candidate.input_index).copied();
            let now = block
                .accepted_rank
                .filter(|_| block.status == Status::Accepted);
            match (was, now) {
                (None, Some(accepted_rank)) => BlockChange::Entered { accepted_rank },
                (Some(was_rank), None) => BlockChange::Left { was_rank },
                (Some(was_rank), Some(accepted_rank)) if was_rank != accepted_rank => {
                    BlockChange::Moved {
                        was_rank,
                        accepted_rank,
                    }
                }
                _ => BlockChange::Same,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::config::Settings;
    use crate::input::{parse_document, ParsedBatch};

    /// Three documents' blocks; a cap of one per document pushes b2 out and moves c1 up.
    const TRACE: &str = r#"{"requestId":"r","mode":"dense","candidates":[
        {"evidenceKey":"a1","docId":"a","originalRank":1,"score":0.1},
        {"evidenceKey":"b1","docId":"b","originalRank":2,"score":0.2},
        {"evidenceKey":"b2","docId":"b","originalRank":3,"score":0.3},
        {"evidenceKey":"c1","docId":"c","originalRank":4,"score":0.4}]}"#;

    thread_local! {
        /// One parsed batch for every run, as the page keeps one for its analyses.
        static BATCH: ParsedBatch = parse_document("t", TRACE);
    }

    /// The trace under `returnN` and `maxChunksPerDocument`, or `maxL2Distance`.
    fn run(return_n: usize, cap: usize, max_l2: Option<f64>) -> Analysis {
        let settings = Settings {
            return_n: Some(return_n),
            max_chunks_per_document: Some(cap),
            max_l2_distance: max_l2,
            ..Settings::default()
        };
        match BATCH.with(|batch| analyze(batch, &settings, false)) {
            Ok(analysis) => analysis,
            Err(err) => panic!("valid settings: {err}"),
        }
    }

    fn blocks(baseline: &TraceAnalysis, current: &TraceAnalysis) -> Vec<BlockChange> {
        match block_changes(baseline, current) {
            Ok(changes) => changes,
            Err(err) => panic!("one batch: {err}"),
        }
    }

    fn levels(baseline: &Analysis, current: &Analysis) -> Vec<LevelChange> {
        match level_changes(baseline, current) {
            Ok(changes) => changes,
            Err(err) => panic!("one batch: {err}"),
        }
    }

    /// Equal text parsed twice is two batches: nothing is paired across them.
    #[test]
    fn analyses_of_different_batches_are_not_compared() {
        let other = parse_document("t", TRACE);
        let Ok(elsewhere) = analyze(&other, &Settings::default(), false) else {
            panic!("default settings are valid");
        };
        let here = run(5, 2, None);
        assert!(!same_batch(&here, &elsewhere));
        assert_eq!(level_changes(&here, &elsewhere), Err(DifferentBatches));
        assert_eq!(
            block_changes(&here.traces[0], &elsewhere.traces[0]),
            Err(DifferentBatches)
        );
        assert!(same_batch(&here, &run(1, 1, Some(0.2))));
    }

    #[test]
    fn blocks_enter_and_leave() {
        // Cap 2, returnN 3: a1, b1, b2 accepted; cap 1: b2 capped, c1 takes rank 3.
        let changes = blocks(&run(3, 2, None).traces[0], &run(3, 1, None).traces[0]);
        assert_eq!(
            changes,
            [
                BlockChange::Same,
                BlockChange::Same,
                BlockChange::Left { was_rank: 3 },
                BlockChange::Entered { accepted_rank: 3 },
            ]
        );
        // Baseline accepts a1, b1, b2, c1 (ranks 1-4); now only a1, b1.
        let changes = blocks(&run(4, 2, None).traces[0], &run(2, 1, None).traces[0]);
        assert_eq!(changes[2], BlockChange::Left { was_rank: 3 });
        assert_eq!(changes[3], BlockChange::Left { was_rank: 4 });
    }

    #[test]
    fn a_block_moves_when_an_earlier_one_leaves() {
        let changes = blocks(&run(4, 2, None).traces[0], &run(4, 1, None).traces[0]);
        assert_eq!(
            changes[3],
            BlockChange::Moved {
                was_rank: 4,
                accepted_rank: 3
            }
        );
    }

    #[test]
    fn level_changes_name_the_trace_and_both_levels() {
        let (strict, loose) = (run(5, 2, Some(0.15)), run(5, 2, Some(5.0)));
        assert!(levels(&strict, &strict).is_empty());
        let changes = levels(&strict, &loose);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].index, 0);
        assert_eq!(changes[0].name, "r");
        assert_eq!(changes[0].baseline, strict.traces[0].relevance_level);
        assert_eq!(changes[0].current, loose.traces[0].relevance_level);
        assert_ne!(changes[0].baseline, changes[0].current);
    }
}
