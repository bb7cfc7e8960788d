//! Comparing two runs: pairing + comparing 2 x 10,000 traces x 50 candidates against
//! analysing run A alone (the page does both on every knob change), and the golden
//! significance (1,000 cases x 5 metrics x 10,000 permutations), which the page computes
//! after the paint.
//!
//! `cargo bench -p ragtrace-core --bench compare` (small samples: the machine is shared).

use criterion::{criterion_group, criterion_main, Criterion};
use ragtrace_core::golden::GoldenLevel;
use ragtrace_core::runs::golden_delta::{self, CaseScore, SignificanceOptions};
use ragtrace_core::runs::{self, CompareOptions};
use ragtrace_core::{analyze, input, stats, testdata, Settings};
use std::hint::black_box;
use std::time::{Duration, Instant};

const QUERIES: usize = 10_000;
const PER_TRACE: usize = 50;
const CASES: usize = 1_000;

/// Best of `runs` wall-clock times.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
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

/// Two evaluations of `CASES` cases with metric values that differ a little.
fn golden_pair() -> (Vec<CaseScore>, Vec<CaseScore>) {
    let mut rng = stats::SplitMix64::new(11);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut side = |shift: f64| -> Vec<CaseScore> {
        (0..CASES)
            .map(|i| {
                let hit = if unit() < 0.6 + shift { 1.0 } else { 0.0 };
                CaseScore {
                    case_id: format!("case-{i}"),
                    level: if hit > 0.0 {
                        GoldenLevel::Strong
                    } else {
                        GoldenLevel::Miss
                    },
                    values: [
                        hit,
                        hit * unit(),
                        hit * unit() * 0.4,
                        hit / (1.0 + (unit() * 5.0).floor()),
                        hit * unit(),
                    ],
                }
            })
            .collect()
    };
    let a = side(0.0);
    let b = side(0.02);
    (a, b)
}

fn summary() {
    let (dense, hybrid, _) = testdata::generate_paired_runs(QUERIES, PER_TRACE, 42);
    let (batch_a, batch_b) = (
        input::parse_document("a", &dense),
        input::parse_document("b", &hybrid),
    );
    println!(
        "\n== ragtrace compare bench: run A {} traces / {} candidates, run B {} traces / {} candidates",
        batch_a.traces.len(),
        batch_a.candidate_count(),
        batch_b.traces.len(),
        batch_b.candidate_count()
    );
    let settings = Settings::default();
    let options = CompareOptions::default();
    let analyse_a = best(10, || analyze(&batch_a, &settings, false).unwrap());
    let analyse_both = best(10, || {
        (
            analyze(&batch_a, &settings, false).unwrap(),
            analyze(&batch_b, &settings, false).unwrap(),
        )
    });
    let (a, b) = (
        analyze(&batch_a, &settings, false).unwrap(),
        analyze(&batch_b, &settings, false).unwrap(),
    );
    let pair = best(5, || runs::pair_runs(&batch_a.traces, &batch_b.traces));
    let pairing = runs::pair_runs(&batch_a.traces, &batch_b.traces);
    let compare = best(10, || runs::compare_paired(&a, &b, &pairing, &options));
    let pairs = pairing.links.len();
    let ratio = |d: Duration| d.as_secs_f64() / analyse_a.as_secs_f64();
    println!("analyse run A alone              {:>8.2} ms", ms(analyse_a));
    println!(
        "pair ({pairs} pairs, once per load) {:>8.2} ms  ({:.2}x analysing A)",
        ms(pair),
        ratio(pair)
    );
    println!(
        "compare the pairs (per knob)     {:>8.2} ms  ({:.2}x analysing A)",
        ms(compare),
        ratio(compare)
    );
    println!(
        "pair + compare                   {:>8.2} ms  ({:.2}x analysing A; goal <= 2x)",
        ms(pair + compare),
        ratio(pair + compare)
    );
    println!(
        "knob change: analyse A and B + compare {:>8.2} ms  ({:.2}x analysing A)",
        ms(analyse_both + compare),
        ratio(analyse_both + compare)
    );
    let report = best(3, || {
        runs::compare_report(
            &a,
            &b,
            &pairing,
            &runs::compare_paired(&a, &b, &pairing, &options),
            None,
        )
    });
    println!("compare.json object (details) {:>8.2} ms", ms(report));

    let (ga, gb) = golden_pair();
    let deltas = best(10, || golden_delta::compare_golden(&ga, &gb));
    let significance = best(5, || {
        let mut c = golden_delta::compare_golden(&ga, &gb);
        golden_delta::add_significance(&mut c, &SignificanceOptions::default());
        c
    });
    let diffs: Vec<Vec<f64>> = {
        let c = golden_delta::compare_golden(&ga, &gb);
        (0..5)
            .map(|m| c.cases.iter().map(|d| d.metrics[m].delta).collect())
            .collect()
    };
    let slices: Vec<&[f64]> = diffs.iter().map(Vec::as_slice).collect();
    let permutations = best(5, || {
        stats::sign_flip_p_values(&slices, 10_000, stats::PERMUTATION_SEED)
    });
    let bootstrap = best(5, || {
        stats::bootstrap_mean_intervals(&slices, 10_000, 0.95, stats::BOOTSTRAP_SEED)
    });
    println!("golden deltas, {CASES} cases      {:>8.2} ms", ms(deltas));
    println!(
        "randomisation test {CASES} x 5 x 10,000   {:>8.1} ms",
        ms(permutations)
    );
    println!(
        "bootstrap CI {CASES} x 5 x 10,000         {:>8.1} ms",
        ms(bootstrap)
    );
    println!(
        "all significance (both + t-test + Holm) {:>8.1} ms",
        ms(significance)
    );
}

fn benches(c: &mut Criterion) {
    summary();
    let (dense, hybrid, _) = testdata::generate_paired_runs(2_000, PER_TRACE, 42);
    let settings = Settings::default();
    let a = analyze(&input::parse_document("a", &dense), &settings, false).unwrap();
    let b = analyze(&input::parse_document("b", &hybrid), &settings, false).unwrap();
    let mut group = c.benchmark_group("compare");
    group.sample_size(10);
    group.bench_function("compare_runs 2 x 2,000 x 50", |bench| {
        bench.iter(|| runs::compare_runs(&a, &b, &CompareOptions::default()))
    });
    let pairing = runs::pair_runs(&runs::traces_of(&a), &runs::traces_of(&b));
    group.bench_function("compare_paired 2 x 2,000 x 50", |bench| {
        bench.iter(|| runs::compare_paired(&a, &b, &pairing, &CompareOptions::default()))
    });
    group.finish();
}

criterion_group!(compare, benches);
criterion_main!(compare);
