//! `cards/*.ron` and `tables.ron`: cards with their scripts, and tables with their columns, rows
//! and typed results.

use super::*;

/// One deck's cards (or one cup's chits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    pub deck: String,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    /// The number printed on the card.
    pub number: u32,
    pub title: String,
    /// The deck group it belongs to (Blitzkrieg, Total War).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub kind: String,
    /// Printed numbers: OPS value, replacement points per nation ...
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, i32>,
    /// Removed from the game when played as an event or combat card (the asterisk).
    #[serde(default, skip_serializing_if = "is_default")]
    pub remove: bool,
    /// The text as printed.
    pub text: String,
    /// When the event may be played: a condition in the effect language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<String>,
    /// What the event does: statements in the effect language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// What the card does as a combat card: statements run in the combat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    pub tables: Vec<Table>,
}

/// A lookup table: rows by die roll, number or name; columns by strength band, odds ratio or
/// name (or a single column). Results are typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub id: String,
    pub name: String,
    /// What selects the row.
    pub rows_by: RowsBy,
    pub columns: Columns,
    /// The type every cell holds.
    pub result: ResultType,
    pub rows: Vec<Row>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum RowsBy {
    /// A roll of `count` dice, modified by DRMs and then clamped to `clamp` (min, max): the
    /// rows must cover that range exactly.
    Dice {
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clamp: Option<(i32, i32)>,
    },
    /// A number (spaces controlled, a turn): the rows must cover `from` to `to` exactly;
    /// numbers outside are clamped to it.
    Number { from: i32, to: i32 },
    /// A name (a terrain, a season): one row per name.
    Name,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Columns {
    /// A one-dimensional table.
    Single,
    /// Strength bands, in ascending order; each band starts at `min`, the last is open.
    /// Column shifts move along them and stop at either end.
    Bands(Vec<i32>),
    /// Odds ratios (attacker, defender), ascending, such as (1, 2), (1, 1), (2, 1). The odds
    /// are rounded in the defender's favour to the highest column not above them.
    Odds(Vec<(u32, u32)>),
    /// Named columns.
    Named(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ResultType {
    Int,
    /// One of these symbols.
    Symbol(Vec<String>),
    /// A record of named fields.
    Record(Vec<FieldDecl>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldDecl {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// Value of the field in a cell that omits it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Scalar>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum FieldType {
    Int,
    Bool,
    Symbol(Vec<String>),
}

// Read by a visitor of its own (`model/untagged.rs`), not serde's buffering derive.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Symbol(String),
}

// Read by a visitor of its own (`model/untagged.rs`), not serde's buffering derive.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RowKey {
    /// One die roll or number.
    One(i32),
    /// A range of rolls or numbers, both ends included.
    Range(i32, i32),
    /// A name.
    Name(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub key: RowKey,
    pub cells: Vec<Cell>,
}

/// A table cell, checked against the table's result type.
// Read by a visitor of its own (`model/untagged.rs`), not serde's buffering derive.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Cell {
    Scalar(Scalar),
    Record(BTreeMap<String, Scalar>),
}
