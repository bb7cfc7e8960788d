//! The settings of a shared link's hash (the page's URL hash decoder reads them
//! through `config::link`): whatever the text, the settings kept are valid, they
//! encode to a link that reads back to themselves with nothing ignored, and
//! percent coding round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{decode_component, encode_component, encode_settings, link_pairs, settings_from_text};
use ragtrace_core::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (settings, ignored) = settings_from_text(text);
    assert!(
        Config::from_settings(&settings).is_ok(),
        "kept settings are valid"
    );
    let parts = link_pairs(text).count();
    assert!(ignored.len() <= parts, "at most one reason per part");
    let link = encode_settings(&settings);
    assert_eq!(settings_from_text(&link), (settings, Vec::new()));
    assert_eq!(decode_component(&encode_component(text)), text);
});
