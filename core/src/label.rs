//! Score label canonicalisation (contract section 3.1).

use serde::Serialize;

/// The two first-class score labels a candidate can canonicalise to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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
    let label = raw.trim().to_lowercase();
    match label.as_str() {
        "dense" | "l2_distance" => Some(CanonicalLabel::Dense),
        "hybrid" | "rrf_fused" => Some(CanonicalLabel::Hybrid),
        other if other.starts_with("bm25_only") => Some(CanonicalLabel::Hybrid),
        _ => None,
    }
}

/// True when `raw` canonicalises but is not itself `dense` or `hybrid`.
pub fn is_legacy_alias(raw: &str) -> bool {
    let label = raw.trim().to_lowercase();
    canonical_label(&label).is_some() && label != "dense" && label != "hybrid"
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
