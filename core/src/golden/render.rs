//! Renderings of a [`GoldenReport`]: the Markdown `report.md` and a plain-text
//! summary for the CLI.

use super::floor_sweep::{floor_sweep_line, floor_sweep_table};
use super::metric::Metric;
use super::report::{CaseReport, GoldenLevel, GoldenReport};
pub use crate::render::md_cell;
use crate::render::Align::{Left, Right};
use crate::render::{md_head, md_row, num, opt_num, share, yes_no};
use std::fmt::Write as _;

/// A GitHub-readable Markdown report: title, summary table by level, metric
/// means, then one row per case in the order of the cases file.
pub fn golden_markdown(report: &GoldenReport) -> String {
    let s = &report.summary;
    let mut out = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(out, "# Golden evaluation\n");
    let _ = writeln!(out, "{} cases.\n", s.cases);

    let _ = writeln!(out, "## Levels\n");
    md_head(&mut out, ["level", "cases", "share"], &[Left, Right, Right]);
    for level in GoldenLevel::ALL {
        let n = s.levels.get(level);
        md_row(
            &mut out,
            [level.as_str().to_owned(), n.to_string(), share(n, s.cases)],
        );
    }

    let _ = writeln!(out, "\n## Ranking metrics (mean over all cases)\n");
    md_head(&mut out, ["metric", "mean"], &[Left, Right]);
    for metric in Metric::with_mean() {
        let mean = metric.of_summary(s).unwrap_or(f64::NAN);
        md_row(&mut out, [metric.name().to_owned(), num(mean)]);
    }

    let _ = writeln!(out, "\n## Cases\n");
    let header = ["case", "level", "docHit", "breadcrumbHit", "coverage", "k"]
        .into_iter()
        .chain(Metric::with_mean().map(Metric::column))
        .chain(["trace", "note"]);
    let mut aligns = vec![Left, Left, Left, Left, Right, Right];
    aligns.extend(Metric::with_mean().map(|_| Right));
    aligns.extend([Left, Left]);
    md_head(&mut out, header, &aligns);
    for c in &report.cases {
        md_row(&mut out, case_cells(c));
    }

    if let Some(sweep) = &report.floor_sweep {
        let _ = writeln!(
            out,
            "\n## Score floors (mean over all cases; blocks and NO_MATCH over linked traces)\n"
        );
        floor_sweep_table(sweep).markdown(&mut out);
        let _ = writeln!(out, "\n{}.", floor_sweep_line(sweep));
    }

    if !report.unlinked_traces.is_empty() {
        let _ = writeln!(out, "\n## Traces no case links to\n");
        for name in &report.unlinked_traces {
            let _ = writeln!(out, "- {}", md_cell(name));
        }
    }
    if !report.diagnostics.is_empty() {
        let _ = writeln!(out, "\n## Findings about the cases file\n");
        for d in &report.diagnostics {
            let sev = d.severity.as_str();
            let at = d
                .path
                .as_deref()
                .map(|p| format!(" at `{}`", p.replace('`', "'")))
                .unwrap_or_default();
            let _ = writeln!(out, "- {sev}{at}: {}", md_cell(&d.message));
        }
    }
    out
}

fn case_cells(c: &CaseReport) -> Vec<String> {
    let mut cells = vec![
        md_cell(&c.case_id),
        c.level.as_str().to_owned(),
        yes_no(c.doc_hit).to_owned(),
        yes_no(c.breadcrumb_hit).to_owned(),
        opt_num(c.coverage),
        c.k.to_string(),
    ];
    cells.extend(Metric::with_mean().map(|m| num(m.of_case(c))));
    cells.push(
        c.trace_name
            .as_deref()
            .map_or_else(|| "–".to_owned(), md_cell),
    );
    cells.push(c.note.as_deref().map(md_cell).unwrap_or_default());
    cells
}

/// A short plain-text summary for the CLI (`ragtrace eval` prints it).
pub fn golden_summary_text(report: &GoldenReport) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let _ = writeln!(out, "golden evaluation: {} cases", s.cases);
    for level in GoldenLevel::ALL {
        let n = s.levels.get(level);
        let _ = writeln!(
            out,
            "  {:<7}{:>5}  {}",
            level.as_str(),
            n,
            share(n, s.cases)
        );
    }
    let means: Vec<String> = Metric::with_mean()
        .map(|m| format!("{} {}", m.name(), num(m.of_summary(s).unwrap_or(f64::NAN))))
        .collect();
    let _ = writeln!(out, "  mean {}", means.join("  "));
    if let Some(sweep) = &report.floor_sweep {
        let _ = writeln!(out, "  {}", floor_sweep_line(sweep));
    }
    for c in &report.cases {
        let values: Vec<String> = Metric::with_mean()
            .map(|m| format!("{} {}", m.column(), num(m.of_case(c))))
            .collect();
        let _ = write!(
            out,
            "  {}: {} ({}, k {})",
            one_line(&c.case_id),
            c.level.as_str(),
            values.join(", "),
            c.k
        );
        if let Some(note) = &c.note {
            let _ = write!(out, " - {}", one_line(note));
        }
        out.push('\n');
    }
    if !report.unlinked_traces.is_empty() {
        let names: Vec<String> = report.unlinked_traces.iter().map(|n| one_line(n)).collect();
        let _ = writeln!(out, "  traces no case links to: {}", names.join(", "));
    }
    for d in &report.diagnostics {
        let _ = writeln!(out, "  {}", one_line(&d.message));
    }
    out
}

/// Keeps a terminal line on one line: control characters become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
