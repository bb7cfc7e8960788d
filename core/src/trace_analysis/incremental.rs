//! One trace again under new settings, redoing only the stages the change reaches.
//!
//! A trace's analysis runs in three stages, each reading its own keys of the
//! configuration: deciding the blocks (`returnN`, `maxChunksPerDocument`), their
//! qualities (`maxL2Distance`, `hybridQuality`, `scoreKind`) and the level (the three thresholds).
//! A change redoes the first stage whose keys it touches and every stage after it,
//! with the same stage functions the full analysis runs, so the result is the one
//! [`analyze_trace`](super::analyze_trace) would give.

use super::{
    accepted_top, decide, finish, requalify, trace_config_after, Decisions, Qualities, Scratch,
    TraceAnalysis,
};
use crate::config::{Config, Settings};
use crate::outcome::{outcome_of, Outcome};
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
        score_kind,
        min_quality,
        relative_quality,
        // Read by the golden evaluation only, never by a trace's stages.
        relevant_grade: _,
    } = *after;
    let qualities_move = hybrid_quality != before.hybrid_quality
        || score_kind != before.score_kind
        || (reads_distance && max_l2_distance != before.max_l2_distance);
    // Above 0, a floor decides by the qualities: a change of them decides again.
    let floored = min_quality > 0.0 || relative_quality > 0.0;
    if return_n != before.return_n
        || max_chunks_per_document != before.max_chunks_per_document
        || min_quality != before.min_quality
        || relative_quality != before.relative_quality
        || (floored && qualities_move)
    {
        Stage::Decide
    } else if qualities_move {
        Stage::Qualify
    } else {
        Stage::Level
    }
}

/// Whether two configurations compute each quality from the same numbers (labels,
/// ranks, `hybridQuality` and `scoreKind` decide which distance is read), so that
/// only `maxL2Distance` can differ in what the qualities read.
fn same_reading(before: &Config, after: &Config) -> bool {
    before.hybrid_quality == after.hybrid_quality && before.score_kind == after.score_kind
}

/// What `previous`'s qualities decided, as its quality stage made it.
fn qualities_of(previous: &TraceAnalysis) -> Qualities {
    Qualities {
        top: previous.top_quality,
        top_parts: previous.top_parts,
        gate_inert: previous.low_quality_gate_inert,
        reads_distance: previous.quality_reads_distance,
        scores_read: previous.scores_read,
        out_of_range: previous.score_out_of_range,
    }
}

/// `previous`'s trace (analysed under the user's settings `before`) under `settings`
/// (`global` = defaults plus those settings): equal to a fresh analysis of it, at the
/// cost of the stages the change reaches.
pub(crate) fn reanalyze_trace(
    previous: &TraceAnalysis,
    before: &Settings,
    settings: &Settings,
    global: &Config,
    scratch: &mut Scratch,
) -> TraceAnalysis {
    // The new analysis's share is taken first: taking it writes to the trace's
    // allocation, and reading the trace's options (just below, when they are read)
    // is then no second wait for memory but one the processor overlaps with it.
    let shared = Arc::clone(&previous.trace);
    let trace = &previous.trace;
    // Per trace: its own options may hold a key the settings no longer override.
    let config = trace_config_after(previous, before, settings, global);
    let previous_qualities = qualities_of(previous);
    let kept = |qualities| Decisions {
        decided: Arc::clone(&previous.decided),
        stages: previous.stages,
        qualities,
        floor: previous.floor,
        evidence_comparison: previous.evidence_comparison.clone(),
    };
    let decisions = match first_stale(
        &previous.config,
        &config.config,
        previous.quality_reads_distance,
    ) {
        Stage::Decide => Decisions::make(trace, &config.config, scratch),
        Stage::Qualify => {
            let only_distance = same_reading(&previous.config, &config.config);
            let before = only_distance.then_some(previous_qualities);
            kept(requalify(trace, &config.config, &previous.decided, before))
        }
        Stage::Level => kept(previous_qualities),
    };
    finish(shared, previous.facts, config, decisions)
}

/// The outcome (level, low-quality flag, top quality) [`reanalyze_trace`] gives with the
/// same arguments, without building the analysis: all that confirming a change reads.
/// The same stages are redone with the same stage functions; what is left out is only
/// what the outcome does not read (the diagnostics, the stage counts, the evidence
/// comparison, the shared decisions).
pub(crate) fn reanalyze_outcome(
    previous: &TraceAnalysis,
    before: &Settings,
    settings: &Settings,
    global: &Config,
    scratch: &mut Scratch,
) -> Outcome {
    let trace = &previous.trace;
    let config = trace_config_after(previous, before, settings, global).config;
    let top = match first_stale(&previous.config, &config, previous.quality_reads_distance) {
        Stage::Decide => decide(trace, &config, scratch).2.top,
        // The top is the best quality of the blocks accepted, which the decisions kept
        // name; the rest of the quality stage (whether the gate is inert, whether a
        // quality reads a distance) is not read by the outcome.
        Stage::Qualify if same_reading(&previous.config, &config) => {
            requalify(
                trace,
                &config,
                &previous.decided,
                Some(qualities_of(previous)),
            )
            .top
        }
        Stage::Qualify => accepted_top(trace, &config, &previous.decided),
        Stage::Level => previous.top_quality,
    };
    outcome_of(top, &config, previous.facts.filtered)
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
        // A kind changes the distances read, wherever they are read.
        assert_eq!(
            stage(
                with(|c| c.score_kind = crate::config::ScoreKind::CosineSimilarity),
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
        // A floor decides again; above 0, so does whatever moves a quality.
        assert_eq!(stage(with(|c| c.min_quality = 0.2), false), Stage::Decide);
        assert_eq!(
            stage(with(|c| c.relative_quality = 0.5), false),
            Stage::Decide
        );
        let floored = with(|c| c.relative_quality = 0.5);
        let moved = Config {
            max_l2_distance: 1.3,
            ..floored
        };
        assert_eq!(first_stale(&floored, &moved, true), Stage::Decide);
        assert_eq!(first_stale(&floored, &moved, false), Stage::Level);
        let relevel = Config {
            reference_threshold: 0.6,
            ..floored
        };
        assert_eq!(first_stale(&floored, &relevel, true), Stage::Level);
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

    /// The outcome alone is the one the whole reanalysis gives, whichever stage a
    /// change reaches.
    #[test]
    fn the_outcome_alone_is_the_reanalysis_outcome() {
        use crate::config::HybridQuality;
        let batch = crate::input::parse_document("t", &crate::sample::generate_batch(60, 12, 3));
        let Ok(analysis) = crate::analysis::analyze(&batch, &Settings::default(), false) else {
            panic!("valid settings");
        };
        let mut changes: Vec<Settings> = vec![Settings::default()];
        for m in [0.2, 0.75, 1.6] {
            changes.push(Settings {
                max_l2_distance: Some(m),
                ..Settings::default()
            });
        }
        for h in HybridQuality::ALL {
            changes.push(Settings {
                hybrid_quality: Some(h),
                ..Settings::default()
            });
            changes.push(Settings {
                hybrid_quality: Some(h),
                max_l2_distance: Some(0.9),
                ..Settings::default()
            });
        }
        for kind in crate::config::ScoreKind::ALL {
            changes.push(Settings {
                score_kind: Some(kind),
                ..Settings::default()
            });
            changes.push(Settings {
                score_kind: Some(kind),
                hybrid_quality: Some(HybridQuality::MaxRankDense),
                max_l2_distance: Some(1.4),
                ..Settings::default()
            });
        }
        for t in [0.3, 0.55, 0.7] {
            changes.push(Settings {
                reference_threshold: Some(t),
                ..Settings::default()
            });
        }
        changes.push(Settings {
            return_n: Some(2),
            max_chunks_per_document: Some(1),
            ..Settings::default()
        });
        changes.push(Settings {
            use_trace_options: false,
            ..Settings::default()
        });
        let mut scratch = Scratch::default();
        let mut levels = std::collections::BTreeSet::new();
        let mut hybrid_moves_top = false;
        for settings in &changes {
            let Ok(global) = Config::from_settings(settings) else {
                panic!("valid change");
            };
            for previous in &analysis.traces {
                let before = Settings::default();
                let whole = reanalyze_trace(previous, &before, settings, &global, &mut scratch);
                let alone = reanalyze_outcome(previous, &before, settings, &global, &mut scratch);
                let expected = Outcome {
                    top_quality: whole.top_quality,
                    level: whole.relevance_level,
                    low_quality: whole.low_quality,
                    retry_unfiltered: whole.retry_unfiltered,
                };
                assert_eq!(alone, expected, "{settings:?}");
                levels.insert(alone.level);
                hybrid_moves_top |= settings.hybrid_quality.is_some()
                    && settings.max_l2_distance.is_none()
                    && alone.top_quality != previous.top_quality;
            }
        }
        assert!(levels.len() >= 3, "the changes move levels: {levels:?}");
        assert!(
            hybrid_moves_top,
            "some hybridQuality change moves a top quality"
        );
    }
}
