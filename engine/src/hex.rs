//! Hex-grid geometry: neighbours and drawing positions of the cells of a [`HexGrid`].
//!
//! Cells are addressed by their printed column and row numbers. With flat tops, columns are
//! vertical and every other column sits half a hex lower; with pointy tops, rows are horizontal
//! and every other row sits half a hex to the right. Which ones are shifted is the grid's
//! `shifted` (odd or even numbers), so printed maps can be copied as they are.

use std::collections::BTreeSet;

use crate::model::{HexDir, HexGrid, HexOrientation, HexShift, Pos};

/// A grid's cells, its holes looked up in a set: for asking about every cell (a large map has
/// hundreds of holes, which [`HexGrid::contains`] goes through one by one).
pub struct Cells<'g> {
    grid: &'g HexGrid,
    holes: BTreeSet<(i32, i32)>,
}

impl Cells<'_> {
    /// Whether a cell lies on the grid (inside the rectangle and not a hole).
    pub fn contains(&self, cell: (i32, i32)) -> bool {
        self.grid.in_rectangle(cell) && !self.holes.contains(&cell)
    }

    /// Every cell of the grid, column by column.
    pub fn iter(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let g = self.grid;
        let (c0, r0) = g.first;
        (c0..c0 + g.columns)
            .flat_map(move |c| (r0..r0 + g.rows).map(move |r| (c, r)))
            .filter(|&cell| self.contains(cell))
    }

    /// The neighbours of a cell that lie on the grid.
    pub fn neighbours(&self, cell: (i32, i32)) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.grid
            .directions()
            .into_iter()
            .filter_map(move |d| self.grid.step(cell, d))
            .filter(|&n| self.contains(n))
    }
}

impl HexGrid {
    fn in_rectangle(&self, (col, row): (i32, i32)) -> bool {
        let (c0, r0) = self.first;
        (c0..c0 + self.columns).contains(&col) && (r0..r0 + self.rows).contains(&row)
    }

    /// Whether a cell lies on the grid (inside the rectangle and not a hole).
    pub fn contains(&self, cell: (i32, i32)) -> bool {
        self.in_rectangle(cell) && !self.holes.contains(&cell)
    }

    /// The grid's cells, to ask about many of them.
    pub fn cells(&self) -> Cells<'_> {
        Cells {
            grid: self,
            holes: self.holes.iter().copied().collect(),
        }
    }

    /// The directions that name the six sides of a hex in this orientation.
    pub fn directions(&self) -> [HexDir; 6] {
        use HexDir::*;
        match self.orientation {
            HexOrientation::FlatTop => [N, NE, SE, S, SW, NW],
            HexOrientation::PointyTop => [NE, E, SE, SW, W, NW],
        }
    }

    fn is_shifted(&self, number: i32) -> bool {
        let odd = number.rem_euclid(2) == 1;
        match self.shifted {
            HexShift::Odd => odd,
            HexShift::Even => !odd,
        }
    }

    /// The cell across side `dir` of `cell` (which may lie off the grid), or none when `dir` is
    /// not a side in this orientation.
    pub fn step(&self, (col, row): (i32, i32), dir: HexDir) -> Option<(i32, i32)> {
        use HexDir::*;
        Some(match self.orientation {
            HexOrientation::FlatTop => {
                let low = self.is_shifted(col);
                match (dir, low) {
                    (N, _) => (col, row - 1),
                    (S, _) => (col, row + 1),
                    (NE, true) => (col + 1, row),
                    (SE, true) => (col + 1, row + 1),
                    (SW, true) => (col - 1, row + 1),
                    (NW, true) => (col - 1, row),
                    (NE, false) => (col + 1, row - 1),
                    (SE, false) => (col + 1, row),
                    (SW, false) => (col - 1, row),
                    (NW, false) => (col - 1, row - 1),
                    (E | W, _) => return None,
                }
            }
            HexOrientation::PointyTop => {
                let right = self.is_shifted(row);
                match (dir, right) {
                    (E, _) => (col + 1, row),
                    (W, _) => (col - 1, row),
                    (NE, true) => (col + 1, row - 1),
                    (SE, true) => (col + 1, row + 1),
                    (SW, true) => (col, row + 1),
                    (NW, true) => (col, row - 1),
                    (NE, false) => (col, row - 1),
                    (SE, false) => (col, row + 1),
                    (SW, false) => (col - 1, row + 1),
                    (NW, false) => (col - 1, row - 1),
                    (N | S, _) => return None,
                }
            }
        })
    }

    /// The centre of a cell in map units.
    pub fn centre(&self, (col, row): (i32, i32)) -> Pos {
        let (c, r) = ((col - self.first.0) as f32, (row - self.first.1) as f32);
        let s = self.size;
        let root3 = 3f32.sqrt();
        match self.orientation {
            HexOrientation::FlatTop => {
                let half = if self.is_shifted(col) { 0.5 } else { 0.0 };
                Pos {
                    x: self.origin.x + s * 1.5 * c,
                    y: self.origin.y + s * root3 * (r + half),
                }
            }
            HexOrientation::PointyTop => {
                let half = if self.is_shifted(row) { 0.5 } else { 0.0 };
                Pos {
                    x: self.origin.x + s * root3 * (c + half),
                    y: self.origin.y + s * 1.5 * r,
                }
            }
        }
    }

    /// The id of an unlisted cell: its column and row, two digits each (`0307`).
    pub fn cell_id((col, row): (i32, i32)) -> String {
        format!("{col:02}{row:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(orientation: HexOrientation) -> HexGrid {
        HexGrid {
            orientation,
            columns: 5,
            rows: 5,
            first: (1, 1),
            shifted: HexShift::Odd,
            size: 10.0,
            origin: Pos::default(),
            terrain: "clear".into(),
            holes: vec![(3, 3)],
            hexsides: vec![],
        }
    }

    #[test]
    fn every_step_is_undone_by_the_opposite_step() {
        use HexDir::*;
        for o in [HexOrientation::FlatTop, HexOrientation::PointyTop] {
            let g = grid(o);
            let opposite = |d| match d {
                N => S,
                S => N,
                NE => SW,
                SW => NE,
                SE => NW,
                NW => SE,
                E => W,
                W => E,
            };
            for cell in [(2, 2), (3, 2), (2, 3), (4, 4)] {
                for d in g.directions() {
                    let n = g.step(cell, d).unwrap();
                    assert_eq!(g.step(n, opposite(d)), Some(cell), "{o:?} {cell:?} {d:?}");
                }
            }
        }
    }

    #[test]
    fn holes_and_edges_cut_neighbours() {
        let g = grid(HexOrientation::FlatTop);
        let cells = g.cells();
        assert_eq!(cells.neighbours((1, 1)).count(), 3);
        assert!(!cells.neighbours((3, 2)).any(|n| n == (3, 3)));
        assert_eq!(cells.iter().count(), 24);
    }
}
