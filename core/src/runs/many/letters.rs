//! The compact letter display (Piepho 2004, "An algorithm for a letter-based
//! representation of all-pairwise comparisons", the insert-and-absorb algorithm): runs
//! that share a letter are not significantly different.
//!
//! Start with one letter held by every run. For each significantly different pair
//! (i, j), every letter held by both is split in two: one copy without i, one without
//! j; then every letter whose runs are a subset of another letter's runs is absorbed
//! (deleted). The letters are named in the order of their best run: `a` is the letter
//! of the run with the highest mean.

/// The letters of each run (`"a"`, `"ab"`, ...), given which pairs differ
/// (`different(i, j)`) and the runs' means (for naming the letters). At most 64 runs.
pub fn compact_letters(means: &[f64], different: impl Fn(usize, usize) -> bool) -> Vec<String> {
    let runs = means.len().min(64);
    if runs == 0 {
        return Vec::new();
    }
    let everyone = if runs == 64 {
        u64::MAX
    } else {
        (1u64 << runs) - 1
    };
    let mut columns = vec![everyone];
    for (i, j) in super::tukey::pairs(runs) {
        if !different(i, j) {
            continue;
        }
        let both = (1u64 << i) | (1u64 << j);
        let mut split = Vec::with_capacity(columns.len() + 1);
        for &c in &columns {
            if c & both == both {
                split.push(c & !(1u64 << i));
                split.push(c & !(1u64 << j));
            } else {
                split.push(c);
            }
        }
        columns = absorb(split);
    }
    // Runs best first (highest mean; ties by position), and each letter named by the
    // rank of its best run, then of its next runs.
    let mut rank: Vec<usize> = (0..runs).collect();
    rank.sort_by(|&a, &b| means[b].total_cmp(&means[a]).then(a.cmp(&b)));
    let key = |c: u64| -> Vec<usize> {
        rank.iter()
            .enumerate()
            .filter(|(_, &r)| c & (1u64 << r) != 0)
            .map(|(position, _)| position)
            .collect()
    };
    columns.sort_by_key(|&c| key(c));
    (0..runs)
        .map(|r| {
            columns
                .iter()
                .enumerate()
                .filter(|(_, &c)| c & (1u64 << r) != 0)
                .map(|(letter, _)| letter_name(letter))
                .collect()
        })
        .collect()
}

/// Deletes every column whose runs are a subset of another column's (of two equal
/// columns, the later one).
fn absorb(columns: Vec<u64>) -> Vec<u64> {
    let mut kept: Vec<u64> = Vec::with_capacity(columns.len());
    for (at, &c) in columns.iter().enumerate() {
        let absorbed = columns
            .iter()
            .enumerate()
            .any(|(other, &d)| other != at && c & d == c && (c != d || other < at));
        if !absorbed {
            kept.push(c);
        }
    }
    kept
}

/// `a` ... `z`, then `A` ... `Z`, then `{52}`, `{53}`, ...
fn letter_name(index: usize) -> String {
    match index {
        0..=25 => char::from(b'a' + index as u8).to_string(),
        26..=51 => char::from(b'A' + (index - 26) as u8).to_string(),
        _ => format!("{{{index}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(means: &[f64], different: &[(usize, usize)]) -> Vec<String> {
        compact_letters(means, |i, j| {
            different.contains(&(i, j)) || different.contains(&(j, i))
        })
    }

    #[test]
    fn no_difference_is_one_letter() {
        assert_eq!(letters(&[0.5, 0.4, 0.3], &[]), ["a", "a", "a"]);
    }

    #[test]
    fn all_different_is_one_letter_each_best_first() {
        // Means 0.2, 0.9, 0.5: the best (run 1) gets a, then run 2 b, run 0 c.
        assert_eq!(
            letters(&[0.2, 0.9, 0.5], &[(0, 1), (0, 2), (1, 2)]),
            ["c", "a", "b"]
        );
    }

    /// Piepho's insert-and-absorb by hand, A > B > C, only A-C differs:
    /// {ABC} -> split on (A, C): {BC}, {AB}; neither absorbs the other.
    /// Named by best run: {AB} = a, {BC} = b.
    #[test]
    fn only_the_extremes_differ() {
        assert_eq!(letters(&[0.9, 0.6, 0.3], &[(0, 2)]), ["a", "ab", "b"]);
    }

    /// Four runs, means A 0.9 > B 0.7 > C 0.5 > D 0.3; A-C, A-D, B-D differ.
    /// {ABCD} -(A,C)-> {BCD}, {ABD}
    ///        -(A,D)-> {BCD}, {BD}, {AB}; {BD} is absorbed by {BCD} -> {BCD}, {AB}
    ///        -(B,D)-> {CD}, {BC}, {AB} ({AB} holds no D: kept as is)
    /// Named by best run: {AB} a, {BC} b, {CD} c.
    #[test]
    fn four_runs_by_hand() {
        assert_eq!(
            letters(&[0.9, 0.7, 0.5, 0.3], &[(0, 2), (0, 3), (1, 3)]),
            ["a", "ab", "bc", "c"]
        );
    }

    /// Piepho's (2004) Table 1 pattern in five runs A..E, means decreasing; the pairs
    /// that differ: A-C, A-D, A-E, B-E.
    /// {ABCDE} -(A,C)-> {BCDE}, {ABDE}
    ///         -(A,D)-> {BCDE}, {ABE}, ... {ABDE} splits to {BDE}, {ABE};
    ///                  {BDE} is absorbed by {BCDE} -> {BCDE}, {ABE}
    ///         -(A,E)-> {BCDE}, {BE}, {AB}; {BE} absorbed -> {BCDE}, {AB}
    ///         -(B,E)-> {CDE}, {BCD}, {AB}
    /// Named by best run: {AB} a, {BCD} b, {CDE} c.
    #[test]
    fn five_runs_by_hand() {
        assert_eq!(
            letters(
                &[0.9, 0.8, 0.7, 0.6, 0.5],
                &[(0, 2), (0, 3), (0, 4), (1, 4)]
            ),
            ["a", "ab", "bc", "bc", "c"]
        );
    }

    /// A pattern whose letters are not contiguous in the order of the means: C-D alone
    /// differ among four runs ordered A > B > C > D, and A-D.
    /// {ABCD} -(A,D)-> {BCD}, {ABC} -(C,D)-> {BD}, {BC}, {ABC}; {BC} absorbed by {ABC}
    /// -> {BD}, {ABC}. Named: {ABC} a, {BD} b.
    #[test]
    fn letters_need_not_be_contiguous() {
        assert_eq!(
            letters(&[0.9, 0.8, 0.7, 0.6], &[(0, 3), (2, 3)]),
            ["a", "ab", "a", "b"]
        );
    }
}
