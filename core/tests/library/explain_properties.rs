//! `explain` against brute force: every reported change, applied with a fresh `analyze`,
//! gives the stated status, level, low-quality flag or hit; no nearer value of the same
//! setting does (every integer value, and a fine grid of the continuous ones plus the
//! neighbouring `f64`); and a setting left out has no value that does.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ragtrace_core::CaseSet;
use ragtrace_core::{analyze, explain, Analysis, Level, ParsedBatch, Settings, Status};
use ragtrace_core::{Cause, Change};
use ragtrace_core::{SettingKey as Key, SettingValue as Value};
use serde_json::{json, Value as Json};

#[derive(Debug, Clone)]
struct GenCandidate {
    doc: u8,
    key: u8,
    rank: i8,
    score: Option<f64>,
    hybrid: bool,
    dense: Option<f64>,
}

fn candidate() -> impl Strategy<Value = GenCandidate> {
    (
        0u8..4,
        0u8..10,
        -1i8..9,
        prop_oneof![
            Just(None),
            Just(Some(f64::NAN)),
            (-0.3f64..2.0).prop_map(Some),
            (0u8..8).prop_map(|i| Some(f64::from(i) * 0.25)),
        ],
        any::<bool>(),
        prop_oneof![Just(None), (0.0f64..1.8).prop_map(Some)],
    )
        .prop_map(|(doc, key, rank, score, hybrid, dense)| GenCandidate {
            doc,
            key,
            rank,
            score,
            hybrid,
            dense,
        })
}

fn trace_json(i: usize, candidates: &[GenCandidate], own_return_n: Option<u8>) -> Json {
    let list: Vec<Json> = candidates
        .iter()
        .enumerate()
        .map(|(at, c)| {
            let mut o = serde_json::Map::new();
            // Some candidates have no docId: the evidenceKey stands in.
            if c.doc < 3 {
                o.insert("docId".into(), json!(format!("d{}", c.doc)));
            }
            o.insert("evidenceKey".into(), json!(format!("k{}", c.key)));
            // Rank 0 and -1 are invalid; ties are frequent.
            o.insert("originalRank".into(), json!(c.rank));
            if c.hybrid {
                o.insert("scoreLabel".into(), json!("hybrid"));
                o.insert("score".into(), json!(0.01));
                if let Some(d) = c.dense {
                    o.insert("denseDistance".into(), json!(d));
                }
            } else {
                o.insert("scoreLabel".into(), json!("dense"));
                match c.score {
                    Some(s) if s.is_finite() => {
                        o.insert("score".into(), json!(s));
                    }
                    Some(_) => {
                        o.insert("score".into(), json!("NaN"));
                    }
                    None => {}
                }
            }
            o.insert(
                "excerpt".into(),
                json!(format!("text {at} of doc {}", c.doc)),
            );
            Json::Object(o)
        })
        .collect();
    let mut t =
        json!({"requestId": format!("t{i}"), "caseId": format!("c{i}"), "candidates": list});
    if let Some(r) = own_return_n {
        t["options"] = json!({"returnN": r});
    }
    t
}

#[derive(Debug, Clone)]
struct GenSettings {
    return_n: usize,
    cap: usize,
    max_l2: f64,
    thresholds: [f64; 3],
    hybrid: u8,
    /// `minQuality` and `relativeQuality` (0 is off).
    floors: (f64, f64),
}

fn settings_strategy() -> impl Strategy<Value = GenSettings> {
    (
        1usize..5,
        1usize..4,
        prop_oneof![Just(1.0), 0.3f64..2.0],
        prop_oneof![
            Just([0.9, 0.75, 0.5]),
            (0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0).prop_map(|(a, b, c)| {
                let mut t = [a, b, c];
                t.sort_by(|x, y| y.total_cmp(x));
                t
            }),
            Just([0.75, 0.75, 0.5]),
        ],
        0u8..3,
        prop_oneof![
            2 => Just((0.0, 0.0)),
            1 => (0.0f64..0.8, Just(0.0)),
            1 => (Just(0.0), 0.0f64..0.9),
            1 => (0.0f64..0.6, 0.0f64..0.9),
        ],
    )
        .prop_map(
            |(return_n, cap, max_l2, thresholds, hybrid, floors)| GenSettings {
                return_n,
                cap,
                max_l2,
                thresholds,
                hybrid,
                floors,
            },
        )
}

fn user(s: &GenSettings) -> Settings {
    let mut settings = Settings::default();
    settings.put(Key::ReturnN, Value::Count(s.return_n));
    settings.put(Key::MaxChunksPerDocument, Value::Count(s.cap));
    settings.put(Key::MaxL2Distance, Value::Number(s.max_l2));
    settings.put(Key::PreciseThreshold, Value::Number(s.thresholds[0]));
    settings.put(Key::HighlyRelevantThreshold, Value::Number(s.thresholds[1]));
    settings.put(Key::ReferenceThreshold, Value::Number(s.thresholds[2]));
    let hq = ["rank", "denseWhenPresent", "maxRankDense"][usize::from(s.hybrid) % 3];
    let _ = settings.set("hybridQuality", hq);
    settings.put(Key::MinQuality, Value::Number(s.floors.0));
    settings.put(Key::RelativeQuality, Value::Number(s.floors.1));
    settings
}

/// The batch under `user` with `change` on top; `None` when that is invalid.
fn under(batch: &ParsedBatch, user: &Settings, change: &Change) -> Option<Analysis> {
    analyze(batch, &change.applied_to(user), false).ok()
}

fn status_of(a: &Analysis, trace: usize, input_index: usize) -> Status {
    a.traces[trace]
        .blocks()
        .find(|b| b.candidate.input_index == input_index)
        .map(|b| b.status)
        .unwrap_or_else(|| panic!("candidate {input_index} of trace {trace}"))
}

fn count_of(change: &Change, key: Key) -> Option<usize> {
    change.count(key)
}

fn number_of(change: &Change, key: Key) -> Option<f64> {
    match change.value(key) {
        Some(Value::Number(v)) => Some(v),
        _ => None,
    }
}

/// Every integer value of `key` nearer to `current` than `value` (both sides), from 1.
fn nearer_counts(current: usize, value: usize) -> impl Iterator<Item = usize> {
    let distance = current.abs_diff(value);
    (1..current + distance).filter(move |&w| w != current && w.abs_diff(current) < distance)
}

/// A fine grid strictly nearer to `current` than `value` on both sides ("nearest" is
/// in either direction), and the `f64` next to `value` towards `current`.
fn nearer_numbers(current: f64, value: f64) -> Vec<f64> {
    let mut out: Vec<f64> = (1..200)
        .flat_map(|i| {
            let step = (value - current) * f64::from(i) / 200.0;
            [current + step, current - step]
        })
        .filter(|w| (*w - current).abs() < (value - current).abs() && *w != current)
        .collect();
    let neighbour = if value > current {
        f64::from_bits(value.to_bits() - 1)
    } else {
        f64::from_bits(value.to_bits() + 1)
    };
    if neighbour != current && (neighbour - current).abs() < (value - current).abs() {
        out.push(neighbour);
    }
    out
}

const MAX_COUNT: usize = 12;

fn all_single_changes(current: &ragtrace_core::Config) -> Vec<Change> {
    let mut out = Vec::new();
    for v in 1..=MAX_COUNT {
        if v != current.return_n {
            out.push(Change::return_n(v));
        }
        if v != current.max_chunks_per_document {
            out.push(Change::max_chunks(v));
        }
    }
    for i in 1..=80 {
        out.push(Change::number(Key::MaxL2Distance, f64::from(i) * 0.05));
    }
    for i in 0..=50 {
        let t = f64::from(i) * 0.02;
        out.push(Change::number(Key::PreciseThreshold, t));
        out.push(Change::number(Key::HighlyRelevantThreshold, t));
        out.push(Change::number(Key::ReferenceThreshold, t));
    }
    out
}

fn level_rank(level: Level) -> usize {
    Level::ALL.iter().position(|&l| l == level).unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_reported_change_holds_and_is_the_least(
        traces in prop::collection::vec(prop::collection::vec(candidate(), 0..8), 1..3),
        own in prop::collection::vec(prop_oneof![Just(None), (1u8..4).prop_map(Some)], 3),
        s in settings_strategy(),
        expected in prop::collection::vec((0usize..3, prop::collection::vec(0u8..5, 0..3)), 0..4),
    ) {
        let docs: Vec<Json> = traces
            .iter()
            .enumerate()
            .map(|(i, c)| trace_json(i, c, own.get(i).copied().flatten()))
            .collect();
        let text = Json::Array(docs).to_string();
        let batch = ragtrace_core::parse_documents(&[("g.json".to_owned(), text)]);
        prop_assert!(batch.errors.is_empty());
        let user = user(&s);
        let cases_json: Vec<Json> = expected
            .iter()
            .enumerate()
            .map(|(i, (trace, docs))| json!({
                "caseId": format!("c{trace}"),
                "query": format!("q{i}"),
                "expectedDocIds": docs.iter().map(|d| format!("d{d}")).collect::<Vec<_>>(),
            }))
            .collect();
        let cases: CaseSet = ragtrace_core::parse_cases_value("cases", &Json::Array(cases_json))
            .unwrap_or_else(|e| panic!("{e:?}"));
        let Ok(explained) = explain(&batch, &user, Some(&cases)) else {
            // Settings the strategy made invalid: nothing to explain.
            return Ok(());
        };
        let now = analyze(&batch, &user, false).unwrap_or_else(|e| panic!("{e}"));
        let report_now = ragtrace_core::evaluate_analysis(&cases, &now);

        for (ti, te) in explained.traces.iter().enumerate() {
            let t = &now.traces[ti];
            let config = t.config;
            prop_assert_eq!(te.level, t.relevance_level);
            prop_assert_eq!(te.low_quality, t.low_quality);
            for c in &te.candidates {
                prop_assert_eq!(status_of(&now, ti, c.index), c.status);
                let accepted = |change: &Change| {
                    under(&batch, &user, change).is_some_and(|a| status_of(&a, ti, c.index) == Status::Accepted)
                };
                match c.status {
                    Status::BelowFloor => {
                        // Only a lower floor accepts it, and each one listed does.
                        for a in c.accepted_if {
                            prop_assert!(accepted(&a.set), "{} should accept {}", a.set, c.index);
                        }
                        prop_assert!(!c.accepted_if.is_empty() || c.reason.is_some());
                    }
                    Status::Duplicate | Status::Invalid => {
                        prop_assert!(c.accepted_if.is_empty() && c.reason.is_some());
                        // Truly nothing accepts it.
                        for change in all_single_changes(&config).iter().filter(|ch| count_of(ch, Key::ReturnN).is_some() || count_of(ch, Key::MaxChunksPerDocument).is_some()) {
                            prop_assert!(!accepted(change), "{change} accepts a {:?}", c.status);
                        }
                    }
                    Status::Accepted => {
                        for d in c.dropped_if {
                            prop_assert!(!accepted(&d.set), "{} should drop {}", d.set, c.index);
                            for (key, current) in [(Key::ReturnN, config.return_n), (Key::MaxChunksPerDocument, config.max_chunks_per_document)] {
                                if let Some(v) = count_of(&d.set, key) {
                                    for w in nearer_counts(current, v) {
                                        prop_assert!(accepted(&Change::single(key, Value::Count(w))), "{key:?} {w} nearer than {v} drops it");
                                    }
                                }
                            }
                        }
                        // A setting not listed has no value that drops it.
                        for key in [Key::ReturnN, Key::MaxChunksPerDocument] {
                            if c.dropped_if.iter().all(|d| count_of(&d.set, key).is_none()) {
                                for w in 1..=MAX_COUNT {
                                    prop_assert!(accepted(&Change::single(key, Value::Count(w))), "{key:?} {w} drops {} but is not listed", c.index);
                                }
                            }
                        }
                    }
                    Status::DocCap | Status::ReturnN => {
                        prop_assert!(!c.accepted_if.is_empty(), "a valid candidate is always acceptable");
                        let singles = c.accepted_if.iter().all(|a| a.set.settings().count() == 1);
                        for a in c.accepted_if {
                            prop_assert!(accepted(&a.set), "{} should accept {}", a.set, c.index);
                        }
                        if singles {
                            for a in c.accepted_if {
                                for (key, current) in [(Key::ReturnN, config.return_n), (Key::MaxChunksPerDocument, config.max_chunks_per_document)] {
                                    if let Some(v) = count_of(&a.set, key) {
                                        for w in nearer_counts(current, v) {
                                            prop_assert!(!accepted(&Change::single(key, Value::Count(w))), "{key:?} {w} is nearer than {v}");
                                        }
                                    }
                                }
                            }
                        }
                        for key in [Key::ReturnN, Key::MaxChunksPerDocument] {
                            if c.accepted_if.iter().all(|a| count_of(&a.set, key).is_none() || !singles) {
                                for w in 1..=MAX_COUNT {
                                    prop_assert!(!accepted(&Change::single(key, Value::Count(w))), "{key:?} {w} accepts {} alone but is not listed", c.index);
                                }
                            }
                        }
                        if !singles {
                            // No pair nearer on both settings accepts it.
                            for a in c.accepted_if {
                                let (r, cap) = (count_of(&a.set, Key::ReturnN).unwrap_or(0), count_of(&a.set, Key::MaxChunksPerDocument).unwrap_or(0));
                                for r2 in 1..=MAX_COUNT {
                                    for c2 in 1..=MAX_COUNT {
                                        let nearer = r2.abs_diff(config.return_n) <= r.abs_diff(config.return_n)
                                            && c2.abs_diff(config.max_chunks_per_document) <= cap.abs_diff(config.max_chunks_per_document)
                                            && (r2, c2) != (r, cap);
                                        if nearer {
                                            let both = Change::single(Key::ReturnN, Value::Count(r2)).applied_to(&Change::max_chunks(c2).applied_to(&user));
                                            let ok = analyze(&batch, &both, false).is_ok_and(|x| status_of(&x, ti, c.index) == Status::Accepted);
                                            prop_assert!(!ok, "returnN {r2}, cap {c2} beats {}", a.set);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }

            // Levels: each change gives the stated level, moves it the way listed, and
            // nothing nearer on the same setting moves it that way.
            let level_under = |change: &Change| under(&batch, &user, change).map(|a| a.traces[ti].relevance_level);
            let low_under = |change: &Change| under(&batch, &user, change).map(|a| a.traces[ti].low_quality);
            for l in &te.level_if {
                prop_assert_eq!(level_under(&l.set), Some(l.level), "{}", l.set);
                prop_assert!(l.level != te.level);
                let up = level_rank(l.level) < level_rank(te.level);
                let moves = |change: &Change| level_under(change).is_some_and(|got| if up { level_rank(got) < level_rank(te.level) } else { level_rank(got) > level_rank(te.level) });
                for s in l.set.settings() {
                    match s.value {
                        Value::Count(v) => {
                            let current = if s.key == Key::ReturnN { config.return_n } else { config.max_chunks_per_document };
                            for w in nearer_counts(current, v) {
                                prop_assert!(!moves(&Change::single(s.key, Value::Count(w))), "{:?} {w} nearer than {v}", s.key);
                            }
                        }
                        Value::Number(v) => {
                            let current = match config.value(s.key) { Some(Value::Number(c)) => c, _ => f64::NAN };
                            for w in nearer_numbers(current, v) {
                                prop_assert!(!moves(&Change::number(s.key, w)), "{:?} {w} nearer than {v}", s.key);
                            }
                        }
                        _ => {}
                    }
                }
            }
            // Completeness: a single setting on the grid that moves the level has an
            // entry for that setting and direction.
            for change in all_single_changes(&config) {
                let Some(got) = level_under(&change) else { continue };
                if got == te.level {
                    continue;
                }
                let up = level_rank(got) < level_rank(te.level);
                let key = change.settings().next().map(|s| s.key);
                let listed = te.level_if.iter().any(|l| l.set.settings().next().map(|s| s.key) == key && (level_rank(l.level) < level_rank(te.level)) == up);
                prop_assert!(listed, "{change} moves the level to {got:?} but {key:?} is not listed that way: {:?}", te.level_if);
            }
            for l in &te.low_quality_if {
                prop_assert_eq!(low_under(&l.set), Some(l.low_quality), "{}", l.set);
                prop_assert!(l.low_quality != te.low_quality);
                for s in l.set.settings() {
                    if let Value::Number(v) = s.value {
                        let current = match config.value(s.key) { Some(Value::Number(c)) => c, _ => f64::NAN };
                        for w in nearer_numbers(current, v) {
                            // A value past a bound on the far side is no change.
                            prop_assert_ne!(low_under(&Change::number(s.key, w)), Some(!te.low_quality), "{:?} {} nearer than {}", s.key, w, v);
                        }
                    }
                    if let Value::Count(v) = s.value {
                        let current = if s.key == Key::ReturnN { config.return_n } else { config.max_chunks_per_document };
                        for w in nearer_counts(current, v) {
                            prop_assert_eq!(low_under(&Change::single(s.key, Value::Count(w))), Some(te.low_quality));
                        }
                    }
                }
            }
            for change in all_single_changes(&config) {
                if low_under(&change).is_some_and(|low| low != te.low_quality) {
                    let key = change.settings().next().map(|s| s.key);
                    let listed = te.low_quality_if.iter().any(|l| l.set.settings().next().map(|s| s.key) == key);
                    prop_assert!(listed, "{change} flips lowQuality but is not listed: {:?}", te.low_quality_if);
                }
            }
        }

        // Cases: the stated cause, each fix finds the case with the stated hit, and no
        // nearer value of the same setting finds it.
        for ((ce, report), case) in explained.cases.iter().zip(&report_now.cases).zip(&cases.cases) {
            prop_assert_eq!(ce.hit, report.level);
            match ce.cause {
                Cause::NoTrace => prop_assert!(report.trace_name.is_none()),
                Cause::Found => prop_assert!(report.doc_hit),
                Cause::NotRetrieved | Cause::Dropped => prop_assert!(!report.doc_hit),
            }
            let one = CaseSet { cases: vec![case.clone()], diagnostics: Vec::new() };
            let found = |change: &Change| under(&batch, &user, change).map(|a| ragtrace_core::evaluate_analysis(&one, &a).cases[0].clone());
            for f in &ce.found_if {
                let got = found(&f.set);
                prop_assert!(got.as_ref().is_some_and(|g| g.doc_hit && g.level == f.hit), "{} should find {}", f.set, ce.case_id);
            }
            if ce.cause != Cause::Found {
                let ti = ce.trace_index;
                let singles = ce.found_if.iter().all(|f| f.set.settings().count() == 1);
                for key in [Key::ReturnN, Key::MaxChunksPerDocument] {
                    let current = ti.map_or(1, |i| if key == Key::ReturnN { now.traces[i].config.return_n } else { now.traces[i].config.max_chunks_per_document });
                    let listed = ce.found_if.iter().find_map(|f| if singles { count_of(&f.set, key) } else { None });
                    for w in 1..=MAX_COUNT {
                        if w == current { continue; }
                        let nearer = listed.is_none_or(|v| w.abs_diff(current) < v.abs_diff(current));
                        if nearer {
                            let hit = found(&Change::single(key, Value::Count(w))).is_some_and(|g| g.doc_hit);
                            prop_assert!(!hit, "{key:?} {w} finds {} nearer than listed {listed:?}", ce.case_id);
                        }
                    }
                }
                if ce.cause == Cause::NotRetrieved || ce.cause == Cause::NoTrace {
                    prop_assert!(ce.found_if.is_empty());
                }
            }
        }
        let _ = number_of;
    }
}
