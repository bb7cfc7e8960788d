//! The one renderer of the reports (`report.md`, `compare.md`, `calibration.md`) and
//! the CLI's text: table cells made safe, tables in Markdown or aligned text, and
//! numbers written the same way everywhere.

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

/// A number as every report writes it: three decimals.
pub(crate) fn num(x: f64) -> String {
    format!("{x:.3}")
}

/// [`num`], or `–` where there is no value.
pub(crate) fn opt_num(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_owned(), num)
}

/// A p-value: four decimals, or `<0.0001`.
pub(crate) fn p_value(p: f64) -> String {
    if p < 0.0001 {
        "<0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

/// `n` as a percentage of `total` with one decimal, `–` when `total` is 0.
pub(crate) fn share(n: usize, total: usize) -> String {
    if total == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / total as f64)
    }
}

pub(crate) fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// A column's alignment in a Markdown table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// One row of a Markdown table, `| a | b |` and a line end. The cells are written
/// as given: pass user text through [`md_cell`] first.
pub(crate) fn md_row<S: AsRef<str>>(out: &mut String, cells: impl IntoIterator<Item = S>) {
    out.push('|');
    for cell in cells {
        out.push(' ');
        out.push_str(cell.as_ref());
        out.push_str(" |");
    }
    out.push('\n');
}

/// A Markdown table's alignment row, `|---|---:|`.
pub(crate) fn md_rule(out: &mut String, columns: impl IntoIterator<Item = Align>) {
    out.push('|');
    for align in columns {
        out.push_str(match align {
            Align::Left => "---|",
            Align::Right => "---:|",
        });
    }
    out.push('\n');
}

/// A Markdown table's header and alignment rows.
pub(crate) fn md_head<S: AsRef<str>>(
    out: &mut String,
    header: impl IntoIterator<Item = S>,
    aligns: &[Align],
) {
    md_row(out, header);
    md_rule(out, aligns.iter().copied());
}

/// A table drawn in Markdown or as text: header, then rows of cells (plain text).
pub(crate) struct Table {
    pub(crate) header: Vec<&'static str>,
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    /// The table in Markdown: the first column left-aligned, the others right-aligned,
    /// every cell made safe by [`md_cell`].
    pub(crate) fn markdown(&self, out: &mut String) {
        md_row(out, &self.header);
        // calibration.md spaces its alignment row like a row of cells.
        md_row(
            out,
            (0..self.header.len()).map(|i| if i == 0 { "---" } else { "---:" }),
        );
        for row in &self.rows {
            md_row(out, row.iter().map(|c| md_cell(c)));
        }
    }

    /// The table as aligned plain text for a terminal, indented by two spaces.
    pub(crate) fn text(&self, out: &mut String) {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count())
                    .chain([self.header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut line = |cells: Vec<&str>| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, &w))| {
                    if i == 0 {
                        format!("{c:<w$}")
                    } else {
                        format!("{c:>w$}")
                    }
                })
                .collect();
            out.push_str("  ");
            out.push_str(padded.join("  ").trim_end());
            out.push('\n');
        };
        line(self.header.clone());
        for row in &self.rows {
            line(row.iter().map(String::as_str).collect());
        }
    }
}
