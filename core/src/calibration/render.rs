//! Renderings of a calibration: `calibration.md` and the CLI's text.

use super::gate::{CurveStatus, GateScopes, ThresholdPoint};
use super::levels::{LevelTable, OutcomeCounts};
use super::suggest::{same_confusion, Suggestion};
use super::{Calibration, UnlinkedCase};
use crate::golden;
use crate::render::{md_cell, num, opt_num, Table};

fn counts_cells(c: &OutcomeCounts) -> [String; 5] {
    [c.n, c.strong, c.medium, c.weak, c.miss].map(|x| x.to_string())
}

fn level_rows(table: &LevelTable) -> Table {
    let mut rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![row.level.as_str().to_owned()];
            cells.extend(counts_cells(&row.recomputed));
            cells.extend(counts_cells(&row.recorded));
            cells
        })
        .collect();
    let mut unknown = vec!["(no recorded level)".to_owned()];
    unknown.extend(["", "", "", "", ""].map(str::to_owned));
    unknown.extend(counts_cells(&table.recorded_unknown));
    rows.push(unknown);
    Table {
        header: vec![
            "level",
            "n",
            "strong",
            "medium",
            "weak",
            "miss",
            "recorded n",
            "strong",
            "medium",
            "weak",
            "miss",
        ],
        rows,
    }
}

fn gate_rows(gate: &GateScopes) -> Table {
    let rows = [&gate.all, &gate.dense, &gate.hybrid]
        .iter()
        .map(|c| {
            let p = &c.current;
            vec![
                c.scope.to_owned(),
                c.n.to_string(),
                c.positives.to_string(),
                c.negatives.to_string(),
                c.auc.map_or_else(|| status_word(c.status).to_owned(), num),
                format!(
                    "{} (TP {}, FP {})",
                    p.flagged, p.true_positives, p.false_positives
                ),
                opt_num(p.precision),
                opt_num(p.recall),
                opt_num(p.f1),
                opt_num(p.youden_j),
                c.best_youden
                    .map_or_else(|| "–".to_owned(), |b| num(b.threshold)),
                c.best_f1
                    .map_or_else(|| "–".to_owned(), |b| num(b.threshold)),
            ]
        })
        .collect();
    Table {
        header: vec![
            "scope",
            "n",
            "not found",
            "found",
            "AUC",
            "flagged now",
            "precision",
            "recall",
            "F1",
            "J",
            "best-J cut",
            "best-F1 cut",
        ],
        rows,
    }
}

fn status_word(status: CurveStatus) -> &'static str {
    match status {
        CurveStatus::Ok => "ok",
        CurveStatus::Empty => "no cases",
        CurveStatus::OneClass => "one class",
        CurveStatus::Inert => "gate inert",
    }
}

fn suggestion_rows(suggestions: &[Suggestion]) -> Table {
    let rows = suggestions
        .iter()
        .map(|s| {
            let kept = matches!((&s.before, &s.after), (Some(b), Some(a)) if same_confusion(b, a));
            let settings = if s.settings.is_empty() {
                if kept { "keep" } else { "none" }.to_owned()
            } else {
                s.settings
                    .iter()
                    .map(|c| format!("{} {} → {}", c.key, c.current, num(c.suggested)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let figures = match (s.before, s.after) {
                (Some(b), Some(a)) => format!(
                    "J {} → {}, F1 {} → {}",
                    opt_num(b.youden_j),
                    opt_num(a.youden_j),
                    opt_num(b.f1),
                    opt_num(a.f1)
                ),
                _ => match (s.discordant_pairs_before, s.discordant_pairs_after) {
                    (Some(b), Some(a)) => format!("discordant pairs {b} → {a}"),
                    _ => "–".to_owned(),
                },
            };
            vec![
                s.rule.to_owned(),
                s.scope.to_owned(),
                s.n.to_string(),
                settings,
                figures,
            ]
        })
        .collect();
    Table {
        header: vec!["rule", "scope", "n", "settings", "figures"],
        rows,
    }
}

fn points_table(points: &[ThresholdPoint]) -> Table {
    Table {
        header: vec![
            "threshold",
            "flagged",
            "TP",
            "FP",
            "TN",
            "FN",
            "precision",
            "recall",
            "FPR",
            "F1",
            "J",
        ],
        rows: points
            .iter()
            .map(|p| {
                vec![
                    num(p.threshold),
                    p.flagged.to_string(),
                    p.true_positives.to_string(),
                    p.false_positives.to_string(),
                    p.true_negatives.to_string(),
                    p.false_negatives.to_string(),
                    opt_num(p.precision),
                    opt_num(p.recall),
                    opt_num(p.false_positive_rate),
                    opt_num(p.f1),
                    opt_num(p.youden_j),
                ]
            })
            .collect(),
    }
}

/// Thresholds listed in calibration.md up to this many; calibration.json has all.
const POINTS_IN_MARKDOWN: usize = 60;

fn headline(c: &Calibration) -> String {
    format!(
        "{} cases, {} linked to a trace (the n of every figure below unless a column says \
         otherwise); maxL2Distance {}, referenceThreshold {}, highlyRelevantThreshold {}, \
         preciseThreshold {}, hybridQuality {}",
        c.cases,
        c.linked,
        c.config.max_l2_distance,
        c.config.reference_threshold,
        c.config.highly_relevant_threshold,
        c.config.precise_threshold,
        c.config.hybrid_quality.as_str()
    )
}

const GATE_LEGEND: &str = "The gate as a classifier of misses: positive = not found (golden weak \
or miss), flagged = top quality < threshold (no accepted block = top quality 0). AUC by the \
trapezoid rule; traces with equal top quality are flagged together, so a tie between found and \
not found is one diagonal segment.";

/// `calibration.md`: a GitHub-readable report of a [`Calibration`].
pub fn calibration_markdown(c: &Calibration) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(out, "# Calibration\n\n{}.\n", headline(c));
    for note in c.notes.iter().chain(&c.unlinked.reason) {
        let _ = writeln!(out, "- {}", md_cell(note));
    }
    if !c.unlinked.first.is_empty() {
        let names: Vec<String> = c
            .unlinked
            .first
            .iter()
            .map(|u| md_cell(&unlinked_name(u)))
            .collect();
        let _ = writeln!(out, "- first unlinked: {}", names.join(", "));
    }
    let _ = writeln!(out, "\n## Levels against golden outcomes\n");
    level_rows(&c.levels).markdown(&mut out);
    let _ = writeln!(
        out,
        "\nDiscordant pairs (higher level, worse outcome): recomputed {}, recorded {}.",
        c.levels.discordant_pairs, c.levels.recorded_discordant_pairs
    );
    let _ = writeln!(out, "\n## The low-quality gate\n\n{GATE_LEGEND}\n");
    gate_rows(&c.gate).markdown(&mut out);
    for curve in [&c.gate.all, &c.gate.dense, &c.gate.hybrid] {
        if let Some(message) = &curve.message {
            let _ = writeln!(out, "\n{}: {}", curve.scope, md_cell(message));
        }
    }
    let _ = writeln!(out, "\n## Suggestions\n");
    suggestion_rows(&c.suggestions).markdown(&mut out);
    out.push('\n');
    for s in &c.suggestions {
        let anecdotal = if s.anecdotal { " (anecdotal)" } else { "" };
        let _ = writeln!(out, "- {}{anecdotal}: {}", s.rule, md_cell(&s.message));
    }
    if let Some(sweep) = &c.floor_sweep {
        let _ = writeln!(
            out,
            "\n## Score floors (mean over all cases; blocks and NO_MATCH over linked traces)\n"
        );
        golden::floor_sweep_table(sweep).markdown(&mut out);
        let _ = writeln!(out, "\n{}.", golden::floor_sweep_line(sweep));
    }
    let points = &c.gate.all.points;
    let _ = writeln!(
        out,
        "\n## Every threshold (all traces, n = {})\n",
        c.gate.all.n
    );
    if points.len() <= POINTS_IN_MARKDOWN {
        points_table(points).markdown(&mut out);
    } else {
        let _ = writeln!(
            out,
            "{} thresholds: too many to list here; calibration.json has every one.",
            points.len()
        );
    }
    out
}

fn unlinked_name(u: &UnlinkedCase) -> String {
    match &u.query {
        Some(q) => format!("{} (\"{}\")", u.case_id, q.trim()),
        None => u.case_id.clone(),
    }
}

/// What `ragtrace calibrate` prints: the level table, the gate and the suggestions.
pub fn calibration_summary_text(c: &Calibration) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "calibration: {}", headline(c));
    for note in c.notes.iter().chain(&c.unlinked.reason) {
        let _ = writeln!(out, "  note: {note}");
    }
    if !c.unlinked.first.is_empty() {
        let names: Vec<String> = c.unlinked.first.iter().map(unlinked_name).collect();
        let _ = writeln!(out, "  first unlinked: {}", names.join(", "));
    }
    let _ = writeln!(
        out,
        "levels against golden outcomes (recomputed | recorded):"
    );
    level_rows(&c.levels).text(&mut out);
    let _ = writeln!(
        out,
        "  discordant pairs: recomputed {}, recorded {}",
        c.levels.discordant_pairs, c.levels.recorded_discordant_pairs
    );
    let _ = writeln!(
        out,
        "gate (positive = not found, flagged = top quality < threshold; AUC by trapezoids, ties diagonal):"
    );
    gate_rows(&c.gate).text(&mut out);
    for curve in [&c.gate.all, &c.gate.dense, &c.gate.hybrid] {
        if let Some(message) = &curve.message {
            let _ = writeln!(out, "  {}: {message}", curve.scope);
        }
    }
    let _ = writeln!(out, "suggestions:");
    suggestion_rows(&c.suggestions).text(&mut out);
    for s in &c.suggestions {
        let anecdotal = if s.anecdotal { " (anecdotal)" } else { "" };
        let _ = writeln!(out, "  {}{anecdotal}: {}", s.rule, s.message);
    }
    if let Some(sweep) = &c.floor_sweep {
        let _ = writeln!(out, "{}", golden::floor_sweep_line(sweep));
    }
    out.lines()
        .map(|l| {
            l.chars()
                .map(|ch| if ch.is_control() { ' ' } else { ch })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
