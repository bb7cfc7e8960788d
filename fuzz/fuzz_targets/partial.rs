//! Partials on arbitrary bytes. As encoded partials: reading never panics, and what
//! reads merges with itself and finishes. As lines: the partial of all the lines
//! finishes as the merge of the partials of any two runs of them, unless they hold
//! spans: a retrieval's nested spans cut across two shards read as two retrievals
//! (docs/scale.md), so a cut there may change the traces, and only the reading is
//! checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{CaseMatches, Partial, Settings};

fn view(partial: &Partial) -> String {
    serde_json::to_string(&partial.finish(true)).unwrap_or_default()
}

fuzz_target!(|data: &[u8]| {
    if let Ok(partial) = Partial::from_bytes(data) {
        let again = Partial::from_bytes(&partial.to_bytes()).expect("its own bytes read back");
        assert_eq!(view(&again), view(&partial));
        if let Ok(twice) = Partial::merge([partial.clone(), partial]) {
            let _ = view(&twice);
        }
    }
    let _ = CaseMatches::from_bytes(data);

    let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    let cut = usize::from(data.first().copied().unwrap_or(0)) % (lines.len() + 1);
    let settings = Settings::default();
    let (Ok(whole), Ok(head), Ok(tail)) = (
        Partial::from_lines(&settings, "fuzz", 1, &lines),
        Partial::from_lines(&settings, "fuzz", 1, &lines[..cut]),
        Partial::from_lines(&settings, "fuzz", cut + 1, &lines[cut..]),
    ) else {
        panic!("default settings are valid");
    };
    let merged = Partial::merge([tail, head]).expect("the same settings");
    let spans = [&b"resourceSpans"[..], b"span_kind"]
        .iter()
        .any(|key| data.windows(key.len()).any(|w| w == *key));
    if !spans {
        assert_eq!(view(&merged), view(&whole));
    }
});
