//! One file per panel of the page. Only what the browser tests read is public.

// Leptos's `#[component]` expands a crate-private component into a public props
// builder, which `unreachable_pub` reports at the component; the crate's other
// modules keep the lint.
#![allow(unreachable_pub)]

pub(crate) mod baseline;
pub(crate) mod block_table;
pub(crate) mod calibration;
pub(crate) mod compare;
pub(crate) mod compare_pair;
pub(crate) mod distribution;
pub(crate) mod dom;
pub(crate) mod error_panel;
pub(crate) mod file_list;
pub(crate) mod finding;
pub(crate) mod floor_sweep;
pub mod golden;
pub(crate) mod grades;
pub(crate) mod input;
pub(crate) mod knobs;
pub(crate) mod load_progress;
pub(crate) mod many_runs;
pub(crate) mod panel_files;
pub(crate) mod sort_header;
pub(crate) mod sweep_plot;
pub mod trace_list;
pub(crate) mod trace_view;
pub(crate) mod transitions;
pub(crate) mod virtual_rows;
pub(crate) mod warnings;
pub(crate) mod waterfall;
pub(crate) mod what_if;
pub(crate) mod why_missed;
