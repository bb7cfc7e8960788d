//! The relevance-level distribution: recomputed beside recorded, with the change
//! per level, for the whole batch and per mode; lowQuality and retryUnfiltered counts.

use crate::format::level_class;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::ModeSummary;
use ragtrace_core::SCOPES;
use std::sync::Arc;

/// The batch-wide counts and each mode's, as the core splits them.
pub(crate) type Scopes = [(&'static str, ModeSummary); 3];

/// A signed change as shown: `+3`, `−2` (a true minus sign), `0`.
fn signed(change: i64) -> String {
    match change.cmp(&0) {
        std::cmp::Ordering::Greater => format!("+{change}"),
        std::cmp::Ordering::Less => format!("−{}", change.unsigned_abs()),
        std::cmp::Ordering::Equal => "0".to_owned(),
    }
}

#[component]
pub(crate) fn Distribution() -> impl IntoView {
    let state = expect_context::<AppState>();
    let scopes: Memo<Option<Scopes>> = Memo::new(move |_| {
        state.analysis.with(|a| {
            a.as_ref()
                .map(|a| a.summary.scopes().map(|(name, m)| (name, m.clone())))
        })
    });
    // The rows (the five levels, then other recorded spellings) change with the batch
    // only: a knob move keeps them and updates their cells.
    let keys = Memo::new(move |_| {
        scopes.with(|s| {
            s.as_ref()
                .map_or_else(Vec::new, |s| s[0].1.distribution_keys())
        })
    });
    let of_scope =
        move |scope: usize, f: fn(&ModeSummary) -> usize| move || read_scope(scopes, scope, f);
    view! {
        <section class="panel distribution" aria-labelledby="distribution-title">
            <h2 id="distribution-title">"Relevance levels"</h2>
            <div class="scroll-x" tabindex="0">
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
                            keys.get()
                                .into_iter()
                                .map(|name| level_row(scopes, name))
                                .collect::<Vec<_>>()
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

/// What `f` reads of one scope's counts (zero before there is an analysis).
fn read_scope<T: Default>(
    scopes: Memo<Option<Scopes>>,
    scope: usize,
    f: impl FnOnce(&ModeSummary) -> T,
) -> T {
    scopes.with(|s| {
        s.as_ref()
            .and_then(|s| s.get(scope))
            .map_or_else(T::default, |(_, m)| f(m))
    })
}

/// One level's row: recorded, recomputed and change per scope, each cell following
/// the counts.
fn level_row(scopes: Memo<Option<Scopes>>, name: String) -> impl IntoView + use<> {
    let key: Arc<str> = Arc::from(name.as_str());
    let count = move |scope: usize, f: fn(&ModeSummary, &str) -> i64| {
        let key = Arc::clone(&key);
        move || read_scope(scopes, scope, |m| f(m, &key))
    };
    let cells = SCOPES
        .iter()
        .enumerate()
        .map(|(i, scope)| {
            let recorded = count(i, |m, k| m.recorded(k) as i64);
            let recomputed = count(i, |m, k| m.recomputed(k) as i64);
            let change = count(i, ModeSummary::change);
            let (up, down) = (change.clone(), change.clone());
            view! {
                <td class="num" data-scope=*scope data-kind="recorded">{recorded}</td>
                <td class="num" data-scope=*scope data-kind="recomputed">{recomputed}</td>
                <td class="num delta" class:up=move || { up() > 0 } class:down=move || { down() < 0 }>
                    {move || signed(change())}
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
