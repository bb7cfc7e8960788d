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
                            {move || {
                                scopes
                                    .get()
                                    .into_iter()
                                    .map(|c| {
                                        view! {
                                            <th scope="colgroup" colspan="3" class="scope">
                                                {format!("{} ({})", c.scope, c.traces)}
                                            </th>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tr>
                        <tr>
                            {move || {
                                scopes
                                    .get()
                                    .into_iter()
                                    .map(|_| {
                                        view! {
                                            <th scope="col">"recorded"</th>
                                            <th scope="col">"recomputed"</th>
                                            <th scope="col">"change"</th>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let scopes = scopes.get();
                            let mut names: Vec<String> = LEVELS
                                .iter()
                                .map(|l| l.as_str().to_owned())
                                .collect();
                            if let Some(all) = scopes.first() {
                                names.extend(all.other_recorded());
                            }
                            names
                                .into_iter()
                                .map(|name| {
                                    let cells = scopes
                                        .iter()
                                        .map(|c| {
                                            let recomputed = c.level(&name);
                                            let recorded = c.recorded(&name);
                                            view! {
                                                <td class="num" data-scope=c.scope data-kind="recorded">
                                                    {recorded}
                                                </td>
                                                <td class="num" data-scope=c.scope data-kind="recomputed">
                                                    {recomputed}
                                                </td>
                                                <td
                                                    class="num delta"
                                                    class:up={recomputed > recorded}
                                                    class:down={recomputed < recorded}
                                                >
                                                    {delta(recomputed, recorded)}
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
                                })
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
                        {move || {
                            scopes
                                .get()
                                .into_iter()
                                .map(|c| view! { <th scope="col">{c.scope}</th> })
                                .collect_view()
                        }}
                    </tr>
                </thead>
                <tbody>
                    <tr data-count="lowQuality">
                        <th scope="row">"lowQuality"</th>
                        {move || {
                            scopes
                                .get()
                                .into_iter()
                                .map(|c| view! { <td class="num">{c.low_quality}</td> })
                                .collect_view()
                        }}
                    </tr>
                    <tr data-count="retryUnfiltered">
                        <th scope="row">"retryUnfiltered"</th>
                        {move || {
                            scopes
                                .get()
                                .into_iter()
                                .map(|c| view! { <td class="num">{c.retry_unfiltered}</td> })
                                .collect_view()
                        }}
                    </tr>
                    <tr data-count="levelDiffers">
                        <th scope="row">"level differs from recorded"</th>
                        {move || {
                            scopes
                                .get()
                                .into_iter()
                                .map(|c| view! { <td class="num">{c.level_differs}</td> })
                                .collect_view()
                        }}
                    </tr>
                </tbody>
            </table>
        </section>
    }
}
