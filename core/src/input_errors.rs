//! Input errors kept within a bound: the first [`INPUT_ERRORS_LISTED`] of a batch in
//! full, every later one only counted under its code. A file of millions of unusable
//! lines then costs a thousand errors' memory and output, not millions, and the counts
//! still say exactly how many of each kind there were.

use crate::diagnostic::InputError;
use std::collections::BTreeMap;

/// How many input errors a batch (a parsed batch, an analysis, a partial, a merge of
/// partials) keeps in full; those after are counted by code.
pub const INPUT_ERRORS_LISTED: usize = 1_000;

/// Input errors beyond the listed ones: how many of each code.
pub type OmittedInputErrors = BTreeMap<String, usize>;

/// Keeps `error` in `listed` while it holds fewer than [`INPUT_ERRORS_LISTED`], else
/// counts it under its code in `omitted`.
pub(crate) fn keep(
    listed: &mut Vec<InputError>,
    omitted: &mut OmittedInputErrors,
    error: InputError,
) {
    if listed.len() < INPUT_ERRORS_LISTED {
        listed.push(error);
    } else {
        count(omitted, error.code(), 1);
    }
}

/// Appends the errors of a later part (`more`, then the `more_omitted` that came after
/// them) to those so far: the listed ones while there is room, the rest counted.
pub(crate) fn keep_all(
    listed: &mut Vec<InputError>,
    omitted: &mut OmittedInputErrors,
    more: impl IntoIterator<Item = InputError>,
    more_omitted: OmittedInputErrors,
) {
    for error in more {
        keep(listed, omitted, error);
    }
    add_counts(omitted, more_omitted);
}

/// Adds `more` to `omitted`, code by code.
pub(crate) fn add_counts(omitted: &mut OmittedInputErrors, more: OmittedInputErrors) {
    for (code, n) in more {
        count(omitted, &code, n);
    }
}

/// Adds `n` errors of `code` to `omitted`.
pub(crate) fn count(omitted: &mut OmittedInputErrors, code: &str, n: usize) {
    match omitted.get_mut(code) {
        Some(total) => *total = total.saturating_add(n),
        None => {
            omitted.insert(code.to_owned(), n);
        }
    }
}

/// How many errors `omitted` counts in all.
pub fn omitted_total(omitted: &OmittedInputErrors) -> usize {
    omitted.values().fold(0, |sum, n| sum.saturating_add(*n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::InputErrorCode;

    fn error(code: InputErrorCode, message: &str) -> InputError {
        InputError::at("doc", Some(1), None, None, code, message.to_owned(), None)
    }

    #[test]
    fn the_first_are_listed_and_the_rest_counted_by_code() {
        let mut listed = Vec::new();
        let mut omitted = OmittedInputErrors::new();
        for _ in 0..999 {
            keep(
                &mut listed,
                &mut omitted,
                error(InputErrorCode::MalformedJson, "malformed JSON: x"),
            );
        }
        // The 1,000th is listed; the next three are counted under their codes.
        keep(
            &mut listed,
            &mut omitted,
            error(InputErrorCode::NotUtf8, "not UTF-8: byte 0xFF"),
        );
        keep(
            &mut listed,
            &mut omitted,
            error(InputErrorCode::MalformedJson, "malformed JSON: y"),
        );
        keep(
            &mut listed,
            &mut omitted,
            error(InputErrorCode::NotUtf8, "not UTF-8: byte 0xFE"),
        );
        keep(
            &mut listed,
            &mut omitted,
            error(InputErrorCode::MalformedJson, "malformed JSON: z"),
        );
        assert_eq!(listed.len(), 1_000);
        assert_eq!(listed[999].message, "not UTF-8: byte 0xFF");
        let expected: OmittedInputErrors =
            [("malformed-json".to_owned(), 2), ("not-utf8".to_owned(), 1)]
                .into_iter()
                .collect();
        assert_eq!(omitted, expected);
        assert_eq!(omitted_total(&omitted), 3);
    }

    #[test]
    fn a_later_part_fills_the_room_left_then_adds_its_counts() {
        let mut listed: Vec<InputError> = (0..990)
            .map(|_| error(InputErrorCode::MalformedJson, "malformed JSON: a"))
            .collect();
        let mut omitted = OmittedInputErrors::new();
        let part: Vec<InputError> = (0..15)
            .map(|_| {
                error(
                    InputErrorCode::NotATrace,
                    "a trace must be an object, got number",
                )
            })
            .collect();
        let part_omitted: OmittedInputErrors =
            [("malformed-json".to_owned(), 7)].into_iter().collect();
        keep_all(&mut listed, &mut omitted, part, part_omitted);
        // 990 + 10 listed; 5 not-a-trace and the part's 7 malformed-json counted.
        assert_eq!(listed.len(), 1_000);
        let expected: OmittedInputErrors = [
            ("malformed-json".to_owned(), 7),
            ("not-a-trace".to_owned(), 5),
        ]
        .into_iter()
        .collect();
        assert_eq!(omitted, expected);
    }
}
