//! Table lookups: choosing the column (strength band, odds ratio or name), shifting it, choosing
//! the row (a die roll with its modifiers, a number, a name) and reading the typed result; and
//! the exact distribution of results over the dice.
//!
//! The rules every game shares, so that no game needs its own lookup code:
//! - a strength below the first band fires on the first band;
//! - odds are rounded in the defender's favour, to the highest column not above them, and odds
//!   below the first column use the first column;
//! - column shifts move along the columns and stop at either end (further shifts are ignored);
//! - a modified die roll is clamped to the range the rows cover (the table's `clamp`, or the
//!   dice's natural range), and a number outside `from..to` is clamped into it.
//!
//! Invariant: a lookup on a table that checked never panics; on an unchecked table it returns
//! an error instead.

use std::collections::BTreeMap;
use std::fmt;

use crate::model::{Cell, Columns, RowKey, RowsBy, Scalar, Table};

/// What selects the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnInput<'a> {
    /// A total strength, for tables with strength bands.
    Strength(i32),
    /// Attacker and defender strengths, for tables with odds columns.
    Odds { attacker: u32, defender: u32 },
    /// A column name.
    Name(&'a str),
    /// A one-column table.
    Single,
}

/// What selects the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowInput<'a> {
    /// The sum of the dice, and the modifier to add to it.
    Roll {
        roll: i32,
        drm: i32,
    },
    Number(i32),
    Name(&'a str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupError {
    /// The input does not fit how the table's columns are selected.
    WrongColumnInput(String),
    WrongRowInput(String),
    NoSuchColumn(String),
    NoSuchRow(String),
    /// The table is malformed (it did not check).
    Malformed(String),
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::WrongColumnInput(s)
            | LookupError::WrongRowInput(s)
            | LookupError::NoSuchColumn(s)
            | LookupError::NoSuchRow(s)
            | LookupError::Malformed(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for LookupError {}

impl Table {
    /// The number of columns.
    pub fn width(&self) -> usize {
        match &self.columns {
            Columns::Single => 1,
            Columns::Bands(b) => b.len(),
            Columns::Odds(o) => o.len(),
            Columns::Named(n) => n.len(),
        }
    }

    /// The printed heading of a column (`4-5`, `3:1`, a name).
    pub fn column_label(&self, column: usize) -> String {
        match &self.columns {
            Columns::Single => String::new(),
            Columns::Bands(bands) => match (bands.get(column), bands.get(column + 1)) {
                (Some(lo), Some(next)) if next - 1 == *lo => lo.to_string(),
                (Some(lo), Some(next)) => format!("{lo}-{}", next - 1),
                (Some(lo), None) => format!("{lo}+"),
                _ => String::new(),
            },
            Columns::Odds(odds) => odds
                .get(column)
                .map(|(a, d)| format!("{a}:{d}"))
                .unwrap_or_default(),
            Columns::Named(names) => names.get(column).cloned().unwrap_or_default(),
        }
    }

    /// The column an input selects, before shifts.
    pub fn column(&self, input: ColumnInput) -> Result<usize, LookupError> {
        match (&self.columns, input) {
            (Columns::Single, _) => Ok(0),
            (Columns::Bands(bands), ColumnInput::Strength(s)) => {
                Ok(bands.iter().rposition(|&min| min <= s).unwrap_or(0))
            }
            (Columns::Odds(odds), ColumnInput::Odds { attacker, defender }) => {
                if defender == 0 {
                    return Ok(odds.len().saturating_sub(1));
                }
                let fits = |&(a, d): &(u32, u32)| {
                    u64::from(a) * u64::from(defender) <= u64::from(attacker) * u64::from(d)
                };
                Ok(odds.iter().rposition(fits).unwrap_or(0))
            }
            (Columns::Named(names), ColumnInput::Name(name)) => {
                names.iter().position(|n| n == name).ok_or_else(|| {
                    LookupError::NoSuchColumn(format!("table `{}` has no column `{name}`", self.id))
                })
            }
            (columns, input) => Err(LookupError::WrongColumnInput(format!(
                "table `{}` selects columns by {}, not by {input:?}",
                self.id,
                match columns {
                    Columns::Bands(_) => "strength",
                    Columns::Odds(_) => "odds",
                    Columns::Named(_) => "name",
                    Columns::Single => "nothing",
                }
            ))),
        }
    }

    /// A column moved by `shift` (positive to the right), stopping at either end.
    pub fn shift(&self, column: usize, shift: i32) -> usize {
        let last = self.width().saturating_sub(1) as i64;
        (column as i64 + i64::from(shift)).clamp(0, last) as usize
    }

    /// The range of numbers the rows cover (for dice and number tables).
    pub fn row_range(&self, faces: u32) -> Option<(i32, i32)> {
        match &self.rows_by {
            RowsBy::Dice { count, clamp } => {
                Some(clamp.unwrap_or((*count as i32, (*count * faces) as i32)))
            }
            RowsBy::Number { from, to } => Some((*from, *to)),
            RowsBy::Name => None,
        }
    }

    /// The row an input selects, after modifiers and clamping.
    pub fn row(&self, input: RowInput, faces: u32) -> Result<usize, LookupError> {
        let number = match (&self.rows_by, input) {
            (RowsBy::Dice { .. }, RowInput::Roll { roll, drm }) => roll.saturating_add(drm),
            (RowsBy::Number { .. }, RowInput::Number(n)) => n,
            (RowsBy::Name, RowInput::Name(name)) => {
                return self
                    .rows
                    .iter()
                    .position(|r| matches!(&r.key, RowKey::Name(n) if n == name))
                    .ok_or_else(|| {
                        LookupError::NoSuchRow(format!("table `{}` has no row `{name}`", self.id))
                    });
            }
            (_, input) => {
                return Err(LookupError::WrongRowInput(format!(
                    "table `{}` does not select rows by {input:?}",
                    self.id
                )))
            }
        };
        let (lo, hi) = self.row_range(faces).unwrap_or((number, number));
        let number = number.clamp(lo, hi.max(lo));
        self.rows
            .iter()
            .position(|r| match r.key {
                RowKey::One(n) => n == number,
                RowKey::Range(a, b) => (a..=b).contains(&number),
                RowKey::Name(_) => false,
            })
            .ok_or_else(|| {
                LookupError::Malformed(format!("table `{}` has no row for {number}", self.id))
            })
    }

    /// The result in a row and column.
    pub fn cell(&self, row: usize, column: usize) -> Result<&Cell, LookupError> {
        self.rows
            .get(row)
            .and_then(|r| r.cells.get(column))
            .ok_or_else(|| {
                LookupError::Malformed(format!(
                    "table `{}` has no cell at row {}, column {}",
                    self.id,
                    row + 1,
                    column + 1
                ))
            })
    }

    /// One lookup: column from `column` moved by `shift`, row from `row`.
    pub fn lookup(
        &self,
        column: ColumnInput,
        shift: i32,
        row: RowInput,
        faces: u32,
    ) -> Result<&Cell, LookupError> {
        let c = self.shift(self.column(column)?, shift);
        let r = self.row(row, faces)?;
        self.cell(r, c)
    }

    /// The exact distribution of results over every roll of the table's dice, with a die-roll
    /// modifier, for one column: each distinct result with how many of the `faces^count`
    /// equally likely rolls give it, in order of first appearance by roll.
    pub fn distribution(
        &self,
        column: ColumnInput,
        shift: i32,
        drm: i32,
        faces: u32,
    ) -> Result<Distribution, LookupError> {
        let RowsBy::Dice { count, .. } = self.rows_by else {
            return Err(LookupError::WrongRowInput(format!(
                "table `{}` is not rolled on",
                self.id
            )));
        };
        if count == 0 || count > 6 || faces == 0 || faces > 100 {
            return Err(LookupError::Malformed(format!(
                "table `{}` rolls {count} dice of {faces} faces",
                self.id
            )));
        }
        let c = self.shift(self.column(column)?, shift);
        // Ways to roll each sum.
        let mut sums: BTreeMap<i32, u64> = BTreeMap::from([(0, 1)]);
        for _ in 0..count {
            let mut next = BTreeMap::new();
            for (&s, &w) in &sums {
                for face in 1..=faces as i32 {
                    *next.entry(s + face).or_insert(0) += w;
                }
            }
            sums = next;
        }
        let mut outcomes: Vec<(Cell, u64)> = Vec::new();
        for (&roll, &ways) in &sums {
            let r = self.row(RowInput::Roll { roll, drm }, faces)?;
            let cell = self.cell(r, c)?.clone();
            match outcomes.iter_mut().find(|(x, _)| *x == cell) {
                Some((_, w)) => *w += ways,
                None => outcomes.push((cell, ways)),
            }
        }
        Ok(Distribution {
            column: c,
            total: u64::from(faces).pow(count),
            outcomes,
        })
    }
}

/// Results with their number of ways out of `total` equally likely rolls.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// The column used, after shifts.
    pub column: usize,
    pub total: u64,
    pub outcomes: Vec<(Cell, u64)>,
}

impl Distribution {
    /// The expected value, when every result is a number.
    pub fn mean(&self) -> Option<f64> {
        let mut sum = 0.0;
        for (cell, ways) in &self.outcomes {
            let Cell::Scalar(Scalar::Int(n)) = cell else {
                return None;
            };
            sum += *n as f64 * *ways as f64;
        }
        Some(sum / self.total as f64)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Scalar(s) => write!(f, "{s}"),
            Cell::Record(fields) => {
                let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                write!(f, "{{{}}}", parts.join(", "))
            }
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Int(i) => write!(f, "{i}"),
            Scalar::Symbol(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ResultType, Row};

    fn int(n: i64) -> Cell {
        Cell::Scalar(Scalar::Int(n))
    }

    fn fire() -> Table {
        Table {
            id: "fire".into(),
            name: "Fire".into(),
            rows_by: RowsBy::Dice {
                count: 1,
                clamp: Some((1, 6)),
            },
            columns: Columns::Bands(vec![1, 3, 6]),
            result: ResultType::Int,
            rows: (1..=6)
                .map(|r| Row {
                    key: RowKey::One(r),
                    cells: vec![
                        int(i64::from(r / 3)),
                        int(i64::from(r / 2)),
                        int(i64::from(r)),
                    ],
                })
                .collect(),
            notes: String::new(),
            provenance: Default::default(),
        }
    }

    #[test]
    fn strength_selects_its_band_and_below_the_first_band_fires_on_it() {
        let t = fire();
        assert_eq!(t.column(ColumnInput::Strength(0)), Ok(0));
        assert_eq!(t.column(ColumnInput::Strength(4)), Ok(1));
        assert_eq!(t.column(ColumnInput::Strength(40)), Ok(2));
        assert_eq!(t.column_label(1), "3-5");
        assert_eq!(t.column_label(2), "6+");
    }

    #[test]
    fn column_shifts_stop_at_either_end() {
        let t = fire();
        assert_eq!(t.shift(1, 5), 2);
        assert_eq!(t.shift(1, -5), 0);
    }

    #[test]
    fn modified_die_rolls_are_clamped_to_the_table() {
        let t = fire();
        let roll =
            |roll, drm| t.lookup(ColumnInput::Strength(6), 0, RowInput::Roll { roll, drm }, 6);
        assert_eq!(roll(6, 3), Ok(&int(6)));
        assert_eq!(roll(1, -2), Ok(&int(1)));
        assert_eq!(roll(4, 1), Ok(&int(5)));
    }

    #[test]
    fn odds_are_rounded_in_the_defenders_favour() {
        let mut t = fire();
        t.columns = Columns::Odds(vec![(1, 2), (1, 1), (3, 2)]);
        let odds = |attacker, defender| t.column(ColumnInput::Odds { attacker, defender });
        assert_eq!(odds(5, 4), Ok(1), "5:4 rounds down to 1:1");
        assert_eq!(odds(3, 2), Ok(2));
        assert_eq!(odds(1, 4), Ok(0), "below the table: the first column");
        assert!(t.column(ColumnInput::Strength(3)).is_err());
    }

    #[test]
    fn distribution_counts_every_roll_once() {
        let t = fire();
        let d = t.distribution(ColumnInput::Strength(3), 0, 1, 6).unwrap();
        // Rolls 1..6 +1, clamped: 2, 3, 4, 5, 6, 6 -> r/2 = 1, 1, 2, 2, 3, 3.
        assert_eq!(d.total, 6);
        assert_eq!(d.outcomes, vec![(int(1), 2), (int(2), 2), (int(3), 2)]);
        assert_eq!(d.mean(), Some(2.0));
    }
}
