//! Every candidate of one trace, in processing order, with why it was kept or dropped.

use crate::components::dom::host;
use crate::components::what_if::hint_list;
use crate::format::number;
use crate::hints::TraceHints;
use crate::state::Shared;
use leptos::prelude::*;
use ragtrace_core::BlockChange;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::{score_name, QualityBasis, ScoreKind};
use ragtrace_core::{Block, Status, TraceAnalysis};

/// What the score means for this label: an L2 distance, or a fused score that is not used.
fn score_meaning(block: &Block, kind: ScoreKind) -> String {
    let c = block.candidate;
    let score = c.score.map_or_else(|| "no score".to_owned(), short);
    // Under another kind than l2, the distance the score was read as.
    let read_as = |text: &mut String| {
        if kind != ScoreKind::L2 {
            match block.distance {
                Some(d) => text.push_str(&format!(" -> distance {}", short(d))),
                None if block.quality_explanation == QualityBasis::NoDistance => {
                    text.push_str(" -> no distance")
                }
                None => {}
            }
        }
    };
    match c.canonical_label {
        Some(CanonicalLabel::Dense) if kind == ScoreKind::L2 => format!("{score} (L2 distance)"),
        Some(CanonicalLabel::Dense) => {
            let mut text = format!("{score} ({})", score_name(kind));
            read_as(&mut text);
            text
        }
        Some(CanonicalLabel::Hybrid) => {
            let mut text = format!("{score} (fused score, not used)");
            if let Some(d) = c.dense_distance {
                text.push_str(&format!("; denseDistance {}", short(d)));
                read_as(&mut text);
            }
            text
        }
        None => format!("{score} (unknown label: not used)"),
    }
}

/// Scores are shown to 4 decimals (fused scores are small); the JSON download has them in full.
fn short(value: f64) -> String {
    let text = format!("{value:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn status_class(status: Status) -> &'static str {
    match status {
        Status::Accepted => "status status-accepted",
        Status::Duplicate => "status status-duplicate",
        Status::BelowFloor => "status status-below-floor",
        Status::DocCap => "status status-doc-cap",
        Status::ReturnN => "status status-return-n",
        Status::Invalid => "status status-invalid",
    }
}

#[component]
pub(crate) fn BlockTable(
    trace: TraceAnalysis,
    /// One entry per block when a baseline is pinned.
    changes: Option<Vec<BlockChange>>,
    /// What would flip each candidate, once computed.
    hints: Signal<Option<Shared<TraceHints>>>,
) -> impl IntoView {
    let pinned = changes.is_some();
    let rows = trace
        .blocks()
        .enumerate()
        .map(|(i, block)| {
            let change = changes
                .as_ref()
                .and_then(|c| c.get(i).copied())
                .unwrap_or(BlockChange::Same);
            block_row(block, trace.config.score_kind, change, pinned, hints)
        })
        .collect_view();
    view! {
        <section class="panel blocks" aria-labelledby="blocks-title">
            <h3 id="blocks-title">"Blocks in processing order"</h3>
            <div class="scroll-x" tabindex="0">
                <table class="block-table" id="block-table">
                    <thead>
                        <tr>
                            <th scope="col">"rank"</th>
                            <th scope="col">"evidence key"</th>
                            <th scope="col">"document"</th>
                            <th scope="col">"label"</th>
                            <th scope="col">"score"</th>
                            <th scope="col">"quality"</th>
                            <th scope="col">"status"</th>
                            <th scope="col">"accepted"</th>
                            <th scope="col">"legacy"</th>
                            {pinned.then(|| view! { <th scope="col">"vs baseline"</th> })}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}

/// A plain function rather than a component: the block borrows the analysis, and
/// everything the row shows is copied out of it here.
fn block_row(
    block: Block<'_>,
    score_kind: ScoreKind,
    change: BlockChange,
    pinned: bool,
    hints: Signal<Option<Shared<TraceHints>>>,
) -> AnyView {
    let c = block.candidate;
    let input_index = c.input_index;
    let what_if = host("what-if-host", move || {
        hints.with(|h| {
            let hints = h.as_ref()?.candidate(input_index);
            hint_list("what-if candidate-what-if", &input_index.to_string(), hints)
        })
    });
    let rank = block
        .original_rank
        .map_or_else(|| "invalid".to_owned(), |r| r.to_string());
    let from_position = block.rank_from_position();
    let raw_label = c.score_label.as_deref().map(str::to_owned);
    let canonical = c.canonical_label.map_or("unknown", CanonicalLabel::as_str);
    let formula = block.quality_explanation.to_string();
    let quality = block.quality_score;
    let legacy = c.legacy_position.map(|position| {
        let promoted = c.displacement.filter(|d| *d > 0);
        view! {
            <span>
                {format!("#{position}")}
                {promoted
                    .map(|d| {
                        view! {
                            <span class="promotion" title=format!("the legacy boosts moved it up {d}")>
                                {format!(" ▲{d}")}
                            </span>
                        }
                    })}
                {c
                    .final_score
                    .map(|s| view! { <span class="hint">{format!(" finalScore {}", short(s))}</span> })}
            </span>
        }
    });
    let excerpt = block.shown_excerpt().map(|e| {
        let shown = e.shown().into_owned();
        if e.is_truncated() {
            let full = e.full().to_owned();
            view! {
                <details class="excerpt">
                    <summary>{shown}</summary>
                    <p class="excerpt-full">{full}</p>
                </details>
            }
            .into_any()
        } else {
            view! { <p class="excerpt">{shown}</p> }.into_any()
        }
    });
    let breadcrumb = c.breadcrumb.as_deref().map(str::to_owned);
    let title = c.title.as_deref().map(str::to_owned);
    let change_cell = pinned.then(|| {
        let (class, text) = match change {
            BlockChange::Same => ("", String::new()),
            BlockChange::Entered { accepted_rank } => {
                ("entered", format!("entered as #{accepted_rank}"))
            }
            BlockChange::Left { was_rank } => ("left", format!("left (was #{was_rank})")),
            BlockChange::Moved {
                was_rank,
                accepted_rank,
            } => ("moved", format!("moved #{was_rank} → #{accepted_rank}")),
        };
        view! { <td class=format!("baseline-change {class}")>{text}</td> }
    });
    view! {
        <tr
            class=format!("block-row row-{}", block.status.as_str())
            data-input-index=input_index
            class:entered=matches!(change, BlockChange::Entered { .. })
            class:left=matches!(change, BlockChange::Left { .. })
            class:moved=matches!(change, BlockChange::Moved { .. })
        >
            <td class="num">
                {rank}
                {from_position
                    .then(|| view! { <span class="badge" title="originalRank absent: array position used">"pos"</span> })}
            </td>
            <td class="evidence">
                <code>{c.evidence_key.to_string()}</code>
                {breadcrumb.map(|b| view! { <div class="hint">{b}</div> })}
                {title.map(|t| view! { <div class="hint">{t}</div> })}
                {excerpt}
            </td>
            <td><code>{c.doc_id.to_string()}</code></td>
            <td class="label">
                {match raw_label {
                    Some(raw) if raw.trim().to_lowercase() != canonical => {
                        view! { <span>{raw} " → " {canonical}</span> }.into_any()
                    }
                    Some(raw) => view! { <span>{raw}</span> }.into_any(),
                    None => view! { <span class="hint">"(mode) → " {canonical}</span> }.into_any(),
                }}
                {c
                    .legacy_alias
                    .then(|| view! { <span class="badge legacy" title="legacy label alias">"legacy"</span> })}
            </td>
            <td class="score">{score_meaning(&block, score_kind)}</td>
            <td class="quality">
                <div class="quality-cell" tabindex="0">
                    <svg class="quality-bar" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
                        <rect x="0" y="0" width=quality height="1"></rect>
                    </svg>
                    <span class="num">{number(quality)}</span>
                    <span class="formula" role="tooltip">{formula.clone()}</span>
                </div>
            </td>
            <td>
                <span class=status_class(block.status)>{block.status.as_str()}</span>
                <div class="hint status-reason">{block.status_reason().to_string()}</div>
                {what_if}
            </td>
            <td class="num">{block.accepted_rank.map(|r| r.to_string())}</td>
            <td>{legacy}</td>
            {change_cell}
        </tr>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtrace_core::{analyze, parse_document, Settings};

    /// A cosine similarity of 0.875 is read as the distance sqrt(2 - 1.75) = 0.5; under
    /// l2 the score is the distance, as the table always said.
    #[test]
    fn a_score_is_shown_as_read_with_its_distance() {
        let batch = parse_document(
            "t.json",
            r#"{"mode":"dense","candidates":[{"evidenceKey":"a","originalRank":1,"score":0.875,"scoreLabel":"dense"}]}"#,
        );
        let shown = |settings: &Settings| {
            let analysis = analyze(&batch, settings, false).expect("valid settings");
            let t = &analysis.traces[0];
            let block = t.blocks().next().expect("one block");
            score_meaning(&block, t.config.score_kind)
        };
        assert_eq!(shown(&Settings::default()), "0.875 (L2 distance)");
        let mut cosine = Settings::default();
        cosine.set("scoreKind", "cosineSimilarity").expect("a kind");
        assert_eq!(shown(&cosine), "0.875 (cosine similarity) -> distance 0.5");
    }
}
