//! The page's one source of truth.
//!
//! Inputs are signals (loaded documents, pasted text, the knobs, the baseline,
//! what is being looked at); everything derived from them is a memo, so the
//! expensive steps run only when their own inputs change. Each document is parsed
//! once, when it is added, and keeps its parsed batch; the pasted text is parsed
//! alone, after a pause in typing; `ragtrace_core::analyze` runs only when the
//! batch or the knobs change (and for a knob, `Analysis::reanalyze`: only the
//! stages it reaches). Every number the page shows comes out of those memos.

pub(crate) mod compare;
pub(crate) mod compare_link;
pub(crate) mod explain;
pub(crate) mod golden;
pub(crate) mod loading;

use crate::samples::Sample;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::{analyze, Analysis, BatchAnalyzer, ConfigError, Level, ParsedBatch, Settings};
use ragtrace_core::{other_readers_missed, parse_document, DocumentSummary};
use std::sync::Arc;
use std::time::Duration;

pub(crate) use crate::shared::Shared;

/// Where a loaded document came from; decides how it is remembered across reloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    File,
    /// A built-in sample; `opening` marks the one the page opened with, which the
    /// first document of the user's own replaces.
    Sample {
        sample: Sample,
        opening: bool,
    },
}

/// One loaded file or sample, parsed once when it was added. The pasted text is
/// not one of these: it lives in [`AppState::paste`] and joins the batch as the
/// document `pasted text`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Document {
    pub id: u64,
    pub name: String,
    pub origin: Origin,
    /// What the core read from it.
    pub batch: Shared<ParsedBatch>,
    /// The text, kept only for a file small enough to be remembered across
    /// reloads (samples are remembered by name; large files by nothing).
    pub text: Option<Arc<str>>,
    /// Read before the readers of other stacks were loaded, which it needed: it is
    /// read again once they are (`deferred::readers`).
    pub incomplete: bool,
}

impl Document {
    /// The sample the page opened with, which any document the user brings replaces.
    pub(crate) fn is_opening(&self) -> bool {
        matches!(self.origin, Origin::Sample { opening: true, .. })
    }

    /// A document read whole from its text (a sample, a restored file).
    pub(crate) fn parse(id: u64, name: String, text: Arc<str>, origin: Origin) -> Self {
        let (batch, incomplete) = match origin {
            // Read once its text is made (`read_again`).
            Origin::Sample { sample, .. } if !sample.ready() => (ParsedBatch::default(), true),
            _ => parse_counted(&name, &text),
        };
        let text = matches!(origin, Origin::File).then_some(text);
        Document {
            id,
            name,
            origin,
            batch: Shared::new(batch),
            text,
            incomplete,
        }
    }

    /// The document read again from its text (its sample's, or the file's it kept).
    fn read_again(&self) -> Option<Self> {
        let text = match self.origin {
            Origin::Sample { sample, .. } => sample.text(),
            Origin::File => self.text.clone()?,
        };
        Some(Document::parse(
            self.id,
            self.name.clone(),
            text,
            self.origin,
        ))
    }
}

/// The source name the pasted text is analysed under.
pub(crate) const PASTE_SOURCE: &str = "pasted text";

/// How long typing must pause before the pasted text is parsed and analysed:
/// keystrokes closer together than this only update the text box.
pub const PASTE_PAUSE: Duration = Duration::from_millis(100);

/// Every whole-text parse of the page goes through here, so that it is counted; with
/// whether it needed the readers of other stacks before they were loaded.
pub(crate) fn parse_counted(source: &str, text: &str) -> (ParsedBatch, bool) {
    #[cfg(feature = "test-hooks")]
    crate::counters::PARSES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // What an earlier reading (another tab's) left is not this document's.
    other_readers_missed();
    let batch = parse_document(source, text);
    (batch, other_readers_missed())
}

/// What the main area shows. New views (a golden-evaluation tab) are new variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
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

impl ListControls {
    /// Whether the rows shown depend on what the settings compute (levels, top
    /// qualities, accepted counts), not only on the traces as read: a knob can then
    /// change which rows show and in what order.
    pub fn reads_computed(&self) -> bool {
        self.level.is_some()
            || self.changed_only
            || matches!(
                self.sort.key,
                SortKey::Level | SortKey::TopQuality | SortKey::Accepted
            )
    }
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
pub(crate) struct AppState {
    pub documents: RwSignal<Vec<Document>>,
    /// The text in the paste box, as typed.
    pub paste: RwSignal<String>,
    /// The pasted text as the core read it (`None` when blank), set a pause
    /// after the last keystroke.
    pub paste_batch: RwSignal<Option<Shared<ParsedBatch>>>,
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
    /// The file being read, while one is.
    pub loading: RwSignal<Option<loading::LoadProgress>>,
    /// The current load's ticket: a load whose ticket is no longer this one stops.
    load_ticket: StoredValue<u64>,
    next_id: StoredValue<u64>,
    /// The pending parse of the pasted text; each keystroke replaces (and so cancels) it.
    paste_timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// An analysis made a piece at a time while a large file finished loading
    /// ([`AppState::prepare_analysis`]), with the settings it was made under: the
    /// analysis memo takes it instead of analysing in one long task.
    prepared: StoredValue<Option<(Settings, Shared<Analysis>)>>,

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
    /// The batch `analysis` was computed from. While the settings are invalid it is
    /// the batch of the last valid analysis, which may be older than `analysed_batch`.
    pub analysis_batch: Memo<Option<Shared<ParsedBatch>>>,
    /// The batch of `analysis` under the pinned baseline knobs, so the two always
    /// describe the same traces.
    pub baseline_analysis: Memo<Option<Result<Shared<Analysis>, ConfigError>>>,
}

impl AppState {
    // Out of line: inlined into `App` (its only caller), its memos and their closures
    // swell the component's frame and cost about 0.5 KB of the site's gzipped first
    // load (scripts/build-site.sh).
    #[inline(never)]
    pub(crate) fn new(documents: Vec<Document>, paste: String, settings: Settings) -> Self {
        let next = documents.iter().map(|d| d.id + 1).max().unwrap_or(1);
        let documents = RwSignal::new(documents);
        let paste_batch = RwSignal::new(parse_paste(&paste));
        let paste = RwSignal::new(paste);
        let settings = RwSignal::new(settings);
        let baseline = RwSignal::new(None::<Settings>);

        let prepared = StoredValue::new(None::<(Settings, Shared<Analysis>)>);
        let documents_batch = Memo::new(move |_| {
            documents.with(|docs| Shared::new(concat(docs.iter().map(|d| &*d.batch))))
        });
        let parsed = Memo::new(move |_| {
            let documents = documents_batch.get();
            match paste_batch.get() {
                Some(pasted) => Shared::new(with_paste(&documents, &pasted)),
                None => documents,
            }
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
                    // The analysis replaced is freed after the paint, not in this task.
                    if let Some(Ok(previous)) = previous {
                        crate::browser::drop_after_paint(previous.clone());
                    }
                    let mut ready = None;
                    prepared.update_value(|p| ready = p.take());
                    if let Some((_, analysis)) =
                        ready.filter(|(made_under, a)| made_under == s && a.is_of(&batch))
                    {
                        return Ok(analysis);
                    }
                    #[cfg(feature = "test-hooks")]
                    crate::counters::MEMO_ANALYSES
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
        // Re-run on every knob change, but it changes (and wakes the baseline) only
        // when the batch does: `Shared` compares by allocation.
        let analysis_batch = Memo::new(move |previous: Option<&Option<Shared<ParsedBatch>>>| {
            if computed.with(Result::is_ok) {
                Some(analysed_batch.get())
            } else {
                previous.cloned().flatten()
            }
        });
        let baseline_analysis = Memo::new(move |_| {
            let pinned = baseline.get()?;
            let batch = analysis_batch.get()?;
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

        read_again_with_other_readers(documents, paste, paste_batch);
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
            loading: RwSignal::new(None),
            load_ticket: StoredValue::new(0),
            next_id: StoredValue::new(next),
            paste_timer: StoredValue::new_local(None),
            prepared,
            paste_batch,
            parsed,
            analysed_batch,
            stale,
            computed,
            analysis,
            analysis_batch,
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
    pub(crate) fn add_document(&self, name: String, text: Arc<str>, origin: Origin) {
        let document = Document::parse(self.take_id(), name, text, origin);
        self.add_parsed(document);
    }

    /// A document already parsed (a streamed file): it joins the batch as `add_document`'s do.
    pub(crate) fn add_parsed(&self, document: Document) {
        self.documents.update(|docs| {
            docs.retain(|d| !d.is_opening());
            docs.push(document);
        });
        self.view.set(View::Auto);
    }

    /// Analyses the batch `document` is about to join, a piece at a time with a
    /// pause for the browser between pieces (a million candidates take about 300 ms,
    /// far over the 50 ms a task should take), so that adding it then takes the
    /// finished analysis instead of computing it in one task. Stops early when the
    /// load is cancelled; leaves nothing when the knobs are invalid.
    pub(crate) async fn prepare_analysis(&self, document: &Document, ticket: u64) {
        /// Work per task before the browser gets a turn.
        const PIECE_MS: f64 = 15.0;
        let settings = self.settings.get_untracked();
        let Ok(mut analyzer) = BatchAnalyzer::new(&settings, true) else {
            return;
        };
        let documents = self.documents.with_untracked(|docs| {
            concat(
                docs.iter()
                    .filter(|d| !d.is_opening())
                    .map(|d| &*d.batch)
                    .chain([&*document.batch]),
            )
        });
        let batch = match self.paste_batch.get_untracked() {
            Some(pasted) => with_paste(&documents, &pasted),
            None => documents,
        };
        let mut traces = Vec::with_capacity(batch.traces.len());
        let mut piece_started = js_sys::Date::now();
        for trace in &batch.traces {
            traces.push(analyzer.analyze_trace(trace));
            if traces.len() % 64 == 0 && js_sys::Date::now() - piece_started > PIECE_MS {
                gloo_timers::future::TimeoutFuture::new(0).await;
                if !self.load_is_current(ticket) {
                    return;
                }
                piece_started = js_sys::Date::now();
            }
        }
        let analysis = Shared::new(analyzer.into_analysis(traces, &batch));
        // This batch's traces are shared with the documents: dropping it is a
        // decrement per trace, which need not lengthen the task that shows the file.
        crate::browser::drop_after_paint(batch);
        self.prepared.set_value(Some((settings, analysis)));
    }

    pub(crate) fn next_document_id(&self) -> u64 {
        self.take_id()
    }

    /// Loads a built-in sample (once: a second click does not double it), under the
    /// `scoreKind` its scores are in.
    pub(crate) fn add_sample(&self, sample: Sample) {
        let loaded = self.documents.with_untracked(|docs| {
            docs.iter().any(
                |d| matches!(d.origin, Origin::Sample { sample: s, opening: false } if s == sample),
            )
        });
        if let Some(kind) = sample.score_kind() {
            self.settings.update(|s| s.score_kind = Some(kind));
        }
        if loaded {
            return;
        }
        let state = *self;
        let add = move || {
            state.add_document(
                sample.file_name().to_owned(),
                sample.text(),
                Origin::Sample {
                    sample,
                    opening: false,
                },
            )
        };
        if sample.ready() {
            add();
        } else {
            leptos::task::spawn_local(async move {
                crate::deferred::readers::load_other_readers().await;
                add();
            });
        }
    }

    /// The pasted text changed. It is parsed once typing pauses; then, when it
    /// is not blank, it replaces the opening sample.
    pub(crate) fn set_paste(&self, text: String) {
        self.paste.set(text);
        self.view.set(View::Auto);
        self.schedule_paste_parse();
    }

    /// Parses the pasted text once typing pauses: each keystroke only replaces
    /// the pending parse, so it never waits on one.
    fn schedule_paste_parse(&self) {
        let state = *self;
        let pause = PASTE_PAUSE.as_millis() as u32;
        let parse = Timeout::new(pause, move || {
            let batch = state.paste.with_untracked(|text| parse_paste(text));
            let has_opening = state
                .documents
                .with_untracked(|docs| docs.iter().any(Document::is_opening));
            if batch.is_some() && has_opening {
                state
                    .documents
                    .update(|docs| docs.retain(|d| !d.is_opening()));
            }
            state.paste_batch.set(batch);
        });
        self.paste_timer.set_value(Some(parse));
    }

    pub(crate) fn remove_document(&self, id: u64) {
        self.documents.update(|docs| docs.retain(|d| d.id != id));
        self.view.set(View::Auto);
    }

    /// Documents and pasted text back to the page's opening state.
    pub(crate) fn reset_input(&self) {
        let id = self.take_id();
        self.documents.set(vec![opening_document(id)]);
        self.paste.set(String::new());
        self.paste_timer.set_value(None);
        self.paste_batch.set(None);
        self.view.set(View::Auto);
    }

    /// The analysed trace at `index`, if the current analysis has it.
    pub(crate) fn trace(&self, index: usize) -> Option<(Shared<Analysis>, usize)> {
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
    Document::parse(
        id,
        sample.file_name().to_owned(),
        sample.text(),
        Origin::Sample {
            sample,
            opening: true,
        },
    )
}

/// The loaded documents' batch followed by the pasted text's: what the page analyses.
fn with_paste(documents: &ParsedBatch, pasted: &ParsedBatch) -> ParsedBatch {
    concat([documents, pasted])
}

fn parse_paste(text: &str) -> Option<Shared<ParsedBatch>> {
    (!text.trim().is_empty()).then(|| {
        let (batch, incomplete) = parse_counted(PASTE_SOURCE, text);
        PASTE_INCOMPLETE.set(incomplete);
        Shared::new(batch)
    })
}

thread_local! {
    /// The pasted text's last reading needed the readers of other stacks before they
    /// were loaded (see [`Document::incomplete`]).
    static PASTE_INCOMPLETE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Documents (and the pasted text) read before the readers of other stacks they
/// needed were loaded are read again once they are: loaded on the first such reading.
fn read_again_with_other_readers(
    documents: RwSignal<Vec<Document>>,
    paste: RwSignal<String>,
    paste_batch: RwSignal<Option<Shared<ParsedBatch>>>,
) {
    Effect::new(move |_| {
        let documents_incomplete = documents.with(|docs| docs.iter().any(|d| d.incomplete));
        let paste_incomplete = paste_batch.with(Option::is_some) && PASTE_INCOMPLETE.get();
        if !documents_incomplete && !paste_incomplete {
            return;
        }
        leptos::task::spawn_local(async move {
            crate::deferred::readers::load_other_readers().await;
            documents.update(|docs| {
                for doc in docs.iter_mut().filter(|d| d.incomplete) {
                    match doc.read_again() {
                        Some(again) => *doc = again,
                        None => doc.incomplete = false,
                    }
                }
            });
            if PASTE_INCOMPLETE.get() {
                paste_batch.set(paste.with_untracked(|text| parse_paste(text)));
            }
        });
    });
}

/// Batches already parsed, as one. The first is taken by sharing its traces;
/// the core's `extend` renumbers (and so copies) the traces of the others.
fn concat<'a>(batches: impl IntoIterator<Item = &'a ParsedBatch>) -> ParsedBatch {
    let mut batches = batches.into_iter();
    let mut all = batches.next().cloned().unwrap_or_default();
    for batch in batches {
        all.extend(batch.clone());
    }
    all
}
