//! The relevance-level distribution: recomputed beside recorded, with the change
//! per level, for the whole batch and per mode; lowQuality and retryUnfiltered counts.

use crate::format::{level_class, LEVELS};
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{ModeSummary, Summary};
use std::collections::BTreeMap;

/// The counts of one scope (all traces, dense, hybrid), whatever struct holds them.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    pub scope: &'static str,
    pub traces: usize,
    /// Keyed by level name (`PRECISE`...).
    pub levels: BTreeMap<String, usize>,
    pub recorded_levels: BTreeMap<String, usize>,
    pub transitions: BTreeMap<String, usize>,
    pub low_quality: usize,
    pub retry_unfiltered: usize,
    pub level_differs: usize,
}

impl Counts {
    fn from_mode(scope: &'static str, m: &ModeSummary) -> Self {
        Counts {
            scope,
            traces: m.traces,
            levels: m
                .levels
                .iter()
                .map(|(l, n)| (l.as_str().to_owned(), *n))
                .collect(),
            recorded_levels: m.recorded_levels.clone(),
            transitions: m.transitions.clone(),
            low_quality: m.low_quality,
            retry_unfiltered: m.retry_unfiltered,
            level_differs: m.level_differs,
        }
    }

    /// All traces, dense, hybrid: the scopes the batch view splits by.
    pub fn scopes(summary: &Summary) -> Vec<Counts> {
        vec![
            Counts::from_mode("all", &summary.totals()),
            Counts::from_mode("dense", &summary.by_mode.dense),
            Counts::from_mode("hybrid", &summary.by_mode.hybrid),
        ]
    }

    pub fn level(&self, level: &str) -> usize {
        self.levels.get(level).copied().unwrap_or(0)
    }

    pub fn recorded(&self, level: &str) -> usize {
        self.recorded_levels.get(level).copied().unwrap_or(0)
    }

    /// Recorded levels that are not one of the five (e.g. a service's own spelling).
    pub fn other_recorded(&self) -> Vec<String> {
        self.recorded_levels
            .keys()
            .filter(|k| !LEVELS.iter().any(|l| l.as_str() == k.as_str()))
            .cloned()
            .collect()
    }
}

/// Signed change from recorded to recomputed for one level. The only arithmetic on
/// the page: the difference of two counts the core produced, for display.
fn delta(recomputed: usize, recorded: usize) -> String {
    match recomputed.cmp(&recorded) {
        std::cmp::Ordering::Greater => format!("+{}", recomputed - recorded),
        std::cmp::Ordering::Less => format!("−{}", recorded - recomputed),
        std::cmp::Ordering::Equal => "0".to_owned(),
    }
}

/// The scopes in the order [`Counts::scopes`] gives them.
const SCOPES: [&str; 3] = ["all", "dense", "hybrid"];

#[component]
pub fn Distribution() -> impl IntoView {
    let state = expect_context::<AppState>();
    let scopes = Memo::new(move |_| {
        state.analysis.with(|a| {
            a.as_ref()
                .map(|a| Counts::scopes(&a.summary))
                .unwrap_or_default()
        })
    });
    // The rows: the five levels, then any other recorded spelling. A knob changes
    // neither, so moving one leaves the table's cells in place and updates their
    // numbers, instead of rebuilding it.
    let row_names = Memo::new(move |_| {
        let mut names: Vec<String> = LEVELS.iter().map(|l| l.as_str().to_owned()).collect();
        scopes.with(|s| {
            if let Some(all) = s.first() {
                names.extend(all.other_recorded());
            }
        });
        names
    });
    let of_scope = move |scope: usize, f: fn(&Counts) -> usize| {
        move || scopes.with(|s| s.get(scope).map_or(0, f))
    };
    view! {
        <section class="panel distribution" aria-labelledby="distribution-title">
            <h2 id="distribution-title">"Relevance levels"</h2>
            <div class="scroll-x">
                <table class="counts" id="distribution-table">
                    <caption class="visually-hidden">
                        "Traces per relevance level: recorded by the service, recomputed here, and the change"
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col" rowspan="2">"level"</th>
                            {SCOPES
                                .iter()
                                .enumerate()
                                .map(|(i, scope)| {
                                    let traces = of_scope(i, |c| c.traces);
                                    view! {
                                        <th scope="colgroup" colspan="3" class="scope">
                                            {move || format!("{scope} ({})", traces())}
                                        </th>
                                    }
                                })
                                .collect_view()}
                        </tr>
                        <tr>
                            {SCOPES
                                .iter()
                                .map(|_| {
                                    view! {
                                        <th scope="col">"recorded"</th>
                                        <th scope="col">"recomputed"</th>
                                        <th scope="col">"change"</th>
                                    }
                                })
                                .collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            row_names
                                .get()
                                .into_iter()
                                .map(|name| level_row(scopes, name))
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
            <table class="counts flags">
                <caption class="visually-hidden">"Gate outcomes per mode"</caption>
                <thead>
                    <tr>
                        <th scope="col">"count"</th>
                        {SCOPES.iter().map(|scope| view! { <th scope="col">{*scope}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    <tr data-count="lowQuality">
                        <th scope="row">"lowQuality"</th>
                        {(0..SCOPES.len())
                            .map(|i| view! { <td class="num">{of_scope(i, |c| c.low_quality)}</td> })
                            .collect_view()}
                    </tr>
                    <tr data-count="retryUnfiltered">
                        <th scope="row">"retryUnfiltered"</th>
                        {(0..SCOPES.len())
                            .map(|i| view! { <td class="num">{of_scope(i, |c| c.retry_unfiltered)}</td> })
                            .collect_view()}
                    </tr>
                    <tr data-count="levelDiffers">
                        <th scope="row">"level differs from recorded"</th>
                        {(0..SCOPES.len())
                            .map(|i| view! { <td class="num">{of_scope(i, |c| c.level_differs)}</td> })
                            .collect_view()}
                    </tr>
                </tbody>
            </table>
        </section>
    }
}

/// One level's row: recorded, recomputed and change per scope, each cell reading
/// the current counts itself.
fn level_row(scopes: Memo<Vec<Counts>>, name: String) -> impl IntoView {
    let cells = SCOPES
        .iter()
        .enumerate()
        .map(|(i, scope)| {
            // (recomputed, recorded): a memo, so a count that did not move updates nothing.
            let pair = {
                let name = name.clone();
                Memo::new(move |_| {
                    scopes.with(|s| {
                        s.get(i)
                            .map_or((0, 0), |c| (c.level(&name), c.recorded(&name)))
                    })
                })
            };
            view! {
                <td class="num" data-scope=*scope data-kind="recorded">
                    {move || pair.get().1}
                </td>
                <td class="num" data-scope=*scope data-kind="recomputed">
                    {move || pair.get().0}
                </td>
                <td
                    class="num delta"
                    class:up=move || { let (now, was) = pair.get(); now > was }
                    class:down=move || { let (now, was) = pair.get(); now < was }
                >
                    {move || { let (now, was) = pair.get(); delta(now, was) }}
                </td>
            }
        })
        .collect_view();
    view! {
        <tr data-level=name.clone()>
            <th scope="row">
                <span class=level_class(&name)>{name.clone()}</span>
            </th>
            {cells}
        </tr>
    }
}
