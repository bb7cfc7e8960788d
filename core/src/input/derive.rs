//! What reading decides once for every configuration: order, duplicates, doc slots,
//! the legacy comparison, legacy label counts, the trace's canonical mode and the
//! hashes a run comparison matches documents by.

use super::model::{hot_of, Candidate, NameHashes, Trace};
use crate::fast_hash::FastMap;
use crate::label::canonical_label;
use crate::legacy::legacy_positions;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Everything about a trace that no setting changes: order, duplicates, doc slots,
/// legacy comparison, legacy label counts and the trace's canonical mode.
pub(super) fn derive(trace: &mut Trace, mut candidates: Vec<Candidate>) {
    let mut valid: Vec<usize> = Vec::with_capacity(candidates.len());
    let mut invalid: Vec<usize> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        if c.rank.value().is_some() {
            valid.push(i);
        } else {
            invalid.push(i);
        }
    }
    valid.sort_by(|&a, &b| {
        let (ca, cb) = (&candidates[a], &candidates[b]);
        ca.rank
            .value()
            .cmp(&cb.rank.value())
            .then_with(|| ca.evidence_key.as_bytes().cmp(cb.evidence_key.as_bytes()))
            .then_with(|| a.cmp(&b))
    });

    let mut seen: FastMap<Arc<str>, u64> =
        FastMap::with_capacity_and_hasher(valid.len(), Default::default());
    for &i in &valid {
        let c = &mut candidates[i];
        let rank = c.rank.value().unwrap_or(0);
        match seen.get(&c.evidence_key) {
            Some(&first) => c.duplicate_of_rank = Some(first),
            None => {
                seen.insert(c.evidence_key.clone(), rank);
            }
        }
    }

    let mut docs: FastMap<Arc<str>, usize> =
        FastMap::with_capacity_and_hasher(candidates.len(), Default::default());
    for c in candidates.iter_mut() {
        let next = docs.len();
        c.doc_slot = *docs.entry(c.doc_id.clone()).or_insert(next);
    }
    trace.doc_count = docs.len();

    let final_scores: Vec<Option<f64>> = valid.iter().map(|&i| candidates[i].final_score).collect();
    trace.legacy = legacy_positions(&final_scores).map(|cmp| {
        for (&i, place) in valid.iter().zip(&cmp.places) {
            if let (Some(c), Some(place)) = (candidates.get_mut(i), place) {
                c.legacy_position = Some(place.position);
                c.displacement = Some(place.displacement);
            }
        }
        cmp.summary
    });

    let mut legacy_labels = BTreeMap::new();
    for c in candidates.iter() {
        if c.legacy_alias {
            if let Some(label) = &c.score_label {
                *legacy_labels
                    .entry(label.trim().to_lowercase())
                    .or_insert(0usize) += 1;
            }
        }
    }
    trace.legacy_labels = Arc::new(legacy_labels);

    trace.canonical_mode = trace.mode.as_deref().and_then(canonical_label).or_else(|| {
        let mut shared = None;
        for &i in &valid {
            if let Some(label) = candidates[i].canonical_label {
                match shared {
                    None => shared = Some(label),
                    Some(s) if s != label => return None,
                    Some(_) => {}
                }
            }
        }
        shared
    });

    valid.extend(invalid);
    trace.order = valid;
    trace.candidates = candidates;
    trace.hot = hot_of(&trace.candidates, &trace.order);
    trace.name_hashes = trace.candidates.iter().map(NameHashes::of).collect();
}
