//! Throughput of parse + analyze against a generic `serde_json::Value` parse of the same
//! text, the cost of a recompute on an already parsed batch, and peak memory.
//!
//! `cargo bench -p ragtrace-core` (sample sizes are small: the machine is shared).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ragtrace_core::{analyze, input, testdata, Settings};
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
const PER_TRACE: usize = 20;

fn text() -> String {
    testdata::generate_batch(TRACES, PER_TRACE, 42)
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
    let batch = input::parse_document("bench", &text);
    println!(
        "\n== ragtrace bench: {} traces, {} candidates, {:.1} MB JSON",
        batch.traces.len(),
        batch.candidate_count(),
        mb
    );
    let value = best(5, || {
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    });
    let parse = best(5, || input::parse_document("bench", &text));
    let parse_analyze = best(5, || {
        let batch = input::parse_document("bench", &text);
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
    let (batch, parse_peak) = peak_of(|| input::parse_document("bench", &text));
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
    let batch = input::parse_document("bench", &text);
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
    summary();
    let text = text();
    let batch = input::parse_document("bench", &text);
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
            let batch = input::parse_document("bench", black_box(&text));
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
}

criterion_group!(bench_group, benches);
criterion_main!(bench_group);
