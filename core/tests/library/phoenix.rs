//! Arize Phoenix's span records (contract section 11, last paragraph) read from what a
//! real Phoenix returned for the spans of the OTLP fixtures (`tests/fixtures/otel/`,
//! see its README): the records of each retrieval give the traces its OTLP spans
//! give. Phoenix's transport rounds doubles to 10 decimals, so scores and qualities
//! agree within 1e-9, not bit for bit. Literals were read from the files (the column
//! named in each comment).

use crate::common;

use ragtrace_core::{
    analyze, parse_document, parse_value, read_batch, DocumentReader, ParsedBatch, Settings,
    TraceAnalysis,
};
use serde_json::{json, Value};

fn batch(name: &str) -> ParsedBatch {
    parse_document(name, &common::fixture(name))
}

/// What a reader of the result sees of one trace, rounding aside.
#[derive(Debug, PartialEq)]
struct Seen {
    request_id: Option<String>,
    query: Option<String>,
    case_id: Option<String>,
    mode: Option<String>,
    level: String,
    low_quality: bool,
    /// (evidenceKey, docId, originalRank, status) of each block.
    blocks: Vec<(String, String, Option<u64>, String)>,
    accepted_ranks: Vec<Option<u64>>,
}

fn seen(analysis: &TraceAnalysis) -> (Seen, Vec<f64>) {
    let trace = &analysis.trace;
    let seen = Seen {
        request_id: trace.request_id.as_deref().map(str::to_owned),
        query: trace.query.as_deref().map(str::to_owned),
        case_id: trace.case_id.as_deref().map(str::to_owned),
        mode: trace.mode.as_deref().map(str::to_owned),
        level: format!("{:?}", analysis.relevance_level),
        low_quality: analysis.low_quality,
        blocks: analysis
            .blocks()
            .map(|b| {
                (
                    b.evidence_key.to_string(),
                    b.doc_id.to_string(),
                    b.original_rank,
                    format!("{:?}", b.status),
                )
            })
            .collect(),
        accepted_ranks: analysis
            .accepted_blocks()
            .map(|b| b.original_rank)
            .collect(),
    };
    let qualities = analysis.blocks().map(|b| b.quality_score).collect();
    (seen, qualities)
}

/// Every trace of both batches, matched by requestId, seen alike; qualities within 1e-9.
fn assert_same_traces(phoenix: &ParsedBatch, otlp: &ParsedBatch) -> usize {
    let settings = Settings::default();
    let phoenix = analyze(phoenix, &settings, true).unwrap();
    let otlp = analyze(otlp, &settings, true).unwrap();
    assert_eq!(phoenix.traces.len(), otlp.traces.len());
    for expected in &otlp.traces {
        let id = expected.trace.request_id.clone();
        let found = phoenix
            .traces
            .iter()
            .find(|t| t.trace.request_id == id)
            .unwrap_or_else(|| panic!("no Phoenix trace {id:?}"));
        let (expected, expected_qualities) = seen(expected);
        let (found, found_qualities) = seen(found);
        assert_eq!(found, expected);
        assert_eq!(found_qualities.len(), expected_qualities.len());
        for (f, e) in found_qualities.iter().zip(&expected_qualities) {
            assert!((f - e).abs() < 1e-9, "{id:?}: quality {f} vs {e}");
        }
    }
    otlp.traces.len()
}

#[test]
fn phoenix_records_give_the_traces_of_the_otlp_spans_of_the_same_retrievals() {
    for (phoenix, otlp, traces) in [
        // 8 retriever calls and 1 query engine run.
        (
            "otel/phoenix-spans.jsonl",
            "otel/llamaindex-cosine.jsonl",
            9,
        ),
        // 2 retrievals and 2 reranker spans.
        (
            "otel/phoenix-reranker-spans.jsonl",
            "otel/reranker.jsonl",
            4,
        ),
        // 1 retrieval that returned nothing (one NO_MATCH trace, not two).
        (
            "otel/phoenix-empty-retrieval-spans.jsonl",
            "otel/empty-retrieval.jsonl",
            1,
        ),
    ] {
        let records = batch(phoenix);
        let spans = batch(otlp);
        assert!(records.errors.is_empty(), "{phoenix}: {:?}", records.errors);
        assert_eq!(assert_same_traces(&records, &spans), traces, "{phoenix}");
        // Every record that is not a retrieval or reranker span is skipped and counted,
        // as its span is.
        assert_eq!(
            records.documents[0].skipped_spans, spans.documents[0].skipped_spans,
            "{phoenix}"
        );
    }
}

/// (evidenceKey, docId, score, title, originalRank) of a candidate.
type Shown<'a> = (&'a str, &'a str, Option<f64>, Option<&'a str>, Option<u64>);

#[test]
fn the_first_retrieval_reads_as_phoenix_wrote_it() {
    // phoenix-spans.jsonl, the record of VectorIndexRetriever.retrieve (context.span_id
    // 456d044bc1f49414): attributes.input.value, attributes.metadata.caseId, and the
    // first three of attributes.retrieval.documents (document.id, document.score as
    // Phoenix rounded it, document.metadata.file_name and .title).
    let batch = batch("otel/phoenix-spans.jsonl");
    let trace = &batch.traces[0];
    assert_eq!(
        trace.request_id.as_deref(),
        Some("fe4f526311d5d724d5baa978983b6369/456d044bc1f49414")
    );
    assert_eq!(
        trace.query.as_deref(),
        Some("How hot should the water be for espresso?")
    );
    assert_eq!(trace.case_id.as_deref(), Some("espresso-temperature"));
    assert_eq!(trace.mode.as_deref(), Some("dense"));
    let first: Vec<Shown> = trace
        .candidates()
        .iter()
        .take(3)
        .map(|c| {
            (
                &*c.evidence_key,
                &*c.doc_id,
                c.score,
                c.title.as_deref(),
                c.rank.value(),
            )
        })
        .collect();
    assert_eq!(
        first,
        [
            (
                "espresso-guide#0",
                "espresso-guide.md",
                Some(0.8799575718),
                Some("Espresso at home"),
                Some(1)
            ),
            (
                "sourdough#1",
                "sourdough.md",
                Some(0.8669255093),
                Some("Sourdough from scratch"),
                Some(2)
            ),
            (
                "espresso-guide#1",
                "espresso-guide.md",
                Some(0.8544891056),
                Some("Espresso at home"),
                Some(3)
            ),
        ]
    );
    assert_eq!(trace.candidates().len(), 6);
}

#[test]
fn records_newest_first_as_phoenix_returns_them_read_alike() {
    // get_spans_dataframe() returns the newest span first: the inner `_retrieve` before
    // its outer `retrieve`, a reranker before its retriever.
    for (name, traces) in [
        ("otel/phoenix-spans.jsonl", 9),
        ("otel/phoenix-reranker-spans.jsonl", 4),
        ("otel/phoenix-empty-retrieval-spans.jsonl", 1),
    ] {
        let text = common::fixture(name);
        let reversed: Vec<&str> = text.lines().rev().collect();
        let newest_first = parse_document(name, &reversed.join("\n"));
        assert_eq!(
            assert_same_traces(&newest_first, &batch(name)),
            traces,
            "{name}"
        );
    }
}

/// The lines of a JSON Lines fixture as one JSON array (a `to_dict("records")` list).
fn records_array(name: &str) -> Value {
    Value::Array(
        common::fixture(name)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect(),
    )
}

#[test]
fn records_read_alike_as_json_lines_an_array_a_value_and_a_stream() {
    let name = "otel/phoenix-reranker-spans.jsonl";
    let lines = batch(name);
    let array = records_array(name);
    let from_text = parse_document("records.json", &array.to_string());
    let from_value = parse_value("records", &array);
    let streamed = read_batch(name, common::fixture(name).as_bytes()).unwrap();
    for other in [&from_text, &from_value, &streamed] {
        assert_same_traces(other, &lines);
        assert_eq!(
            other.documents[0].skipped_spans,
            lines.documents[0].skipped_spans
        );
    }
    // In an array, a trace's pointer is its record's: the retriever record is the third.
    assert_eq!(from_value.traces[0].pointer, "/2");
}

#[test]
fn bad_values_are_located_by_the_records_column() {
    // The outer retriever record of phoenix-spans.jsonl (line 1) with its first
    // document's score as text and the metadata as a list.
    let text = common::fixture("otel/phoenix-spans.jsonl");
    let mut record: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(record["name"], "VectorIndexRetriever.retrieve");
    record["attributes.retrieval.documents"][0]["document.score"] = json!("0.88");
    record["attributes.metadata"] = json!(["espresso-temperature"]);
    let batch = parse_value("records", &json!([record]));
    let trace = &batch.traces[0];
    let mut codes: Vec<(&str, &str)> = trace
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.path.as_deref().unwrap_or("")))
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        [
            (
                "score-not-number",
                "attributes.retrieval.documents.0.document.score"
            ),
            ("wrong-type", "attributes.metadata"),
        ]
    );
    assert_eq!(trace.candidates()[0].score, None);
    assert_eq!(trace.case_id, None);
}

#[test]
fn records_of_other_spans_are_skipped_and_counted() {
    // phoenix-spans.jsonl: 46 records, 18 of them RETRIEVER (9 retrievals, each an
    // outer `retrieve` and an inner `_retrieve`: the same retrieval, not skipped);
    // the 28 others are EMBEDDING (18), CHAIN (8) and LLM (2) spans.
    let batch = batch("otel/phoenix-spans.jsonl");
    assert_eq!(batch.traces.len(), 9);
    let kinds = common::fixture("otel/phoenix-spans.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["span_kind"] != "RETRIEVER" && r["span_kind"] != "RERANKER")
        .count();
    assert_eq!(kinds, 28);
    assert_eq!(batch.documents[0].skipped_spans, 28);
}

#[test]
fn records_waiting_for_their_retrieval_are_bounded_while_streaming() {
    // 1,100 empty retrievals, each a root RETRIEVER record without documents on its own
    // line: each waits for a child with documents until the document ends, but at most
    // 1,024 wait (as OTLP spans do); past that the oldest become traces as lines arrive.
    let mut text = String::new();
    for n in 0..1100 {
        let record = json!({
            "name": "VectorIndexRetriever.retrieve",
            "span_kind": "RETRIEVER",
            "parent_id": null,
            "context.span_id": "00000000000000b1",
            "context.trace_id": format!("{n:032x}"),
            "attributes.input.value": format!("query {n}"),
            "attributes.retrieval.documents": null,
        });
        text.push_str(&record.to_string());
        text.push('\n');
    }
    let mut reader = DocumentReader::new("records.jsonl");
    reader.push(text.as_bytes());
    let batch = reader.take_parsed();
    assert_eq!(batch.traces.len(), 1100 - 1024);
    assert_eq!(batch.traces[0].query.as_deref(), Some("query 0"));
    assert_eq!(batch.traces[0].candidates().len(), 0);
    let last = reader.finish();
    assert_eq!(last.traces.len(), 1024);
    assert_eq!(last.traces[0].query.as_deref(), Some("query 76"));
}
