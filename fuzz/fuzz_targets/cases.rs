//! The golden cases parser on arbitrary text: a case set or located errors, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragtrace_core::parse_cases;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(errors) = parse_cases("fuzz", text) {
        assert!(!errors.is_empty(), "a failure says why");
        for error in &errors {
            assert!(!error.message.is_empty());
        }
    }
});
