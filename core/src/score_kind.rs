//! Score kinds (contract section 10.1): what a vector store's score `s` says about the
//! L2 distance `d` the dense formula reads, both ways.
//!
//! The cosine-based kinds assume unit-normalised embeddings, for which
//! `L2 = sqrt(2 - 2 cos)`.

use crate::config::ScoreKind;

/// A score read under its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Converted {
    /// The L2 distance; `None` when the score leaves none (an `inverseL2Squared` score
    /// `<= 0`), which gives quality 0.
    pub distance: Option<f64>,
    /// The score lay outside its kind's range and was clamped into it.
    pub out_of_range: bool,
}

/// The L2 distance a finite score `s` of `kind` stands for.
///
/// `l2` is the score itself, negative included (the dense formula treats a negative
/// distance as 0, with the warning made when the trace is read); every other kind
/// clamps `s` into its range first and says so.
#[inline]
pub fn l2_distance(kind: ScoreKind, s: f64) -> Converted {
    let clamped = |low: f64, high: f64| (s.clamp(low, high), !(low..=high).contains(&s));
    let (distance, out_of_range) = match kind {
        ScoreKind::L2 => (s, false),
        ScoreKind::L2Squared => {
            let (s, out) = clamped(0.0, f64::INFINITY);
            (s.sqrt(), out)
        }
        ScoreKind::CosineDistance => {
            let (s, out) = clamped(0.0, 2.0);
            ((2.0 * s).sqrt(), out)
        }
        ScoreKind::CosineSimilarity => {
            let (s, out) = clamped(-1.0, 1.0);
            ((2.0 - 2.0 * s).sqrt(), out)
        }
        ScoreKind::NegativeInnerProduct => {
            let (s, out) = clamped(-1.0, 1.0);
            ((2.0 + 2.0 * s).sqrt(), out)
        }
        ScoreKind::ElasticCosine => {
            let (s, out) = clamped(0.0, 1.0);
            ((4.0 - 4.0 * s).sqrt(), out)
        }
        ScoreKind::InverseL2Squared => {
            if s <= 0.0 {
                return Converted {
                    distance: None,
                    out_of_range: true,
                };
            }
            let (s, out) = clamped(f64::MIN_POSITIVE, 1.0);
            ((1.0 / s - 1.0).sqrt(), out)
        }
    };
    Converted {
        distance: Some(distance),
        out_of_range,
    }
}

/// The score of `kind` that stands for the L2 distance `d >= 0`: the inverse of
/// [`l2_distance`] within the kind's range (a distance the kind cannot express gives
/// the end of its range, e.g. a cosine similarity below -1 for `d > 2`).
pub fn score_from_distance(kind: ScoreKind, d: f64) -> f64 {
    let squared = d * d;
    match kind {
        ScoreKind::L2 => d,
        ScoreKind::L2Squared => squared,
        ScoreKind::CosineDistance => (squared / 2.0).min(2.0),
        ScoreKind::CosineSimilarity => (1.0 - squared / 2.0).max(-1.0),
        ScoreKind::NegativeInnerProduct => (squared / 2.0 - 1.0).min(1.0),
        ScoreKind::ElasticCosine => (1.0 - squared / 4.0).max(0.0),
        ScoreKind::InverseL2Squared => 1.0 / (1.0 + squared),
    }
}

/// What a score of `kind` is called, for people.
pub fn score_name(kind: ScoreKind) -> &'static str {
    match kind {
        ScoreKind::L2 => "L2 distance",
        ScoreKind::L2Squared => "squared L2 distance",
        ScoreKind::CosineDistance => "cosine distance",
        ScoreKind::CosineSimilarity => "cosine similarity",
        ScoreKind::NegativeInnerProduct => "negative inner product",
        ScoreKind::ElasticCosine => "Elasticsearch cosine score",
        ScoreKind::InverseL2Squared => "Elasticsearch l2_norm score",
    }
}

/// The L2 distance `d` as a score of `kind`, as the page writes it beside
/// `maxL2Distance` (`cosine similarity 0.50`, two decimals); `None` for `l2`, whose
/// score is the distance itself.
pub fn distance_as_score_text(kind: ScoreKind, d: f64) -> Option<String> {
    (kind != ScoreKind::L2)
        .then(|| format!("{} {:.2}", score_name(kind), score_from_distance(kind, d)))
}

/// The range of `kind`'s scores as the contract writes it, for messages.
pub(crate) fn range_text(kind: ScoreKind) -> &'static str {
    match kind {
        ScoreKind::L2 | ScoreKind::L2Squared => ">= 0",
        ScoreKind::CosineDistance => "[0, 2]",
        ScoreKind::CosineSimilarity | ScoreKind::NegativeInnerProduct => "[-1, 1]",
        ScoreKind::ElasticCosine => "[0, 1]",
        ScoreKind::InverseL2Squared => "(0, 1]",
    }
}

/// Whether `kind`'s scores grow with the distance (distances) rather than shrink
/// (similarities): what the order of a trace's scores along the rank should show.
pub(crate) fn rises_with_distance(kind: ScoreKind) -> bool {
    match kind {
        ScoreKind::L2
        | ScoreKind::L2Squared
        | ScoreKind::CosineDistance
        | ScoreKind::NegativeInnerProduct => true,
        ScoreKind::CosineSimilarity | ScoreKind::ElasticCosine | ScoreKind::InverseL2Squared => {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(kind: ScoreKind, s: f64) -> Option<f64> {
        l2_distance(kind, s).distance
    }

    fn out(kind: ScoreKind, s: f64) -> bool {
        l2_distance(kind, s).out_of_range
    }

    /// Each kind's `d` from `s`, worked by hand from the contract's table.
    #[test]
    fn each_kind_gives_the_distance_of_its_formula() {
        // l2: d = s, a negative one kept for the dense formula to treat as 0.
        assert_eq!(d(ScoreKind::L2, 0.41), Some(0.41));
        assert_eq!(d(ScoreKind::L2, -0.2), Some(-0.2));
        assert!(!out(ScoreKind::L2, -0.2));
        // l2Squared: sqrt(0.25) = 0.5; sqrt(2.25) = 1.5.
        assert_eq!(d(ScoreKind::L2Squared, 0.25), Some(0.5));
        assert_eq!(d(ScoreKind::L2Squared, 2.25), Some(1.5));
        // cosineDistance: sqrt(2 x 0.5) = 1; sqrt(2 x 0.125) = 0.5; sqrt(2 x 2) = 2.
        assert_eq!(d(ScoreKind::CosineDistance, 0.5), Some(1.0));
        assert_eq!(d(ScoreKind::CosineDistance, 0.125), Some(0.5));
        assert_eq!(d(ScoreKind::CosineDistance, 2.0), Some(2.0));
        // cosineSimilarity: sqrt(2 - 2 x 0.5) = 1; sqrt(2 - 2 x 0.875) = sqrt(0.25) = 0.5;
        // sqrt(2 - 2 x -1) = 2; sqrt(2 - 2 x 1) = 0.
        assert_eq!(d(ScoreKind::CosineSimilarity, 0.5), Some(1.0));
        assert_eq!(d(ScoreKind::CosineSimilarity, 0.875), Some(0.5));
        assert_eq!(d(ScoreKind::CosineSimilarity, -1.0), Some(2.0));
        assert_eq!(d(ScoreKind::CosineSimilarity, 1.0), Some(0.0));
        // negativeInnerProduct: sqrt(2 + 2 x -0.875) = 0.5; sqrt(2 + 2 x 0) = sqrt(2).
        assert_eq!(d(ScoreKind::NegativeInnerProduct, -0.875), Some(0.5));
        assert_eq!(
            d(ScoreKind::NegativeInnerProduct, 0.0),
            Some(std::f64::consts::SQRT_2)
        );
        // elasticCosine: sqrt(4 - 4 x 0.75) = 1; sqrt(4 - 4 x 0.9375) = sqrt(0.25) = 0.5.
        assert_eq!(d(ScoreKind::ElasticCosine, 0.75), Some(1.0));
        assert_eq!(d(ScoreKind::ElasticCosine, 0.9375), Some(0.5));
        // inverseL2Squared: sqrt(1 / 0.5 - 1) = 1; sqrt(1 / 0.8 - 1) = sqrt(0.25) = 0.5;
        // sqrt(1 / 1 - 1) = 0.
        assert_eq!(d(ScoreKind::InverseL2Squared, 0.5), Some(1.0));
        assert_eq!(d(ScoreKind::InverseL2Squared, 0.8), Some(0.5));
        assert_eq!(d(ScoreKind::InverseL2Squared, 1.0), Some(0.0));
        for kind in ScoreKind::ALL {
            assert!(!out(
                kind,
                if kind == ScoreKind::NegativeInnerProduct {
                    -0.5
                } else {
                    0.5
                }
            ));
        }
    }

    /// A score outside its kind's range is clamped to the nearest end and flagged.
    #[test]
    fn out_of_range_scores_clamp_and_say_so() {
        // l2Squared -0.3 -> 0 -> d 0.
        assert_eq!(
            l2_distance(ScoreKind::L2Squared, -0.3),
            Converted {
                distance: Some(0.0),
                out_of_range: true
            }
        );
        // cosineDistance 2.5 -> 2 -> sqrt(4) = 2; -0.1 -> 0 -> 0.
        assert_eq!(d(ScoreKind::CosineDistance, 2.5), Some(2.0));
        assert!(out(ScoreKind::CosineDistance, 2.5));
        assert_eq!(d(ScoreKind::CosineDistance, -0.1), Some(0.0));
        // cosineSimilarity 1.2 -> 1 -> 0; -1.5 -> -1 -> 2.
        assert_eq!(d(ScoreKind::CosineSimilarity, 1.2), Some(0.0));
        assert!(out(ScoreKind::CosineSimilarity, 1.2));
        assert_eq!(d(ScoreKind::CosineSimilarity, -1.5), Some(2.0));
        // negativeInnerProduct 1.5 -> 1 -> sqrt(4) = 2.
        assert_eq!(d(ScoreKind::NegativeInnerProduct, 1.5), Some(2.0));
        assert!(out(ScoreKind::NegativeInnerProduct, 1.5));
        // elasticCosine 1.9 (an older engine's 1 + cos) -> 1 -> 0.
        assert_eq!(d(ScoreKind::ElasticCosine, 1.9), Some(0.0));
        assert!(out(ScoreKind::ElasticCosine, 1.9));
        // inverseL2Squared: 0 and below leave no distance; 3 -> 1 -> 0.
        assert_eq!(
            l2_distance(ScoreKind::InverseL2Squared, 0.0),
            Converted {
                distance: None,
                out_of_range: true
            }
        );
        assert_eq!(d(ScoreKind::InverseL2Squared, -2.0), None);
        assert_eq!(d(ScoreKind::InverseL2Squared, 3.0), Some(0.0));
        assert!(out(ScoreKind::InverseL2Squared, 3.0));
    }

    /// The inverse gives back the score each kind stands for: `maxL2Distance` 1 is
    /// cosine similarity 1 - 1/2 = 0.5, l2Squared 1, cosineDistance 0.5,
    /// negativeInnerProduct -0.5, elasticCosine 0.75, inverseL2Squared 0.5.
    #[test]
    fn the_inverse_names_the_score_of_a_distance() {
        let at_one: Vec<f64> = ScoreKind::ALL
            .iter()
            .map(|&k| score_from_distance(k, 1.0))
            .collect();
        assert_eq!(at_one, [1.0, 1.0, 0.5, 0.5, -0.5, 0.75, 0.5]);
        // d = 0.5: cosine similarity 1 - 0.125 = 0.875, elasticCosine 1 - 0.0625.
        assert_eq!(score_from_distance(ScoreKind::CosineSimilarity, 0.5), 0.875);
        assert_eq!(score_from_distance(ScoreKind::ElasticCosine, 0.5), 0.9375);
        // What the page writes beside maxL2Distance 1 and 0.5.
        assert_eq!(
            distance_as_score_text(ScoreKind::CosineSimilarity, 1.0).as_deref(),
            Some("cosine similarity 0.50")
        );
        assert_eq!(
            distance_as_score_text(ScoreKind::ElasticCosine, 0.5).as_deref(),
            Some("Elasticsearch cosine score 0.94")
        );
        assert_eq!(
            distance_as_score_text(ScoreKind::InverseL2Squared, 1.0).as_deref(),
            Some("Elasticsearch l2_norm score 0.50")
        );
        assert_eq!(distance_as_score_text(ScoreKind::L2, 1.0), None);
        // Past what a unit-vector kind can express: the end of its range.
        assert_eq!(score_from_distance(ScoreKind::CosineSimilarity, 3.0), -1.0);
        for kind in ScoreKind::ALL {
            for d0 in [0.0, 0.5, 1.0, 1.5] {
                let back = d(kind, score_from_distance(kind, d0));
                assert_eq!(back, Some(d0), "{kind:?} {d0}");
            }
        }
    }
}
