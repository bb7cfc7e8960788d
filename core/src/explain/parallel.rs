//! Runs of a batch on threads: natively, the cores this process may use; in wasm, one
//! (the page has no threads). Each item is explained on its own, so the runs' results
//! are the very ones one thread gives, put back in the batch's order.

use super::Work;
use std::ops::Range;

/// How many threads share `items`, each with a run of at least `per_thread` (where a
/// run is short, starting a thread costs more than it saves).
pub(crate) fn threads_for(items: usize, per_thread: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.min(items / per_thread.max(1)).max(1)
}

/// `each` over `0..items` cut into `threads` runs of consecutive items, in order; the
/// first run on this thread with `work`, each other on a thread of its own with its own
/// scratch space.
pub(crate) fn in_runs<R: Send>(
    items: usize,
    threads: usize,
    work: &mut Work,
    each: impl Fn(Range<usize>, &mut Work) -> R + Sync,
) -> Vec<R> {
    let length = items.div_ceil(threads.max(1)).max(1);
    let mut runs = (0..items)
        .step_by(length)
        .map(|first| first..(first + length).min(items));
    let Some(first) = runs.next() else {
        return Vec::new();
    };
    if threads <= 1 {
        return std::iter::once(first)
            .chain(runs)
            .map(|run| each(run, work))
            .collect();
    }
    let each = &each;
    std::thread::scope(|scope| {
        let others: Vec<_> = runs
            .map(|run| scope.spawn(move || each(run, &mut Work::default())))
            .collect();
        let mut done = vec![each(first, work)];
        for other in others {
            match other.join() {
                Ok(result) => done.push(result),
                // A panic in a run is the batch's, as with one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    })
}
