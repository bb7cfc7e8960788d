//! Comparing many runs: pairing 5 runs of 10,000 traces (evaluating each against the
//! cases and pairing them by case) against analysing one run (goal: at most 5x), and
//! the tests of 5 runs x 1,000 cases x 5 metrics (the randomised Tukey HSD with 10,000
//! permutations, the bootstrap with 10,000 resamples), which the page runs in chunks.
//!
//! `cargo bench -p ragtrace-core --bench many_runs` (small samples: the machine is
//! shared); the summary with the ratio is printed at the end.

use criterion::{criterion_group, criterion_main, Criterion};
use ragtrace_core::{
    analyze, evaluate_analysis, generate_many_runs, parse_cases, parse_document, Analysis,
    CaseMetrics, GoldenReport, ManyRunTable, ManyRunTest, ParsedBatch, RandomisedTukey, Settings,
    SignificanceOptions, PERMUTATION_SEED,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RUNS: usize = 5;
const TRACES: usize = 10_000;
const PER_TRACE: usize = 20;
const TEST_CASES: usize = 1_000;
/// Rounds of the anchor and the pairing, alternating.
const ROUNDS: usize = 15;
const NAMES: [&str; RUNS] = ["dense", "hybrid", "rerank", "chunks", "thresholds"];

/// Best of `rounds` wall-clock times.
fn best<T>(rounds: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

struct Runs {
    batches: Vec<ParsedBatch>,
    analyses: Vec<Analysis>,
    cases: ragtrace_core::CaseSet,
}

fn runs(queries: usize) -> Runs {
    let (texts, cases) = generate_many_runs(RUNS, queries, PER_TRACE, 42);
    let cases = parse_cases("cases.json", &cases).unwrap();
    let batches: Vec<ParsedBatch> = texts.iter().map(|t| parse_document("run", t)).collect();
    let analyses = batches
        .iter()
        .map(|b| analyze(b, &Settings::default(), false).unwrap())
        .collect();
    Runs {
        batches,
        analyses,
        cases,
    }
}

/// Pairing: every run's case metrics (the cases read once), then paired by case.
fn pair(runs: &Runs) -> ManyRunTable {
    let cases = CaseMetrics::new(&runs.cases);
    let metrics: Vec<Vec<Option<ragtrace_core::MetricValues>>> =
        runs.analyses.iter().map(|a| cases.of(a)).collect();
    ManyRunTable::from_case_metrics(&NAMES, &runs.cases, &metrics).unwrap()
}

/// The same from full evaluations (what the page holds when it has evaluated every run).
fn pair_evaluated(runs: &Runs) -> ManyRunTable {
    let reports: Vec<GoldenReport> = runs
        .analyses
        .iter()
        .map(|a| evaluate_analysis(&runs.cases, a))
        .collect();
    let named: Vec<(&str, &GoldenReport)> = NAMES.iter().copied().zip(&reports).collect();
    ManyRunTable::from_reports(&named).unwrap()
}

fn groups(c: &mut Criterion) {
    let small = runs(TEST_CASES);
    let table = pair(&small);
    let options = SignificanceOptions::default();
    let mut group = c.benchmark_group("many runs 5 x 1,000 cases");
    group.sample_size(10);
    group.bench_function("randomised Tukey HSD, 10,000 permutations", |b| {
        b.iter(|| {
            let mut t = RandomisedTukey::new(table.values(), RUNS, 10_000, PERMUTATION_SEED);
            t.advance(usize::MAX);
            black_box(t.p_values())
        })
    });
    group.bench_function("Tukey + bootstrap (ManyRunTest)", |b| {
        b.iter(|| black_box(ManyRunTest::new(&table, &options).finish()))
    });
    group.finish();
}

fn summary(_: &mut Criterion) {
    let load_before = load_average();
    let big = runs(TRACES);
    // The anchor and the pairing in alternate rounds: a change of the shared machine's
    // load reaches both. Both read memory more than they compute, so a neighbour's
    // traffic slows them down: the best of many rounds is the figure of a quiet moment.
    let (mut analyse_one, mut pairing) = (Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        analyse_one = analyse_one.min(best(1, || {
            analyze(&big.batches[0], &Settings::default(), false).unwrap()
        }));
        pairing = pairing.min(best(1, || pair(&big)));
    }
    let evaluated = best(3, || pair_evaluated(&big));
    let table = pair(&big);
    let small = runs(TEST_CASES);
    let small_table = pair(&small);
    let options = SignificanceOptions::default();
    let tukey = best(5, || {
        let mut t = RandomisedTukey::new(small_table.values(), RUNS, 10_000, PERMUTATION_SEED);
        t.advance(usize::MAX);
        t.p_values()
    });
    let both = best(3, || ManyRunTest::new(&small_table, &options).finish());
    // In chunks of 250 steps, as a page would run one per frame.
    let chunked = best(3, || {
        let mut test = ManyRunTest::new(&small_table, &options);
        while !test.advance(250) {}
        test.finish()
    });
    println!(
        "\n== ragtrace many-runs bench: {RUNS} runs of {} traces / {} candidates each, {} common cases",
        big.batches[0].traces.len(),
        big.batches[0].candidate_count(),
        table.case_ids.len()
    );
    println!(
        "   load average {load_before} before, {} after; best of {ROUNDS} for the anchor and the pairing (in alternate rounds), 5 for Tukey, 3 for the rest",
        load_average()
    );
    println!("{:<58} {:>9}", "", "best ms");
    println!("{:<58} {:>9.2}", "analyse one run", ms(analyse_one));
    println!(
        "{:<58} {:>9.2}",
        "pair 5 runs (CaseMetrics of each, paired by case)",
        ms(pairing)
    );
    println!(
        "{:<58} {:>9.2}",
        "the same from full evaluations (evaluate_analysis)",
        ms(evaluated)
    );
    println!(
        "=> pairing 5 runs / analysing one: {:.2}x (goal <= 5x)",
        pairing.as_secs_f64() / analyse_one.as_secs_f64()
    );
    println!(
        "{:<58} {:>9.2}",
        format!(
            "Tukey HSD, 5 x {} cases x 5 metrics x 10,000 permutations",
            small_table.case_ids.len()
        ),
        ms(tukey)
    );
    println!(
        "{:<58} {:>9.2}",
        "Tukey + bootstrap (10,000 resamples), one call",
        ms(both)
    );
    println!(
        "{:<58} {:>9.2}",
        "Tukey + bootstrap in chunks of 250 steps",
        ms(chunked)
    );
}

criterion_group!(benches, groups, summary);
criterion_main!(benches);
