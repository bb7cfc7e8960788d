//! What the page's state defers to lazily loaded modules (see `lazy` for how the site
//! is split): one trace's hints and the analysis as JSON (`compute`), and the core's
//! readers of other stacks (`readers`). The state calls them; they import neither the
//! state nor a view, so the state stands above them.

pub(crate) mod compute;
pub(crate) mod readers;
