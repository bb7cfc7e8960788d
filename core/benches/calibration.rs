//! Calibration of 10,000 golden cases: the work left when a knob moves (the golden
//! report already computed, as the page's Golden tab has it), the whole of it with
//! the golden evaluation, the golden evaluation alone, the floor sweep, and a bare
//! sort of 10,000 numbers for scale.
//!
//! `cargo bench -p ragtrace-core --bench calibration`

use criterion::{criterion_group, criterion_main, Criterion};
use ragtrace_core::{analyze, generate_batch, generate_cases, parse_documents, Settings};
use ragtrace_core::{calibrate, calibrate_evaluated, calibrate_linked, calibration_links};
use ragtrace_core::{evaluate_analysis, floor_sweep_of, parse_cases};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// `generate_cases` writes one case per five traces (plus one unanswered case).
const TRACES: usize = 50_000;
const PER_TRACE: usize = 8;

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

fn bench(c: &mut Criterion) {
    let batch = parse_documents(&[(
        "generated.json".to_owned(),
        generate_batch(TRACES, PER_TRACE, 7),
    )]);
    let cases =
        parse_cases("cases.json", &generate_cases(TRACES, PER_TRACE, 7)).unwrap_or_default();
    let analysis = analyze(&batch, &Settings::default(), false).unwrap();
    let report = evaluate_analysis(&cases, &analysis);
    let result = calibrate_evaluated(&cases, &report, &analysis);
    let numbers: Vec<f64> = analysis
        .traces
        .iter()
        .take(cases.cases.len())
        .map(|t| t.top_quality.unwrap_or(0.0))
        .collect();

    let links = calibration_links(&cases, &analysis);
    let linking = best(10, || calibration_links(&cases, &analysis));
    let knob = best(10, || calibrate_linked(&links, &cases, &report, &analysis));
    let whole = best(3, || calibrate(&cases, &analysis));
    let evaluating = best(5, || evaluate_analysis(&cases, &analysis));
    let sort = best(10, || {
        let mut v = numbers.clone();
        v.sort_by(f64::total_cmp);
        v
    });
    println!(
        "calibration of {} cases ({} linked, {} traces, {} thresholds): \
         knob moved (links and golden report reused) {:.2} ms, linking once {:.2} ms, \
         with the golden evaluation {:.1} ms, the golden evaluation alone {:.1} ms; \
         a sort of {} numbers {:.3} ms (knob / sort = {:.0}x); frame budget 16.7 ms",
        cases.cases.len(),
        result.linked,
        analysis.traces.len(),
        result.gate.all.points.len(),
        ms(knob),
        ms(linking),
        ms(whole),
        ms(evaluating),
        numbers.len(),
        ms(sort),
        knob.as_secs_f64() / sort.as_secs_f64().max(1e-9),
    );

    // The floor sweep (contract section 10.2): 202 floor points over the linked traces,
    // linking included.
    let sweep = floor_sweep_of(&cases, &analysis);
    let sweeping = best(10, || floor_sweep_of(&cases, &analysis));
    println!(
        "floor sweep of {} cases over {} traces ({} + {} floor points): {:.2} ms \
         (goal 50 ms); suggested minQuality {}, relativeQuality {}",
        cases.cases.len(),
        analysis.traces.len(),
        sweep.min_quality.len(),
        sweep.relative_quality.len(),
        ms(sweeping),
        sweep.suggested.min_quality,
        sweep.suggested.relative_quality,
    );

    let mut group = c.benchmark_group("calibration");
    group.sample_size(10);
    group.bench_function("10k cases, knob moved", |b| {
        b.iter(|| calibrate_linked(&links, &cases, &report, &analysis))
    });
    group.bench_function("10k cases, linking included", |b| {
        b.iter(|| calibrate_evaluated(&cases, &report, &analysis))
    });
    group.bench_function("10k cases, floor sweep", |b| {
        b.iter(|| floor_sweep_of(&cases, &analysis))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
