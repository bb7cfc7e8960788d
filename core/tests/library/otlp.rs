//! OTLP JSON spans (contract section 11) read from the spans the real OpenInference
//! LlamaIndex instrumentor wrote (`tests/fixtures/otel/`, see its README). Every
//! literal below was read from those files (the attribute named in each comment).

use crate::common;

use ragtrace_core::{
    analyze, parse_document, parse_documents, parse_value, read_batch, DocumentReader, ParsedBatch,
    Settings, Trace,
};
use serde_json::{json, Value};

const COSINE: &str = "otel/llamaindex-cosine.jsonl";

fn batch(name: &str) -> ParsedBatch {
    parse_document(name, &common::fixture(name))
}

/// Line `n` (1-based) of a fixture, parsed.
fn line(name: &str, n: usize) -> Value {
    let text = common::fixture(name);
    serde_json::from_str(text.lines().nth(n - 1).unwrap()).unwrap()
}

/// The spans of a one-resource, one-scope TracesData.
fn spans(traces_data: &mut Value) -> &mut Vec<Value> {
    traces_data["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap()
}

/// The attributes of a span.
fn attributes(span: &mut Value) -> &mut Vec<Value> {
    span["attributes"].as_array_mut().unwrap()
}

fn set_attribute(span: &mut Value, key: &str, value: Value) {
    let attributes = attributes(span);
    match attributes.iter_mut().find(|a| a["key"] == key) {
        Some(attribute) => attribute["value"] = value,
        None => attributes.push(json!({"key": key, "value": value})),
    }
}

fn remove_attributes(span: &mut Value, keep: impl Fn(&str) -> bool) {
    attributes(span).retain(|a| keep(a["key"].as_str().unwrap()));
}

/// The first trace of line 1 of the cosine file: the outer `VectorIndexRetriever.retrieve`
/// span (spans[3]; spans[2] is the inner `_retrieve`, without documents).
fn first_retrieval() -> Trace {
    Trace::clone(&batch(COSINE).traces[0])
}

/// A one-line document holding `traces_data`, read.
fn read_one(traces_data: &Value) -> ParsedBatch {
    parse_document("spans.json", &traces_data.to_string())
}

fn codes(trace: &Trace) -> Vec<(&str, &str)> {
    trace
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.path.as_deref().unwrap_or("")))
        .collect()
}

// The mapping table of section 11, row by row, on line 1 of the cosine file.

#[test]
fn request_id_is_trace_id_slash_span_id_of_the_span_with_the_documents() {
    // traceId fe4f5263..., spanId 456d044bc1f49414 (VectorIndexRetriever.retrieve).
    assert_eq!(
        first_retrieval().request_id.as_deref(),
        Some("fe4f526311d5d724d5baa978983b6369/456d044bc1f49414")
    );
}

#[test]
fn query_is_input_value() {
    assert_eq!(
        first_retrieval().query.as_deref(),
        Some("How hot should the water be for espresso?")
    );
}

#[test]
fn case_id_comes_from_the_metadata_json_text() {
    // metadata = '{"caseId": "espresso-temperature"}'; line 7 has no metadata attribute.
    let batch = batch(COSINE);
    assert_eq!(
        batch.traces[0].case_id.as_deref(),
        Some("espresso-temperature")
    );
    assert_eq!(batch.traces[6].case_id, None);
    let mut data = line(COSINE, 1);
    set_attribute(
        &mut spans(&mut data)[3],
        "metadata",
        json!({"stringValue": "{\"case_id\": \"snake\"}"}),
    );
    assert_eq!(read_one(&data).traces[0].case_id.as_deref(), Some("snake"));
}

#[test]
fn mode_is_dense_with_scores_and_hybrid_without() {
    assert_eq!(first_retrieval().mode.as_deref(), Some("dense"));
    let mut data = line(COSINE, 1);
    remove_attributes(&mut spans(&mut data)[3], |key| {
        !key.ends_with(".document.score")
    });
    let trace = &read_one(&data).traces[0];
    assert_eq!(trace.mode.as_deref(), Some("hybrid"));
    // Quality from rank: rank 2 of 6 -> 1 - 1/6.
    let analysis = analyze(&read_one(&data), &Settings::default(), true).unwrap();
    let second = analysis.traces[0].block(1).unwrap();
    assert!((second.quality_score - 5.0 / 6.0).abs() < 1e-12);
}

#[test]
fn candidates_are_the_documents_in_index_order_ranked_i_plus_1() {
    // retrieval.documents.0..5.document.id
    let trace = first_retrieval();
    let keys: Vec<(u64, &str)> = trace
        .candidates()
        .iter()
        .map(|c| (c.rank.value().unwrap(), &*c.evidence_key))
        .collect();
    assert_eq!(
        keys,
        [
            (1, "espresso-guide#0"),
            (2, "sourdough#1"),
            (3, "espresso-guide#1"),
            (4, "houseplants#0"),
            (5, "sourdough#0"),
            (6, "espresso-guide#2"),
        ]
    );
}

#[test]
fn evidence_key_is_document_id_and_doc_id_the_metadata_file_name() {
    // document.metadata = {"file_name": "espresso-guide.md", "title": ..., "chunk_index": 0}
    let trace = first_retrieval();
    let first = &trace.candidates()[0];
    assert_eq!(&*first.evidence_key, "espresso-guide#0");
    assert_eq!(&*first.doc_id, "espresso-guide.md");
    // The first present of docId, doc_id, document_id, ref_doc_id, source, file_name,
    // file_path wins; without metadata the document.id is the docId.
    let mut data = line(COSINE, 1);
    let span = &mut spans(&mut data)[3];
    set_attribute(
        span,
        "retrieval.documents.0.document.metadata",
        json!({"stringValue": "{\"file_path\": \"/a.md\", \"source\": \"src-a\"}"}),
    );
    remove_attributes(span, |key| key != "retrieval.documents.1.document.metadata");
    let trace = &read_one(&data).traces[0];
    assert_eq!(&*trace.candidates()[0].doc_id, "src-a");
    assert_eq!(&*trace.candidates()[1].doc_id, "sourdough#1");
}

#[test]
fn score_is_document_score_as_read() {
    // retrieval.documents.0.document.score doubleValue 0.8799575718004368, .5 0.8451822627411258
    let trace = first_retrieval();
    assert_eq!(trace.candidates()[0].score, Some(0.8799575718004368));
    assert_eq!(trace.candidates()[5].score, Some(0.8451822627411258));
}

#[test]
fn excerpt_title_and_breadcrumb_are_content_and_metadata() {
    let trace = first_retrieval();
    let first = &trace.candidates()[0];
    assert!(first
        .excerpt
        .as_deref()
        .unwrap()
        .starts_with("Brew water for espresso should sit between 90 °C and 96 °C."));
    assert_eq!(first.title.as_deref(), Some("Espresso at home"));
    assert_eq!(
        first.breadcrumb.as_deref(),
        Some("Espresso at home > Water temperature")
    );
}

#[test]
fn unknown_attributes_are_kept_and_shown() {
    let trace = first_retrieval();
    assert_eq!(trace.extra["output.mime_type"], "application/json");
    assert_eq!(
        trace.extra["metadata"],
        json!({"caseId": "espresso-temperature"})
    );
    let metadata = &trace.candidates()[0].extra.as_ref().unwrap()["metadata"];
    assert_eq!(metadata["chunk_index"], 0);
    let analysis = analyze(&batch(COSINE), &Settings::default(), true).unwrap();
    let json = serde_json::to_value(&analysis.traces[0]).unwrap();
    assert_eq!(json["extra"]["output.mime_type"], "application/json");
}

/// An embedding vector is skipped unread wherever it is; on a retrieval span, where
/// unknown attributes are shown, it says so. The vector below is the first embedding
/// span's of the fixture (its `embedding.embeddings.0.embedding.vector`), moved.
#[test]
fn an_embedding_vector_is_skipped_unread() {
    let mut data = line(COSINE, 1);
    let vector = spans(&mut data)[1]["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["key"] == "embedding.embeddings.0.embedding.vector")
        .map(|a| a["value"].clone())
        .unwrap();
    assert!(vector["arrayValue"]["values"].as_array().unwrap().len() > 10);
    set_attribute(
        &mut spans(&mut data)[3],
        "embedding.embeddings.0.embedding.vector",
        vector,
    );
    set_attribute(
        &mut spans(&mut data)[3],
        "tag.tags",
        json!({"arrayValue": {"values": [{"stringValue": "a"}]}}),
    );
    for batch in [read_one(&data), parse_value("spans.json", &data)] {
        let extra = &batch.traces[0].extra;
        assert_eq!(
            extra["embedding.embeddings.0.embedding.vector"],
            "(an embedding vector, not read)"
        );
        assert_eq!(extra["tag.tags"], json!(["a"]));
    }
}

// Nesting, spans across lines, the empty retrieval.

#[test]
fn nested_retriever_spans_are_one_trace_each_retrieval() {
    // 9 lines, each with an outer RETRIEVER span holding 6 documents and an inner one
    // holding none: 9 traces, 54 candidates; 46 spans, 18 RETRIEVER, 28 others skipped.
    let batch = batch(COSINE);
    assert_eq!(batch.traces.len(), 9);
    assert_eq!(batch.candidate_count(), 54);
    assert_eq!(batch.errors, vec![]);
    assert_eq!(batch.documents[0].skipped_spans, 28);
}

#[test]
fn a_retrieval_that_returned_nothing_is_one_no_match_trace() {
    // empty-retrieval.jsonl: retrieve (6b1181da5fe29a0f, root) around _retrieve
    // (ed28645ef9bc451f), neither with documents.
    let batch = batch("otel/empty-retrieval.jsonl");
    assert_eq!(batch.traces.len(), 1);
    let trace = &batch.traces[0];
    assert_eq!(
        trace.request_id.as_deref(),
        Some("b438c012c4ba507bc4a8b3f649a901a6/6b1181da5fe29a0f")
    );
    assert_eq!(
        trace.query.as_deref(),
        Some("How hot should the water be for espresso?")
    );
    assert_eq!(trace.candidates().len(), 0);
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let json = serde_json::to_value(&analysis.traces[0]).unwrap();
    assert_eq!(json["relevanceLevel"], "NO_MATCH");
}

/// Line 1's spans split over lines, one span a line, in `order`.
fn split_lines(name: &str, order: &[usize]) -> String {
    let data = line(name, 1);
    let mut out = String::new();
    for &k in order {
        let mut one = data.clone();
        let span = spans(&mut one)[k].clone();
        *spans(&mut one) = vec![span];
        out.push_str(&one.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn spans_of_one_retrieval_join_across_lines_in_any_order() {
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
        let full = parse_document("split.jsonl", &split_lines(COSINE, &order));
        assert_eq!(full.traces.len(), 1, "{order:?}");
        assert_eq!(full.traces[0].candidates().len(), 6);
        let empty = parse_document(
            "split.jsonl",
            &split_lines("otel/empty-retrieval.jsonl", &order),
        );
        assert_eq!(empty.traces.len(), 1, "{order:?}");
        assert_eq!(
            empty.traces[0].request_id.as_deref(),
            Some("b438c012c4ba507bc4a8b3f649a901a6/6b1181da5fe29a0f")
        );
    }
}

#[test]
fn every_reader_reads_spans_alike() {
    let text = common::fixture(COSINE);
    let whole = parse_document(COSINE, &text);
    let names = |b: &ParsedBatch| -> Vec<(usize, Option<String>, usize)> {
        b.traces
            .iter()
            .map(|t| {
                (
                    t.position,
                    t.request_id.as_deref().map(str::to_owned),
                    t.candidates().len(),
                )
            })
            .collect()
    };
    for step in [7, 4096, text.len()] {
        let mut reader = DocumentReader::new(COSINE);
        let mut streamed = ParsedBatch::default();
        for chunk in text.as_bytes().chunks(step) {
            reader.push(chunk);
            streamed.extend(reader.take_parsed());
        }
        streamed.extend(reader.finish());
        assert_eq!(names(&streamed), names(&whole), "chunks of {step}");
        assert_eq!(streamed.documents, whole.documents);
    }
    let read = read_batch(COSINE, text.as_bytes()).unwrap();
    assert_eq!(names(&read), names(&whole));
    // One line as a whole document, as a value, and among other documents.
    let first = text.lines().next().unwrap();
    let single = parse_document("one.json", first);
    let value = parse_value("one.json", &serde_json::from_str(first).unwrap());
    assert_eq!(names(&single), names(&value));
    assert_eq!(single.traces[0].request_id, whole.traces[0].request_id);
    let both = parse_documents(&[
        ("one.json".into(), first.to_owned()),
        (COSINE.into(), text.clone()),
    ]);
    assert_eq!(both.traces.len(), 10);
    assert_eq!(both.traces[1].position, 2);
}

#[test]
fn a_file_may_mix_span_lines_and_trace_lines() {
    let text = format!(
        "{{\"requestId\":\"native\",\"mode\":\"dense\",\"candidates\":[{{\"score\":0.3}}]}}\n{}\n",
        common::fixture(COSINE).lines().next().unwrap()
    );
    let batch = parse_document("mixed.jsonl", &text);
    let ids: Vec<&str> = batch
        .traces
        .iter()
        .map(|t| t.request_id.as_deref().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "native",
            "fe4f526311d5d724d5baa978983b6369/456d044bc1f49414"
        ]
    );
    assert_eq!(batch.traces[1].line, Some(2));
    assert_eq!(
        batch.traces[1].pointer,
        "/1/resourceSpans/0/scopeSpans/0/spans/3"
    );
}

// The attribute limit.

#[test]
fn a_span_cut_by_the_attribute_limit_is_warned_and_keeps_its_ranks() {
    // Line 1: 30 documents, 125 attributes, nothing dropped. Line 2: 37 documents,
    // droppedAttributesCount 25: metadata, input.value, documents 0-4 and document 5's
    // id, content and score are gone (the Python SDK drops the oldest).
    let batch = batch("otel/attribute-limit.jsonl");
    assert_eq!(batch.traces.len(), 2);
    let whole = &batch.traces[0];
    assert_eq!(whole.candidates().len(), 30);
    assert_eq!(codes(whole), []);
    let cut = &batch.traces[1];
    assert_eq!(cut.query, None);
    assert_eq!(cut.case_id, None);
    assert_eq!(codes(cut), [("attribute-limit", "droppedAttributesCount")]);
    assert_eq!(
        cut.diagnostics[0].message,
        "the span's SDK dropped 25 attributes at its attribute limit (OpenTelemetry's default is 128 attributes a span; OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT raises it): missing the query (input.value), the span's metadata, if it had one (so its caseId), the documents at retrieval.documents.0 to 4 (ranks 1 to 5), document.id, document.content, document.score of retrieval.documents.5; the documents that remain keep their ranks"
    );
    // Document 5 keeps only its metadata (rank 6, no id); 6..36 are ranks 7..37.
    let ranks: Vec<(u64, &str)> = cut
        .candidates()
        .iter()
        .map(|c| (c.rank.value().unwrap(), &*c.evidence_key))
        .collect();
    assert_eq!(ranks.len(), 32);
    assert_eq!(ranks[0], (6, "rank-6"));
    assert_eq!(ranks[1], (7, "fountain-pens#2"));
    assert_eq!(ranks[31].0, 37);
}

// The reranker.

#[test]
fn a_reranker_span_is_its_output_documents_with_input_ranks() {
    // reranker.jsonl line 1: KeywordOverlapRerank._postprocess_nodes, 6 documents in,
    // top 3 out: rust-errors#0 (input 0), rust-errors#3 (input 3), kyoto-travel#3
    // (input 4), scores 6/11, 6/11, 5/11.
    let batch = batch("otel/reranker.jsonl");
    assert_eq!(batch.traces.len(), 4);
    let rerank = &batch.traces[1];
    assert_eq!(
        rerank.request_id.as_deref(),
        Some("7bf221de4d00f4a08dd08eaed5044876/a22835b4214c5315")
    );
    assert_eq!(rerank.mode.as_deref(), Some("hybrid"));
    type Shown<'a> = (&'a str, Option<f64>, Option<f64>, Option<Option<u64>>);
    let out: Vec<Shown> = rerank
        .candidates()
        .iter()
        .map(|c| (&*c.evidence_key, c.score, c.raw_score, c.input_rank()))
        .collect();
    assert_eq!(
        out,
        [
            ("rust-errors#0", None, Some(6.0 / 11.0), Some(Some(1))),
            ("rust-errors#3", None, Some(6.0 / 11.0), Some(Some(4))),
            ("kyoto-travel#3", None, Some(5.0 / 11.0), Some(Some(5))),
        ]
    );
    assert_eq!(rerank.extra["reranker.top_k"], 3);
    // Quality from rank (section 3.2): rank r of 3 -> 1 - (r - 1) / 3.
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let blocks = serde_json::to_value(&analysis.traces[1]).unwrap()["blocks"].clone();
    let shown: Vec<(f64, Value, Value)> = blocks
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["qualityScore"].as_f64().unwrap(),
                b["inputRank"].clone(),
                b["rawScore"].clone(),
            )
        })
        .collect();
    assert!((shown[1].0 - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(shown[2].1, 5);
    // A native block shows no inputRank.
    let native = serde_json::to_value(&analysis.traces[0]).unwrap();
    assert!(native["blocks"][0].get("inputRank").is_none());
}

#[test]
fn an_output_document_missing_from_the_input_has_a_null_input_rank() {
    let mut data = line("otel/reranker.jsonl", 3);
    let span = &mut spans(&mut data)[0];
    set_attribute(
        span,
        "reranker.output_documents.1.document.id",
        json!({"stringValue": "not-an-input"}),
    );
    let batch = read_one(&data);
    let ranks: Vec<Option<Option<u64>>> = batch.traces[0]
        .candidates()
        .iter()
        .map(|c| c.input_rank())
        .collect();
    assert_eq!(ranks, [Some(Some(1)), Some(None), Some(Some(6))]);
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let json = serde_json::to_value(&analysis.traces[0]).unwrap();
    assert_eq!(json["blocks"][1]["inputRank"], Value::Null);
}

// GenAI conventions.

#[test]
fn a_genai_retrieval_span_alone_reads_as_the_openinference_one() {
    // genai-semconv.jsonl line 1 with every OpenInference key taken out: the documents
    // come from gen_ai.retrieval.documents, the query from gen_ai.retrieval.query.text.
    let mut data = line("otel/genai-semconv.jsonl", 1);
    let both = read_one(&data);
    for span in spans(&mut data).iter_mut() {
        remove_attributes(span, |key| {
            !key.starts_with("retrieval.documents.")
                && key != "openinference.span.kind"
                && key != "input.value"
        });
    }
    let genai = read_one(&data);
    assert_eq!(genai.traces.len(), 1);
    let (a, b) = (&both.traces[0], &genai.traces[0]);
    assert_eq!(
        b.query.as_deref(),
        Some("How hot should the water be for espresso?")
    );
    assert_eq!(a.request_id, b.request_id);
    let shape = |t: &Trace| -> Vec<(String, String, Option<f64>, Option<String>)> {
        t.candidates()
            .iter()
            .map(|c| {
                (
                    c.evidence_key.to_string(),
                    c.doc_id.to_string(),
                    c.score,
                    c.title.as_deref().map(str::to_owned),
                )
            })
            .collect()
    };
    assert_eq!(shape(a), shape(b));
    assert_eq!(shape(b)[0].2, Some(0.8799575718004368));
}

// Bad input: each a located diagnostic, the other spans still analysed.

#[test]
fn an_index_gap_is_located_and_the_others_keep_their_ranks() {
    let mut data = line(COSINE, 1);
    remove_attributes(&mut spans(&mut data)[3], |key| {
        !key.starts_with("retrieval.documents.2.")
    });
    let trace = &read_one(&data).traces[0];
    assert_eq!(
        codes(trace),
        [("document-index-gap", "retrieval.documents.3.document.id")]
    );
    let ranks: Vec<u64> = trace
        .candidates()
        .iter()
        .map(|c| c.rank.value().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 4, 5, 6]);
}

#[test]
fn a_huge_index_allocates_nothing_in_proportion() {
    let mut data = line(COSINE, 1);
    set_attribute(
        &mut spans(&mut data)[3],
        "retrieval.documents.99999999999.document.id",
        json!({"stringValue": "far"}),
    );
    set_attribute(
        &mut spans(&mut data)[3],
        "retrieval.documents.123456789012345678901234567890.document.id",
        json!({"stringValue": "too-far"}),
    );
    let trace = &read_one(&data).traces[0];
    let last = trace.candidates().last().unwrap();
    assert_eq!(
        (last.rank.value(), &*last.evidence_key),
        (Some(100_000_000_000), "far")
    );
    assert_eq!(trace.candidates().len(), 7);
    assert_eq!(
        codes(trace),
        [
            (
                "document-index",
                "retrieval.documents.123456789012345678901234567890.document.id"
            ),
            (
                "document-index-gap",
                "retrieval.documents.99999999999.document.id"
            ),
        ]
    );
    assert!(trace.diagnostics[1]
        .message
        .contains("indices 6 to 99999999998"));
}

#[test]
fn bad_values_are_located_by_their_attribute_key() {
    let mut data = line(COSINE, 1);
    let span = &mut spans(&mut data)[3];
    set_attribute(
        span,
        "retrieval.documents.0.document.score",
        json!({"stringValue": "0.88"}),
    );
    set_attribute(span, "retrieval.documents.1.document.score", json!({}));
    set_attribute(
        span,
        "retrieval.documents.2.document.score",
        json!({"doubleValue": "NaN"}),
    );
    set_attribute(
        span,
        "retrieval.documents.3.document.metadata",
        json!({"stringValue": "file_name=x.md"}),
    );
    set_attribute(
        span,
        "metadata",
        json!({"stringValue": "{caseId: espresso}"}),
    );
    let batch = read_one(&data);
    let trace = &batch.traces[0];
    assert_eq!(
        codes(trace),
        [
            ("metadata-not-json", "metadata"),
            ("score-not-number", "retrieval.documents.0.document.score"),
            ("empty-value", "retrieval.documents.1.document.score"),
            ("non-finite-score", "retrieval.documents.2.document.score"),
            (
                "metadata-not-json",
                "retrieval.documents.3.document.metadata"
            ),
        ]
    );
    let c = trace.candidates();
    assert_eq!((c[0].score, c[1].score), (None, None));
    assert!(c[2].score.unwrap().is_nan());
    assert_eq!(&*c[3].doc_id, "houseplants#0");
    assert_eq!(trace.case_id, None);
    // A non-finite score gives quality 0 (section 3.2); the others are still analysed.
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let nan_block = analysis.traces[0]
        .blocks()
        .find(|b| &*b.candidate.evidence_key == "espresso-guide#1")
        .unwrap();
    assert_eq!(nan_block.quality_score, 0.0);
}

#[test]
fn resource_spans_of_the_wrong_type_and_truncated_lines_fail_only_themselves() {
    let text = common::fixture(COSINE);
    let lines: Vec<&str> = text.lines().collect();
    let truncated = &lines[1][..lines[1].len() / 2];
    let doc = format!(
        "{}\n{}\n{{\"resourceSpans\": \"none\"}}\n{}\n",
        lines[0], truncated, lines[2]
    );
    let batch = parse_document("bad.jsonl", &doc);
    assert_eq!(batch.traces.len(), 2);
    let places: Vec<(Option<usize>, Option<&str>)> = batch
        .errors
        .iter()
        .map(|e| (e.line, e.path.as_deref()))
        .collect();
    assert_eq!(
        places,
        [(Some(2), None), (Some(3), Some("/2/resourceSpans"))]
    );
    assert_eq!(
        batch.errors[1].message,
        "resourceSpans must be an array, got a string; its spans are not read"
    );
}

#[test]
fn the_span_reader_fuzz_seed_reads_as_documented() {
    // fuzz/seeds/spans/bad-spans.jsonl: a retrieval span with every bad value (line 1),
    // an empty nested pair split over lines 2 (inner) and 3 (outer), resourceSpans of
    // the wrong type (4), a reranker (5), a GenAI retrieval span on a CHAIN span (6), a
    // truncated line (7) and a native trace (8).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds/spans/bad-spans.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let batch = parse_document("bad-spans.jsonl", &text);
    let lines: Vec<Option<usize>> = batch.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [Some(4), Some(7)]);
    let traces: Vec<(Option<usize>, Option<&str>, usize)> = batch
        .traces
        .iter()
        .map(|t| (t.line, t.query.as_deref(), t.candidates().len()))
        .collect();
    assert_eq!(
        traces,
        [
            (Some(1), Some("q"), 5),
            (Some(5), Some("q"), 2),
            (Some(6), Some("g"), 1),
            (Some(8), None, 1),
            (Some(3), Some("outer"), 0),
        ]
    );
    let bad = &batch.traces[0];
    assert_eq!(
        codes(bad),
        [
            ("metadata-not-json", "metadata"),
            ("score-not-number", "retrieval.documents.0.document.score"),
            ("document-index-gap", "retrieval.documents.2.document.id"),
            ("non-finite-score", "retrieval.documents.2.document.score"),
            ("empty-value", "retrieval.documents.3.document.score"),
            (
                "document-index-gap",
                "retrieval.documents.99999999999.document.id"
            ),
            ("attribute-limit", "droppedAttributesCount"),
        ]
    );
}

#[test]
fn spans_waiting_for_their_retrieval_are_bounded_while_streaming() {
    // 1,100 empty retrievals, each a root RETRIEVER span without documents on its own
    // line: each waits for a child with documents until the document ends, but at most
    // 1,024 wait; past that the oldest become traces as the lines arrive.
    let mut text = String::new();
    for n in 0..1100 {
        let line = json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
            "traceId": format!("{n:032x}"),
            "spanId": "00000000000000b1",
            "attributes": [
                {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
                {"key": "input.value", "value": {"stringValue": format!("query {n}")}}
            ]
        }]}]}]});
        text.push_str(&line.to_string());
        text.push('\n');
    }
    let mut reader = DocumentReader::new("empty.jsonl");
    reader.push(text.as_bytes());
    let mut batch = reader.take_parsed();
    assert_eq!(batch.traces.len(), 1100 - 1024);
    assert_eq!(batch.traces[0].query.as_deref(), Some("query 0"));
    let last = reader.finish();
    assert_eq!(last.traces.len(), 1024);
    assert_eq!(last.traces[0].query.as_deref(), Some("query 76"));
    batch.extend(last);
    assert_eq!(batch.traces[76].position, 77);
    assert_eq!(batch.traces[1099].query.as_deref(), Some("query 1099"));
}

/// A TracesData line is read from its text without a JSON tree (the fast way), and the
/// same object already parsed (as the JS API passes it, or inside an array) is read
/// through the tree: both give the same traces and the same findings, on every span
/// fixture and on spans with values of every wrong type.
#[test]
fn text_and_parsed_spans_read_alike() {
    let mut documents: Vec<Value> = [
        "otel/llamaindex-cosine.jsonl",
        "otel/empty-retrieval.jsonl",
        "otel/reranker.jsonl",
        "otel/attribute-limit.jsonl",
        "otel/genai-semconv.jsonl",
        "otel/scores-cosineDistance.jsonl",
    ]
    .iter()
    .flat_map(|name| {
        common::fixture(name)
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| serde_json::from_str(line).unwrap())
            .collect::<Vec<Value>>()
    })
    .collect();
    let mut data = line(COSINE, 1);
    let span = &mut spans(&mut data)[3];
    for (key, value) in [
        (
            "retrieval.documents.0.document.score",
            json!({"stringValue": 5}),
        ),
        (
            "retrieval.documents.1.document.score",
            json!({"intValue": "x", "doubleValue": 0.5}),
        ),
        (
            "retrieval.documents.2.document.id",
            json!({"intValue": 9_223_372_036_854_775_808u64}),
        ),
        ("retrieval.documents.3.document.content", json!([1, 2])),
        (
            "retrieval.documents.4.document.metadata",
            json!({"kvlistValue": {"values": [{"key": "file_name", "value": {"stringValue": "k.md"}}, {"key": 3}]}}),
        ),
        (
            "input.value",
            json!({"textValue": "q", "stringValue": null}),
        ),
        (
            "extra.list",
            json!({"arrayValue": {"values": [{"doubleValue": "Infinity"}, {"boolValue": true}, null]}}),
        ),
    ] {
        set_attribute(span, key, value);
    }
    span["droppedAttributesCount"] = json!("2");
    span["traceId"] = json!(7);
    attributes(span).push(json!("not an attribute"));
    spans(&mut data).push(json!(["not a span"]));
    documents.push(data);
    documents.push(json!({"resourceSpans": [{"scopeSpans": {"spans": []}}, 3, {"scopeSpans": [{"spans": "x"}, null]}]}));
    documents.push(json!({"resourceSpans": null}));

    let shown = |batch: &ParsedBatch| {
        let traces: Vec<String> = batch.traces.iter().map(|t| format!("{t:?}")).collect();
        let errors: Vec<(Option<String>, String)> = batch
            .errors
            .iter()
            .map(|e| (e.path.clone(), e.message.clone()))
            .collect();
        let skipped: Vec<usize> = batch.documents.iter().map(|d| d.skipped_spans).collect();
        (traces, errors, skipped)
    };
    for document in &documents {
        let text = document.to_string();
        let from_text = parse_document("spans.json", &text);
        let from_value = parse_value("spans.json", document);
        assert_eq!(shown(&from_text), shown(&from_value), "{text}");
    }
    // The wrong values above are each reported, as the tree reads them.
    let batch = parse_document("spans.json", &documents[documents.len() - 3].to_string());
    // A traceId that is not a string is absent, so the inner retrieval span no longer
    // joins this one: it is a trace of its own.
    assert_eq!(batch.traces.len(), 2, "{:?}", batch.errors);
    let trace = &batch.traces[0];
    assert_eq!(trace.candidates().len(), 6);
    let messages: Vec<&str> = trace
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(messages.contains(&"retrieval.documents.0.document.score: expected a number, got stringValue holds a number; treated as absent"), "{messages:?}");
    assert!(messages.contains(&"retrieval.documents.2.document.id: expected a string, got intValue 9223372036854775808 is not a 64-bit integer; treated as absent"), "{messages:?}");
    assert!(messages.contains(&"retrieval.documents.3.document.content: expected a string, got expected an AnyValue object, got an array; treated as absent"), "{messages:?}");
    assert!(
        messages
            .contains(&"input.value: expected a string, got not an AnyValue; treated as absent"),
        "{messages:?}"
    );
    assert_eq!(&*trace.candidates()[4].doc_id, "k.md");
    // The line's two embedding spans, and the array where a span should be.
    assert_eq!(batch.documents[0].skipped_spans, 3);
    let wrong = parse_document("spans.json", &documents[documents.len() - 2].to_string());
    let places: Vec<(&str, &str)> = wrong
        .errors
        .iter()
        .map(|e| (e.path.as_deref().unwrap_or(""), e.message.as_str()))
        .collect();
    assert_eq!(
        places,
        [
            (
                "/resourceSpans/0/scopeSpans",
                "scopeSpans must be an array, got an object; its spans are not read"
            ),
            (
                "/resourceSpans/2/scopeSpans/0/spans",
                "spans must be an array, got a string; its spans are not read"
            ),
        ]
    );
}
