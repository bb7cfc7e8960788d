//! Numbers beyond a double's range (`1e400`): valid JSON that serde_json refuses
//! ("number out of range"). Such a document is read again with each of those numbers
//! written as a marked string, which the readers of one field turn back into an
//! infinite number (sign kept) with a warning at its path; the contract's rule for a
//! non-finite value then applies (a score gives quality 0). Documents without them
//! are parsed once, as before.

/// What an out-of-range number is rewritten to: this prefix, then the number as written.
pub(super) const OUT_OF_RANGE: &str = "\0number out of range:";

/// A number rewritten in a document's text: on which line (0-based), at which byte of
/// the rewritten line, and how many bytes longer it became.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shift {
    line: usize,
    at: usize,
    added: usize,
}

/// Why a text is not one JSON value: serde_json's error, in a text whose numbers
/// beyond a double's range were rewritten as `shifts` says (none, usually).
pub(super) struct JsonFailure {
    pub(super) error: serde_json::Error,
    pub(super) shifts: Vec<Shift>,
}

/// Whether serde_json stopped at a number beyond a double's range.
pub(super) fn is_out_of_range(err: &serde_json::Error) -> bool {
    err.to_string().starts_with("number out of range")
}

/// `text` with every number literal beyond a double's range written as a marked
/// string; `None` when there is none. Strings are skipped (escapes included).
pub(super) fn rewrite_out_of_range(text: &str) -> Option<(String, Vec<Shift>)> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut shifts = Vec::new();
    let mut copied = 0;
    let (mut line, mut line_start_out) = (0, 0);
    let mut at = 0;
    let mut in_string = false;
    while let Some(&byte) = bytes.get(at) {
        if in_string {
            match byte {
                b'\\' => at += 1,
                b'"' => in_string = false,
                _ => {}
            }
            at += 1;
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'\n' => {
                out.push_str(text.get(copied..=at).unwrap_or_default());
                copied = at + 1;
                line += 1;
                line_start_out = out.len();
            }
            b'-' | b'0'..=b'9' => {
                let end = bytes
                    .iter()
                    .skip(at)
                    .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .map_or(bytes.len(), |len| at + len);
                let literal = text.get(at..end).unwrap_or_default();
                if literal.parse::<f64>().is_ok_and(f64::is_infinite) {
                    out.push_str(text.get(copied..at).unwrap_or_default());
                    let at_out = out.len() - line_start_out;
                    out.push('"');
                    out.push_str(&OUT_OF_RANGE.replace('\0', "\\u0000"));
                    out.push_str(literal);
                    out.push('"');
                    let added = out.len() - line_start_out - at_out - literal.len();
                    shifts.push(Shift {
                        line,
                        at: at_out,
                        added,
                    });
                    copied = end;
                }
                at = end;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    if shifts.is_empty() {
        return None;
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Some((out, shifts))
}

/// A byte column (0-based) on `line` of the rewritten text, as a column of the text
/// as written: every rewritten number before it is as long as it was.
pub(super) fn original_column(shifts: &[Shift], line: usize, column: usize) -> usize {
    let added: usize = shifts
        .iter()
        .filter(|s| s.line == line && s.at < column)
        .map(|s| s.added)
        .sum();
    column.saturating_sub(added)
}

/// The number a marked string stands for: infinite, with the literal's sign.
pub(super) fn out_of_range_value(literal: &str) -> f64 {
    if literal.starts_with('-') {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_numbers_beyond_a_double_outside_strings_are_rewritten() {
        let text = "{\"a\": \"1e400\", \"b\": 1e400, \"c\": -2E+999, \"d\": 1.5e308}";
        let (out, shifts) = rewrite_out_of_range(text).unwrap();
        assert_eq!(
            out,
            "{\"a\": \"1e400\", \"b\": \"\\u0000number out of range:1e400\", \"c\": \"\\u0000number out of range:-2E+999\", \"d\": 1.5e308}"
        );
        // 1e400 -> "\u0000number out of range:1e400": 5 bytes become 33.
        assert_eq!(shifts[0].added, 28);
        assert_eq!(original_column(&shifts, 0, 80), 80 - 56);
        assert!(rewrite_out_of_range("{\"a\": 1e308, \"b\": \"1e999\"}").is_none());
    }
}
