//! The stage waterfall of one trace: candidates, then what each stage removed,
//! then what was accepted. Counts straight from the core's `Stages`.

use leptos::prelude::*;
use ragtrace_core::Stages;

#[component]
pub(crate) fn Waterfall(stages: Stages) -> impl IntoView {
    let mut steps = vec![
        ("candidates", "candidates", stages.candidates, "stage-all"),
        ("invalid", "invalid rank", stages.invalid, "stage-removed"),
        (
            "duplicates",
            "duplicates removed",
            stages.duplicates,
            "stage-removed",
        ),
        (
            "docCap",
            "per-document cap",
            stages.doc_capped,
            "stage-removed",
        ),
        (
            "returnN",
            "beyond return-n",
            stages.return_n_cut,
            "stage-removed",
        ),
        ("accepted", "accepted", stages.accepted, "stage-accepted"),
    ];
    // The floor's step, where a floor held something back (after the duplicates, as
    // the walk decides).
    if stages.below_floor > 0 {
        steps.insert(
            3,
            (
                "belowFloor",
                "below the score floor",
                stages.below_floor,
                "stage-removed",
            ),
        );
    }
    // Bars share one scale: the viewBox is as wide as the candidate count
    // (at least 1, so an empty trace still draws).
    let scale = stages.candidates.max(1);
    view! {
        <section class="panel waterfall" aria-labelledby="waterfall-title">
            <h3 id="waterfall-title">"Stages"</h3>
            <ol class="stages">
                {steps
                    .into_iter()
                    .map(|(key, label, n, class)| {
                        view! {
                            <li class=format!("stage {class}") data-stage=key>
                                <span class="stage-label">{label}</span>
                                <svg
                                    class="stage-bar"
                                    viewBox=format!("0 0 {scale} 1")
                                    preserveAspectRatio="none"
                                    aria-hidden="true"
                                >
                                    <rect x="0" y="0" width=n height="1"></rect>
                                </svg>
                                <span class="stage-count num">{n}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}
