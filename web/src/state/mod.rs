//! The page's one source of truth.
//!
//! Inputs are signals (loaded documents, pasted text, the knobs, the baseline,
//! what is being looked at); everything derived from them is a memo, so the
//! expensive steps run only when their own inputs change: parsing only when the
//! documents change, `ragtrace_core::analyze` only when the parsed batch or the
//! knobs change (and for a knob, `Analysis::reanalyze`: only the stages it
//! reaches). Every number the page shows comes out of those memos.

#[cfg(feature = "compare-tab")]
pub(crate) mod compare;
pub(crate) mod golden;

use crate::samples::Sample;
use leptos::prelude::*;
use ragtrace_core::input::{parse_documents, DocumentSummary};
use ragtrace_core::label::CanonicalLabel;
use ragtrace_core::{analyze, Analysis, ConfigError, Level, ParsedBatch, Settings};
use std::ops::Deref;
use std::sync::Arc;

/// A large value shared by memos and views without copying.
///
/// Two values are equal only when they are the same allocation: comparing whole
/// analyses would cost as much as computing them, and a fresh computation is
/// always worth propagating.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(Arc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Where a loaded document came from; decides how it is remembered across reloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    File,
    /// A built-in sample; `opening` marks the one the page opened with, which the
    /// first document of the user's own replaces.
    Sample {
        sample: Sample,
        opening: bool,
    },
}

/// One loaded file or sample. The pasted text is not one of these: it lives in
/// [`AppState::paste`] and joins the batch as the document `pasted text`.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub id: u64,
    pub name: String,
    pub text: Arc<str>,
    pub origin: Origin,
}

/// The source name the pasted text is analysed under.
pub(crate) const PASTE_SOURCE: &str = "pasted text";

/// What the main area shows. New views (a golden-evaluation tab) are new variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The batch view when there is more than one trace, else the only trace.
    Auto,
    Batch,
    /// Index into `Analysis::traces` (the batch order, stable across knob changes).
    Trace(usize),
    /// The golden evaluation of a cases file against the current analysis.
    Golden,
    /// Run A (the loaded batch) against run B.
    Compare,
}

/// Trace-list filter on the canonical mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeFilter {
    All,
    Dense,
    Hybrid,
    Unknown,
}

impl ModeFilter {
    pub fn accepts(self, mode: Option<CanonicalLabel>) -> bool {
        match self {
            ModeFilter::All => true,
            ModeFilter::Dense => mode == Some(CanonicalLabel::Dense),
            ModeFilter::Hybrid => mode == Some(CanonicalLabel::Hybrid),
            ModeFilter::Unknown => mode.is_none(),
        }
    }
}

/// Trace-list sort columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Position,
    Name,
    Mode,
    Recorded,
    Level,
    TopQuality,
    Accepted,
    Candidates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    pub key: SortKey,
    pub descending: bool,
}

/// The trace list's filters and order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListControls {
    pub level: Option<Level>,
    pub mode: ModeFilter,
    /// Recomputed level differs from the recorded one (or from the baseline's, when pinned).
    pub changed_only: bool,
    pub sort: Sort,
}

impl Default for ListControls {
    fn default() -> Self {
        ListControls {
            level: None,
            mode: ModeFilter::All,
            changed_only: false,
            sort: Sort {
                key: SortKey::Position,
                descending: false,
            },
        }
    }
}

/// All signals and memos of the page; `Copy`, handed around through context.
#[derive(Clone, Copy)]
pub struct AppState {
    pub documents: RwSignal<Vec<Document>>,
    pub paste: RwSignal<String>,
    pub settings: RwSignal<Settings>,
    pub baseline: RwSignal<Option<Settings>>,
    /// What the user asked to see.
    pub view: RwSignal<View>,
    /// What is shown: `view` with `Auto` resolved.
    pub shown_view: Memo<View>,
    pub list: RwSignal<ListControls>,
    /// A one-line note for the user (a file that could not be read, storage full...).
    pub notice: RwSignal<Option<String>>,
    /// Files are being dragged over the page.
    pub dragging: RwSignal<bool>,
    next_id: StoredValue<u64>,

    /// Every document (files, samples, pasted text) as the core read it.
    pub parsed: Memo<Shared<ParsedBatch>>,
    /// The batch the analysis runs on: `parsed`, unless a document could not be
    /// read at all, in which case the last batch where every document was readable.
    pub analysed_batch: Memo<Shared<ParsedBatch>>,
    /// True while `analysed_batch` is an older batch than `parsed`.
    pub stale: Memo<bool>,
    /// The core's analysis under the current knobs, or why the knobs are invalid.
    pub computed: Memo<Result<Shared<Analysis>, ConfigError>>,
    /// The last analysis that succeeded: what the page shows.
    pub analysis: Memo<Option<Shared<Analysis>>>,
    /// The same batch under the pinned baseline knobs.
    pub baseline_analysis: Memo<Option<Result<Shared<Analysis>, ConfigError>>>,
}

impl AppState {
    pub fn new(documents: Vec<Document>, paste: String, settings: Settings) -> Self {
        let next = documents.iter().map(|d| d.id + 1).max().unwrap_or(1);
        let documents = RwSignal::new(documents);
        let paste = RwSignal::new(paste);
        let settings = RwSignal::new(settings);
        let baseline = RwSignal::new(None::<Settings>);

        let parsed = Memo::new(move |_| {
            let mut pairs: Vec<(String, String)> = documents.with(|docs| {
                docs.iter()
                    .map(|d| (d.name.clone(), d.text.to_string()))
                    .collect()
            });
            paste.with(|text| {
                if !text.trim().is_empty() {
                    pairs.push((PASTE_SOURCE.to_owned(), text.clone()));
                }
            });
            Shared::new(parse_documents(&pairs))
        });
        let analysed_batch = Memo::new(move |previous: Option<&Shared<ParsedBatch>>| {
            let current = parsed.get();
            match previous {
                Some(previous) if has_unreadable_document(&current.documents) => previous.clone(),
                _ => current,
            }
        });
        let stale = Memo::new(move |_| analysed_batch.get() != parsed.get());
        // A knob moved over the same batch: redo only what it reaches (the core falls
        // back to a full analysis when the batch is another one).
        let computed = Memo::new(
            move |previous: Option<&Result<Shared<Analysis>, ConfigError>>| {
                let batch = analysed_batch.get();
                settings.with(|s| {
                    match previous {
                        Some(Ok(previous)) => previous.reanalyze(&batch, s),
                        _ => analyze(&batch, s, true),
                    }
                    .map(Shared::new)
                })
            },
        );
        let analysis = Memo::new(
            move |previous: Option<&Option<Shared<Analysis>>>| match computed.get() {
                Ok(analysis) => Some(analysis),
                Err(_) => previous.cloned().flatten(),
            },
        );
        let baseline_analysis = Memo::new(move |_| {
            let pinned = baseline.get()?;
            let batch = analysed_batch.get();
            Some(analyze(&batch, &pinned, false).map(Shared::new))
        });

        let view = RwSignal::new(View::Auto);
        let shown_view = Memo::new(move |_| match view.get() {
            View::Auto => {
                let single = analysis.with(|a| a.as_ref().is_some_and(|a| a.traces.len() == 1));
                if single {
                    View::Trace(0)
                } else {
                    View::Batch
                }
            }
            other => other,
        });

        AppState {
            documents,
            paste,
            settings,
            baseline,
            view,
            shown_view,
            list: RwSignal::new(ListControls::default()),
            notice: RwSignal::new(None),
            dragging: RwSignal::new(false),
            next_id: StoredValue::new(next),
            parsed,
            analysed_batch,
            stale,
            computed,
            analysis,
            baseline_analysis,
        }
    }

    fn take_id(&self) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        id
    }

    /// A document the user brought in (file, drop, sample button): it joins the
    /// batch and replaces the sample the page opened with.
    pub fn add_document(&self, name: String, text: Arc<str>, origin: Origin) {
        let id = self.take_id();
        self.documents.update(|docs| {
            docs.retain(|d| !matches!(d.origin, Origin::Sample { opening: true, .. }));
            docs.push(Document {
                id,
                name,
                text,
                origin,
            });
        });
        self.view.set(View::Auto);
    }

    /// Loads a built-in sample (once: a second click does not double it).
    pub fn add_sample(&self, sample: Sample) {
        let loaded = self.documents.with_untracked(|docs| {
            docs.iter().any(
                |d| matches!(d.origin, Origin::Sample { sample: s, opening: false } if s == sample),
            )
        });
        if !loaded {
            self.add_document(
                sample.file_name().to_owned(),
                sample.text(),
                Origin::Sample {
                    sample,
                    opening: false,
                },
            );
        }
    }

    /// The pasted text changed: it replaces the opening sample as soon as it is non-empty.
    pub fn set_paste(&self, text: String) {
        if !text.trim().is_empty() {
            let has_opening = self.documents.with_untracked(|docs| {
                docs.iter()
                    .any(|d| matches!(d.origin, Origin::Sample { opening: true, .. }))
            });
            if has_opening {
                self.documents.update(|docs| {
                    docs.retain(|d| !matches!(d.origin, Origin::Sample { opening: true, .. }))
                });
            }
        }
        self.paste.set(text);
        self.view.set(View::Auto);
    }

    pub fn remove_document(&self, id: u64) {
        self.documents.update(|docs| docs.retain(|d| d.id != id));
        self.view.set(View::Auto);
    }

    /// Documents and pasted text back to the page's opening state.
    pub fn reset_input(&self) {
        let id = self.take_id();
        self.documents.set(vec![opening_document(id)]);
        self.paste.set(String::new());
        self.view.set(View::Auto);
    }

    /// The analysed trace at `index`, if the current analysis has it.
    pub fn trace(&self, index: usize) -> Option<(Shared<Analysis>, usize)> {
        let analysis = self.analysis.get()?;
        (index < analysis.traces.len()).then_some((analysis, index))
    }
}

/// A document that produced no trace and at least one error could not be read
/// at all (malformed JSON, empty, wrong top-level shape): analysing without it
/// would silently drop it, so the page keeps the last good analysis instead.
pub(crate) fn has_unreadable_document(documents: &[DocumentSummary]) -> bool {
    documents.iter().any(|d| d.errors > 0 && d.traces == 0)
}

/// The sample the page opens with, so a first visitor sees a full analysis.
pub(crate) fn opening_document(id: u64) -> Document {
    let sample = Sample::OPENING;
    Document {
        id,
        name: sample.file_name().to_owned(),
        text: sample.text(),
        origin: Origin::Sample {
            sample,
            opening: true,
        },
    }
}
