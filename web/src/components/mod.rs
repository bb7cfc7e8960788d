//! One file per panel of the page.

pub mod baseline;
pub mod block_table;
pub mod calibration;
pub mod distribution;
pub mod error_panel;
pub mod file_list;
pub mod golden;
pub mod input;
pub mod knobs;
pub mod sweep_plot;
pub mod trace_list;
pub mod trace_view;
pub mod transitions;
pub mod warnings;
pub mod waterfall;
