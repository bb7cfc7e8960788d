//! Comparing two runs: pairing + comparing 2 x 10,000 traces x 50 candidates against
//! analysing run A alone (the page does both on every knob change), and the golden
//! significance (1,000 cases x 5 metrics x 10,000 permutations), which the page computes
//! after the paint.
//!
//! `cargo bench -p ragtrace-core --bench compare` (small samples: the machine is shared);
//! the summary with the ratios is printed at the end.

use criterion::{criterion_group, criterion_main, Criterion};
use ragtrace_core::GoldenLevel;
use ragtrace_core::{add_significance, compare_golden, CaseScore, SignificanceOptions};
use ragtrace_core::{
    analyze, bootstrap_mean_intervals, generate_paired_runs, parse_document, sign_flip_p_values,
    Settings, SplitMix64, BOOTSTRAP_SEED, PERMUTATION_SEED,
};
use ragtrace_core::{compare_paired, compare_report, pair_runs, CompareOptions};
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
    let mut rng = SplitMix64::new(11);
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
                        hit * unit() * 0.8,
                    ],
                }
            })
            .collect()
    };
    let a = side(0.0);
    let b = side(0.02);
    (a, b)
}

/// The machine's 1-minute load average (Linux), to print beside the figures.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Times of each step, taken in turn round after round so that all of them see the same
/// load of the (shared) machine, each after writing 128 MB elsewhere (as after a user's
/// pause: a step repeated in a loop finds much of its data in the caches, which pair +
/// compare, two steps over different data, does not): `times[step][round]`.
fn rounds(rounds: usize, steps: &mut [&mut dyn FnMut()]) -> Vec<Vec<Duration>> {
    let mut times = vec![Vec::with_capacity(rounds); steps.len()];
    // More than the per-core caches and a good part of a shared last-level cache.
    let mut evict = vec![0u8; 128 << 20];
    for round in 0..rounds {
        for (step, run) in steps.iter_mut().enumerate() {
            for (i, byte) in evict.iter_mut().enumerate().step_by(64) {
                *byte = (i + round + step) as u8;
            }
            black_box(&evict);
            let start = Instant::now();
            run();
            times[step].push(start.elapsed());
        }
    }
    times
}

/// Best and median.
fn best_median(times: &[Duration]) -> (Duration, Duration) {
    let mut sorted = times.to_vec();
    sorted.sort();
    (sorted[0], sorted[sorted.len() / 2])
}

/// The headline figure: pairing + comparing 2 x 10,000 traces x 50 candidates against
/// analysing run A alone (goal: at most 2x), then what else the Compare tab and the CLI
/// do, and the significance tests. Printed after criterion's groups.
fn summary(_: &mut Criterion) {
    let load_before = load_average();
    let (dense, hybrid, _) = generate_paired_runs(QUERIES, PER_TRACE, 42);
    let (batch_a, batch_b) = (parse_document("a", &dense), parse_document("b", &hybrid));
    let settings = Settings::default();
    let options = CompareOptions::default();
    let (a, b) = (
        analyze(&batch_a, &settings, false).unwrap(),
        analyze(&batch_b, &settings, false).unwrap(),
    );
    let pairing = pair_runs(&batch_a.traces, &batch_b.traces);
    const ROUNDS: usize = 15;
    let times = rounds(
        ROUNDS,
        &mut [
            &mut || drop(black_box(analyze(&batch_a, &settings, false).unwrap())),
            &mut || drop(black_box(pair_runs(&batch_a.traces, &batch_b.traces))),
            &mut || drop(black_box(compare_paired(&a, &b, &pairing, &options))),
            &mut || {
                let pairing = pair_runs(&batch_a.traces, &batch_b.traces);
                drop(black_box(compare_paired(&a, &b, &pairing, &options)));
            },
            &mut || drop(black_box(analyze(&batch_b, &settings, false).unwrap())),
        ],
    );
    // The ratio within each round too, so that a burst of load moves both sides.
    let mut round_ratios: Vec<f64> = times[3]
        .iter()
        .zip(&times[0])
        .map(|(both, a)| both.as_secs_f64() / a.as_secs_f64())
        .collect();
    round_ratios.sort_by(f64::total_cmp);
    let [analyse_a, pair, compare, pair_and_compare, analyse_b] =
        [0, 1, 2, 3, 4].map(|step| best_median(&times[step]));
    let ratio = |d: Duration| d.as_secs_f64() / analyse_a.0.as_secs_f64();
    println!(
        "\n== ragtrace compare bench: run A {} traces / {} candidates, run B {} traces / {} candidates, {} pairs",
        batch_a.traces.len(),
        batch_a.candidate_count(),
        batch_b.traces.len(),
        batch_b.candidate_count(),
        pairing.links.len()
    );
    println!(
        "   {ROUNDS} rounds, each step in turn after writing 128 MB elsewhere; load average {load_before} before, {} after",
        load_average()
    );
    println!(
        "{:<44} {:>9} {:>9} {:>12}",
        "", "best ms", "median", "best / A"
    );
    let row = |what: &str, (best, median): (Duration, Duration)| {
        println!(
            "{what:<44} {:>9.2} {:>9.2} {:>11.2}x",
            ms(best),
            ms(median),
            ratio(best)
        );
    };
    row("analyse run A alone", analyse_a);
    row("pair_runs (once per pair of batches)", pair);
    row("compare_paired (per knob change)", compare);
    row(
        "pair + compare (one call after the other)",
        pair_and_compare,
    );
    println!(
        "=> pair + compare / analyse A: {:.2}x best over best, {:.2}x median of the rounds' ratios (goal <= 2x)",
        ratio(pair_and_compare.0),
        round_ratios[ROUNDS / 2]
    );
    row(
        "knob change: analyse A and B + compare",
        (
            analyse_a.0 + analyse_b.0 + compare.0,
            analyse_a.1 + analyse_b.1 + compare.1,
        ),
    );
    let report = best(3, || {
        compare_report(
            &a,
            &b,
            &pairing,
            &compare_paired(&a, &b, &pairing, &options),
            None,
        )
    });
    println!(
        "{:<44} {:>9.2}",
        "compare.json object (every pair's lists)",
        ms(report)
    );

    let (ga, gb) = golden_pair();
    let deltas = best(10, || compare_golden(&ga, &gb));
    let significance = best(5, || {
        let mut c = compare_golden(&ga, &gb);
        add_significance(&mut c, &SignificanceOptions::default());
        c
    });
    let diffs: Vec<Vec<f64>> = {
        let c = compare_golden(&ga, &gb);
        (0..5)
            .map(|m| c.cases.iter().map(|d| d.metrics[m].delta).collect())
            .collect()
    };
    let slices: Vec<&[f64]> = diffs.iter().map(Vec::as_slice).collect();
    let permutations = best(5, || sign_flip_p_values(&slices, 10_000, PERMUTATION_SEED));
    let bootstrap = best(5, || {
        bootstrap_mean_intervals(&slices, 10_000, 0.95, BOOTSTRAP_SEED)
    });
    for (what, time) in [
        (format!("golden deltas, {CASES} cases"), deltas),
        (
            format!("randomisation test {CASES} x 5 x 10,000"),
            permutations,
        ),
        (format!("bootstrap CI {CASES} x 5 x 10,000"), bootstrap),
        (
            "all significance (both + t-test + Holm)".to_owned(),
            significance,
        ),
    ] {
        println!("{what:<44} {:>9.2}", ms(time));
    }
}

fn benches(c: &mut Criterion) {
    let (dense, hybrid, _) = generate_paired_runs(QUERIES, PER_TRACE, 42);
    let (batch_a, batch_b) = (parse_document("a", &dense), parse_document("b", &hybrid));
    let settings = Settings::default();
    let options = CompareOptions::default();
    let a = analyze(&batch_a, &settings, false).unwrap();
    let b = analyze(&batch_b, &settings, false).unwrap();
    let pairing = pair_runs(&batch_a.traces, &batch_b.traces);
    let mut group = c.benchmark_group("compare 2 x 10,000 x 50");
    group.sample_size(10);
    group.bench_function("analyze run A", |bench| {
        bench.iter(|| analyze(&batch_a, &settings, false).unwrap())
    });
    group.bench_function("pair_runs", |bench| {
        bench.iter(|| pair_runs(&batch_a.traces, &batch_b.traces))
    });
    group.bench_function("compare_paired", |bench| {
        bench.iter(|| compare_paired(&a, &b, &pairing, &options))
    });
    group.bench_function("pair_runs + compare_paired", |bench| {
        bench.iter(|| {
            let pairing = pair_runs(&batch_a.traces, &batch_b.traces);
            compare_paired(&a, &b, &pairing, &options)
        })
    });
    group.finish();
}

criterion_group!(compare, benches, summary);
criterion_main!(compare);
