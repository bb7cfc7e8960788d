//! The single quality normaliser (contract section 3.2): branches only on the canonical label.

use crate::config::{Config, HybridQuality, ScoreKind};
use crate::label::CanonicalLabel;
use crate::score_kind::{l2_distance, rises_with_distance, score_from_distance, score_name};
use serde::{Serialize, Serializer};
use std::fmt;

/// How a quality score came about, with the numbers; `Display` writes the formula,
/// e.g. `1 - min(0.41, 1.2) / 1.2 = 0.658` or `rank 3 of 5 -> 0.6`.
///
/// Kept as numbers rather than text so a recompute allocates nothing per candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QualityBasis {
    /// Dense formula on distance `d` (after a negative one became 0).
    Dense { d: f64, m: f64, q: f64 },
    /// Dense label with a null, missing or non-finite score.
    NoScore,
    /// The score leaves no distance under its kind (an `inverseL2Squared` score
    /// `<= 0`): quality 0.
    NoDistance,
    /// Hybrid rank formula; `r` already clamped into `[1, n]`.
    Rank { r: u64, n: u64, q: f64 },
    /// `denseWhenPresent` used the hit's `denseDistance`.
    DenseDistance { d: f64, m: f64, q: f64 },
    /// `maxRankDense`: the larger of the two.
    MaxRankDense {
        r: u64,
        n: u64,
        rank_q: f64,
        d: f64,
        m: f64,
        dense_q: f64,
    },
    /// No canonical label: quality 0.
    UnknownLabel,
    /// The candidate's rank is invalid: quality 0.
    InvalidRank,
}

/// A quality score and how it was computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quality {
    pub score: f64,
    pub basis: QualityBasis,
    /// The score (or `denseDistance`) read lay outside its `scoreKind`'s range.
    pub out_of_range: bool,
}

impl Quality {
    fn of(score: f64, basis: QualityBasis) -> Quality {
        Quality {
            score,
            basis,
            out_of_range: false,
        }
    }

    /// The L2 distance the quality was computed from, after a negative one became 0.
    pub fn distance(&self) -> Option<f64> {
        match self.basis {
            QualityBasis::Dense { d, .. }
            | QualityBasis::DenseDistance { d, .. }
            | QualityBasis::MaxRankDense { d, .. } => Some(d),
            _ => None,
        }
    }
}

/// A finite `score` of `kind` as the distance the dense formula reads, and whether it
/// was out of its kind's range. `l2` is the score itself: the one comparison the
/// default kind costs.
#[inline]
fn read_distance(kind: ScoreKind, score: f64) -> (Option<f64>, bool) {
    if kind == ScoreKind::L2 {
        return (Some(score), false);
    }
    let converted = l2_distance(kind, score);
    (converted.distance, converted.out_of_range)
}

fn clamp01(q: f64) -> f64 {
    if q.is_nan() {
        0.0
    } else {
        q.clamp(0.0, 1.0)
    }
}

/// `max(0, 1 - min(d, M) / M)`; a negative distance counts as 0.
pub(crate) fn dense_quality(distance: f64, max_l2_distance: f64) -> f64 {
    let d = distance.max(0.0);
    clamp01(1.0 - d.min(max_l2_distance) / max_l2_distance)
}

/// The largest L2 distance whose dense quality under `max_l2_distance` reaches
/// `quality`: the inverse of [`dense_quality`] (`q >= quality` exactly when
/// `d <= (1 - quality) x M`, for a quality above 0).
pub fn distance_at_quality(quality: f64, max_l2_distance: f64) -> f64 {
    (1.0 - quality.clamp(0.0, 1.0)) * max_l2_distance
}

/// What a quality floor means for a dense score of `kind`, as the page writes it beside
/// `minQuality` (`cosine similarity >= 0.82` for 0.4 at `maxL2Distance` 1, two
/// decimals): the score a candidate needs to reach the floor. `None` for `l2` (like
/// [`distance_as_score_text`](crate::score_kind::distance_as_score_text)) and for a
/// floor of 0, which no candidate is below.
pub fn quality_floor_as_score_text(
    kind: ScoreKind,
    floor: f64,
    max_l2_distance: f64,
) -> Option<String> {
    if kind == ScoreKind::L2 || floor <= 0.0 {
        return None;
    }
    let score = score_from_distance(kind, distance_at_quality(floor, max_l2_distance));
    let reaches = if rises_with_distance(kind) {
        "<="
    } else {
        ">="
    };
    Some(format!("{} {reaches} {score:.2}", score_name(kind)))
}

/// `(n - r + 1) / n` with `r` clamped into `[1, n]`; `n` of 0 counts as 1.
pub(crate) fn rank_quality(rank: u64, n: u64) -> f64 {
    let n = n.max(1);
    let r = rank.clamp(1, n);
    clamp01((n - r + 1) as f64 / n as f64)
}

/// The quality of one candidate with its explanation.
///
/// `rank` is the effective `originalRank`, `n` the number of candidates in the trace.
/// Inline: most callers read the score alone, and the basis they drop is then never
/// written.
#[inline]
pub(crate) fn quality(
    label: Option<CanonicalLabel>,
    score: Option<f64>,
    rank: u64,
    n: usize,
    config: &Config,
    dense_distance: Option<f64>,
) -> Quality {
    let m = config.max_l2_distance;
    let n = n as u64;
    match label {
        None => Quality::of(0.0, QualityBasis::UnknownLabel),
        Some(CanonicalLabel::Dense) => match score.filter(|d| d.is_finite()) {
            None => Quality::of(0.0, QualityBasis::NoScore),
            Some(s) => {
                let (distance, out_of_range) = read_distance(config.score_kind, s);
                let (score, basis) = match distance {
                    Some(d) => {
                        let q = dense_quality(d, m);
                        (
                            q,
                            QualityBasis::Dense {
                                d: d.max(0.0),
                                m,
                                q,
                            },
                        )
                    }
                    None => (0.0, QualityBasis::NoDistance),
                };
                Quality {
                    score,
                    basis,
                    out_of_range,
                }
            }
        },
        Some(CanonicalLabel::Hybrid) => {
            let n = n.max(1);
            let r = rank.clamp(1, n);
            let rank_q = rank_quality(r, n);
            let dense = match config.hybrid_quality {
                HybridQuality::Rank => None,
                _ => dense_distance.filter(|d| d.is_finite()),
            };
            let Some(s) = dense else {
                return Quality::of(rank_q, QualityBasis::Rank { r, n, q: rank_q });
            };
            let (distance, out_of_range) = read_distance(config.score_kind, s);
            let (score, basis) = match (config.hybrid_quality, distance) {
                (HybridQuality::DenseWhenPresent, Some(d)) => {
                    let q = dense_quality(d, m);
                    (
                        q,
                        QualityBasis::DenseDistance {
                            d: d.max(0.0),
                            m,
                            q,
                        },
                    )
                }
                (HybridQuality::DenseWhenPresent, None) => (0.0, QualityBasis::NoDistance),
                (_, Some(d)) => {
                    let dense_q = dense_quality(d, m);
                    (
                        rank_q.max(dense_q),
                        QualityBasis::MaxRankDense {
                            r,
                            n,
                            rank_q,
                            d: d.max(0.0),
                            m,
                            dense_q,
                        },
                    )
                }
                // The dense part is 0, so the larger of the two is the rank's.
                (_, None) => (rank_q, QualityBasis::Rank { r, n, q: rank_q }),
            };
            Quality {
                score,
                basis,
                out_of_range,
            }
        }
    }
}

/// The quality score alone (the JS API's `qualityScore`).
pub fn quality_score(
    label: Option<CanonicalLabel>,
    score: Option<f64>,
    rank: u64,
    n: usize,
    config: &Config,
    dense_distance: Option<f64>,
) -> f64 {
    quality(label, score, rank, n, config, dense_distance).score
}

/// Up to 3 decimals without trailing zeros, for explanations only (outputs keep full precision).
struct Short(f64);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.3}", self.0);
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.')
        } else {
            &text
        };
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

impl fmt::Display for QualityBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            QualityBasis::Dense { d, m, q } => write!(
                f,
                "1 - min({}, {}) / {} = {}",
                Short(d),
                Short(m),
                Short(m),
                Short(q)
            ),
            QualityBasis::NoScore => f.write_str("no score -> 0"),
            QualityBasis::NoDistance => f.write_str("score gives no distance -> 0"),
            QualityBasis::Rank { r, n, q } => write!(f, "rank {r} of {n} -> {}", Short(q)),
            QualityBasis::DenseDistance { d, m, q } => write!(
                f,
                "denseDistance: 1 - min({}, {}) / {} = {}",
                Short(d),
                Short(m),
                Short(m),
                Short(q)
            ),
            QualityBasis::MaxRankDense {
                r,
                n,
                rank_q,
                d,
                m,
                dense_q,
            } => write!(
                f,
                "max(rank {r} of {n} -> {}, 1 - min({}, {}) / {} = {}) = {}",
                Short(rank_q),
                Short(d),
                Short(m),
                Short(m),
                Short(dense_q),
                Short(rank_q.max(dense_q))
            ),
            QualityBasis::UnknownLabel => f.write_str("unknown label -> 0"),
            QualityBasis::InvalidRank => f.write_str("invalid rank -> 0"),
        }
    }
}

impl Serialize for QualityBasis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explanations_show_the_formula() {
        let config = Config {
            max_l2_distance: 1.2,
            ..Config::default()
        };
        let q = quality(Some(CanonicalLabel::Dense), Some(0.41), 1, 7, &config, None);
        assert_eq!(q.basis.to_string(), "1 - min(0.41, 1.2) / 1.2 = 0.658");
        let q = quality(Some(CanonicalLabel::Hybrid), Some(0.1), 3, 5, &config, None);
        assert_eq!(q.basis.to_string(), "rank 3 of 5 -> 0.6");
        let q = quality(Some(CanonicalLabel::Dense), None, 3, 5, &config, None);
        assert_eq!(q.basis.to_string(), "no score -> 0");
    }

    #[test]
    fn negative_and_huge_distances_clamp() {
        assert_eq!(dense_quality(-0.5, 1.0), 1.0);
        assert_eq!(dense_quality(5.0, 1.0), 0.0);
        assert_eq!(rank_quality(9, 5), 0.2);
        assert_eq!(rank_quality(0, 0), 1.0);
    }

    /// minQuality 0.4 at maxL2Distance 1: d <= 0.6, so cosine similarity >= 1 - 0.36 / 2
    /// = 0.82; at maxL2Distance 1.2: d <= 0.72, cosine similarity >= 1 - 0.5184 / 2 =
    /// 0.7408; cosine distance <= 0.36 / 2 = 0.18; Elasticsearch's l2_norm score
    /// 1 / (1 + 0.36) = 0.735 (a similarity: >=).
    #[test]
    fn a_quality_floor_reads_as_the_score_it_needs() {
        assert_eq!(distance_at_quality(0.4, 1.0), 0.6);
        assert!(dense_quality(distance_at_quality(0.4, 1.0), 1.0) >= 0.4);
        let text = |kind, floor, m| quality_floor_as_score_text(kind, floor, m);
        assert_eq!(
            text(ScoreKind::CosineSimilarity, 0.4, 1.0).as_deref(),
            Some("cosine similarity >= 0.82")
        );
        assert_eq!(
            text(ScoreKind::CosineSimilarity, 0.4, 1.2).as_deref(),
            Some("cosine similarity >= 0.74")
        );
        assert_eq!(
            text(ScoreKind::CosineDistance, 0.4, 1.0).as_deref(),
            Some("cosine distance <= 0.18")
        );
        assert_eq!(
            text(ScoreKind::InverseL2Squared, 0.4, 1.0).as_deref(),
            Some("Elasticsearch l2_norm score >= 0.74")
        );
        // A floor of 1 needs d = 0: cosine similarity 1.
        assert_eq!(
            text(ScoreKind::CosineSimilarity, 1.0, 1.0).as_deref(),
            Some("cosine similarity >= 1.00")
        );
        assert_eq!(text(ScoreKind::L2, 0.4, 1.0), None);
        assert_eq!(text(ScoreKind::CosineSimilarity, 0.0, 1.0), None);
    }
}
