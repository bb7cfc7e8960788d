//! Legacy comparison (contract section 5): what the removed keyword boosts would have done.

use serde::Serialize;

/// Per trace, when at least two valid candidates carry a finite `finalScore`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LegacySummary {
    /// Kendall's tau between rank order and `finalScore` order, in [-1, 1].
    pub kendall_tau: f64,
    /// Candidates with a positive displacement (moved up by the boosts).
    pub promoted: usize,
    /// How many candidates took part.
    pub compared: usize,
}

/// Kendall's tau of a permutation against the identity: `legacy[i]` is the legacy
/// position (0-based) of the candidate at rank position `i`. O(m²), fine for a trace.
pub(crate) fn kendall_tau(legacy: &[usize]) -> Option<f64> {
    let m = legacy.len();
    if m < 2 {
        return None;
    }
    let mut concordant: i64 = 0;
    let mut discordant: i64 = 0;
    for i in 0..m {
        for j in (i + 1)..m {
            match (legacy.get(i), legacy.get(j)) {
                (Some(a), Some(b)) if a < b => concordant += 1,
                (Some(a), Some(b)) if a > b => discordant += 1,
                _ => {}
            }
        }
    }
    let pairs = (m * (m - 1) / 2) as f64;
    Some((concordant - discordant) as f64 / pairs)
}

/// Where one candidate would have stood by `finalScore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegacyPlace {
    /// 1-based position in `finalScore` order among the candidates that take part.
    pub position: usize,
    /// Rank position minus legacy position: positive when the boosts moved it up.
    pub displacement: i64,
}

/// The legacy comparison of one trace.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyComparison {
    /// One entry per score given, `None` for a candidate without a finite `finalScore`.
    pub places: Vec<Option<LegacyPlace>>,
    pub summary: LegacySummary,
}

/// The comparison from the `finalScore`s of the valid candidates in section 3.3 order;
/// `None` unless at least two of them are finite.
pub(crate) fn legacy_positions(final_scores: &[Option<f64>]) -> Option<LegacyComparison> {
    let scored: Vec<(usize, f64)> = final_scores
        .iter()
        .enumerate()
        .filter_map(|(at, score)| score.filter(|s| s.is_finite()).map(|s| (at, s)))
        .collect();
    if scored.len() < 2 {
        return None;
    }
    // Sort rank positions by finalScore descending; the stable sort keeps rank order on ties.
    let mut by_score: Vec<usize> = (0..scored.len()).collect();
    by_score.sort_by(|&a, &b| {
        let score = |i: usize| scored.get(i).map_or(f64::NEG_INFINITY, |s| s.1);
        score(b).total_cmp(&score(a))
    });
    let mut legacy_of_rank_pos = vec![0usize; scored.len()];
    for (legacy_pos, &rank_pos) in by_score.iter().enumerate() {
        if let Some(slot) = legacy_of_rank_pos.get_mut(rank_pos) {
            *slot = legacy_pos;
        }
    }
    let mut places = vec![None; final_scores.len()];
    let mut promoted = 0;
    for (rank_pos, &(at, _)) in scored.iter().enumerate() {
        let legacy_pos = legacy_of_rank_pos
            .get(rank_pos)
            .copied()
            .unwrap_or(rank_pos);
        let displacement = rank_pos as i64 - legacy_pos as i64;
        if displacement > 0 {
            promoted += 1;
        }
        if let Some(slot) = places.get_mut(at) {
            *slot = Some(LegacyPlace {
                position: legacy_pos + 1,
                displacement,
            });
        }
    }
    Some(LegacyComparison {
        places,
        summary: LegacySummary {
            kendall_tau: kendall_tau(&legacy_of_rank_pos).unwrap_or(1.0),
            promoted,
            compared: scored.len(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_of_identity_and_reverse() {
        assert_eq!(kendall_tau(&[0, 1, 2, 3]), Some(1.0));
        assert_eq!(kendall_tau(&[3, 2, 1, 0]), Some(-1.0));
        assert_eq!(kendall_tau(&[1, 0, 2]), Some(1.0 / 3.0));
        assert_eq!(kendall_tau(&[0]), None);
    }

    #[test]
    fn places_follow_the_final_scores() {
        let Some(cmp) = legacy_positions(&[Some(0.2), None, Some(0.9), Some(f64::NAN), Some(0.5)])
        else {
            panic!("three finite scores take part");
        };
        let place = |position, displacement| {
            Some(LegacyPlace {
                position,
                displacement,
            })
        };
        assert_eq!(
            cmp.places,
            [place(3, -2), None, place(1, 1), None, place(2, 1)]
        );
        assert_eq!(cmp.summary.promoted, 2);
        assert_eq!(cmp.summary.compared, 3);
        assert_eq!(cmp.summary.kendall_tau, -1.0 / 3.0);
        assert_eq!(legacy_positions(&[Some(1.0), None]), None);
    }
}
