//! Edits of `map.ron` made from the Map panel: spaces added, moved, deleted and edited,
//! connections drawn and removed, their kinds and hexsides.

use super::*;

pub(super) fn add_space(app: &mut EditorApp, file: &str, id: &str) {
    // A new space goes in the middle of the others, where the designer will see it.
    let g = &app.loaded.content.graph;
    let n = g.spaces.len().max(1) as f32;
    let (sx, sy) = (0..g.spaces.len())
        .map(|i| g.pos(i))
        .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
    let pos = Pos {
        x: (sx / n).round(),
        y: (sy / n).round(),
    };
    let terrain = app
        .loaded
        .content
        .game
        .as_ref()
        .and_then(|g| g.terrains.first())
        .map(|t| t.id.clone());
    let id = id.to_string();
    let added = app.edit::<MapFile>(file, &format!("add space {id}"), |m| {
        if m.spaces.iter().any(|s| s.id == id) {
            return Err(format!("a space `{id}` already exists"));
        }
        m.spaces.push(Space {
            id: id.as_str().into(),
            name: id.clone(),
            hex: None,
            terrain,
            country: None,
            regions: Vec::new(),
            features: Vec::new(),
            vp: 0,
            supply: Vec::new(),
            props: Default::default(),
            adjacent: Vec::new(),
            pos: Some(pos),
            notes: String::new(),
            provenance: Default::default(),
        });
        Ok(())
    });
    if added {
        app.map.selected = Some(Selected::Space(id.clone()));
        app.map.centre_on = Some(id);
        app.map.new_id.clear();
    }
}

/// Adds a hex to a hex grid where it had a hole, and selects it.
pub fn add_hex(app: &mut EditorApp, file: &str, cell: (i32, i32)) {
    let added = app.edit::<MapFile>(file, &format!("add hex {}", HexGrid::cell_id(cell)), |m| {
        let grid = m.hex_grid.as_mut().ok_or("the map has no hex grid")?;
        let before = grid.holes.len();
        grid.holes.retain(|&h| h != cell);
        if grid.holes.len() == before {
            return Err("there is a hex there already".into());
        }
        Ok(())
    });
    if added {
        let id = HexGrid::cell_id(cell);
        app.map.selected = Some(Selected::Space(id.clone()));
        app.map.centre_on = Some(id);
    }
}

/// Sets a space's drawing position (a drag ended on it).
pub fn move_space(app: &mut EditorApp, file: &str, id: &str, at: Pos2) {
    let name = app
        .loaded
        .content
        .graph
        .space(id)
        .map_or(id.to_string(), |s| s.name.clone());
    let at = Pos {
        x: at.x.round(),
        y: at.y.round(),
    };
    app.edit::<MapFile>(file, &format!("move space {name}"), |m| {
        let s = m
            .spaces
            .iter_mut()
            .find(|s| s.id == id)
            .ok_or_else(|| format!("no space `{id}` in the file"))?;
        if s.hex.is_some() {
            return Err("a hex's place is its cell on the grid".into());
        }
        s.pos = Some(at);
        Ok(())
    });
}

/// Adds a connection of the default kind between two spaces.
pub fn connect(app: &mut EditorApp, file: &str, a: &str, b: &str) {
    let (a, b) = (a.to_string(), b.to_string());
    let done = app.edit::<MapFile>(file, &format!("connect {a} and {b}"), |m| {
        let joined = m
            .connections
            .iter()
            .any(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a))
            || m.spaces.iter().any(|s| {
                (s.id == a && s.adjacent.iter().any(|x| x.to == b))
                    || (s.id == b && s.adjacent.iter().any(|x| x.to == a))
            });
        if joined {
            return Err(format!("`{a}` and `{b}` are already connected"));
        }
        m.connections.push(Connection {
            a: a.clone(),
            b: b.clone(),
            kinds: Vec::new(),
            notes: String::new(),
            provenance: Default::default(),
        });
        Ok(())
    });
    if done {
        app.map.selected = Some(Selected::Connection(a, b));
    }
}

/// The kinds of the connection between two spaces, wherever the file lists it (a connection,
/// or a zone's adjacency on either side), for reading or changing.
pub(super) fn with_kinds<R>(
    m: &mut MapFile,
    a: &str,
    b: &str,
    mut f: impl FnMut(&mut Vec<String>) -> R,
) -> Option<R> {
    let mut out = None;
    for c in &mut m.connections {
        if (c.a == a && c.b == b) || (c.a == b && c.b == a) {
            out = Some(f(&mut c.kinds));
        }
    }
    for s in &mut m.spaces {
        let other = if s.id == a {
            b
        } else if s.id == b {
            a
        } else {
            continue;
        };
        for adj in &mut s.adjacent {
            if adj.to == other {
                out = Some(f(&mut adj.kinds));
            }
        }
    }
    out
}

/// The kinds printed on the hexside between two hexes of the grid: `None` when they are not
/// neighbours. With `create`, a side with no entry gets one (which the change then fills).
pub(super) fn with_hexside<R>(
    m: &mut MapFile,
    a: (i32, i32),
    b: (i32, i32),
    create: bool,
    mut f: impl FnMut(&mut Vec<String>) -> R,
) -> Option<R> {
    let grid = m.hex_grid.as_mut()?;
    let dirs = grid.directions();
    let towards = |from: (i32, i32), to: (i32, i32)| {
        dirs.iter()
            .copied()
            .find(|d| grid.step(from, *d) == Some(to))
    };
    let dir = towards(a, b)?;
    let found = grid.hexsides.iter().position(|h| {
        (h.hex == a && grid.step(a, h.side) == Some(b))
            || (h.hex == b && grid.step(b, h.side) == Some(a))
    });
    let i = match found {
        Some(i) => i,
        None if create => {
            grid.hexsides.push(sandtable_engine::model::Hexside {
                hex: a,
                side: dir,
                kinds: Vec::new(),
            });
            grid.hexsides.len() - 1
        }
        None => return Some(f(&mut Vec::new())),
    };
    let out = f(&mut grid.hexsides[i].kinds);
    grid.hexsides.retain(|h| !h.kinds.is_empty());
    Some(out)
}

/// Removes the connection between two spaces, wherever it is listed.
pub fn disconnect(app: &mut EditorApp, file: &str, a: &str, b: &str) {
    let done = app.edit::<MapFile>(file, &format!("delete connection {a} to {b}"), |m| {
        let before = m.connections.len();
        m.connections
            .retain(|c| !((c.a == a && c.b == b) || (c.a == b && c.b == a)));
        let mut removed = before - m.connections.len();
        for s in &mut m.spaces {
            let other = if s.id == a {
                b
            } else if s.id == b {
                a
            } else {
                continue;
            };
            let n = s.adjacent.len();
            s.adjacent.retain(|x| x.to != other);
            removed += n - s.adjacent.len();
        }
        if removed == 0 {
            return Err(
                "that connection is not in the file (a hex grid's sides come from the grid)".into(),
            );
        }
        Ok(())
    });
    if done {
        app.map.selected = None;
    }
}

/// Removes a space and every connection to it.
pub fn delete_space(app: &mut EditorApp, file: &str, id: &str) {
    let done = app.edit::<MapFile>(file, &format!("delete space {id}"), |m| {
        let before = m.spaces.len();
        m.spaces.retain(|s| s.id != id);
        if m.spaces.len() == before {
            return Err(format!("no space `{id}` in the file"));
        }
        m.connections.retain(|c| c.a != id && c.b != id);
        for s in &mut m.spaces {
            s.adjacent.retain(|x| x.to != id);
        }
        Ok(())
    });
    if done {
        app.map.selected = None;
        let refs = app.loaded.errors().count();
        if refs > 0 {
            app.status = format!(
                "Deleted {id}: {refs} problems now (references to it); see Problems, or undo."
            );
        }
    }
}

/// Changes one space through a closure, as one undoable edit named `label`.
pub(super) fn edit_space(
    app: &mut EditorApp,
    file: &str,
    id: &str,
    label: &str,
    change: impl FnOnce(&mut Space),
) {
    let hex = app.loaded.content.graph.space(id).and_then(|s| s.hex);
    app.edit::<MapFile>(file, label, |m| {
        if !m.spaces.iter().any(|s| s.id == id) {
            // A hex the grid made: it becomes a listed space to carry the change.
            let Some(hex) = hex else {
                return Err(format!("no space `{id}` in the file"));
            };
            m.spaces.push(Space {
                id: id.into(),
                name: id.to_string(),
                hex: Some(hex),
                terrain: None,
                country: None,
                regions: Vec::new(),
                features: Vec::new(),
                vp: 0,
                supply: Vec::new(),
                props: Default::default(),
                adjacent: Vec::new(),
                pos: None,
                notes: String::new(),
                provenance: Default::default(),
            });
        }
        if let Some(s) = m.spaces.iter_mut().find(|s| s.id == id) {
            change(s);
        }
        Ok(())
    });
}
