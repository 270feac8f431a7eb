//! The Tables panel: every table as a grid with its column and row headers, each cell edited
//! in place and checked as it is typed (the cell's text must read as a value, and the checker
//! then says whether it fits the table's result type).
//!
//! A cell is written as the designer reads it: `3`, `true`, `DR`, or a record
//! `hits: 1, retreat: true`.

use std::collections::BTreeMap;

use egui::{Color32, RichText, Ui};
use sandtable_engine::model::{Cell, Columns, RowKey, Scalar, Table, TablesFile};
use sandtable_engine::schema::FileKind;

use crate::EditorApp;

#[derive(Default)]
pub struct TablesView {
    /// The index of the table shown.
    pub selected: Option<usize>,
    /// Text typed into a cell that does not read as a value yet, by (table, row, column).
    pending: BTreeMap<(usize, usize, usize), String>,
}

/// A cell as the designer writes it.
pub fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Scalar(s) => scalar_text(s),
        Cell::Record(fields) => fields
            .iter()
            .map(|(k, v)| format!("{k}: {}", scalar_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn scalar_text(s: &Scalar) -> String {
    match s {
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(n) => n.to_string(),
        Scalar::Symbol(s) => s.clone(),
    }
}

fn parse_scalar(text: &str) -> Result<Scalar, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("a cell needs a value".into());
    }
    if let Ok(n) = t.parse::<i64>() {
        return Ok(Scalar::Int(n));
    }
    match t {
        "true" => return Ok(Scalar::Bool(true)),
        "false" => return Ok(Scalar::Bool(false)),
        _ => {}
    }
    let t = t.trim_matches('"');
    if t.chars().any(|c| c.is_whitespace() || "(),:".contains(c)) {
        return Err(format!("`{t}` is not a number, true/false or a symbol"));
    }
    Ok(Scalar::Symbol(t.to_string()))
}

/// Reads a cell's text: a scalar, or `name: value` pairs separated by commas.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(t);
    if !inner.contains(':') {
        return parse_scalar(inner).map(Cell::Scalar);
    }
    let mut fields = BTreeMap::new();
    for part in inner.split(',').filter(|p| !p.trim().is_empty()) {
        let (k, v) = part
            .split_once(':')
            .ok_or_else(|| format!("`{}` is not `name: value`", part.trim()))?;
        let k = k.trim();
        if k.is_empty() || !k.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err(format!("`{k}` is not a field name"));
        }
        fields.insert(k.to_string(), parse_scalar(v)?);
    }
    Ok(Cell::Record(fields))
}

pub fn row_text(key: &RowKey) -> String {
    match key {
        RowKey::One(n) => n.to_string(),
        RowKey::Range(a, b) => format!("{a}-{b}"),
        RowKey::Name(s) => s.clone(),
    }
}

pub fn parse_row(text: &str) -> RowKey {
    let t = text.trim();
    if let Ok(n) = t.parse() {
        return RowKey::One(n);
    }
    if let Some((a, b)) = t.split_once('-').filter(|(a, _)| !a.is_empty()) {
        if let (Ok(a), Ok(b)) = (a.trim().parse(), b.trim().parse()) {
            return RowKey::Range(a, b);
        }
    }
    RowKey::Name(t.to_string())
}

/// The column headers of a table.
pub fn column_headers(columns: &Columns) -> Vec<String> {
    match columns {
        Columns::Single => vec!["result".into()],
        Columns::Bands(b) => b.iter().map(|m| format!("{m}+")).collect(),
        Columns::Odds(o) => o.iter().map(|(a, d)| format!("{a}:{d}")).collect(),
        Columns::Named(n) => n.clone(),
    }
}

/// Sets one cell of a table of the tables file.
pub fn set_cell(
    app: &mut EditorApp,
    file: &str,
    table: usize,
    row: usize,
    col: usize,
    cell: Cell,
) -> bool {
    let name = app
        .loaded
        .content
        .tables
        .get(table)
        .map_or(String::new(), |t| t.id.clone());
    app.edit::<TablesFile>(file, &format!("cell of {name}"), |f| {
        let cells = f
            .tables
            .get_mut(table)
            .and_then(|t| t.rows.get_mut(row))
            .map(|r| &mut r.cells)
            .ok_or("the row is gone")?;
        while cells.len() <= col {
            cells.push(cell.clone());
        }
        cells[col] = cell;
        Ok(())
    })
}

/// The problems the checker reports inside one table: (row, column or none, message).
fn table_problems(
    app: &EditorApp,
    file: &str,
    table: usize,
) -> Vec<(Option<usize>, Option<usize>, String)> {
    let mut out = Vec::new();
    for i in 0..app.loaded.diagnostics.len() {
        let Some((f, pointer)) = app.place_of(i) else {
            continue;
        };
        if f != file {
            continue;
        }
        let parts: Vec<&str> = pointer.split('/').skip(1).collect();
        if parts.get(1).and_then(|p| p.parse::<usize>().ok()) != Some(table) {
            continue;
        }
        let num = |k: usize| parts.get(k).and_then(|p| p.parse::<usize>().ok());
        let (row, col) = if parts.get(2) == Some(&"rows") {
            (
                num(3),
                if parts.get(4) == Some(&"cells") {
                    num(5)
                } else {
                    None
                },
            )
        } else {
            (None, None)
        };
        out.push((row, col, app.loaded.diagnostics[i].message.clone()));
    }
    out
}

pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let Some(file) = app.file_of(FileKind::Tables) else {
        ui.label("The folder has no tables.ron.");
        return;
    };
    let Ok(tables) = app.doc.parsed::<TablesFile>(&file) else {
        ui.label("tables.ron does not read: see Problems.");
        return;
    };
    egui::Panel::left("table-list")
        .default_size(220.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (i, t) in tables.tables.iter().enumerate() {
                    if ui
                        .selectable_label(app.tables.selected == Some(i), &t.name)
                        .clicked()
                    {
                        app.tables.selected = Some(i);
                    }
                }
            });
        });
    let Some(index) = app.tables.selected else {
        ui.label("Choose a table.");
        return;
    };
    let Some(table) = tables.tables.get(index).cloned() else {
        ui.label("No such table.");
        return;
    };
    grid(app, ui, &file, index, &table);
}

fn grid(app: &mut EditorApp, ui: &mut Ui, file: &str, index: usize, table: &Table) {
    ui.heading(&table.name);
    ui.label(
        RichText::new(format!(
            "{}: rows by {:?}, results {:?}",
            table.id, table.rows_by, table.result
        ))
        .weak(),
    );
    egui::CollapsingHeader::new(
        "Every field of this table (name, rows by, columns, result type …)",
    )
    .id_salt(("table fields", index))
    .show(ui, |ui| {
        egui::ScrollArea::vertical()
            .id_salt("table fields scroll")
            .max_height(320.0)
            .show(ui, |ui| {
                use crate::fields::Step;
                crate::fields::edit_tree::<TablesFile>(
                    app,
                    ui,
                    file,
                    FileKind::Tables,
                    &[Step::Key("tables"), Step::Index(index)],
                )
            })
    });
    let problems = table_problems(app, file, index);
    let headers = column_headers(&table.columns);
    egui::ScrollArea::both().show(ui, |ui| {
        egui::Grid::new(("table-grid", index))
            .striped(true)
            .min_col_width(50.0)
            .show(ui, |ui| {
                ui.label(RichText::new("row").strong());
                for h in &headers {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                for (r, row) in table.rows.iter().enumerate() {
                    let mut key = row_text(&row.key);
                    if ui
                        .add(egui::TextEdit::singleline(&mut key).desired_width(50.0))
                        .changed()
                    {
                        let k = parse_row(&key);
                        app.edit::<TablesFile>(file, &format!("row of {}", table.id), |f| {
                            if let Some(row) =
                                f.tables.get_mut(index).and_then(|t| t.rows.get_mut(r))
                            {
                                row.key = k;
                            }
                            Ok(())
                        });
                    }
                    for c in 0..headers.len() {
                        let slot = (index, r, c);
                        let mut text =
                            app.tables.pending.get(&slot).cloned().unwrap_or_else(|| {
                                row.cells.get(c).map(cell_text).unwrap_or_default()
                            });
                        let bad = app.tables.pending.contains_key(&slot)
                            || problems.iter().any(|(pr, pc, _)| {
                                *pr == Some(r) && (*pc == Some(c) || pc.is_none())
                            });
                        let mut edit = egui::TextEdit::singleline(&mut text)
                            .desired_width(70.0)
                            .hint_text(format!("row {}, column {}", r + 1, c + 1))
                            .id(egui::Id::new(("cell", index, r, c)));
                        if bad {
                            edit = edit.text_color(Color32::RED);
                        }
                        if ui.add(edit).changed() {
                            match parse_cell(&text) {
                                Ok(cell) => {
                                    app.tables.pending.remove(&slot);
                                    set_cell(app, file, index, r, c, cell);
                                }
                                Err(e) => {
                                    app.tables.pending.insert(slot, text);
                                    app.status = format!("Not a cell value: {e}");
                                }
                            }
                        }
                    }
                    ui.end_row();
                }
            });
    });
    ui.horizontal(|ui| {
        if ui.button("Add row").clicked() {
            app.edit::<TablesFile>(file, &format!("add row to {}", table.id), |f| {
                let t = f.tables.get_mut(index).ok_or("the table is gone")?;
                let last = t
                    .rows
                    .last()
                    .cloned()
                    .ok_or("the table has no row to copy")?;
                let key = match last.key {
                    RowKey::One(n) => RowKey::One(n + 1),
                    RowKey::Range(_, b) => RowKey::One(b + 1),
                    RowKey::Name(n) => RowKey::Name(format!("{n}_2")),
                };
                t.rows.push(sandtable_engine::model::Row {
                    key,
                    cells: last.cells,
                });
                Ok(())
            });
        }
        if ui.button("Delete last row").clicked() {
            app.edit::<TablesFile>(file, &format!("delete row of {}", table.id), |f| {
                let t = f.tables.get_mut(index).ok_or("the table is gone")?;
                t.rows.pop().ok_or("the table has no rows")?;
                Ok(())
            });
        }
    });
    for (row, col, message) in &problems {
        let at = match (row, col) {
            (Some(r), Some(c)) => format!("row {}, column {}: ", r + 1, c + 1),
            (Some(r), None) => format!("row {}: ", r + 1),
            _ => String::new(),
        };
        ui.label(RichText::new(format!("{at}{message}")).color(Color32::RED));
    }
    let mut notes = table.notes.clone();
    ui.label("Notes");
    if ui.text_edit_multiline(&mut notes).changed() {
        app.edit::<TablesFile>(file, &format!("notes of {}", table.id), |f| {
            if let Some(t) = f.tables.get_mut(index) {
                t.notes = notes;
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_reads_as_the_designer_writes_it_and_back() {
        for text in ["3", "-1", "true", "DR", "hits: 1, retreat: true"] {
            let cell = parse_cell(text).unwrap();
            assert_eq!(cell_text(&cell), text);
        }
        assert!(parse_cell("").is_err());
        assert!(parse_cell("two words").is_err());
        assert!(parse_cell("hits 1, x: 2").is_err());
        assert_eq!(parse_row("3-4"), RowKey::Range(3, 4));
        assert_eq!(parse_row("-1"), RowKey::One(-1));
        assert_eq!(parse_row("clear"), RowKey::Name("clear".into()));
    }
}
