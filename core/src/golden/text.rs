//! Text normalisation for matching breadcrumbs, keywords and queries (contract section 6):
//! below the cases file and the evaluation, which both read it.

/// Normalises text for substring matching: runs of Unicode white space become
/// one space, the ends are trimmed, and every character is lowercased.
///
/// Lowercasing is per character (Unicode `Lowercase_Mapping`), not
/// `str::to_lowercase`, whose context-sensitive final sigma would make a
/// needle and the same word inside a longer text lowercase differently.
pub fn normalize_query(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_normalized(&mut out, text);
    out
}

/// Appends `text` normalised to `out` as though the two were joined by white space:
/// `normalize_query(&[a, b].join(" "))` is `a` and then `b` pushed onto an empty
/// string. Joined texts are normalised in place this way, without the joined copy.
pub(crate) fn push_normalized(out: &mut String, text: &str) {
    // Every text starts after white space: the join's space, or nothing at all.
    let mut pending_space = true;
    for ch in text.chars() {
        if ch.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        // The same mapping for ASCII, without the case-mapping iterator: most text
        // is ASCII, and the page evaluates every case's text on each knob move.
        if ch.is_ascii() {
            out.push(ch.to_ascii_lowercase());
        } else {
            out.extend(ch.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    // proptest is a native dev-dependency only (the wasm32 clippy builds these tests too).
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Fields pushed one by one normalise as their join with single spaces does,
        /// whatever white space or emptiness their ends have.
        #[test]
        fn pushed_fields_normalise_as_their_join(
            fields in proptest::collection::vec("\\PC{0,12}|[ aZ\t\u{0B}\u{85}\u{A0}\u{3000}ΣÉ订]{0,8}", 0..5)
        ) {
            let mut pushed = String::new();
            for field in &fields {
                super::push_normalized(&mut pushed, field);
            }
            proptest::prop_assert_eq!(pushed, super::normalize_query(&fields.join(" ")));
        }

        /// Normalising is the definition: runs of white space as one space, the ends
        /// trimmed, every character lowercased on its own.
        #[test]
        fn normalising_is_the_definition(
            text in "[ aZq\t\n\r\x0B\x0C\x1F~]{0,16}|\\PC{0,12}|[ aZ\t\u{85}\u{A0}ΣÉ]{0,8}",
            before in "|x|X ",
        ) {
            let mut pushed = before.clone();
            super::push_normalized(&mut pushed, &text);
            let mut expected = before.clone();
            for word in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
                if !expected.is_empty() {
                    expected.push(' ');
                }
                expected.extend(word.chars().flat_map(char::to_lowercase));
            }
            proptest::prop_assert_eq!(pushed, expected);
        }
    }
}
