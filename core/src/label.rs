//! Score label canonicalisation (contract section 3.1).

use serde::Serialize;

/// The two first-class score labels a candidate can canonicalise to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CanonicalLabel {
    Dense,
    Hybrid,
}

impl CanonicalLabel {
    pub fn as_str(self) -> &'static str {
        match self {
            CanonicalLabel::Dense => "dense",
            CanonicalLabel::Hybrid => "hybrid",
        }
    }
}

/// Canonicalises a raw score label; `None` means the label is unknown.
///
/// `bm25_only` is matched as a prefix (wider than the seeds' `bm25_only_*`)
/// so that a bare `bm25_only` maps to hybrid too.
pub fn canonical_label(raw: &str) -> Option<CanonicalLabel> {
    classify_label(raw).0
}

/// True when `raw` canonicalises but is not itself `dense` or `hybrid`.
#[cfg(test)]
fn is_legacy_alias(raw: &str) -> bool {
    classify_label(raw).1
}

/// [`canonical_label`] and whether the label is a legacy alias (canonicalises but is
/// not itself `dense` or `hybrid`) at once. The parser asks both for every
/// candidate; a label that is ASCII once trimmed (every label in practice) is compared
/// without the lowercased copy (its two allocations a candidate took 4% of a parse in
/// wasm).
pub fn classify_label(raw: &str) -> (Option<CanonicalLabel>, bool) {
    let label = raw.trim();
    if label.is_ascii() {
        classify_ignoring_ascii_case(label)
    } else {
        // Unicode lowercasing can turn a non-ASCII letter into an ASCII one (the
        // Kelvin sign K into k): such labels are lowercased first, as the contract says.
        classify_ignoring_ascii_case(&label.to_lowercase())
    }
}

/// Matches `label` ignoring ASCII case, which is what lowercasing does to ASCII text
/// (and lowercased text has no ASCII capitals left to ignore).
fn classify_ignoring_ascii_case(label: &str) -> (Option<CanonicalLabel>, bool) {
    const BM25_ONLY: &str = "bm25_only";
    let is = |word: &str| label.eq_ignore_ascii_case(word);
    let bm25_only = label
        .get(..BM25_ONLY.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(BM25_ONLY));
    if is("dense") {
        (Some(CanonicalLabel::Dense), false)
    } else if is("hybrid") {
        (Some(CanonicalLabel::Hybrid), false)
    } else if is("l2_distance") {
        (Some(CanonicalLabel::Dense), true)
    } else if is("rrf_fused") || bm25_only {
        (Some(CanonicalLabel::Hybrid), true)
    } else {
        (None, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_class_labels_map_to_themselves() {
        assert_eq!(canonical_label("dense"), Some(CanonicalLabel::Dense));
        assert_eq!(canonical_label("hybrid"), Some(CanonicalLabel::Hybrid));
    }

    #[test]
    fn legacy_aliases_canonicalise_after_trim_and_lowercase() {
        assert_eq!(
            canonical_label(" L2_Distance "),
            Some(CanonicalLabel::Dense)
        );
        assert_eq!(canonical_label("RRF_FUSED"), Some(CanonicalLabel::Hybrid));
        assert_eq!(
            canonical_label("bm25_only_no_dense"),
            Some(CanonicalLabel::Hybrid)
        );
        assert_eq!(canonical_label("bm25_only"), Some(CanonicalLabel::Hybrid));
        assert!(is_legacy_alias(" L2_distance"));
        assert!(!is_legacy_alias("Hybrid"));
    }

    #[test]
    fn unknown_labels_are_none() {
        assert_eq!(canonical_label("cosine"), None);
        assert_eq!(canonical_label(""), None);
        assert_eq!(canonical_label("bm25"), None);
        assert!(!is_legacy_alias("cosine"));
    }
}
