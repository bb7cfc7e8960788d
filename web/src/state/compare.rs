//! The Compare tab's state: where run B comes from, the two runs analysed under the
//! knobs, the core's comparison and golden deltas, and the pair table's controls.
//!
//! Run A is the loaded batch (`AppState::analysis`, already computed for the other
//! tabs); run B is parsed once when it is loaded and analysed under the same knobs on
//! every change. Splitting the batch instead makes its dense traces run A and its hybrid
//! traces run B (the split is a memo of the batch, redone only when the batch changes).
//! The significance tests are the slow part: they run after the next paint and are
//! `None` ("pending") until then, so no knob waits for them.
//!
//! Further runs (C, D, ...) are added in [`many_runs`]: with three or more, the tab
//! ranks them all, and two runs picked there replace A and B in the pair view.

pub(crate) mod many_runs;

use super::golden::{evaluation, GoldenState};
use super::{AppState, Shared, View};
use crate::browser::{after_paint, drop_after_paint};
use crate::samples::{
    paired_sample, PAIRED_CASES_SOURCE, PAIRED_DENSE_SOURCE, PAIRED_HYBRID_SOURCE,
};
use leptos::prelude::*;
use many_runs::{
    sample_documents, sample_run_source, ManyLink, ManyRuns, Run, SAMPLE_CASES_SOURCE,
};
use ragtrace_core::parse_documents;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::{
    add_significance, case_scores, compare_golden, GoldenComparison, GoldenReport,
    SignificanceOptions,
};
use ragtrace_core::{analyze, Analysis, ParsedBatch, Settings};
use ragtrace_core::{
    compare_paired, pair_runs, recompare_paired, CompareOptions, PairComparison, Pairing,
    RunComparison,
};
use std::sync::Arc;

/// Where run B comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RunB {
    None,
    /// The loaded batch's dense traces are run A, its hybrid traces run B.
    Split,
    /// The hybrid half of the built-in paired sample.
    Sample,
    /// Pasted text, picked or dropped files: (source name, text).
    Documents(Vec<(String, Arc<str>)>),
}

/// The pair table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PairSort {
    /// Run A's order.
    Order,
    Rbo,
    Overlap,
    /// How many levels B moved from A (worse is positive).
    LevelChange,
    /// B's top quality minus A's.
    QualityChange,
}

impl PairSort {
    pub(crate) const ALL: [PairSort; 5] = [
        PairSort::Order,
        PairSort::Rbo,
        PairSort::Overlap,
        PairSort::LevelChange,
        PairSort::QualityChange,
    ];

    pub(crate) fn key(self) -> &'static str {
        match self {
            PairSort::Order => "order",
            PairSort::Rbo => "rbo",
            PairSort::Overlap => "overlap",
            PairSort::LevelChange => "level",
            PairSort::QualityChange => "quality",
        }
    }
}

/// The pair table's filters and order; the mode-pair filter also picks the group the
/// matrix and the distributions show.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairControls {
    pub sort: PairSort,
    pub descending: bool,
    /// Only pairs whose level got worse from A to B.
    pub regressions_only: bool,
    /// Only pairs where B kept none of A's documents.
    pub lost_only: bool,
    /// A mode pair label such as `dense->hybrid`; `None` is every pair.
    pub mode_pair: Option<String>,
}

impl Default for PairControls {
    fn default() -> Self {
        PairControls {
            sort: PairSort::Order,
            descending: false,
            regressions_only: false,
            lost_only: false,
            mode_pair: None,
        }
    }
}

/// The names of runs A and B when the batch is split.
pub(crate) const SPLIT_NAMES: [&str; 2] = ["dense traces", "hybrid traces"];

/// The source name of text pasted as run B.
pub(crate) const PASTED_B_SOURCE: &str = "pasted run B";

/// The run A and run B the comparison reads.
pub(crate) type Runs = (Shared<Analysis>, Shared<Analysis>);

/// Golden deltas and the same with their significance.
pub(crate) type Tested = (Shared<GoldenComparison>, Shared<GoldenComparison>);

#[derive(Clone, Copy)]
pub(crate) struct CompareState {
    pub run_b: RwSignal<RunB>,
    pub rbo_p: RwSignal<f64>,
    pub controls: RwSignal<PairControls>,
    /// Index into `RunComparison::pairs` of the pair shown side by side.
    pub open_pair: RwSignal<Option<usize>>,
    /// Run B as the core read it; parsed only when run B changes.
    pub parsed_b: Memo<Option<Shared<ParsedBatch>>>,
    /// Which traces pair, the unpaired ones and the pairing's warnings.
    pub pairing: Memo<Option<Shared<Pairing>>>,
    pub runs: Memo<Option<Runs>>,
    pub comparison: Memo<Option<Shared<RunComparison>>>,
    /// Each run's golden evaluation, when cases are loaded: what the pair view reads of
    /// a case (its ranking in each run).
    pub golden_reports: [Memo<Option<Shared<GoldenReport>>>; 2],
    /// The golden deltas without significance (fast), when cases are loaded.
    pub golden: Memo<Option<Shared<GoldenComparison>>>,
    /// (the golden deltas tested, the same with their significance), once computed
    /// after a paint; pending while absent or while its first part is not `golden`.
    pub significance: RwSignal<Option<Tested>>,
    /// The runs besides A and B, and the table of all of them.
    pub many: ManyRuns,
}

/// The name a run takes from its first document (`fallback` without one).
fn first_source(batch: &ParsedBatch, fallback: &str) -> String {
    batch
        .documents
        .first()
        .map_or_else(|| fallback.to_owned(), |d| d.source.clone())
}

fn subset(batch: &ParsedBatch, mode: CanonicalLabel) -> Shared<ParsedBatch> {
    Shared::new(ParsedBatch {
        traces: batch
            .traces
            .iter()
            .filter(|t| t.canonical_mode == Some(mode))
            .cloned()
            .collect(),
        slots: batch.slots,
        ..ParsedBatch::default()
    })
}

impl CompareState {
    pub(crate) fn new(state: AppState, golden: GoldenState) -> Self {
        let run_b = RwSignal::new(RunB::None);
        let parsed_b = Memo::new(move |_| {
            run_b.with(|source| match source {
                RunB::None | RunB::Split => None,
                RunB::Sample => Some(Shared::new(parse_documents(&[(
                    PAIRED_HYBRID_SOURCE.to_owned(),
                    paired_sample().1.to_string(),
                )]))),
                RunB::Documents(docs) => {
                    let docs: Vec<(String, String)> = docs
                        .iter()
                        .map(|(name, text)| (name.clone(), text.to_string()))
                        .collect();
                    Some(Shared::new(parse_documents(&docs)))
                }
            })
        });
        let split_batches = Memo::new(move |_| {
            if !run_b.with(|b| *b == RunB::Split) {
                return None;
            }
            state.analysed_batch.with(|batch| {
                Some((
                    subset(batch, CanonicalLabel::Dense),
                    subset(batch, CanonicalLabel::Hybrid),
                ))
            })
        });
        let base_runs = Memo::new(move |previous: Option<&Option<Runs>>| {
            // A knob move redoes only the stages it reaches; `reanalyze` analyses afresh
            // when the previous analysis is of another batch.
            let last = previous.and_then(Option::as_ref);
            drop_after_paint(last.cloned());
            let again = |last: Option<&Shared<Analysis>>, batch: &ParsedBatch, s: &Settings| {
                match last {
                    Some(last) => last.reanalyze(batch, s),
                    None => analyze(batch, s, false),
                }
                .map(Shared::new)
            };
            let computed = if let Some((a, b)) = split_batches.get() {
                state.settings.with(|s| {
                    Some(
                        again(last.map(|r| &r.0), &a, s)
                            .and_then(|a| Ok((a, again(last.map(|r| &r.1), &b, s)?))),
                    )
                })
            } else {
                parsed_b.get().and_then(|b| {
                    let a = state.analysis.get()?;
                    Some(
                        state
                            .settings
                            .with(|s| again(last.map(|r| &r.1), &b, s))
                            .map(|b| (a, b)),
                    )
                })
            };
            match computed {
                None => None,
                Some(Ok(runs)) => Some(runs),
                // Invalid knobs: keep the last valid comparison, as the other tabs do.
                Some(Err(_)) => previous.cloned().flatten(),
            }
        });
        // Runs A and B (A alone without run B) as the many-run table counts them.
        let first_two = move || {
            let (a_batch, b_batch, names) = match split_batches.get() {
                Some((a, b)) => (a, Some(b), SPLIT_NAMES.map(str::to_owned)),
                None => {
                    let a = state
                        .analysis_batch
                        .get()
                        .unwrap_or_else(|| state.analysed_batch.get());
                    let b = parsed_b.get();
                    let names = [
                        first_source(&a, "run A"),
                        b.as_ref()
                            .map_or_else(String::new, |b| first_source(b, "run B")),
                    ];
                    (a, b, names)
                }
            };
            let [a_name, b_name] = names;
            match (base_runs.get(), b_batch) {
                (Some((a, b)), Some(b_batch)) => vec![
                    Run {
                        name: a_name,
                        batch: a_batch,
                        analysis: a,
                    },
                    Run {
                        name: b_name,
                        batch: b_batch,
                        analysis: b,
                    },
                ],
                _ => state
                    .analysis
                    .get()
                    .map(|a| Run {
                        name: a_name,
                        batch: a_batch,
                        analysis: a,
                    })
                    .into_iter()
                    .collect(),
            }
        };
        let many = ManyRuns::new(state, golden, first_two);
        // Which traces pair depends on the input only: redone when a batch changes, or
        // when two runs picked in the table replace A and B.
        // The picked runs' batches: the same after a knob move, so the pairing stays.
        let picked_batches = Memo::new(move |_| {
            let (i, j) = many.picked_pair()?;
            many.runs
                .with(|runs| Some((runs.get(i)?.batch.clone(), runs.get(j)?.batch.clone())))
        });
        let pairing = Memo::new(move |_| {
            let pair =
                |a: &ParsedBatch, b: &ParsedBatch| Shared::new(pair_runs(&a.traces, &b.traces));
            if let Some((a, b)) = picked_batches.get() {
                return Some(pair(&a, &b));
            }
            match split_batches.get() {
                Some((a, b)) => Some(pair(&a, &b)),
                None => {
                    let b = parsed_b.get()?;
                    Some(state.analysed_batch.with(|a| pair(a, &b)))
                }
            }
        });
        let runs = Memo::new(move |_| match many.picked_pair() {
            Some((i, j)) => many
                .runs
                .with(|runs| Some((runs.get(i)?.analysis.clone(), runs.get(j)?.analysis.clone()))),
            None => base_runs.get(),
        });
        let rbo_p = RwSignal::new(CompareOptions::default().rbo_p);
        // The runs the last comparison was made of: after a knob that left the blocks'
        // decisions as they were, the core reuses what it read of the accepted lists.
        let compared_runs = StoredValue::new(None::<Runs>);
        let comparison = Memo::new(move |previous: Option<&Option<Shared<RunComparison>>>| {
            let (a, b) = runs.get()?;
            let options = CompareOptions { rbo_p: rbo_p.get() };
            let since = previous.cloned().flatten().zip(compared_runs.get_value());
            let compared = pairing.with(|pairing| {
                let pairing = pairing.as_ref()?;
                Some(Shared::new(match since {
                    Some((before, (before_a, before_b))) => recompare_paired(
                        &before,
                        (&before_a, &before_b),
                        (&a, &b),
                        pairing,
                        &options,
                    ),
                    None => compare_paired(&a, &b, pairing, &options),
                }))
            });
            compared_runs.set_value(compared.is_some().then_some((a, b)));
            compared
        });
        // Each run's evaluation is redone only when its accepted lists change, and the
        // deltas (and after them the significance) only when an evaluation is.
        let golden_a = evaluation(golden.cases(), move || {
            runs.with(|runs| runs.as_ref().map(|(a, _)| a.clone()))
        });
        let golden_b = evaluation(golden.cases(), move || {
            runs.with(|runs| runs.as_ref().map(|(_, b)| b.clone()))
        });
        let golden_comparison = Memo::new(move |_| {
            let (a, b) = (golden_a.get()?, golden_b.get()?);
            Some(Shared::new(compare_golden(
                &case_scores(&a),
                &case_scores(&b),
            )))
        });
        let significance = RwSignal::new(None::<Tested>);
        Effect::new(move |_| {
            if state.shown_view.get() != View::Compare {
                return;
            }
            let Some(current) = golden_comparison.get() else {
                return;
            };
            // After the paint; skipped when a newer comparison has replaced this one.
            after_paint(move || {
                if golden_comparison.get_untracked().as_ref() != Some(&current) {
                    return;
                }
                let mut tested = GoldenComparison::clone(&current);
                add_significance(&mut tested, &SignificanceOptions::default());
                significance.set(Some((current, Shared::new(tested))));
            });
        });
        CompareState {
            run_b,
            rbo_p,
            controls: RwSignal::new(PairControls::default()),
            open_pair: RwSignal::new(None),
            parsed_b,
            pairing,
            runs,
            comparison,
            golden_reports: [golden_a, golden_b],
            golden: golden_comparison,
            significance,
            many,
        }
    }

    /// Adds a document to run B (a file or a drop); it replaces a sample or a split.
    pub(crate) fn add_document(&self, name: String, text: Arc<str>) {
        self.run_b.update(|b| match b {
            RunB::Documents(docs) => docs.push((name, text)),
            other => *other = RunB::Documents(vec![(name, text)]),
        });
        self.open_pair.set(None);
    }

    /// Loads the built-in paired runs: dense as run A, hybrid as run B, and their cases.
    pub(crate) fn load_sample(&self, state: AppState, golden: GoldenState) {
        let (dense, _, cases) = paired_sample();
        let loaded = state
            .documents
            .with_untracked(|docs| docs.iter().any(|d| d.name == PAIRED_DENSE_SOURCE));
        if !loaded {
            state.add_document(
                PAIRED_DENSE_SOURCE.to_owned(),
                dense.clone(),
                crate::state::Origin::File,
            );
        }
        golden.load(PAIRED_CASES_SOURCE.to_owned(), cases.clone());
        self.run_b.set(RunB::Sample);
        self.open_pair.set(None);
        state.view.set(View::Compare);
    }

    /// Loads the built-in many-run sample: its first run joins the loaded batch as run
    /// A, its second is run B, the others are added; and its cases.
    pub(crate) fn load_many_sample(&self, state: AppState, golden: GoldenState) {
        let (runs, cases) = self.many.sample();
        let mut documents = sample_documents(runs).into_iter();
        let first = sample_run_source(1);
        let loaded = state
            .documents
            .with_untracked(|docs| docs.iter().any(|d| d.name == first));
        if let Some((name, text)) = documents.next() {
            if !loaded {
                state.add_document(name, text, crate::state::Origin::File);
            }
        }
        if let Some(b) = documents.next() {
            self.run_b.set(RunB::Documents(vec![b]));
        }
        self.many.added.set(Vec::new());
        self.many.picked.set(Vec::new());
        for (name, text) in documents {
            self.many.add_run(state, vec![(name, text.to_string())]);
        }
        golden.load(SAMPLE_CASES_SOURCE.to_owned(), cases);
        self.open_pair.set(None);
        state.view.set(View::Compare);
    }

    /// The hash parts of this tab (`cmp.` keys), in the persist module's form.
    pub(crate) fn hash_parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(source) = self.run_b.with(|b| match b {
            RunB::Split => Some("split"),
            RunB::Sample => Some("sample"),
            _ => None,
        }) {
            parts.push(["cmp.b=", source].concat());
        }
        let p = self.rbo_p.get();
        if p != CompareOptions::default().rbo_p {
            parts.push(["cmp.p=", &p.to_string()].concat());
        }
        self.controls.with(|c| {
            if c.sort != PairSort::Order || c.descending {
                let direction = if c.descending { ".desc" } else { ".asc" };
                parts.push(["cmp.sort=", c.sort.key(), direction].concat());
            }
            if c.regressions_only {
                parts.push("cmp.reg=1".to_owned());
            }
            if c.lost_only {
                parts.push("cmp.lost=1".to_owned());
            }
            if let Some(modes) = &c.mode_pair {
                parts.push(["cmp.modes=", &ragtrace_core::encode_component(modes)].concat());
            }
        });
        if let Some(pair) = self.open_pair.get() {
            parts.push(["cmp.pair=", &(pair + 1).to_string()].concat());
        }
        parts.extend(self.many.hash_parts());
        parts
    }

    /// Applies the `cmp.` parts of a hash (decoded values, keys without the prefix);
    /// unreadable ones are ignored. Run B from files is not in links (traces never are).
    pub(crate) fn apply_hash(
        &self,
        state: AppState,
        golden: GoldenState,
        parts: &[(String, String)],
    ) {
        let mut controls = PairControls::default();
        let mut rbo_p = CompareOptions::default().rbo_p;
        let mut open = None;
        let mut source = None;
        let mut many = ManyLink::default();
        for (key, value) in parts {
            match key.as_str() {
                "b" => source = Some(value.as_str()),
                "p" => {
                    if let Some(p) = value.parse::<f64>().ok().filter(|p| *p > 0.0 && *p < 1.0) {
                        rbo_p = p;
                    }
                }
                "sort" => {
                    let (name, direction) = value.split_once('.').unwrap_or((value, "asc"));
                    if let Some(sort) = PairSort::ALL.into_iter().find(|s| s.key() == name) {
                        controls.sort = sort;
                        controls.descending = direction == "desc";
                    }
                }
                "reg" => controls.regressions_only = value == "1",
                "lost" => controls.lost_only = value == "1",
                "modes" => controls.mode_pair = Some(value.clone()),
                "pair" => {
                    open = value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n >= 1)
                        .map(|n| n - 1)
                }
                _ => many.read(key, value),
            }
        }
        match source {
            Some("split") if self.run_b.with_untracked(|b| *b != RunB::Split) => {
                self.run_b.set(RunB::Split)
            }
            Some("sample") if self.run_b.with_untracked(|b| *b != RunB::Sample) => {
                self.load_sample(state, golden);
            }
            _ => {}
        }
        if many.sample_runs && !self.many.holds_sample() {
            self.load_many_sample(state, golden);
        }
        self.many.apply_link(&many);
        if self.rbo_p.get_untracked() != rbo_p {
            self.rbo_p.set(rbo_p);
        }
        if self.controls.with_untracked(|c| *c != controls) {
            self.controls.set(controls);
        }
        if self.open_pair.get_untracked() != open {
            self.open_pair.set(open);
        }
    }
}

/// Indexes into `comparison.pairs` that pass the filters, in the chosen order (ties
/// keep run A's order). Undefined values (no RBO, no top quality) sort first.
pub(crate) fn visible_pairs(comparison: &RunComparison, controls: &PairControls) -> Vec<usize> {
    let passes = |p: &PairComparison| {
        (!controls.regressions_only || p.level_worsened())
            && (!controls.lost_only || p.b_kept_none)
            && controls
                .mode_pair
                .as_deref()
                .is_none_or(|m| p.mode_pair.label() == m)
    };
    let mut rows: Vec<usize> = comparison
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| passes(p))
        .map(|(i, _)| i)
        .collect();
    if controls.sort == PairSort::Order && !controls.descending {
        return rows;
    }
    let key = |i: usize, p: &PairComparison| -> f64 {
        match controls.sort {
            PairSort::Order => i as f64,
            PairSort::Rbo => p.rbo.map_or(f64::NEG_INFINITY, |r| r.ext),
            PairSort::Overlap => p.overlap_docs.unwrap_or(f64::NEG_INFINITY),
            PairSort::LevelChange => p.level_b as usize as f64 - p.level_a as usize as f64,
            PairSort::QualityChange => match (p.top_quality_a, p.top_quality_b) {
                (Some(a), Some(b)) => b - a,
                _ => f64::NEG_INFINITY,
            },
        }
    };
    // Sorted as (key, position) pairs of integers: ties keep run A's order in either
    // direction, and integer sorting is less code than a comparator per sort.
    let mut keyed: Vec<(u64, usize)> = rows
        .iter()
        .map(|&i| {
            let bits = key(i, &comparison.pairs[i]).to_bits();
            let ordered = if bits >> 63 == 1 {
                !bits
            } else {
                bits | 1 << 63
            };
            (
                if controls.descending {
                    !ordered
                } else {
                    ordered
                },
                i,
            )
        })
        .collect();
    keyed.sort_unstable();
    rows.clear();
    rows.extend(keyed.into_iter().map(|(_, i)| i));
    rows
}
