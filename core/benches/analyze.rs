//! Throughput of parse + analyze against a generic `serde_json::Value` parse of the same
//! text, the cost of a recompute on an already parsed batch, and peak memory; and a
//! knob change at 100,000 and 1,000,000 candidates, recomputed in full against
//! `Analysis::reanalyze`.
//!
//! `cargo bench -p ragtrace-core` (sample sizes are small: the machine is shared);
//! `RAGTRACE_KNOBS=<runs>` prints only the knob-change figures, medians of `runs`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ragtrace_core::{analyze, generate_batch, parse_document, Analysis, ParsedBatch, Settings};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Counts live bytes and their peak, so the bench can report peak memory per phase.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Off in profile mode: the counting is two atomics per allocation that the product does
/// not pay (about 7% of a recompute's samples), and profile mode reports no memory.
static COUNTING: AtomicBool = AtomicBool::new(true);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const TRACES: usize = 5_000;
/// Traces of the 1,000,000-candidate batch of the knob figures.
const TRACES_1M: usize = 50_000;
const PER_TRACE: usize = 20;

fn text() -> String {
    generate_batch(TRACES, PER_TRACE, 42)
}

fn changed_settings() -> Settings {
    Settings {
        return_n: Some(3),
        max_l2_distance: Some(1.3),
        reference_threshold: Some(0.6),
        ..Settings::default()
    }
}

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

/// `runs` wall-clock times of `a` and of `b`, taken in turn so both see the same load
/// of the (shared) machine; each sorted.
fn interleaved<A, B>(
    runs: usize,
    mut a: impl FnMut() -> A,
    mut b: impl FnMut() -> B,
) -> (Vec<Duration>, Vec<Duration>) {
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    let (mut ta, mut tb): (Vec<_>, Vec<_>) = (0..runs.max(1))
        .map(|_| {
            (
                time(&mut || drop(black_box(a()))),
                time(&mut || drop(black_box(b()))),
            )
        })
        .unzip();
    ta.sort();
    tb.sort();
    (ta, tb)
}

/// One kind of knob, as two settings a slider moves between.
struct Knob {
    name: &'static str,
    from: Settings,
    to: Settings,
}

/// The knob classes of `Analysis::reanalyze`: a threshold re-levels, `maxL2Distance`
/// recomputes the qualities read from a distance, `returnN` decides the blocks again.
fn knobs() -> [Knob; 3] {
    let with = |change: fn(&mut Settings)| {
        let mut settings = Settings::default();
        change(&mut settings);
        settings
    };
    [
        Knob {
            name: "referenceThreshold 0.5 -> 0.6",
            from: with(|s| s.reference_threshold = Some(0.5)),
            to: with(|s| s.reference_threshold = Some(0.6)),
        },
        Knob {
            name: "maxL2Distance 1.0 -> 1.3",
            from: with(|s| s.max_l2_distance = Some(1.0)),
            to: with(|s| s.max_l2_distance = Some(1.3)),
        },
        Knob {
            name: "returnN 5 -> 3",
            from: with(|s| s.return_n = Some(5)),
            to: with(|s| s.return_n = Some(3)),
        },
    ]
}

/// The batch of `traces` x [`PER_TRACE`] candidates, parsed (the text dropped).
fn parsed(traces: usize) -> ParsedBatch {
    parse_document("bench", &generate_batch(traces, PER_TRACE, 42))
}

fn analysed(batch: &ParsedBatch, settings: &Settings) -> Analysis {
    analyze(batch, settings, true).unwrap()
}

/// Per knob class: `analyze` under the moved knob against `reanalyze` from the analysis
/// before the move (both with the sweep, as the page asks, and dropping the result).
fn knob_figures(batch: &ParsedBatch, runs: usize) {
    println!(
        "\n== knob change, {} candidates ({} traces), {runs} runs each, interleaved",
        batch.candidate_count(),
        batch.traces.len()
    );
    println!(
        "{:<30} {:>19} {:>19} {:>13}",
        "knob", "full best/median", "incremental", "ratio"
    );
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for knob in knobs() {
        let before = analysed(batch, &knob.from);
        let (full, incremental) = interleaved(
            runs,
            || analysed(batch, &knob.to),
            || before.reanalyze(batch, &knob.to).unwrap(),
        );
        let best = |t: &[Duration]| ms(t[0]);
        let median = |t: &[Duration]| ms(t[t.len() / 2]);
        println!(
            "{:<30} {:>8.3} /{:>7.3} ms {:>8.3} /{:>7.3} ms {:>5.1}x /{:>5.1}x",
            knob.name,
            best(&full),
            median(&full),
            best(&incremental),
            median(&incremental),
            best(&full) / best(&incremental),
            median(&full) / median(&incremental),
        );
    }
}

/// Criterion's own figures for the same moves.
fn knob_benches(c: &mut Criterion, batch: &ParsedBatch, group: &str) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (class, knob) in ["threshold", "max_l2_distance", "return_n"]
        .into_iter()
        .zip(knobs())
    {
        let before = analysed(batch, &knob.from);
        group.bench_function(format!("{class}/full"), |b| {
            b.iter(|| analysed(black_box(batch), &knob.to))
        });
        group.bench_function(format!("{class}/incremental"), |b| {
            b.iter(|| before.reanalyze(black_box(batch), &knob.to).unwrap())
        });
    }
    group.finish();
}

/// Peak bytes allocated above the current level while `f` runs (its result included).
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

fn summary() {
    let text = text();
    let mb = text.len() as f64 / 1e6;
    let batch = parse_document("bench", &text);
    println!(
        "\n== ragtrace bench: {} traces, {} candidates, {:.1} MB JSON",
        batch.traces.len(),
        batch.candidate_count(),
        mb
    );
    let value = best(5, || {
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    });
    let parse = best(5, || parse_document("bench", &text));
    let parse_analyze = best(5, || {
        let batch = parse_document("bench", &text);
        analyze(&batch, &Settings::default(), true).unwrap()
    });
    let settings = changed_settings();
    let recompute = best(10, || analyze(&batch, &settings, true).unwrap());
    let serialise = {
        let analysis = analyze(&batch, &settings, false).unwrap();
        best(3, || serde_json::to_string(&analysis).unwrap())
    };
    let rate = |d: Duration| mb / d.as_secs_f64();
    println!(
        "serde_json::Value parse   {:>8.1} ms  {:>7.1} MB/s",
        value.as_secs_f64() * 1e3,
        rate(value)
    );
    println!(
        "parse only                {:>8.1} ms  {:>7.1} MB/s",
        parse.as_secs_f64() * 1e3,
        rate(parse)
    );
    println!(
        "parse + analyze           {:>8.1} ms  {:>7.1} MB/s  ({:.2}x the Value parse's throughput)",
        parse_analyze.as_secs_f64() * 1e3,
        rate(parse_analyze),
        value.as_secs_f64() / parse_analyze.as_secs_f64()
    );
    println!(
        "recompute (new settings)  {:>8.2} ms",
        recompute.as_secs_f64() * 1e3
    );
    println!(
        "serialise analysis JSON   {:>8.1} ms",
        serialise.as_secs_f64() * 1e3
    );
    drop(batch);
    let (value_tree, value_peak) =
        peak_of(|| serde_json::from_str::<serde_json::Value>(&text).unwrap());
    drop(value_tree);
    let (batch, parse_peak) = peak_of(|| parse_document("bench", &text));
    let (analysis, analyze_peak) = peak_of(|| analyze(&batch, &settings, true).unwrap());
    drop(analysis);
    println!(
        "peak heap: Value tree {:.1} MB; ParsedBatch {:.1} MB; one Analysis {:.1} MB (input text {:.1} MB)",
        value_peak as f64 / 1e6,
        parse_peak as f64 / 1e6,
        analyze_peak as f64 / 1e6,
        mb
    );
}

/// `RAGTRACE_PROFILE=<n> cargo bench -p ragtrace-core --bench analyze`: only `n` recomputes
/// (no criterion), so `perf record` / callgrind see the recompute and little else.
fn profile(runs: usize) {
    // `RAGTRACE_PROFILE_COUNTING=1` keeps the counting allocator on, to compare with
    // figures measured before it could be turned off.
    if std::env::var_os("RAGTRACE_PROFILE_COUNTING").is_none() {
        COUNTING.store(false, Ordering::Relaxed);
    }
    let text = text();
    let batch = parse_document("bench", &text);
    drop(text);
    let settings = changed_settings();
    // A fingerprint of the serialised output under a few settings, to compare builds.
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let other = Settings {
        hybrid_quality: Some(ragtrace_core::HybridQuality::MaxRankDense),
        max_chunks_per_document: Some(1),
        use_trace_options: false,
        ..Settings::default()
    };
    for (s, sweep) in [
        (&Settings::default(), true),
        (&settings, false),
        (&other, true),
    ] {
        let json = serde_json::to_string(&analyze(&batch, s, sweep).unwrap()).unwrap();
        for byte in json.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("profile: output fingerprint {hash:016x}");
    // Analysis and the drop of its result timed apart: a page that recomputes pays both.
    let mut analyse = Vec::with_capacity(runs);
    let mut free = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let analysis = analyze(black_box(&batch), &settings, false).unwrap();
        analyse.push(start.elapsed());
        let start = Instant::now();
        drop(black_box(analysis));
        free.push(start.elapsed());
    }
    let ms = |mut v: Vec<Duration>| {
        v.sort();
        let at = |f: f64| {
            v.get((v.len() as f64 * f) as usize)
                .map_or(0.0, |d| d.as_secs_f64() * 1e3)
        };
        format!("min {:.2} median {:.2} ms", at(0.0), at(0.5))
    };
    println!(
        "profile: {runs} recomputes: analyze {}; drop {}",
        ms(analyse),
        ms(free)
    );
}

fn benches(c: &mut Criterion) {
    if let Some(runs) = std::env::var("RAGTRACE_PROFILE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        profile(runs);
        return;
    }
    if let Some(runs) = std::env::var("RAGTRACE_KNOBS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        COUNTING.store(false, Ordering::Relaxed);
        knob_figures(&parsed(TRACES), runs);
        knob_figures(&parsed(TRACES_1M), runs);
        return;
    }
    summary();
    let text = text();
    let batch = parse_document("bench", &text);
    let settings = changed_settings();
    let mut group = c.benchmark_group("100k-candidates");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap())
    });
    group.bench_function("parse_and_analyze", |b| {
        b.iter(|| {
            let batch = parse_document("bench", black_box(&text));
            analyze(&batch, &Settings::default(), true).unwrap()
        })
    });
    group.finish();
    let mut group = c.benchmark_group("recompute");
    group.sample_size(20);
    group.bench_function("analyze_new_settings", |b| {
        b.iter(|| analyze(black_box(&batch), &settings, true).unwrap())
    });
    // Without the sweep, as the page's pinned-baseline analysis runs.
    group.bench_function("analyze_no_sweep", |b| {
        b.iter(|| analyze(black_box(&batch), &settings, false).unwrap())
    });
    group.finish();
    knob_figures(&batch, 21);
    knob_benches(c, &batch, "knob-100k");
    drop(batch);
    let million = parsed(TRACES_1M);
    knob_figures(&million, 11);
    knob_benches(c, &million, "knob-1m");
}

criterion_group!(bench_group, benches);
criterion_main!(bench_group);
