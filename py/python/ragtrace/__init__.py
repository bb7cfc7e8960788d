"""ragtrace: recompute RAG retrieval quality, order and relevance from traces.

A thin shell over the Rust core (the same code as the ``ragtrace`` CLI and the
JavaScript package): every result is the object the CLI writes as JSON. See
py/README.md for the whole API and ``__init__.pyi`` for the result types.
"""

from ._native import (
    Analysis,
    CaseMatches,
    ConfigError,
    InputError,
    Partial,
    __version__,
    analyze,
    calibrate,
    canonical_label,
    case_matches,
    compare,
    compare_many,
    default_config,
    evaluate,
    explain,
    merge,
    partial,
    quality_score,
)

__all__ = [
    "Analysis",
    "CaseMatches",
    "ConfigError",
    "InputError",
    "Partial",
    "__version__",
    "analyze",
    "calibrate",
    "canonical_label",
    "case_matches",
    "compare",
    "compare_many",
    "default_config",
    "evaluate",
    "explain",
    "merge",
    "partial",
    "quality_score",
]
