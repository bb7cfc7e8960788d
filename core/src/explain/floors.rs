//! The score floors as continuous settings (contract section 10.2): the nearest
//! `minQuality` and `relativeQuality` that let a candidate below the trace's floor
//! past it (a candidate's `acceptedIf`, a golden case's `foundIf`), and, for a floor
//! in use, the nearest that drops an accepted one (its `droppedIf`).

use super::change::Change;
use crate::config::{SettingKey, Settings};
use crate::input::Hot;
use crate::pipeline::Status;
use crate::trace_analysis::{quality_of, reanalyze_trace, Scratch, TraceAnalysis};

/// For a candidate below the trace's floor, the nearest `minQuality` and the nearest
/// `relativeQuality` that accept it, each confirmed by the pipeline. A floor lowered
/// to its quality `q` lets it past the floor (equal is not below); a lower floor still
/// lets in a superset of the blocks before it, which can only take its place, so when
/// the nearest value does not accept it no value of that floor does.
pub(super) fn floors_accepting(
    t: &TraceAnalysis,
    h: &Hot,
    user: &Settings,
    pipeline: &mut Scratch,
) -> Vec<Change> {
    let config = &t.config;
    let (q, q_max) = qualities(t, h);
    let mut out = Vec::new();
    // minQuality alone helps when the relative part lets it past.
    if config.relative_quality * q_max <= q {
        out.push(Change::number(SettingKey::MinQuality, q));
    }
    // relativeQuality alone: the largest r with r x qMax <= q, when minQuality lets
    // it past.
    if config.min_quality <= q && q_max > 0.0 {
        let mut r = (q / q_max).min(1.0);
        while r > 0.0 && r * q_max > q {
            r = next_down(r);
        }
        while r < 1.0 && next_up(r) * q_max <= q {
            r = next_up(r);
        }
        out.push(Change::number(SettingKey::RelativeQuality, r));
    }
    out.retain(|change| accepted_under(change, t, h, user, pipeline) == Some(true));
    out
}

/// For an accepted candidate, the nearest `minQuality` and the nearest
/// `relativeQuality` that drop it below the floor, each confirmed by the pipeline;
/// only for a floor above 0. Any floor above a quality drops it, so the nearest is
/// the next `f64` above its quality (for `relativeQuality`, the least r with
/// r x qMax above it; the trace's best block is never below a relative floor). A
/// floor of 0 is off: listing the floor just above every accepted block would change
/// every explanation under the default settings, which change nothing (contract
/// section 10).
pub(super) fn floors_dropping(
    t: &TraceAnalysis,
    h: &Hot,
    user: &Settings,
    pipeline: &mut Scratch,
) -> Vec<Change> {
    let config = &t.config;
    if config.min_quality <= 0.0 && config.relative_quality <= 0.0 {
        return Vec::new();
    }
    let (q, q_max) = qualities(t, h);
    let mut out = Vec::new();
    if config.min_quality > 0.0 && next_up(q) <= 1.0 {
        out.push(Change::number(SettingKey::MinQuality, next_up(q)));
    }
    if config.relative_quality > 0.0 && q_max > 0.0 {
        let mut r = (q / q_max).min(1.0);
        while r > 0.0 && r * q_max > q {
            r = next_down(r);
        }
        while r <= 1.0 && r * q_max <= q {
            r = next_up(r);
        }
        if r <= 1.0 {
            out.push(Change::number(SettingKey::RelativeQuality, r));
        }
    }
    out.retain(|change| accepted_under(change, t, h, user, pipeline) == Some(false));
    out
}

/// The candidate's quality and the trace's `qMax` (over its valid candidates).
fn qualities(t: &TraceAnalysis, h: &Hot) -> (f64, f64) {
    let n = t.trace.candidates().len();
    let config = &t.config;
    let q_max = t
        .trace
        .hot()
        .iter()
        .filter(|other| other.rank().is_some())
        .map(|other| quality_of(other, n, config).score)
        .fold(0.0f64, f64::max);
    (quality_of(h, n, config).score, q_max)
}

/// Whether the pipeline accepts the candidate under `change`; `None` for a change
/// that is not a valid setting.
fn accepted_under(
    change: &Change,
    t: &TraceAnalysis,
    h: &Hot,
    user: &Settings,
    pipeline: &mut Scratch,
) -> Option<bool> {
    let (settings, global) = change.apply(user).ok()?;
    let under = reanalyze_trace(t, user, &settings, &global, pipeline);
    let candidate = t.trace.candidates().get(h.index);
    let accepted = under.decided_candidates().any(|(c, status)| {
        candidate.is_some_and(|mine| std::ptr::eq(c, mine)) && status == Status::Accepted
    });
    Some(accepted)
}

/// The next `f64` above `x >= 0`.
fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

/// The next `f64` below `x > 0`.
fn next_down(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}
