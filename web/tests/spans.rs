//! OpenTelemetry spans in the page: span files are read like trace files, `scoreKind`
//! decides how their scores read, the `maxL2Distance` knob says what it means in that
//! kind, and the built-in span sample loads under the kind its scores are in.
//! Expected values were checked against the CLI (`ragtrace analyze FILE`, with
//! `--set scoreKind=cosineSimilarity` where said).
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// LlamaIndex's OpenInference spans of 9 retrievals (SimpleVectorStore: cosine
/// similarities) and of one that returned nothing.
const LLAMAINDEX_SPANS: &str = include_str!("../../tests/fixtures/otel/llamaindex-cosine.jsonl");
const EMPTY_RETRIEVAL: &str = include_str!("../../tests/fixtures/otel/empty-retrieval.jsonl");
/// 8 retrievals whose scores are cosine similarities.
const COSINE_SCORES: &str = include_str!("../../tests/fixtures/otel/scores-cosineSimilarity.jsonl");

fn tabs(root: &web_sys::Element) -> String {
    text(root, ".tabs")
}

fn listed(root: &web_sys::Element, name: &str) -> bool {
    find_all(root, ".file-row .file-name")
        .iter()
        .any(|row| row.text_content().unwrap_or_default().contains(name))
}

/// Picks `files` and waits until the last one is listed and the batch holds `traces`.
async fn pick_and_wait(root: &web_sys::Element, files: &[(&str, &[u8])], traces: usize) {
    pick_files(root, files);
    let last = files.last().map(|(name, _)| *name).unwrap_or_default();
    let loaded = wait_until(30, || {
        root.query_selector("#load-bar").unwrap().is_none()
            && listed(root, last)
            && tabs(root).contains(&format!("Batch ({traces} traces)"))
    })
    .await;
    assert!(loaded, "{last} did not load: {}", tabs(root));
    settle().await;
}

fn choose_score_kind(root: &web_sys::Element, kind: &str) {
    let select: web_sys::HtmlSelectElement = find(root, "#knob-scoreKind").unchecked_into();
    select.set_value(kind);
    fire(&select, "change");
}

fn shown_score_kind(root: &web_sys::Element) -> String {
    find(root, "#knob-scoreKind")
        .unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

fn block_statuses(root: &web_sys::Element) -> Vec<String> {
    find_all(root, "#block-table tbody tr .status")
        .iter()
        .map(|cell| cell.text_content().unwrap_or_default().trim().to_owned())
        .collect()
}

/// Two picked span files: 10 traces (28 + 2 other spans skipped), the empty
/// retrieval a NO_MATCH trace, the rest read as L2 distances under the default
/// `scoreKind` (CLI: `{"LOW_RELEVANCE": 9, "NO_MATCH": 1}`).
#[wasm_bindgen_test]
async fn picked_span_files_are_analysed_as_traces() {
    let (root, _app) = mount_fresh();
    settle().await;
    pick_and_wait(
        &root,
        &[
            ("llamaindex-cosine.jsonl", LLAMAINDEX_SPANS.as_bytes()),
            ("empty-retrieval.jsonl", EMPTY_RETRIEVAL.as_bytes()),
        ],
        10,
    )
    .await;
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 9);
    assert_eq!(shown_level_count(&root, "NO_MATCH"), 1);
    assert_eq!(shown_level_count(&root, "RELEVANT"), 0);
    // The batch says the scores look like similarities.
    assert!(
        root.text_content()
            .unwrap_or_default()
            .contains("these look like similarities, but scoreKind is l2"),
        "no score-kind warning"
    );

    // The first retrieval: requestId `<traceId>/<spanId>` of the RETRIEVER span with
    // the documents; 6 documents, the last over espresso-guide.md's cap of chunks.
    let row = find(&root, ".vtable-window .trow[data-index=\"0\"]");
    row.unchecked_ref::<web_sys::HtmlElement>().click();
    settle().await;
    assert_eq!(
        text(&root, "#trace-title").trim(),
        "fe4f526311d5d724d5baa978983b6369/456d044bc1f49414"
    );
    assert_eq!(
        block_statuses(&root),
        ["accepted", "accepted", "accepted", "accepted", "accepted", "doc_cap"]
    );
    assert!(text(&root, "#block-table").contains("espresso-guide#0"));
    let level = text(&root, "#outcome-table tr[data-row=\"relevanceLevel\"] td");
    assert_eq!(level.trim(), "LOW_RELEVANCE");
}

/// The same file under two kinds: cosine similarities read as L2 distances make
/// every retrieval LOW_RELEVANCE; read as what they are, 7 of 8 are RELEVANT
/// (top quality 0.51 for the first: d = sqrt(2 - 2 s)). The knob's hint names
/// the distance in the chosen kind.
#[wasm_bindgen_test]
async fn score_kind_changes_how_span_scores_read() {
    let (root, _app) = mount_fresh();
    settle().await;
    pick_and_wait(
        &root,
        &[("scores-cosineSimilarity.jsonl", COSINE_SCORES.as_bytes())],
        8,
    )
    .await;
    assert_eq!(shown_score_kind(&root), "l2");
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 8);
    assert_eq!(shown_level_count(&root, "RELEVANT"), 0);
    // Under l2 the score is the distance: nothing to translate.
    assert_eq!(text(&root, ".knob-hint").trim(), "");

    choose_score_kind(&root, "cosineSimilarity");
    settle().await;
    assert_eq!(shown_score_kind(&root), "cosineSimilarity");
    assert_eq!(shown_level_count(&root, "RELEVANT"), 7);
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 1);
    // maxL2Distance 1.0 is the cosine similarity 1 - 1^2 / 2 = 0.5.
    assert_eq!(
        text(&root, ".knob-hint").trim(),
        "1.00 = cosine similarity 0.50"
    );
    // The link keeps the kind.
    after_paint().await;
    let hash = window().location().hash().unwrap();
    assert!(hash.contains("scoreKind=cosineSimilarity"), "{hash}");

    choose_score_kind(&root, "l2");
    settle().await;
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 8);
}

/// The span sample: 40 generated retrievals in OTLP lines, loaded under
/// `cosineSimilarity` (CLI: `{"HIGHLY_RELEVANT": 1, "RELEVANT": 28,
/// "LOW_RELEVANCE": 11}`; under l2 all 40 would be LOW_RELEVANCE).
#[wasm_bindgen_test]
async fn the_span_sample_loads_under_cosine_similarity() {
    let (root, _app) = mount_fresh();
    settle().await;
    let button = find(&root, "button[data-sample=\"otlp-cosine\"]");
    assert_eq!(
        button.text_content().unwrap_or_default(),
        "OpenTelemetry spans (cosine similarity)"
    );
    click(&root, "button[data-sample=\"otlp-cosine\"]");
    assert!(
        wait_until(20, || listed(&root, "llamaindex-spans-cosine.jsonl")
            && tabs(&root).contains("Batch (40 traces)"))
        .await,
        "{}",
        tabs(&root)
    );
    settle().await;
    assert_eq!(shown_score_kind(&root), "cosineSimilarity");
    assert_eq!(shown_level_count(&root, "HIGHLY_RELEVANT"), 1);
    assert_eq!(shown_level_count(&root, "RELEVANT"), 28);
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 11);
    assert_eq!(
        text(&root, ".knob-hint").trim(),
        "1.00 = cosine similarity 0.50"
    );
    let row = find(&root, ".vtable-window .trow[data-index=\"0\"]");
    row.unchecked_ref::<web_sys::HtmlElement>().click();
    settle().await;
    assert_eq!(
        text(&root, "#trace-title").trim(),
        "c6c3a50594261096b6ccccae17e8c8ad/57d5ea21ff8dfa36"
    );
    assert_eq!(
        block_statuses(&root),
        ["accepted", "accepted", "accepted", "accepted", "accepted", "return_n", "return_n"]
    );
    // Each block shows the similarity and the distance it was read as.
    assert!(text(&root, "#block-table").contains("(cosine similarity) -> distance"));
}
