//! `map.ron` and `counters.ron`: the map graph (spaces, connections, zones, the hex grid) and
//! the countersheet.

use super::*;

/// `map.ron`: the map, authored in any mix of three ways that load into one graph: explicit
/// spaces and connections (point to point), spaces that list their own adjacency (zones), and a
/// hex grid whose adjacency the loader derives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<Space>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<Connection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex_grid: Option<HexGrid>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// A supply source printed on a space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupplySource {
    /// The nations that may trace supply here.
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub level: SupplyLevel,
    /// The source counts only while this flag is set (Antwerp once the Scheldt is cleared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The source does not count while this flag is set (Naples in Sunny Italy's bad weather).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SupplyLevel {
    #[default]
    Full,
    Limited,
}

/// A space, area, zone or hex: a node of the map graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Space {
    pub id: crate::id::Id,
    pub name: String,
    /// For a hex: its column and row on the grid. Hexes not listed as spaces are made from the
    /// grid's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<(i32, i32)>,
    /// Terrain; for a hex, the grid's default terrain when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
    /// The country the space lies in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Further regions the space belongs to (Greater Germany, Wehrkreis, Caucasus ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Victory points for controlling the space.
    #[serde(default, skip_serializing_if = "is_default")]
    pub vp: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply: Vec<SupplySource>,
    /// Values of the game's declared properties.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub props: BTreeMap<String, PropertyValue>,
    /// Zone-style adjacency: connections listed on the space itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjacent: Vec<Adjacent>,
    /// Where the editor draws it. A hex's position comes from the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

/// One neighbour of a zone, with the kinds of the edge between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Adjacent {
    pub to: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<String>,
}

/// A point-to-point connection between two spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    pub a: String,
    pub b: String,
    /// Its kinds; the game's default connection kind when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexOrientation {
    /// Flat-topped hexes in vertical columns (most wargame maps).
    #[default]
    FlatTop,
    /// Pointy-topped hexes in horizontal rows.
    PointyTop,
}

/// A hex grid. Columns and rows are numbered from `first`; with flat tops, odd or even columns
/// are shifted half a hex down as `shifted` says (with pointy tops, rows shifted right).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexGrid {
    #[serde(default, skip_serializing_if = "is_default")]
    pub orientation: HexOrientation,
    pub columns: i32,
    pub rows: i32,
    /// The number of the first column and row (1 on most printed maps).
    #[serde(default = "first_hex", skip_serializing_if = "is_first_hex")]
    pub first: (i32, i32),
    #[serde(default, skip_serializing_if = "is_default")]
    pub shifted: HexShift,
    /// Distance from a hex's centre to a corner, in map units.
    pub size: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub origin: Pos,
    /// Terrain of every hex not listed among the spaces.
    pub terrain: String,
    /// Cells of the rectangle that are not part of the map (open sea, off the board).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<(i32, i32)>,
    /// Features printed on hexsides (rivers, escarpments), as kinds of the edge they lie on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexsides: Vec<Hexside>,
}

fn first_hex() -> (i32, i32) {
    (1, 1)
}

fn is_first_hex(value: &(i32, i32)) -> bool {
    *value == (1, 1)
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexShift {
    /// Odd-numbered columns (rows) sit half a hex lower (further right).
    #[default]
    Odd,
    Even,
}

/// The six directions from a hex. Flat-topped grids use N, NE, SE, S, SW, NW; pointy-topped
/// grids use NE, E, SE, SW, W, NW.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum HexDir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hexside {
    /// Column and row of one of the two hexes.
    pub hex: (i32, i32),
    pub side: HexDir,
    pub kinds: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    pub counters: Vec<Counter>,
}

/// A counter of the countersheet. Identical generic counters (twelve German infantry corps)
/// are one entry with a `count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    pub id: crate::id::Id,
    pub name: String,
    pub nation: crate::id::Id,
    /// The side that commands it when that is not its nation's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub unit_type: crate::id::Id,
    pub size: crate::id::Id,
    /// The full-strength step: one number per stat of the game, in order.
    pub front: Vec<i32>,
    /// The reduced step, if the counter has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Vec<i32>>,
    /// The unit type of the reduced step when it differs (a mechanized front that becomes
    /// infantry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_type: Option<crate::id::Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// When it reaches its side's eliminated box, this counter takes its place there and it
    /// leaves the game (the Soviet Southwest Front 5-3-4 replaced by a 3-3-3, 14.51).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated_as: Option<String>,
    /// How many identical counters there are.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
    /// The smaller units this one breaks down into, and is recombined from, in a phase of
    /// movement (an army into its corps).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breaks_into: Vec<CounterPart>,
    /// Units may be combined into this one only while this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combine_when: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

/// So many pieces of a counter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterPart {
    pub counter: String,
    pub count: u32,
}
