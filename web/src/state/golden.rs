//! The Golden tab's state: the cases file and the core's report on it, kept here
//! (not in the component) so the cases survive switching tabs and the storage can
//! remember them.

use super::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::InputError;
use ragtrace_core::{evaluate_analysis, parse_cases, CaseSet, GoldenLevel, GoldenReport};

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
    pub cases: Memo<ParsedCases>,
    /// The core's report for the cases under the current analysis.
    pub report: Memo<Option<Shared<GoldenReport>>>,
}

impl GoldenState {
    /// `restored`: the cases file this browser remembered (source name, text).
    pub(crate) fn new(state: AppState, restored: Option<(String, String)>) -> Self {
        let (name, text) =
            restored.unwrap_or_else(|| (PASTED_CASES_SOURCE.to_owned(), String::new()));
        let text = RwSignal::new(text);
        let source = RwSignal::new(name);
        let cases = Memo::new(move |_| {
            let name = source.get();
            text.with(|text| {
                (!text.trim().is_empty()).then(|| parse_cases(&name, text).map(Shared::new))
            })
        });
        let report = Memo::new(move |_| {
            let Some(Ok(cases)) = cases.get() else {
                return None;
            };
            state.analysis.with(|analysis| {
                analysis
                    .as_ref()
                    .map(|analysis| Shared::new(evaluate_analysis(&cases, analysis)))
            })
        });
        GoldenState {
            text,
            source,
            filter: RwSignal::new(None),
            shown_cases: RwSignal::new(CASE_PAGE),
            cases,
            report,
        }
    }

    /// Loads a whole cases file (picked file or sample).
    pub(crate) fn load(&self, name: String, text: String) {
        self.source.set(name);
        self.text.set(text);
    }
}
