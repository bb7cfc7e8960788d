//! The Golden tab's state: the cases file and the core's report on it, kept here
//! (not in the component) so the cases survive switching tabs and the storage can
//! remember them.

use super::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::{evaluate_analysis, parse_cases, CaseSet, GoldenLevel, GoldenReport};
use ragtrace_core::{Analysis, InputError};

/// The source name of cases typed or pasted into the box.
pub(crate) const PASTED_CASES_SOURCE: &str = "pasted cases";

/// Rows the case table adds at a time.
pub(crate) const CASE_PAGE: usize = 100;

/// The parsed cases file: `None` while the box is empty.
pub(crate) type ParsedCases = Option<Result<Shared<CaseSet>, Vec<InputError>>>;

/// The Golden tab's signals and memos; `Copy`, provided as a context by `App`
/// so the cases survive switching tabs.
#[derive(Clone, Copy)]
pub(crate) struct GoldenState {
    /// The cases file's text (what the box shows).
    pub text: RwSignal<String>,
    /// Where `text` came from: a file name, the sample, or pasted text.
    pub source: RwSignal<String>,
    /// Which level the case table shows (`None`: all).
    pub filter: RwSignal<Option<GoldenLevel>>,
    /// How many rows of the case table are shown. The table grows a page at a time:
    /// ten thousand case rows took seconds to lay out again on every knob move.
    pub shown_cases: RwSignal<usize>,
    /// The parsed cases and their report, made the first time a tab reads them: only
    /// the lazily loaded tabs do, so the parser and the evaluation stay out of the
    /// first load.
    memos: StoredValue<Option<GoldenMemos>>,
    /// The shell's owner: the memos live as long as the page, not as the first tab
    /// that read them.
    owner: StoredValue<Option<Owner>>,
    state: AppState,
}

#[derive(Clone, Copy)]
struct GoldenMemos {
    cases: Memo<ParsedCases>,
    report: Memo<Option<Shared<GoldenReport>>>,
}

/// The golden evaluation of `cases` against the analysis `analysis` returns, evaluated
/// again only when the cases, the analysis's accepted lists or its `relevantGrade`
/// change. The hit levels and ranking metrics read nothing else, so a move of
/// `maxL2Distance`, `hybridQuality` or a threshold keeps the report (and everything
/// that reads only it) as it was; what reads qualities or levels reads the analysis
/// itself.
pub(crate) fn evaluation(
    cases: Memo<ParsedCases>,
    analysis: impl Fn() -> Option<Shared<Analysis>> + Copy + Send + Sync + 'static,
) -> Memo<Option<Shared<GoldenReport>>> {
    // Compared by value (the core's `AcceptedLists`): a memo notifies only on a change.
    // `relevantGrade` decides no block, so the accepted lists alone miss its moves.
    let accepted = Memo::new(move |_| {
        analysis().map(|analysis| (analysis.accepted_lists(), analysis.config.relevant_grade))
    });
    Memo::new(move |_| {
        let Some(Ok(cases)) = cases.get() else {
            return None;
        };
        // Read, not only tracked: reading computes `accepted`, which then follows the
        // analysis (a memo never read has no sources to be told of a change).
        accepted.with(|_| ());
        let analysis = untrack(analysis)?;
        #[cfg(feature = "test-hooks")]
        crate::counters::GOLDEN_EVALUATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(Shared::new(evaluate_analysis(&cases, &analysis)))
    })
}

impl GoldenState {
    /// `restored`: the cases file this browser remembered (source name, text).
    pub(crate) fn new(state: AppState, restored: Option<(String, String)>) -> Self {
        let (name, text) =
            restored.unwrap_or_else(|| (PASTED_CASES_SOURCE.to_owned(), String::new()));
        GoldenState {
            text: RwSignal::new(text),
            source: RwSignal::new(name),
            filter: RwSignal::new(None),
            shown_cases: RwSignal::new(CASE_PAGE),
            memos: StoredValue::new(None),
            owner: StoredValue::new(Owner::current()),
            state,
        }
    }

    fn memos(&self) -> GoldenMemos {
        if let Some(memos) = self.memos.get_value() {
            return memos;
        }
        let (text, source, state) = (self.text, self.source, self.state);
        let create = move || {
            let cases = Memo::new(move |_| {
                let name = source.get();
                text.with(|text| {
                    (!text.trim().is_empty()).then(|| parse_cases(&name, text).map(Shared::new))
                })
            });
            let report = evaluation(cases, move || state.analysis.get());
            GoldenMemos { cases, report }
        };
        let memos = match self.owner.get_value() {
            Some(owner) => owner.with(create),
            None => create(),
        };
        self.memos.set_value(Some(memos));
        memos
    }

    /// The cases file as the core read it.
    pub(crate) fn cases(&self) -> Memo<ParsedCases> {
        self.memos().cases
    }

    /// The core's report for the cases under the current analysis, evaluated again only
    /// when the accepted lists change (see [`evaluation`]): its `config` is that of the
    /// analysis it was evaluated under; [`GoldenState::report_to_write`] gives the
    /// report with the current one.
    pub(crate) fn report(&self) -> Memo<Option<Shared<GoldenReport>>> {
        self.memos().report
    }

    /// The report as `evaluate_analysis` gives it under the current analysis: `report`
    /// with the current configuration (the evaluation outlives knob moves that leave
    /// the accepted lists as they were). What the downloads write.
    pub(crate) fn report_to_write(&self, state: AppState) -> Option<GoldenReport> {
        let report = self.report().get_untracked()?;
        let config = state
            .analysis
            .with_untracked(|a| a.as_ref().map(|a| serde_json::to_value(a.config)))?
            .unwrap_or(serde_json::Value::Null);
        Some(GoldenReport::clone(&report).with_config(config))
    }

    /// Loads a whole cases file (picked file or sample).
    pub(crate) fn load(&self, name: String, text: String) {
        self.source.set(name);
        self.text.set(text);
    }
}
