//! The core's layering (docs/architecture.md, "The core's modules"), checked on the
//! sources: a module's code uses only modules of a lower layer. The table below holds
//! each module's layer; the test reads every file under `core/src` and names the file
//! and the `crate::...` path of each import that reaches a module of the same or a
//! higher layer.
//!
//! A module is a file or a folder directly under `core/src` (`explain/` with all its
//! files is the module `explain`). Imports inside one folder (`super::...`, or
//! `crate::explain::...` from within `explain/`) are that module's own business and are
//! not checked here. Test code (`#[cfg(test)]` items and modules) is not checked
//! either: a unit test may build its input with a higher layer. A path through the
//! root's re-exports (`crate::Analysis`, `crate::analyze`) is refused: it hides which
//! module is imported, and reads as an import of `lib.rs`, which stands above every
//! module. The CLI (`src/bin/`) stands above every module and
//! `lib.rs` only declares and re-exports them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each module's layer, bottom (1) to top. A module may import only modules of a lower
/// layer. Keep it in step with docs/architecture.md.
const LAYERS: &[(&str, u32)] = &[
    ("diagnostic", 1),
    ("label", 1),
    ("config", 1),
    ("render", 1),
    ("lanes", 1),
    ("fast_hash", 1),
    ("sample", 1),
    ("stats", 2),
    ("input_errors", 2),
    ("legacy", 2),
    ("score_kind", 2),
    ("outcome", 2),
    ("quality", 3),
    ("input", 3),
    ("pipeline", 4),
    ("trace_analysis", 5),
    ("batch", 6),
    ("analysis", 7),
    ("baseline", 8),
    ("golden", 8),
    ("calibration", 9),
    ("runs", 9),
    ("explain", 10),
    ("partial", 10),
    ("schema", 11),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, with its path relative to `core/src`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path.strip_prefix(src()).unwrap().to_path_buf());
        }
    }
}

/// The module a file under `core/src` belongs to: its first path component, without
/// `.rs` (`explain/tables.rs` and `explain/mod.rs` are `explain`).
fn module_of(file: &Path) -> String {
    let first = file
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// The file's code without comments and test code: a line `#[cfg(test)]` drops the
/// item after it (to its closing brace, or its `;`). The names of the files that
/// such an item declares (`#[cfg(test)] mod test_support;`) go to `test_files`.
fn product_code(text: &str, test_files: &mut Vec<String>) -> String {
    let mut code = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            let mut depth = 0i64;
            for item in lines.by_ref() {
                let item = item.trim();
                if item.starts_with("//") || item.starts_with("#[") {
                    continue;
                }
                if let Some(name) = item
                    .strip_prefix("mod ")
                    .or_else(|| item.strip_prefix("pub(crate) mod "))
                    .and_then(|rest| rest.strip_suffix(';'))
                {
                    test_files.push(name.to_owned());
                }
                depth += item.matches('{').count() as i64 - item.matches('}').count() as i64;
                if depth <= 0 && (item.ends_with('}') || item.ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let line = line.split(" //").next().unwrap_or(line);
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The first segments of the paths that follow each `crate::` in `code`, with the
/// path as written (`crate::{analyze, Analysis}` gives `analyze` and `Analysis`).
fn crate_paths(code: &str) -> Vec<(String, String)> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let written = format!("crate::{{{}}}", &group[..end]);
            let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut depth = 0;
            let mut start = 0;
            let inner = &group[..end];
            for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let first = ident(inner[start..i].trim());
                        if !first.is_empty() {
                            found.push((first, written.clone()));
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            let path: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            found.push((
                ident(rest),
                format!("crate::{}", path.trim_end_matches(':')),
            ));
        }
    }
    found
}

/// The names the root re-exports (`pub use crate::module::{Name, ...}` in lib.rs),
/// each with the module that defines it.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(at) = statement.find("pub use crate::") else {
            continue;
        };
        let path = &statement[at + "pub use crate::".len()..];
        let (module, items) = path.split_once("::").unwrap_or((path, ""));
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let item = item.trim();
            let name = item.rsplit(" as ").next().unwrap_or(item);
            let name = name.rsplit("::").next().unwrap_or(name).trim();
            if !name.is_empty() {
                names.insert(name.to_owned(), module.trim().to_owned());
            }
        }
    }
    names
}

#[test]
fn no_module_imports_its_own_or_a_higher_layer() {
    let layers: BTreeMap<&str, u32> = LAYERS.iter().copied().collect();
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let reexported = reexports(&lib);

    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| !f.starts_with("bin") && f != Path::new("lib.rs"))
        .collect();

    // Every module has a row, and every row a module.
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let unlisted: Vec<_> = modules
        .iter()
        .filter(|m| !layers.contains_key(m.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "modules without a layer in LAYERS (core/tests/library/layers.rs): {unlisted:?}"
    );
    let gone: Vec<_> = layers.keys().filter(|m| !modules.contains(**m)).collect();
    assert!(
        gone.is_empty(),
        "LAYERS lists modules that are gone: {gone:?}"
    );

    let mut texts = Vec::new();
    let mut test_files = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(src().join(file)).unwrap();
        let code = product_code(&text, &mut test_files);
        texts.push((file, code));
    }

    let mut wrong = Vec::new();
    let mut through_root = Vec::new();
    for (file, code) in &texts {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        if test_files.contains(&stem) {
            continue; // a file of test code only (`#[cfg(test)] mod NAME;`)
        }
        let module = module_of(file);
        let own = layers[module.as_str()];
        for (first, written) in crate_paths(code) {
            let target = if layers.contains_key(first.as_str()) {
                first.clone()
            } else if let Some(module) = reexported.get(&first) {
                through_root.push(format!(
                    "core/src/{}: `{written}` goes through lib.rs: write `crate::{module}::{first}`",
                    file.display()
                ));
                module.clone()
            } else {
                continue; // `crate` itself (`pub(in crate::x)` reads as `x` above)
            };
            if target == module {
                continue;
            }
            let theirs = layers[target.as_str()];
            if theirs >= own {
                wrong.push(format!(
                    "core/src/{}: `{written}` reaches {target} (layer {theirs}) from {module} (layer {own})",
                    file.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports of the same or a higher layer (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
    assert!(
        through_root.is_empty(),
        "imports through the root's re-exports:\n{}",
        through_root.join("\n")
    );
}

#[test]
fn the_check_reads_grouped_reexported_and_test_only_imports() {
    // The reader itself, on text whose answer is known by hand, so that a parse that
    // finds nothing cannot pass the check above.
    let mut test_files = Vec::new();
    let code = product_code(
        "use crate::input::Trace;\n\
         // use crate::schema::x;\n\
         use crate::{analyze, golden::{self, CaseSet}};\n\
         #[cfg(test)]\n\
         mod tests {\n    use crate::explain::x;\n}\n\
         #[cfg(test)]\n\
         mod test_support;\n\
         fn f() { crate::runs::write_at(); }\n",
        &mut test_files,
    );
    let firsts: Vec<String> = crate_paths(&code).into_iter().map(|(f, _)| f).collect();
    assert_eq!(firsts, ["input", "analyze", "golden", "runs"]);
    assert_eq!(test_files, ["test_support"]);
    let names = reexports("pub use crate::analysis::{analyze, Analysis};\npub use crate::x::Y;");
    assert_eq!(names.get("analyze").map(String::as_str), Some("analysis"));
    assert_eq!(names.get("Analysis").map(String::as_str), Some("analysis"));
    assert_eq!(names.get("Y").map(String::as_str), Some("x"));
}
