//! Suggested settings with the figures that justify them: the reference threshold
//! (Youden, F1), `maxL2Distance`, and level thresholds that keep the levels monotone.

use super::gate::{
    best_point, candidate_thresholds, counts_below, point, Criterion, GateCurve, ThresholdPoint,
};
use super::levels::{discordant_pairs, LevelTable, OutcomeCounts};
use super::{Observation, ANECDOTAL_BELOW};
use crate::config::Config;
use crate::golden::GoldenLevel;
use crate::outcome::Level;
use crate::render::opt_num;
use serde::Serialize;

/// One setting a suggestion changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SettingChange {
    /// The camelCase key of contract section 2.
    pub key: &'static str,
    pub current: f64,
    pub suggested: f64,
}

/// A suggested setting with the figures that justify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    /// `youden`, `f1`, `distanceCut` or `monotoneLevels`.
    pub rule: &'static str,
    /// The scope whose cases decide it.
    pub scope: &'static str,
    /// Cases deciding it.
    pub n: usize,
    pub anecdotal: bool,
    /// What to set, all together (a valid configuration); empty when there is no
    /// suggestion (`message` says why).
    pub settings: Vec<SettingChange>,
    /// The gate now and with the suggestion (gate suggestions only).
    pub before: Option<ThresholdPoint>,
    pub after: Option<ThresholdPoint>,
    /// `distanceCut`: dense traces whose nearest accepted L2 distance exceeds this are flagged.
    pub distance_cut: Option<f64>,
    /// `monotoneLevels`: discordant pairs of the level table now and with the suggestion.
    pub discordant_pairs_before: Option<u64>,
    pub discordant_pairs_after: Option<u64>,
    pub message: String,
}

/// A reference threshold as a valid configuration: the levels above it rise with it.
fn reference_changes(config: &Config, threshold: f64) -> Vec<SettingChange> {
    let mut changes = vec![SettingChange {
        key: "referenceThreshold",
        current: config.reference_threshold,
        suggested: threshold,
    }];
    if threshold > config.highly_relevant_threshold {
        changes.push(SettingChange {
            key: "highlyRelevantThreshold",
            current: config.highly_relevant_threshold,
            suggested: threshold,
        });
    }
    if threshold > config.precise_threshold {
        changes.push(SettingChange {
            key: "preciseThreshold",
            current: config.precise_threshold,
            suggested: threshold,
        });
    }
    changes
}

fn no_suggestion(
    rule: &'static str,
    scope: &'static str,
    curve: &GateCurve,
    why: String,
) -> Suggestion {
    Suggestion {
        rule,
        scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: Vec::new(),
        before: Some(curve.current),
        after: None,
        distance_cut: None,
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message: why,
    }
}

/// The same traces flagged (the counts decide every figure).
pub(super) fn same_confusion(a: &ThresholdPoint, b: &ThresholdPoint) -> bool {
    (a.true_positives, a.false_positives) == (b.true_positives, b.false_positives)
}

pub(super) fn reference_suggestion(
    curve: &GateCurve,
    config: &Config,
    criterion: Criterion,
) -> Suggestion {
    let (rule, best, name) = match criterion {
        Criterion::Youden => ("youden", curve.best_youden, "Youden's J"),
        Criterion::F1 => ("f1", curve.best_f1, "F1"),
    };
    let Some(best) = best else {
        let why = curve
            .message
            .clone()
            .unwrap_or_else(|| format!("no threshold has a defined {name}"));
        return no_suggestion(rule, curve.scope, curve, why);
    };
    let (now, then) = match criterion {
        Criterion::Youden => (curve.current.youden_j, best.youden_j),
        Criterion::F1 => (curve.current.f1, best.f1),
    };
    let same = same_confusion(&curve.current, &best);
    if same {
        let mut kept = no_suggestion(
            rule,
            curve.scope,
            curve,
            format!(
                "the current referenceThreshold {} already gives the best {name} ({}) over {} \
                 cases: keep it",
                config.reference_threshold,
                opt_num(now),
                curve.n
            ),
        );
        kept.after = Some(best);
        return kept;
    }
    let mut message = format!(
        "referenceThreshold {:.3} maximises {name} ({} → {}) over {} cases: flags {} of {} \
         not found and {} of {} found",
        best.threshold,
        opt_num(now),
        opt_num(then),
        curve.n,
        best.true_positives,
        curve.positives,
        best.false_positives,
        curve.negatives
    );
    if best.threshold > config.highly_relevant_threshold {
        message.push_str("; the level thresholds above it rise with it");
    }
    Suggestion {
        rule,
        scope: curve.scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: reference_changes(config, best.threshold),
        before: Some(curve.current),
        after: Some(best),
        distance_cut: None,
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message,
    }
}

/// Dense quality is `1 - min(d, M) / M`, so at `M` the cut "quality < t" is the cut
/// "distance > (1 - t) M". The cut is placed halfway between the best threshold `t`
/// and the highest top quality below it (any cut between the two flags the same
/// traces, and halfway no rounding moves a trace across it); the suggestion moves
/// `M` so that this distance cut falls at the current reference threshold `r`:
/// `M' = (1 - t_mid) M / (1 - r)`.
pub(super) fn distance_suggestion(
    curve: &GateCurve,
    dense: &[Observation],
    config: &Config,
) -> Suggestion {
    const RULE: &str = "distanceCut";
    let Some(best) = curve.best_youden else {
        let why = curve
            .message
            .clone()
            .unwrap_or_else(|| "no dense threshold has a defined Youden's J".to_owned());
        return no_suggestion(RULE, curve.scope, curve, why);
    };
    let m = config.max_l2_distance;
    let r = config.reference_threshold;
    let below = dense.partition_point(|o| o.top < best.threshold);
    let highest_below = below
        .checked_sub(1)
        .and_then(|i| dense.get(i))
        .map(|o| o.top)
        .filter(|top| top.is_finite())
        // Only traces without a block below the cut: halfway from 0.
        .or((below > 0 && best.threshold > 0.0).then_some(0.0));
    let why = match highest_below {
        None => Some(
            "the best dense cut flags no trace with an accepted block: no distance cut to move"
                .to_owned(),
        ),
        Some(_) if r >= 1.0 || r <= 0.0 => Some(format!(
            "referenceThreshold is {r}: a maxL2Distance cannot move a distance cut onto it"
        )),
        Some(_) => None,
    };
    let (Some(highest_below), None) = (highest_below, why.as_ref()) else {
        let mut s = no_suggestion(RULE, curve.scope, curve, why.unwrap_or_default());
        s.after = Some(best);
        return s;
    };
    let cut = (1.0 - (highest_below + best.threshold) / 2.0) * m;
    if same_confusion(&curve.current, &best) {
        let mut kept = no_suggestion(
            RULE,
            curve.scope,
            curve,
            format!(
                "the current settings already make the best dense cut (Youden's J {}): nearest \
                 accepted distance above {cut:.3} at maxL2Distance {m}; keep it",
                opt_num(best.youden_j)
            ),
        );
        kept.after = Some(best);
        kept.distance_cut = Some(cut);
        return kept;
    }
    let suggested = cut / (1.0 - r);
    Suggestion {
        rule: RULE,
        scope: curve.scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: vec![SettingChange {
            key: "maxL2Distance",
            current: m,
            suggested,
        }],
        before: Some(curve.current),
        after: Some(best),
        distance_cut: Some(cut),
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message: format!(
            "the best dense cut (Youden's J {}) is quality below {:.3} at maxL2Distance {m}, \
             i.e. nearest accepted distance above {cut:.3} (halfway to the next top quality below); \
             maxL2Distance {suggested:.3} puts that cut at referenceThreshold {r} over {} \
             dense cases (it also rescales every dense quality, so the levels above move too)",
            opt_num(best.youden_j),
            best.threshold,
            curve.n
        ),
    }
}

/// The cut `c` in `[low, high]` maximising Youden's J of "top >= c predicts
/// `good`" over `sorted` (ascending); ties nearest `current`, then lower. `None`
/// when `good` or its complement is absent.
fn level_cut(
    sorted: &[Observation],
    good: impl Fn(&Observation) -> bool,
    low: f64,
    high: f64,
    current: f64,
) -> Option<f64> {
    // "Top >= c predicts good" has the same J as "top < c flags not good".
    let bad = |o: &Observation| !good(o);
    let positives = sorted.iter().filter(|o| bad(o)).count();
    let negatives = sorted.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let thresholds: Vec<f64> = candidate_thresholds(sorted, current.clamp(low, high))
        .into_iter()
        .chain([low, high])
        .filter(|t| (low..=high).contains(t))
        .collect::<Vec<_>>();
    let mut thresholds = thresholds;
    thresholds.sort_by(f64::total_cmp);
    thresholds.dedup();
    let below = counts_below(sorted, &thresholds, bad);
    let points: Vec<ThresholdPoint> = thresholds
        .iter()
        .zip(&below)
        .map(|(&t, &b)| point(t, b, positives, negatives))
        .collect();
    best_point(&points, Criterion::Youden, current).map(|p| p.threshold)
}

fn level_of(top: f64, reference: f64, highly: f64, precise: f64, no_block: bool) -> Level {
    if no_block {
        Level::NoMatch
    } else if top >= precise {
        Level::Precise
    } else if top >= highly {
        Level::HighlyRelevant
    } else if top >= reference {
        Level::Relevant
    } else {
        Level::LowRelevance
    }
}

/// See docs/decisions.md, "Calibration": PRECISE should mean strong, so
/// `preciseThreshold` is the Youden cut of strong vs the rest among the cases the
/// gate passes; HIGHLY_RELEVANT or better should mean found, so
/// `highlyRelevantThreshold` is the Youden cut of found vs not found among them,
/// kept in `[referenceThreshold, preciseThreshold]`.
pub(super) fn monotone_suggestion(
    sorted: &[Observation],
    config: &Config,
    table: &LevelTable,
) -> Suggestion {
    const RULE: &str = "monotoneLevels";
    let r = config.reference_threshold;
    let start = sorted.partition_point(|o| o.top < r);
    let passed = &sorted[start..];
    let n = passed.len();
    let base = Suggestion {
        rule: RULE,
        scope: "all",
        n,
        anecdotal: n < ANECDOTAL_BELOW,
        settings: Vec::new(),
        before: None,
        after: None,
        distance_cut: None,
        discordant_pairs_before: Some(table.discordant_pairs),
        discordant_pairs_after: None,
        message: String::new(),
    };
    let precise = level_cut(
        passed,
        |o| o.outcome == GoldenLevel::Strong,
        r,
        1.0,
        config.precise_threshold,
    );
    let Some(precise) = precise else {
        return Suggestion {
            message: format!(
                "the {n} cases at or above referenceThreshold {r} are all strong or none is: \
                 preciseThreshold cannot be judged from this set"
            ),
            ..base
        };
    };
    let highly = level_cut(
        passed,
        |o| !o.not_found(),
        r,
        precise,
        config.highly_relevant_threshold.clamp(r, precise),
    )
    .unwrap_or_else(|| config.highly_relevant_threshold.clamp(r, precise));
    // Re-binning is one pass: a NO_MATCH trace stays one (no accepted block).
    let mut rows = [OutcomeCounts::default(); 5];
    for o in sorted {
        let level = level_of(o.top, r, highly, precise, o.level == Level::NoMatch);
        rows[level.index()].add(o.outcome);
    }
    let after = discordant_pairs(&rows);
    Suggestion {
        settings: vec![
            SettingChange {
                key: "preciseThreshold",
                current: config.precise_threshold,
                suggested: precise,
            },
            SettingChange {
                key: "highlyRelevantThreshold",
                current: config.highly_relevant_threshold,
                suggested: highly,
            },
        ],
        discordant_pairs_after: Some(after),
        message: format!(
            "preciseThreshold {precise:.3} best separates strong from the rest and \
             highlyRelevantThreshold {highly:.3} found from not found among the {n} cases at \
             or above referenceThreshold {r}; discordant pairs in the level table {} → {after}",
            table.discordant_pairs
        ),
        ..base
    }
}
