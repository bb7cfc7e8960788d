//! Markdown and plain-text renderings of a run comparison (`compare.md`, the CLI
//! summary) and of golden deltas (the "Changes since the baseline" section of report.md).

use super::golden_delta::GoldenComparison;
use super::{CompareReport, Distribution, GroupSummary};
use crate::golden::GoldenLevel;
use crate::golden::{Metric, DELTA_METRICS};
use crate::outcome::Level;
use crate::render::Align::{Left, Right};
use crate::render::{md_cell, md_head, md_row, opt_num, p_value};
use std::fmt::Write as _;

fn distribution_row(out: &mut String, name: &str, d: &Distribution) {
    let bins: Vec<String> = d.histogram.iter().map(usize::to_string).collect();
    md_row(
        out,
        [
            name.to_owned(),
            d.count.to_string(),
            opt_num(d.mean),
            opt_num(d.median),
            bins.join(" "),
        ],
    );
}

/// A transition matrix: rows are A's levels, columns B's, both best first.
fn transitions_table<const N: usize>(
    out: &mut String,
    levels: [&str; N],
    counts: &[[usize; N]; N],
) {
    let header = std::iter::once("A \\\\ B").chain(levels);
    let mut aligns = vec![Right; N + 1];
    aligns[0] = Left;
    md_head(out, header, &aligns);
    for (level, row) in levels.iter().zip(counts) {
        md_row(
            out,
            std::iter::once((*level).to_owned()).chain(row.iter().map(usize::to_string)),
        );
    }
}

fn group_section(out: &mut String, g: &GroupSummary) {
    let _ = writeln!(out, "\n## {} ({} pairs)\n", md_cell(&g.group), g.pairs);
    let _ = writeln!(
        out,
        "Level improved in {}, worsened in {}; B kept none of A's documents in {}.\n",
        g.level_improved, g.level_worsened, g.b_kept_none
    );
    transitions_table(out, Level::ALL.map(Level::as_str), &g.level_transitions);
    out.push('\n');
    md_head(
        out,
        [
            "measure",
            "pairs",
            "mean",
            "median",
            "histogram (0-0.1 ... 0.9-1)",
        ],
        &[Left, Right, Right, Right, Left],
    );
    distribution_row(out, "overlap@k (documents)", &g.overlap_docs);
    distribution_row(out, "overlap@k (evidence keys)", &g.overlap_keys);
    distribution_row(out, "Jaccard", &g.jaccard);
    distribution_row(out, "RBO_ext", &g.rbo_ext);
}

/// `compare.md`: the groups, the pairs, the unpaired traces and the golden deltas.
pub fn compare_markdown(report: &CompareReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Run comparison\n");
    let _ = writeln!(
        out,
        "Run A: {} traces; run B: {} traces; {} pairs; RBO p = {}.",
        report.runs.traces_a, report.runs.traces_b, report.runs.pairs, report.options.rbo_p
    );
    if let Some(message) = &report.no_common_query {
        let _ = writeln!(out, "\n**{}**", md_cell(message));
    }
    for w in &report.warnings {
        let _ = writeln!(out, "\n- warning: {}", md_cell(w));
    }
    for g in &report.groups {
        if g.pairs > 0 {
            group_section(&mut out, g);
        }
    }
    if !report.pairs.is_empty() {
        let _ = writeln!(out, "\n## Pairs\n");
        md_head(
            &mut out,
            [
                "query",
                "modes",
                "level A",
                "level B",
                "overlap@k",
                "RBO_ext",
                "tau-b",
                "only in A",
                "only in B",
                "config differs",
            ],
            &[
                Left, Left, Left, Left, Right, Right, Right, Left, Left, Left,
            ],
        );
        for p in &report.pairs {
            let n = &p.numbers;
            let only = |side: &[super::OnlyOneSide]| {
                side.iter()
                    .map(|o| md_cell(&o.doc_id))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            md_row(
                &mut out,
                [
                    md_cell(p.query.as_deref().unwrap_or(&p.name_a)),
                    n.mode_pair.label().to_string(),
                    n.level_a.as_str().to_owned(),
                    n.level_b.as_str().to_owned(),
                    opt_num(n.overlap_docs),
                    opt_num(n.rbo.map(|r| r.ext)),
                    opt_num(n.kendall_tau_b),
                    only(&p.only_in_a),
                    only(&p.only_in_b),
                    p.config_differences
                        .iter()
                        .map(|d| d.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ],
            );
        }
    }
    for (side, list) in [("A", &report.unpaired_a), ("B", &report.unpaired_b)] {
        if !list.is_empty() {
            let _ = writeln!(out, "\n## Unpaired traces of run {side}\n");
            for t in list {
                let _ = writeln!(
                    out,
                    "- {}{}",
                    md_cell(&t.name),
                    t.query
                        .as_deref()
                        .map(|q| format!(": {}", md_cell(q)))
                        .unwrap_or_default()
                );
            }
        }
    }
    if let Some(golden) = &report.golden {
        let _ = writeln!(out, "\n## Golden cases, A -> B");
        golden_section(&mut out, golden);
    }
    out
}

/// The "Changes since the baseline" section appended to report.md.
pub fn baseline_changes_markdown(comparison: &GoldenComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n## Changes since the baseline");
    golden_section(&mut out, comparison);
    out
}

fn golden_section(out: &mut String, c: &GoldenComparison) {
    let _ = writeln!(
        out,
        "\n{} cases in both; {} regressed, {} improved; {} only in A, {} only in B.\n",
        c.cases.len(),
        c.regressions,
        c.improvements,
        c.only_in_a.len(),
        c.only_in_b.len()
    );
    md_head(
        out,
        [
            "metric",
            "mean A",
            "mean B",
            "difference",
            "wins",
            "ties",
            "losses",
            "95% CI",
            "randomisation p",
            "Holm p",
            "t-test p",
        ],
        &[
            Left, Right, Right, Right, Right, Right, Right, Left, Right, Right, Right,
        ],
    );
    for m in &c.metrics {
        let (ci, p, holm, t) = match &m.significance {
            Some(s) => (
                format!("[{}, {}]", opt_num(s.ci_low), opt_num(s.ci_high)),
                p_value(s.permutation_p),
                p_value(s.permutation_p_holm),
                s.t_test.map_or_else(|| "–".to_owned(), |t| p_value(t.p)),
            ),
            None => ("–".into(), "–".into(), "–".into(), "–".into()),
        };
        md_row(
            out,
            [
                m.metric.to_owned(),
                opt_num(m.mean_a),
                opt_num(m.mean_b),
                m.mean_difference
                    .map_or_else(|| "–".to_owned(), |d| format!("{d:+.3}")),
                m.wins.to_string(),
                m.ties.to_string(),
                m.losses.to_string(),
                ci,
                p,
                holm,
                t,
            ],
        );
    }
    out.push('\n');
    transitions_table(
        out,
        GoldenLevel::ALL.map(GoldenLevel::as_str),
        &c.level_transitions,
    );
    let changed: Vec<_> = c.cases.iter().filter(|d| d.level_a != d.level_b).collect();
    if !changed.is_empty() {
        out.push('\n');
        let deltas = DELTA_METRICS.map(|m| format!("Δ {m}"));
        let header = ["case", "level A", "level B"]
            .into_iter()
            .chain(deltas.iter().map(String::as_str));
        let mut aligns = vec![Right; 3 + Metric::COUNT];
        aligns[..3].fill(Left);
        md_head(out, header, &aligns);
        for d in changed {
            let deltas: Vec<String> = d
                .metrics
                .iter()
                .map(|v| format!("{:+.3}", v.delta))
                .collect();
            let case = format!(
                "{}{}",
                md_cell(&d.case_id),
                if d.regression { " (regression)" } else { "" }
            );
            md_row(
                out,
                [
                    case,
                    d.level_a.as_str().to_owned(),
                    d.level_b.as_str().to_owned(),
                ]
                .into_iter()
                .chain(deltas),
            );
        }
    }
}

/// A short plain-text summary for the CLI.
pub fn compare_summary_text(report: &CompareReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "run comparison: {} pairs ({} traces in A, {} in B; {} unpaired in A, {} in B)",
        report.runs.pairs,
        report.runs.traces_a,
        report.runs.traces_b,
        report.unpaired_a.len(),
        report.unpaired_b.len()
    );
    if let Some(message) = &report.no_common_query {
        let _ = writeln!(out, "  {message}");
    }
    for g in report.groups.iter().filter(|g| g.pairs > 0) {
        let _ = writeln!(
            out,
            "  {:<16}{:>6} pairs  overlap@k mean {}  RBO_ext mean {}  level better {} worse {}  B kept none {}",
            g.group,
            g.pairs,
            opt_num(g.overlap_docs.mean),
            opt_num(g.rbo_ext.mean),
            g.level_improved,
            g.level_worsened,
            g.b_kept_none
        );
    }
    if let Some(golden) = &report.golden {
        let _ = write!(out, "{}", baseline_changes_text(golden));
    }
    for w in &report.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
    out
}

/// The golden deltas in a few lines.
pub fn baseline_changes_text(c: &GoldenComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  golden cases in both: {}; regressed {}, improved {}",
        c.cases.len(),
        c.regressions,
        c.improvements
    );
    for m in &c.metrics {
        let p = m
            .significance
            .as_ref()
            .map(|s| format!("  Holm p {}", p_value(s.permutation_p_holm)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<15}A {}  B {}  diff {}{p}",
            m.metric,
            opt_num(m.mean_a),
            opt_num(m.mean_b),
            m.mean_difference
                .map_or_else(|| "–".to_owned(), |d| format!("{d:+.3}"))
        );
    }
    out
}
