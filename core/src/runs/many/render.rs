//! `compare.md` and the terminal summary of a many-run comparison: one table, runs by
//! metrics, each mean with its letters.

use super::ManyRunComparison;
use crate::golden::METRIC_LABELS;
use crate::render::{md_cell, num, p_value, Table};
use std::fmt::Write as _;

/// A table's header: its first column, then the metrics' labels.
fn header(first: &'static str) -> Vec<&'static str> {
    std::iter::once(first).chain(METRIC_LABELS).collect()
}

fn table(c: &ManyRunComparison) -> Table {
    let header = header("run");
    let rows = c
        .runs
        .iter()
        .enumerate()
        .map(|(r, name)| {
            let mut row = vec![name.clone()];
            for metric in &c.metrics {
                let mean = num(metric.means[r]);
                row.push(match metric.letters.get(r) {
                    Some(letters) => format!("{mean} {letters}"),
                    None => mean,
                });
            }
            row
        })
        .collect();
    Table { header, rows }
}

fn explanation(c: &ManyRunComparison) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "Means over the {} case(s) every run answered.",
        c.cases.common
    );
    if let Some(options) = &c.significance_options {
        let _ = write!(
            out,
            " Runs sharing a letter are not significantly different at {} (randomised Tukey HSD, {} permutations).",
            c.alpha, options.permutations
        );
    }
    out
}

/// `compare.md` of a many-run comparison.
pub fn many_runs_markdown(c: &ManyRunComparison) -> String {
    let mut out = String::from("# Run comparison\n\n");
    let names: Vec<String> = c.runs.iter().map(|r| md_cell(r)).collect();
    let _ = writeln!(
        out,
        "{} runs: {}; baseline {}.\n",
        c.runs.len(),
        names.join(", "),
        md_cell(&c.baseline)
    );
    let _ = writeln!(out, "{}\n", explanation(c));
    table(c).markdown(&mut out);
    if c.metrics.iter().any(|m| m.tukey.is_some()) {
        out.push_str("\n## Pairs\n\n");
        out.push_str(
            "Tukey HSD p of every pair, per metric (wins / ties / losses of the first run).\n\n",
        );
        let mut pairs = Table {
            header: header("pair"),
            rows: Vec::new(),
        };
        for (i, j) in super::tukey::pairs(c.runs.len()) {
            let mut row = vec![format!("{} vs {}", c.runs[i], c.runs[j])];
            for metric in &c.metrics {
                let p = metric.tukey.as_ref().map_or(f64::NAN, |t| t.p[i][j]);
                row.push(format!(
                    "{} ({}/{}/{})",
                    p_value(p),
                    metric.wins[i][j],
                    metric.ties[i][j],
                    metric.wins[j][i]
                ));
            }
            pairs.rows.push(row);
        }
        pairs.markdown(&mut out);
    }
    if !c.notes.is_empty() {
        out.push_str("\n## Notes\n\n");
        for note in &c.notes {
            let _ = writeln!(out, "- {}", md_cell(note));
        }
    }
    out
}

/// The terminal summary of a many-run comparison.
pub fn many_runs_summary_text(c: &ManyRunComparison) -> String {
    let mut out = format!("{}\n", explanation(c));
    table(c).text(&mut out);
    for note in &c.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}
