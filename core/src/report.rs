//! Human- and tool-readable renderings of a [`GoldenReport`]: the Markdown
//! `report.md`, a plain-text summary for the CLI, and TREC qrels / run files
//! so that trec_eval or ranx can recompute the ranking metrics independently.

use crate::golden::{CaseReport, GoldenLevel, GoldenReport};
use std::collections::HashSet;
use std::fmt::Write as _;

const LEVELS: [GoldenLevel; 4] = [
    GoldenLevel::Strong,
    GoldenLevel::Medium,
    GoldenLevel::Weak,
    GoldenLevel::Miss,
];

/// The run tag written in the last column of [`trec_run`].
pub const TREC_RUN_TAG: &str = "ragtrace";

/// A GitHub-readable Markdown report: title, summary table by level, metric
/// means, then one row per case in the order of the cases file.
pub fn golden_markdown(report: &GoldenReport) -> String {
    let s = &report.summary;
    let mut out = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(out, "# Golden evaluation\n");
    let _ = writeln!(out, "{} cases.\n", s.cases);

    let _ = writeln!(out, "## Levels\n");
    let _ = writeln!(out, "| level | cases | share |");
    let _ = writeln!(out, "|---|---:|---:|");
    for level in LEVELS {
        let n = s.levels.get(level);
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            level.as_str(),
            n,
            share(n, s.cases)
        );
    }

    let _ = writeln!(out, "\n## Ranking metrics (mean over all cases)\n");
    let _ = writeln!(out, "| metric | mean |");
    let _ = writeln!(out, "|---|---:|");
    let _ = writeln!(out, "| recall@k | {} |", num(s.mean_recall));
    let _ = writeln!(out, "| precision@k | {} |", num(s.mean_precision));
    let _ = writeln!(out, "| MRR | {} |", num(s.mean_reciprocal_rank));
    let _ = writeln!(out, "| nDCG@k | {} |", num(s.mean_ndcg));

    let _ = writeln!(out, "\n## Cases\n");
    let _ = writeln!(
        out,
        "| case | level | docHit | breadcrumbHit | coverage | k | recall | precision | RR | nDCG | trace | note |"
    );
    let _ = writeln!(
        out,
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"
    );
    for c in &report.cases {
        let _ = writeln!(out, "{}", case_row(c));
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

fn case_row(c: &CaseReport) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        md_cell(&c.case_id),
        c.level.as_str(),
        yes_no(c.doc_hit),
        yes_no(c.breadcrumb_hit),
        c.coverage.map_or_else(|| "–".to_owned(), num),
        c.k,
        num(c.recall),
        num(c.precision),
        num(c.reciprocal_rank),
        num(c.ndcg),
        c.trace_name
            .as_deref()
            .map_or_else(|| "–".to_owned(), md_cell),
        c.note.as_deref().map(md_cell).unwrap_or_default(),
    )
}

/// Makes arbitrary text safe inside a Markdown table cell and shows it as
/// text: `|` would end the cell and a newline the row; Markdown punctuation
/// and `<`/`&` would otherwise be rendered as emphasis, links or HTML.
pub fn md_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\r' => {
                // CRLF is one line break.
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\n' | '\u{2028}' | '\u{2029}' => out.push_str("<br>"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn num(x: f64) -> String {
    format!("{x:.3}")
}

fn share(n: usize, total: usize) -> String {
    if total == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / total as f64)
    }
}

/// A short plain-text summary for the CLI (`ragtrace eval` prints it).
pub fn golden_summary_text(report: &GoldenReport) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let _ = writeln!(out, "golden evaluation: {} cases", s.cases);
    for level in LEVELS {
        let n = s.levels.get(level);
        let _ = writeln!(
            out,
            "  {:<7}{:>5}  {}",
            level.as_str(),
            n,
            share(n, s.cases)
        );
    }
    let _ = writeln!(
        out,
        "  mean recall@k {}  precision@k {}  MRR {}  nDCG@k {}",
        num(s.mean_recall),
        num(s.mean_precision),
        num(s.mean_reciprocal_rank),
        num(s.mean_ndcg)
    );
    for c in &report.cases {
        let _ = write!(
            out,
            "  {}: {} (recall {}, precision {}, RR {}, nDCG {}, k {})",
            one_line(&c.case_id),
            c.level.as_str(),
            num(c.recall),
            num(c.precision),
            num(c.reciprocal_rank),
            num(c.ndcg),
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

/// One TREC identifier per case, in case order. TREC files are split on
/// white space, so white space inside a caseId becomes `_` (an empty id
/// becomes `_`); a caseId already used by an earlier case gets `#<position>`
/// appended so the two cases stay distinct queries.
pub fn trec_qids(report: &GoldenReport) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    report
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut qid = trec_token(&c.case_id);
            if used.contains(&qid) {
                qid = format!("{qid}#{}", i + 1);
                while used.contains(&qid) {
                    qid.push('_');
                }
            }
            used.insert(qid.clone());
            qid
        })
        .collect()
}

/// A TREC field: white space (which would split the field) becomes `_`.
pub fn trec_token(text: &str) -> String {
    let t: String = text
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if t.is_empty() {
        "_".to_owned()
    } else {
        t
    }
}

/// TREC qrels: `qid 0 docno 1` for every expected document of every case.
///
/// A case with no expected document gets its retrieved documents judged 0, so
/// the query still exists for `trec_eval -c` (which then scores it 0, as we
/// do). A case with neither expected nor retrieved documents cannot be
/// written; the tools' means then leave it out while ours count it.
pub fn trec_qrels(report: &GoldenReport) -> String {
    let mut out = String::new();
    for (qid, c) in trec_qids(report).iter().zip(&report.cases) {
        if c.expected_doc_ids.is_empty() {
            for d in &c.doc_ranking {
                let _ = writeln!(out, "{qid} 0 {} 0", trec_token(d));
            }
        } else {
            for d in &c.expected_doc_ids {
                let _ = writeln!(out, "{qid} 0 {} 1", trec_token(d));
            }
        }
    }
    out
}

/// TREC run: `qid Q0 docno rank score runtag` for every document of every
/// case's `docRanking` (the whole ranking: the reciprocal rank is not cut at
/// k). trec_eval re-sorts by score and breaks ties by docno, so scores are
/// strictly decreasing with rank: `n - rank + 1` for a ranking of n.
/// Cases without a trace have no lines; evaluate with `trec_eval -c` so they
/// count as 0, as in our means.
pub fn trec_run(report: &GoldenReport, run_tag: &str) -> String {
    let tag = trec_token(run_tag);
    let mut out = String::new();
    for (qid, c) in trec_qids(report).iter().zip(&report.cases) {
        let n = c.doc_ranking.len();
        for (i, d) in c.doc_ranking.iter().enumerate() {
            let _ = writeln!(out, "{qid} Q0 {} {} {} {tag}", trec_token(d), i + 1, n - i);
        }
    }
    out
}
