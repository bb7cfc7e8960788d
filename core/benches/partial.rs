//! Partials against the whole: the summary of a JSON Lines batch (as `ragtrace analyze
//! --summary` reads it: in 1 MiB chunks through the analyzer) against the partials of
//! 8 shards of its lines plus their merge and finish; and the merge of 1,000 partials.
//!
//! `cargo bench -p ragtrace-core --bench partial` prints the figures, then criterion's.
//! `RAGTRACE_PARTIAL_FIGURES=1` prints only the figures.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ragtrace_core::read_document;
use ragtrace_core::{BatchAnalyzer, BatchView, Partial, PartialBuilder, Settings};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The traces of `generate_batch(5000, 20, 42)`, the 37.5 MB batch of `analyze.rs`, as
/// JSON Lines.
const TRACES: usize = 5_000;
const PER_TRACE: usize = 20;
const SHARDS: usize = 8;
const MANY: usize = 1_000;

fn batch_text() -> Vec<u8> {
    let mut text = ragtrace_core::generate_batch_lines(TRACES, PER_TRACE, 42)
        .collect::<Vec<_>>()
        .join("\n");
    text.push('\n');
    text.into_bytes()
}

/// What `ragtrace analyze --summary --sweep` computes for the file.
fn whole_summary(text: &[u8], settings: &Settings) -> BatchView {
    let mut analyzer = BatchAnalyzer::new(settings, true).expect("valid settings");
    let read = read_document("batch.jsonl", text, |part| {
        analyzer.analyze_part(part, |_| {});
        Ok::<(), std::io::Error>(())
    });
    assert!(read.is_ok());
    analyzer.finish()
}

/// The lines of `text`, in `count` runs of about equal size: (first line, lines).
fn shards(text: &[u8], count: usize) -> Vec<(usize, Vec<&[u8]>)> {
    let lines: Vec<&[u8]> = text
        .strip_suffix(b"\n")
        .unwrap_or(text)
        .split(|&b| b == b'\n')
        .collect();
    let per = lines.len().div_ceil(count);
    lines
        .chunks(per)
        .enumerate()
        .map(|(i, run)| (i * per + 1, run.to_vec()))
        .collect()
}

/// The partial of each shard, one line at a time (as a binding gets a column of lines).
fn partials_by_line(shards: &[(usize, Vec<&[u8]>)], settings: &Settings) -> Vec<Partial> {
    shards
        .iter()
        .map(|(first, lines)| {
            Partial::from_lines(settings, "batch.jsonl", *first, lines).expect("valid settings")
        })
        .collect()
}

/// The partial of each shard fed as one run of bytes (as a binding gets a file's range).
fn partials_by_bytes(shards: &[(usize, Vec<&[u8]>)], settings: &Settings) -> Vec<Partial> {
    shards
        .iter()
        .map(|(first, lines)| {
            let mut builder =
                PartialBuilder::lines(settings, "batch.jsonl", *first).expect("valid settings");
            builder.push_chunk(&lines.join(&b"\n"[..]));
            builder.finish()
        })
        .collect()
}

fn merged(parts: Vec<Partial>) -> BatchView {
    Partial::merge(parts).expect("same settings").finish(true)
}

/// Median of `runs` wall-clock times.
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn figures() {
    let settings = Settings::default();
    let text = batch_text();
    let mb = text.len() as f64 / 1e6;
    let shards = shards(&text, SHARDS);
    // The same view, or the figures compare different work.
    let whole = serde_json::to_string(&whole_summary(&text, &settings)).expect("JSON");
    let sharded = serde_json::to_string(&merged(partials_by_line(&shards, &settings)));
    assert_eq!(sharded.ok().as_deref(), Some(whole.as_str()));
    println!("\n== ragtrace partial bench: {TRACES} traces, {PER_TRACE} candidates each, {mb:.1} MB JSON Lines");
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let runs = 7;
    let whole_time = median(runs, || whole_summary(&text, &settings));
    let by_line = median(runs, || merged(partials_by_line(&shards, &settings)));
    let by_bytes = median(runs, || merged(partials_by_bytes(&shards, &settings)));
    println!(
        "analyze --summary of the whole       {:>8.1} ms  {:>6.1} MB/s",
        ms(whole_time),
        mb / whole_time.as_secs_f64()
    );
    println!(
        "{SHARDS} partials by line + merge + finish   {:>8.1} ms  {:.2}x the whole",
        ms(by_line),
        by_line.as_secs_f64() / whole_time.as_secs_f64()
    );
    println!(
        "{SHARDS} partials by bytes + merge + finish  {:>8.1} ms  {:.2}x the whole",
        ms(by_bytes),
        by_bytes.as_secs_f64() / whole_time.as_secs_f64()
    );

    let many = partials_by_line(&self::shards(&text, MANY), &settings);
    let bytes: Vec<Vec<u8>> = many.iter().map(Partial::to_bytes).collect();
    let size = bytes.iter().map(Vec::len).sum::<usize>() as f64 / bytes.len() as f64;
    let merge = median(runs, || {
        Partial::merge(many.clone()).expect("same settings")
    });
    let merge_finish = median(runs, || merged(many.clone()));
    let decode = median(runs, || {
        bytes
            .iter()
            .map(|b| Partial::from_bytes(b).expect("its own bytes"))
            .collect::<Vec<_>>()
    });
    println!(
        "merge of {MANY} partials                {:>8.2} ms  (merge and finish: {:.2} ms; from_bytes of all {MANY}: {:.1} ms; {:.1} KB a partial)",
        ms(merge),
        ms(merge_finish),
        ms(decode),
        size / 1e3
    );
}

fn benches(c: &mut Criterion) {
    figures();
    if std::env::var_os("RAGTRACE_PARTIAL_FIGURES").is_some() {
        return;
    }
    let settings = Settings::default();
    let text = batch_text();
    let shards = shards(&text, SHARDS);
    let mut group = c.benchmark_group("partial");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("whole_summary", |b| {
        b.iter(|| whole_summary(black_box(&text), &settings))
    });
    group.bench_function("eight_partials_merged", |b| {
        b.iter(|| merged(partials_by_line(black_box(&shards), &settings)))
    });
    group.finish();
    let many = partials_by_line(&self::shards(&text, MANY), &settings);
    let mut group = c.benchmark_group("merge");
    group.sample_size(20);
    group.bench_function("thousand_partials", |b| {
        b.iter(|| Partial::merge(black_box(many.clone())).expect("same settings"))
    });
    group.finish();
}

criterion_group!(bench_group, benches);
criterion_main!(bench_group);
