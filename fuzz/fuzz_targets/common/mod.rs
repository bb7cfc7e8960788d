//! What every analysis must satisfy, whatever the input (contract sections 3 and 4).
#![allow(dead_code)]

use ragtrace_core::{Analysis, Status};
use std::collections::HashMap;

pub fn check_analysis(analysis: &Analysis) {
    for t in &analysis.traces {
        let s = t.stages;
        assert_eq!(s.candidates, t.trace.candidates().len());
        assert_eq!(
            s.invalid + s.duplicates + s.doc_capped + s.return_n_cut + s.accepted,
            s.candidates,
            "every candidate has one status"
        );
        assert!(s.accepted <= t.config.return_n);
        assert_eq!(t.blocks().count(), s.candidates);
        let mut per_doc: HashMap<&str, usize> = HashMap::new();
        let mut top: Option<f64> = None;
        let mut next_rank = 1;
        for block in t.blocks() {
            assert!(
                (0.0..=1.0).contains(&block.quality_score),
                "quality {} in [0, 1]",
                block.quality_score
            );
            if block.status == Status::Accepted {
                assert_eq!(block.accepted_rank, Some(next_rank));
                next_rank += 1;
                let held = per_doc.entry(&block.candidate.doc_id).or_default();
                *held += 1;
                assert!(*held <= t.config.max_chunks_per_document);
                top = Some(top.map_or(block.quality_score, |q: f64| q.max(block.quality_score)));
            } else {
                assert_eq!(block.accepted_rank, None);
            }
        }
        assert_eq!(next_rank - 1, s.accepted);
        assert_eq!(t.top_quality, top);
    }
    let all = &analysis.summary.all;
    assert_eq!(all.traces, analysis.traces.len());
    assert_eq!(all.levels.values().sum::<usize>(), analysis.traces.len());
}
