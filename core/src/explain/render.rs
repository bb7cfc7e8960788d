//! `explain.md`: the explanation for people (the JSON has everything).

use super::{Change, Explanation, SetIfList};
use crate::render::md_cell;
use std::fmt::Write;

fn changes(list: &SetIfList) -> String {
    list.iter()
        .map(|s| s.set.to_string())
        .collect::<Vec<_>>()
        .join("; or ")
}

fn change_cell(change: &Change) -> String {
    md_cell(&change.to_string())
}

/// The summary, the cases and, per trace, what moves its level and accepts each
/// candidate that was not.
pub fn explain_markdown(e: &Explanation) -> String {
    let mut out = String::from("# What would it take\n\n");
    out.push_str(
        "Each change is the nearest value of a setting (or the least pair) that flips \
         what it is listed against, applied on top of the settings below.\n\n",
    );
    let _ = writeln!(
        out,
        "{} traces, {} cases, under returnN = {}, maxChunksPerDocument = {}, maxL2Distance = {} \
         (each trace with its own options where it has them).\n",
        e.summary.traces,
        e.summary.cases,
        e.config.return_n,
        e.config.max_chunks_per_document,
        e.config.max_l2_distance
    );
    if e.summary.cases > 0 {
        out.push_str("## Golden cases\n\n| cause | cases |\n|---|---:|\n");
        for (cause, n) in &e.summary.causes {
            let _ = writeln!(out, "| {cause} | {n} |");
        }
        out.push('\n');
        if !e.summary.changes.is_empty() {
            out.push_str(
                "### Changes that find missed cases\n\n\
                 | change | recovers | of misses | traces whose list changes | level changes | cases whose hit drops |\n\
                 |---|---:|---:|---:|---:|---:|\n",
            );
            for c in &e.summary.changes {
                let levels: usize = c.level_transitions.values().sum();
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    change_cell(&c.set),
                    c.recovers,
                    e.summary.misses,
                    c.traces_changed,
                    levels,
                    c.hit_level_drops
                );
            }
            out.push('\n');
        }
        out.push_str(
            "### Cases\n\n| case | trace | hit | cause | candidate | found with |\n\
             |---|---:|---|---|---|---|\n",
        );
        for c in &e.cases {
            let found: Vec<String> = c
                .found_if
                .iter()
                .map(|f| format!("{} ({})", f.set, f.hit.as_str()))
                .collect();
            let candidate = match (c.candidate_index, c.candidate_status) {
                (Some(i), Some(s)) => format!("#{i} ({})", s.as_str()),
                _ => String::new(),
            };
            let found = if found.is_empty() {
                c.reason.clone().unwrap_or_default()
            } else {
                found.join("; or ")
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                md_cell(&c.case_id),
                c.trace_index.map(|i| i.to_string()).unwrap_or_default(),
                c.hit.as_str(),
                c.cause.as_str(),
                candidate,
                md_cell(&found)
            );
        }
        out.push('\n');
    }
    out.push_str("## Traces\n");
    for t in &e.traces {
        let name = t
            .request_id()
            .map_or_else(|| format!("#{}", t.index), md_cell);
        let _ = writeln!(
            out,
            "\n### {} {name}: {}{}\n",
            t.index,
            t.level.as_str(),
            if t.low_quality { ", low quality" } else { "" }
        );
        for l in &t.level_if {
            let _ = writeln!(out, "- {} at {}", l.level.as_str(), change_cell(&l.set));
        }
        for l in &t.low_quality_if {
            let _ = writeln!(
                out,
                "- lowQuality {} at {}",
                l.low_quality,
                change_cell(&l.set)
            );
        }
        if let Some(reason) = &t.reason {
            let _ = writeln!(out, "- {}", md_cell(reason));
        }
        let dropped: Vec<_> = t
            .candidates
            .iter()
            .filter(|c| c.status != crate::pipeline::Status::Accepted)
            .collect();
        if dropped.is_empty() {
            continue;
        }
        out.push_str("\n| candidate | docId | status | accepted with |\n|---:|---|---|---|\n");
        for c in dropped {
            let with = if c.accepted_if.is_empty() {
                c.reason.unwrap_or_default().to_owned()
            } else {
                changes(c.accepted_if)
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                c.index,
                md_cell(c.doc_id),
                md_cell(c.status.as_str()),
                md_cell(&with)
            );
        }
    }
    out
}

/// What `ragtrace explain` prints: the counts, and each change that finds missed cases
/// as one line ("returnN = 7 recovers 5 of 12 misses, changes 40 traces' lists").
pub fn explain_summary_text(e: &Explanation) -> String {
    let candidates: usize = e.traces.iter().map(|t| t.candidates.len()).sum();
    let not_accepted: usize = e
        .traces
        .iter()
        .flat_map(|t| &t.candidates)
        .filter(|c| c.status != crate::pipeline::Status::Accepted)
        .count();
    let acceptable: usize = e
        .traces
        .iter()
        .flat_map(|t| &t.candidates)
        .filter(|c| !c.accepted_if.is_empty())
        .count();
    let mut out = format!(
        "explain: {} traces, {candidates} candidates, {not_accepted} not accepted \
         ({acceptable} accepted by some change of settings)\n",
        e.summary.traces
    );
    if e.summary.cases > 0 {
        let count = |cause: &str| e.summary.causes.get(cause).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "cases: {}: found {}, dropped {} (a settings problem), not-retrieved {} (a retrieval problem), no-trace {}",
            e.summary.cases,
            count("found"),
            count("dropped"),
            count("not-retrieved"),
            count("no-trace")
        );
        for c in &e.summary.changes {
            let levels: usize = c.level_transitions.values().sum();
            let _ = writeln!(
                out,
                "  {} recovers {} of {} misses, changes {} traces' lists ({} levels), lowers {} cases' hit",
                c.set, c.recovers, e.summary.misses, c.traces_changed, levels, c.hit_level_drops
            );
        }
    }
    out
}
