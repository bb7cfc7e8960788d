//! Parse -> analyze -> serialise (the CLI's `analyze` JSON) -> parse that JSON back:
//! every number in the output is the number the analysis holds.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{Settings, analyze, parse_documents};
use serde_json::Value;

fn number(value: &Value) -> Option<f64> {
    value.as_f64()
}

fn count(value: &Value) -> usize {
    value.as_u64().map_or(usize::MAX, |n| n as usize)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let batch = parse_documents(&[("fuzz".to_owned(), text.to_owned())]);
    let Ok(analysis) = analyze(&batch, &Settings::default(), true) else {
        panic!("default settings are valid");
    };
    let json = match serde_json::to_string(&analysis) {
        Ok(json) => json,
        Err(err) => panic!("the analysis serialises: {err}"),
    };
    let back: Value = match serde_json::from_str(&json) {
        Ok(back) => back,
        Err(err) => panic!("the output is JSON: {err}"),
    };
    let traces = back["traces"].as_array().map_or(&[][..], Vec::as_slice);
    assert_eq!(traces.len(), analysis.traces.len());
    for (t, out) in analysis.traces.iter().zip(traces) {
        assert_eq!(
            out["relevanceLevel"].as_str(),
            Some(t.relevance_level.as_str())
        );
        assert_eq!(number(&out["topQuality"]), t.top_quality);
        assert_eq!(out["lowQuality"].as_bool(), Some(t.low_quality));
        let stages = &out["stages"];
        assert_eq!(count(&stages["candidates"]), t.stages.candidates);
        assert_eq!(count(&stages["accepted"]), t.stages.accepted);
        assert_eq!(count(&stages["invalid"]), t.stages.invalid);
        assert_eq!(count(&stages["duplicates"]), t.stages.duplicates);
        let blocks = out["blocks"].as_array().map_or(&[][..], Vec::as_slice);
        assert_eq!(blocks.len(), t.blocks().count());
        for (b, out) in t.blocks().zip(blocks) {
            assert_eq!(number(&out["qualityScore"]), Some(b.quality_score));
            // JSON holds no infinity: a score beyond a double's range is written null.
            assert_eq!(
                number(&out["score"]),
                b.candidate.score.filter(|s| s.is_finite())
            );
            assert_eq!(out["originalRank"].as_u64(), b.original_rank);
            assert_eq!(out["status"].as_str(), Some(b.status.as_str()));
            assert_eq!(
                out["acceptedRank"].as_u64(),
                b.accepted_rank.map(|r| r as u64)
            );
        }
    }
    let summary = &back["summary"];
    assert_eq!(count(&summary["traces"]), analysis.summary.all.traces);
    for (level, n) in &analysis.summary.all.levels {
        assert_eq!(count(&summary["levels"][level.as_str()]), *n);
    }
    let sweep = back["sweep"].as_array().map_or(&[][..], Vec::as_slice);
    let points = analysis.sweep.as_deref().unwrap_or_default();
    assert_eq!(sweep.len(), points.len());
    common::check_analysis(&analysis);
});
