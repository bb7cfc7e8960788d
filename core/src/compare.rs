//! Baseline comparison: the same batch under pinned settings and under the current
//! ones, trace by trace and block by block.
//!
//! Both analyses must come from the same parsed batch (same traces in the same
//! order); traces are matched by position in it, blocks by their candidate.

use crate::analysis::Analysis;
use crate::outcome::Level;
use crate::pipeline::Status;
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;
use std::collections::HashMap;

/// A trace whose relevance level differs between the baseline and the current analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelChange {
    /// Index into `Analysis::traces`.
    pub index: usize,
    pub name: String,
    pub baseline: Level,
    pub current: Level,
}

/// The traces whose level changed, in batch order.
pub fn level_changes(baseline: &Analysis, current: &Analysis) -> Vec<LevelChange> {
    baseline
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
        .collect()
}

/// What happened to one block between the baseline and the current analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
/// their candidate, which no setting changes.
pub fn block_changes(baseline: &TraceAnalysis, current: &TraceAnalysis) -> Vec<BlockChange> {
    // The baseline's accepted rank per candidate, read once rather than searched per block.
    let was: HashMap<usize, usize> = baseline
        .accepted_blocks()
        .filter_map(|b| Some((b.candidate.input_index, b.accepted_rank?)))
        .collect();
    current
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
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::config::Settings;
    use crate::input::parse_document;

    /// Three documents' blocks; a cap of one per document pushes b2 out and moves c1 up.
    const TRACE: &str = r#"{"requestId":"r","mode":"dense","candidates":[
        {"evidenceKey":"a1","docId":"a","originalRank":1,"score":0.1},
        {"evidenceKey":"b1","docId":"b","originalRank":2,"score":0.2},
        {"evidenceKey":"b2","docId":"b","originalRank":3,"score":0.3},
        {"evidenceKey":"c1","docId":"c","originalRank":4,"score":0.4}]}"#;

    /// The trace under `returnN` and `maxChunksPerDocument`, or `maxL2Distance`.
    fn run(return_n: usize, cap: usize, max_l2: Option<f64>) -> Analysis {
        let settings = Settings {
            return_n: Some(return_n),
            max_chunks_per_document: Some(cap),
            max_l2_distance: max_l2,
            ..Settings::default()
        };
        match analyze(&parse_document("t", TRACE), &settings, false) {
            Ok(analysis) => analysis,
            Err(err) => panic!("valid settings: {err}"),
        }
    }

    #[test]
    fn blocks_enter_and_leave() {
        // Cap 2, returnN 3: a1, b1, b2 accepted; cap 1: b2 capped, c1 takes rank 3.
        let changes = block_changes(&run(3, 2, None).traces[0], &run(3, 1, None).traces[0]);
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
        let changes = block_changes(&run(4, 2, None).traces[0], &run(2, 1, None).traces[0]);
        assert_eq!(changes[2], BlockChange::Left { was_rank: 3 });
        assert_eq!(changes[3], BlockChange::Left { was_rank: 4 });
    }

    #[test]
    fn a_block_moves_when_an_earlier_one_leaves() {
        let changes = block_changes(&run(4, 2, None).traces[0], &run(4, 1, None).traces[0]);
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
        assert!(level_changes(&strict, &strict).is_empty());
        let changes = level_changes(&strict, &loose);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].index, 0);
        assert_eq!(changes[0].name, "r");
        assert_eq!(changes[0].baseline, strict.traces[0].relevance_level);
        assert_eq!(changes[0].current, loose.traces[0].relevance_level);
        assert_ne!(changes[0].baseline, changes[0].current);
    }
}
