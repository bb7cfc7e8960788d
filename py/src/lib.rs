//! ragtrace for Python (contract section 7): a thin shell over `ragtrace-core`, built
//! by maturin as the extension module `ragtrace._native` (the package `ragtrace`
//! re-exports it, see `python/ragtrace/__init__.py`).
//!
//! Sources are paths, bytes, binary file objects or parsed dicts/lists (`source`);
//! results are plain Python objects shaped exactly like the CLI's JSON (`to_py`);
//! failures are `InputError` and `ConfigError` (`error`). The core runs without the
//! GIL. One file per concern, as in the JS crate.

#![warn(unreachable_pub)]

mod analyze;
mod error;
mod explain;
mod golden;
mod partial;
mod quality;
mod source;
mod to_py;

use pyo3::prelude::*;

/// The core's allocations (parsed strings, traces, analyses) only; Python objects
/// come from Python's allocator. Same allocator as the CLI, so both read at one speed.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// pyo3 turns a Rust panic into a Python exception only when panics unwind; with
// the workspace's release profile (panic = "abort") one would end the interpreter.
#[cfg(panic = "abort")]
compile_error!(
    "build the Python package with panics that unwind: `maturin build` (py/pyproject.toml picks \
     the `python` cargo profile), not a profile with panic = \"abort\" such as `release`"
);

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InputError", py.get_type::<error::InputError>())?;
    m.add("ConfigError", py.get_type::<error::ConfigError>())?;
    m.add_class::<analyze::Analysis>()?;
    m.add_class::<partial::Partial>()?;
    m.add_class::<partial::CaseMatches>()?;
    m.add_function(wrap_pyfunction!(partial::case_matches, m)?)?;
    m.add_function(wrap_pyfunction!(partial::partial, m)?)?;
    m.add_function(wrap_pyfunction!(partial::merge, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(golden::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(golden::compare, m)?)?;
    m.add_function(wrap_pyfunction!(golden::compare_many, m)?)?;
    m.add_function(wrap_pyfunction!(golden::calibrate, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add_function(wrap_pyfunction!(quality::default_config, m)?)?;
    m.add_function(wrap_pyfunction!(quality::canonical_label, m)?)?;
    m.add_function(wrap_pyfunction!(quality::quality_score, m)?)?;
    Ok(())
}
