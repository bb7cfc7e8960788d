//! `Settings::set` (`--set key=value`) and `Settings::from_json_text` (`--config`,
//! the JSON path through `set_json`) on arbitrary text. What they accept lists
//! itself back through `overrides()` and reads back to the same settings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{Config, Settings};

fn round_trips(settings: &Settings) {
    let mut back = Settings::default();
    for (key, value) in settings.overrides() {
        if let Err(err) = back.set(key.name(), &value.to_string()) {
            panic!("{}={value} does not read back: {err}", key.name());
        }
    }
    assert_eq!(&back, settings);
    // Validation decides, and never panics.
    let _ = Config::from_settings(settings);
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(settings) = Settings::from_json_text(text) {
        round_trips(&settings);
    }
    let mut settings = Settings::default();
    for line in text.lines() {
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        if let Err(err) = settings.set(key, value) {
            assert!(!err.message.is_empty());
        }
    }
    round_trips(&settings);
});
