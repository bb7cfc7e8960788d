//! The batch view (contract section 4): counts, sweep and findings over the analysed
//! traces, each built one trace at a time while `analyze` walks them.

mod score_fit;
mod summary;
mod sweep;
mod warnings;

pub(crate) use score_fit::ScoreFit;
pub(crate) use summary::SummaryBuilder;
pub use summary::{ByMode, ModeSummary, Summary, SCOPES};
pub use sweep::{SweepCounts, SweepPoint, SweepScopes};
pub use warnings::BatchWarning;
pub(crate) use warnings::{group_message, Example, WarningsBuilder, EXAMPLES};
