//! The names and lists of one pair, built when they are read.

use super::paired::PairComparison;
use crate::analysis::Analysis;
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;
use serde_json::Value;

/// One accepted block of one side of a pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AcceptedItem {
    pub doc_id: String,
    pub evidence_key: String,
    pub accepted_rank: usize,
    pub quality: f64,
}

/// A document only one side accepted: its rank among that side's distinct documents
/// (1-based), its first block's accepted rank and quality.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OnlyOneSide {
    pub doc_id: String,
    pub doc_rank: usize,
    pub accepted_rank: usize,
    pub quality: f64,
}

/// A configuration key whose effective value differs between the two traces.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConfigDifference {
    pub key: String,
    pub a: Value,
    pub b: Value,
}

/// One pair with its names and lists (built when read).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PairDetail {
    pub name_a: String,
    pub name_b: String,
    pub query: Option<String>,
    pub case_id: Option<String>,
    pub accepted_a: Vec<AcceptedItem>,
    pub accepted_b: Vec<AcceptedItem>,
    pub only_in_a: Vec<OnlyOneSide>,
    pub only_in_b: Vec<OnlyOneSide>,
    pub config_differences: Vec<ConfigDifference>,
    #[serde(flatten)]
    pub numbers: PairComparison,
}

fn accepted_items(t: &TraceAnalysis) -> Vec<AcceptedItem> {
    t.accepted_blocks()
        .map(|block| AcceptedItem {
            doc_id: block.doc_id.to_string(),
            evidence_key: block.evidence_key.to_string(),
            accepted_rank: block.accepted_rank.unwrap_or(0),
            quality: block.quality_score,
        })
        .collect()
}

fn only_in(side: &[AcceptedItem], other: &[AcceptedItem]) -> Vec<OnlyOneSide> {
    let mut docs: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for item in side {
        if docs.contains(&item.doc_id.as_str()) {
            continue;
        }
        docs.push(&item.doc_id);
        if !other.iter().any(|o| o.doc_id == item.doc_id) {
            out.push(OnlyOneSide {
                doc_id: item.doc_id.clone(),
                doc_rank: docs.len(),
                accepted_rank: item.accepted_rank,
                quality: item.quality,
            });
        }
    }
    out
}

fn config_differences(a: &TraceAnalysis, b: &TraceAnalysis) -> Vec<ConfigDifference> {
    if a.config == b.config {
        return Vec::new();
    }
    let (Ok(Value::Object(ca)), Ok(Value::Object(cb))) = (
        serde_json::to_value(a.config),
        serde_json::to_value(b.config),
    ) else {
        return Vec::new();
    };
    ca.iter()
        .filter_map(|(key, va)| {
            let vb = cb.get(key).cloned().unwrap_or(Value::Null);
            (*va != vb).then(|| ConfigDifference {
                key: key.clone(),
                a: va.clone(),
                b: vb,
            })
        })
        .collect()
}

/// The names and lists of one pair (what the page's side-by-side view shows).
pub fn pair_detail(a: &Analysis, b: &Analysis, pair: &PairComparison) -> Option<PairDetail> {
    let (ta, tb) = (a.traces.get(pair.a)?, b.traces.get(pair.b)?);
    let accepted_a = accepted_items(ta);
    let accepted_b = accepted_items(tb);
    Some(PairDetail {
        name_a: ta.name().into_owned(),
        name_b: tb.name().into_owned(),
        query: ta
            .trace
            .query
            .as_deref()
            .or(tb.trace.query.as_deref())
            .map(str::to_owned),
        case_id: ta
            .trace
            .case_id
            .as_deref()
            .or(tb.trace.case_id.as_deref())
            .map(str::to_owned),
        only_in_a: only_in(&accepted_a, &accepted_b),
        only_in_b: only_in(&accepted_b, &accepted_a),
        accepted_a,
        accepted_b,
        config_differences: config_differences(ta, tb),
        numbers: *pair,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::test_support::*;

    #[test]
    fn differing_trace_options_are_listed_per_pair() {
        let (a, b) = (
            run(&format!(
                "[{}]",
                trace(
                    r#""requestId":"a","query":"q","options":{"returnN":2}"#,
                    &["x", "y", "z"]
                )
            )),
            run(&format!(
                "[{}]",
                trace(r#""requestId":"b","query":"q""#, &["x", "y", "z"])
            )),
        );
        let c = both(&a, &b);
        assert!(c.pairs[0].config_differs);
        assert_eq!(c.pairs[0].k, 2);
        let detail = pair_detail(&a, &b, &c.pairs[0]).unwrap_or_else(|| panic!("a pair"));
        assert_eq!(detail.config_differences.len(), 1);
        assert_eq!(detail.config_differences[0].key, "returnN");
        assert_eq!(detail.config_differences[0].a, serde_json::json!(2));
        assert_eq!(detail.config_differences[0].b, serde_json::json!(5));
        assert_eq!(detail.only_in_b[0].doc_id, "z");
        assert_eq!(detail.only_in_b[0].doc_rank, 3);
    }
}
