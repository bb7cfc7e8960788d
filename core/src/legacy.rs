//! Legacy comparison (contract section 5): what the removed keyword boosts would have done.

use crate::input::Candidate;
use serde::Serialize;

/// Per trace, when at least two valid candidates carry a finite `finalScore`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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
pub fn kendall_tau(legacy: &[usize]) -> Option<f64> {
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

/// Sets `legacy_position` and `displacement` on the candidates that take part and
/// returns the trace summary; `valid_sorted` is the valid candidates in section 3.3 order.
pub fn legacy_positions(
    candidates: &mut [Candidate],
    valid_sorted: &[usize],
) -> Option<LegacySummary> {
    let scored: Vec<usize> = valid_sorted
        .iter()
        .copied()
        .filter(|&i| {
            candidates
                .get(i)
                .and_then(|c| c.final_score)
                .is_some_and(f64::is_finite)
        })
        .collect();
    if scored.len() < 2 {
        return None;
    }
    let score = |i: usize| {
        candidates
            .get(i)
            .and_then(|c| c.final_score)
            .unwrap_or(f64::NEG_INFINITY)
    };
    // Sort rank positions by finalScore descending; the stable sort keeps rank order on ties.
    let mut by_score: Vec<usize> = (0..scored.len()).collect();
    by_score.sort_by(|&a, &b| {
        let (sa, sb) = (score(scored[a]), score(scored[b]));
        sb.total_cmp(&sa)
    });
    let mut legacy_of_rank_pos = vec![0usize; scored.len()];
    for (legacy_pos, &rank_pos) in by_score.iter().enumerate() {
        if let Some(slot) = legacy_of_rank_pos.get_mut(rank_pos) {
            *slot = legacy_pos;
        }
    }
    let mut promoted = 0;
    for (rank_pos, &index) in scored.iter().enumerate() {
        let legacy_pos = legacy_of_rank_pos
            .get(rank_pos)
            .copied()
            .unwrap_or(rank_pos);
        let displacement = rank_pos as i64 - legacy_pos as i64;
        if displacement > 0 {
            promoted += 1;
        }
        if let Some(c) = candidates.get_mut(index) {
            c.legacy_position = Some(legacy_pos + 1);
            c.displacement = Some(displacement);
        }
    }
    Some(LegacySummary {
        kendall_tau: kendall_tau(&legacy_of_rank_pos).unwrap_or(1.0),
        promoted,
        compared: scored.len(),
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
}
