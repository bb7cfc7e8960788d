//! One trace again under new settings, redoing only the stages the change reaches.
//!
//! A trace's analysis runs in three stages, each reading its own keys of the
//! configuration: deciding the blocks (`returnN`, `maxChunksPerDocument`), their
//! qualities (`maxL2Distance`, `hybridQuality`) and the level (the three thresholds).
//! A change redoes the first stage whose keys it touches and every stage after it,
//! with the same stage functions the full analysis runs, so the result is the one
//! [`analyze_trace`](super::analyze_trace) would give.

use super::{finish, requalify, trace_config, Decisions, Qualities, Scratch, TraceAnalysis};
use crate::config::{Config, Settings};
use std::sync::Arc;

/// The first stage whose inputs changed; it and every later stage are redone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Decide,
    Qualify,
    /// Only the level (also when nothing but the configuration shown changed, such as
    /// `excerptMaxChars`, which only the blocks read when they are shown).
    Level,
}

/// The first stage the change from `before` to `after` reaches. `reads_distance`:
/// some quality of the trace was computed from a distance.
fn first_stale(before: &Config, after: &Config, reads_distance: bool) -> Stage {
    // Spelled out field by field so that a new setting does not compile until it is
    // placed in a stage here.
    let Config {
        max_l2_distance,
        return_n,
        max_chunks_per_document,
        excerpt_max_chars: _,
        precise_threshold: _,
        highly_relevant_threshold: _,
        reference_threshold: _,
        hybrid_quality,
    } = *after;
    if return_n != before.return_n || max_chunks_per_document != before.max_chunks_per_document {
        Stage::Decide
    } else if hybrid_quality != before.hybrid_quality
        || (reads_distance && max_l2_distance != before.max_l2_distance)
    {
        Stage::Qualify
    } else {
        Stage::Level
    }
}

/// `previous`'s trace under `settings` (`global` = defaults plus those settings):
/// equal to a fresh analysis of it, at the cost of the stages the change reaches.
pub(crate) fn reanalyze_trace(
    previous: &TraceAnalysis,
    settings: &Settings,
    global: &Config,
    scratch: &mut Scratch,
) -> TraceAnalysis {
    let trace = &previous.trace;
    // Per trace: its own options may hold a key the settings no longer override.
    let config = trace_config(trace, &previous.facts, settings, global);
    let previous_qualities = Qualities {
        top: previous.top_quality,
        gate_inert: previous.low_quality_gate_inert,
        reads_distance: previous.quality_reads_distance,
    };
    let kept = |qualities| Decisions {
        decided: Arc::clone(&previous.decided),
        stages: previous.stages,
        qualities,
        evidence_comparison: previous.evidence_comparison.clone(),
    };
    let decisions = match first_stale(
        &previous.config,
        &config.config,
        previous.quality_reads_distance,
    ) {
        Stage::Decide => Decisions::make(trace, &config.config, scratch),
        Stage::Qualify => {
            let only_distance = previous.config.hybrid_quality == config.config.hybrid_quality;
            let before = only_distance.then_some(previous_qualities);
            kept(requalify(trace, &config.config, &previous.decided, before))
        }
        Stage::Level => kept(previous_qualities),
    };
    finish(trace, previous.facts, config, decisions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_reaches_its_stage() {
        let before = Config::default();
        let with = |change: fn(&mut Config)| {
            let mut after = before;
            change(&mut after);
            after
        };
        let stage = |after: Config, reads_distance| first_stale(&before, &after, reads_distance);
        assert_eq!(stage(before, true), Stage::Level);
        assert_eq!(stage(with(|c| c.return_n = 3), false), Stage::Decide);
        assert_eq!(
            stage(with(|c| c.max_chunks_per_document = 1), false),
            Stage::Decide
        );
        let farther = with(|c| c.max_l2_distance = 1.3);
        assert_eq!(stage(farther, true), Stage::Qualify);
        assert_eq!(stage(farther, false), Stage::Level);
        assert_eq!(
            stage(
                with(|c| c.hybrid_quality = crate::config::HybridQuality::MaxRankDense),
                false
            ),
            Stage::Qualify
        );
        assert_eq!(
            stage(with(|c| c.reference_threshold = 0.6), true),
            Stage::Level
        );
        assert_eq!(
            stage(with(|c| c.excerpt_max_chars = 10), true),
            Stage::Level
        );
        // The earliest stage wins when several change at once.
        assert_eq!(
            stage(
                with(|c| {
                    c.return_n = 2;
                    c.max_l2_distance = 2.0;
                    c.precise_threshold = 0.95;
                }),
                true
            ),
            Stage::Decide
        );
    }
}
