//! The Map panel's inspector: a space's or a connection's every property, supply sources,
//! provenance, and the legend.

use super::*;

pub(super) fn inspector(app: &mut EditorApp, ui: &mut Ui, file: &str) {
    match app.map.selected.clone() {
        None => {
            ui.heading("Inspector");
            ui.label("Click a space or a connection to see and edit it.");
            legend(app, ui);
            ui.separator();
            crate::fields::every_field::<MapFile>(
                app,
                ui,
                "The whole map file (hex grid, hexsides, notes)",
                file,
                FileKind::Map,
                &[],
            );
        }
        Some(Selected::Space(id)) => space_inspector(app, ui, file, &id),
        Some(Selected::Connection(a, b)) => connection_inspector(app, ui, file, &a, &b),
    }
}

/// The space's supply sources: for each, the nations that trace to it, its level and the flags
/// it depends on; sources can be added and removed.
pub(super) fn supply_sources(
    app: &mut EditorApp,
    ui: &mut Ui,
    file: &str,
    id: &str,
    space: &sandtable_engine::model::Space,
    game: &sandtable_engine::model::GameFile,
) {
    use sandtable_engine::model::{SupplyLevel, SupplySource};
    ui.horizontal(|ui| {
        ui.label(RichText::new("Supply sources").strong());
        if ui.button("Add source").clicked() {
            edit_space(app, file, id, &format!("supply of {id}"), |s| {
                s.supply.push(SupplySource {
                    nations: Vec::new(),
                    level: SupplyLevel::Full,
                    flag: None,
                    unless_flag: None,
                })
            });
        }
    });
    for (i, source) in space.supply.iter().enumerate() {
        let label = format!("supply of {id}");
        ui.push_id(("supply", i), |ui| {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(format!("Source {}", i + 1));
                    let mut level = source.level;
                    ui.selectable_value(&mut level, SupplyLevel::Full, "Full");
                    ui.selectable_value(&mut level, SupplyLevel::Limited, "Limited");
                    if level != source.level {
                        edit_space(app, file, id, &label, |s| {
                            if let Some(x) = s.supply.get_mut(i) {
                                x.level = level
                            }
                        });
                    }
                    if ui.button("Remove source").clicked() {
                        edit_space(app, file, id, &label, |s| {
                            if i < s.supply.len() {
                                s.supply.remove(i);
                            }
                        });
                    }
                });
                let nations = game
                    .nations
                    .iter()
                    .map(|n| (n.id.as_str(), n.name.as_str()));
                if let Some((nid, on)) = crate::ticks(ui, nations, &source.nations) {
                    edit_space(app, file, id, &label, |s| {
                        if let Some(x) = s.supply.get_mut(i) {
                            crate::set_member(&mut x.nations, nid, on)
                        }
                    });
                }
                for (which, value) in [
                    ("Only while flag", &source.flag),
                    ("Not while flag", &source.unless_flag),
                ] {
                    let mut text = value.clone().unwrap_or_default();
                    ui.horizontal(|ui| {
                        ui.label(which);
                        if ui.text_edit_singleline(&mut text).changed() {
                            let v = text.trim().to_string();
                            let v = (!v.is_empty()).then_some(v);
                            let only = which.starts_with("Only");
                            edit_space(app, file, id, &label, |s| {
                                if let Some(x) = s.supply.get_mut(i) {
                                    if only {
                                        x.flag = v.clone();
                                    } else {
                                        x.unless_flag = v.clone();
                                    }
                                }
                            });
                        }
                    });
                }
            });
        });
    }
}

/// Whether the space is printed in the rulebook or reconstructed, and why.
pub(super) fn provenance(app: &mut EditorApp, ui: &mut Ui, file: &str, id: &str, now: &Provenance) {
    let mut reconstructed = matches!(now, Provenance::Reconstructed(_));
    let label = format!("provenance of {id}");
    if ui
        .checkbox(
            &mut reconstructed,
            "Reconstructed (not printed in the rulebook)",
        )
        .changed()
    {
        let value = if reconstructed {
            Provenance::Reconstructed(String::new())
        } else {
            Provenance::Printed
        };
        edit_space(app, file, id, &label, |s| s.provenance = value.clone());
    }
    if let Provenance::Reconstructed(why) = now {
        let mut text = why.clone();
        ui.label("How it was reconstructed");
        if ui.text_edit_multiline(&mut text).changed() {
            edit_space(app, file, id, &label, |s| {
                s.provenance = Provenance::Reconstructed(text.clone())
            });
        }
    }
}

/// The connection kinds and terrains, as they are drawn.
pub(super) fn legend(app: &EditorApp, ui: &mut Ui) {
    let Some(g) = app.loaded.content.game.as_ref() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new("Connections").strong());
    for k in &g.connection_kinds {
        let style = conn_style(&app.loaded.content, std::slice::from_ref(&k.id));
        ui.horizontal(|ui| {
            let (r, p) = ui.allocate_painter(Vec2::new(40.0, 12.0), egui::Sense::hover());
            let (a, b) = (r.rect.left_center(), r.rect.right_center());
            let stroke = Stroke::new(1.5, style.color);
            match style.line {
                LineStyle::Solid => {
                    p.line_segment([a, b], stroke);
                }
                LineStyle::Dashed => {
                    p.extend(Shape::dashed_line(&[a, b], stroke, 6.0, 4.0));
                }
                LineStyle::Dotted => {
                    p.extend(Shape::dotted_line(&[a, b], style.color, 5.0, 1.2));
                }
            }
            ui.label(&k.name);
        });
    }
    ui.label(RichText::new("Terrain").strong());
    for t in &g.terrains {
        ui.horizontal(|ui| {
            let (r, p) = ui.allocate_painter(Vec2::new(12.0, 12.0), egui::Sense::hover());
            p.circle_filled(
                r.rect.center(),
                5.0,
                terrain_color(&app.loaded.content, Some(&t.id)),
            );
            ui.label(&t.name);
        });
    }
}

pub(super) fn space_inspector(app: &mut EditorApp, ui: &mut Ui, file: &str, id: &str) {
    let Some(space) = app.loaded.content.graph.space(id).cloned() else {
        ui.label(format!("No space `{id}`."));
        return;
    };
    let Some(game) = app.loaded.content.game.clone() else {
        ui.label("The folder has no game.ron.");
        return;
    };
    ui.heading(&space.name);
    ui.label(RichText::new(format!("id {id}")).weak());
    ui.horizontal(|ui| {
        if ui.button("Connect to…").clicked() {
            app.map.linking = Some(id.to_string());
        }
        if ui.button("Delete space").clicked() {
            delete_space(app, file, id);
        }
    });
    let mut name = space.name.clone();
    ui.horizontal(|ui| {
        ui.label("Name");
        if ui.text_edit_singleline(&mut name).changed() {
            edit_space(app, file, id, &format!("rename {id}"), |s| {
                s.name = name.clone()
            });
        }
    });
    let mut terrain = space.terrain.clone().unwrap_or_default();
    egui::ComboBox::from_label("Terrain")
        .selected_text(terrain.clone())
        .show_ui(ui, |ui| {
            for t in &game.terrains {
                if ui
                    .selectable_value(&mut terrain, t.id.clone(), &t.name)
                    .changed()
                {
                    let value = terrain.clone();
                    edit_space(app, file, id, &format!("terrain of {id}"), |s| {
                        s.terrain = Some(value)
                    });
                }
            }
        });
    let mut country = space.country.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Country");
        if ui.text_edit_singleline(&mut country).changed() {
            let value = country.trim().to_string();
            edit_space(app, file, id, &format!("country of {id}"), |s| {
                s.country = (!value.is_empty()).then_some(value)
            });
        }
    });
    let mut vp = space.vp;
    ui.horizontal(|ui| {
        ui.label("Victory points");
        if ui
            .add(egui::DragValue::new(&mut vp).range(0..=99))
            .changed()
        {
            edit_space(app, file, id, &format!("VP of {id}"), |s| s.vp = vp);
        }
    });
    if space.hex.is_none() {
        let mut pos = space.pos.unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label("Position");
            let x = ui.add(egui::DragValue::new(&mut pos.x).prefix("x "));
            let y = ui.add(egui::DragValue::new(&mut pos.y).prefix("y "));
            if x.changed() || y.changed() {
                edit_space(app, file, id, &format!("move space {}", space.name), |s| {
                    s.pos = Some(pos)
                });
            }
        });
    } else if let Some((c, r)) = space.hex {
        ui.label(format!("Hex column {c}, row {r}"));
    }
    ui.label(RichText::new("Regions").strong());
    let regions = game
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str()));
    if let Some((rid, on)) = crate::ticks(ui, regions, &space.regions) {
        edit_space(app, file, id, &format!("regions of {id}"), |s| {
            crate::set_member(&mut s.regions, rid, on)
        });
    }
    ui.label(RichText::new("Features").strong());
    let features = game
        .features
        .iter()
        .map(|f| (f.id.as_str(), f.name.as_str()));
    if let Some((fid, on)) = crate::ticks(ui, features, &space.features) {
        edit_space(app, file, id, &format!("features of {id}"), |s| {
            crate::set_member(&mut s.features, fid, on)
        });
    }
    supply_sources(app, ui, file, id, &space, &game);
    for p in &game.properties {
        let mut text = space
            .props
            .get(&p.id)
            .map(|v| serde_json::to_string(v).unwrap_or_default())
            .unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label(&p.name);
            if ui.text_edit_singleline(&mut text).changed() {
                let parsed = serde_json::from_str(text.trim());
                let key = p.id.clone();
                match parsed {
                    Ok(v) => edit_space(app, file, id, &format!("{key} of {id}"), |s| {
                        s.props.insert(key.clone(), v);
                    }),
                    Err(_) if text.trim().is_empty() => {
                        edit_space(app, file, id, &format!("{key} of {id}"), |s| {
                            s.props.remove(&key);
                        })
                    }
                    Err(_) => {
                        app.status =
                            format!("{}: not a value (a number, true/false or \"text\")", p.name)
                    }
                }
            }
        });
    }
    provenance(app, ui, file, id, &space.provenance);
    let mut notes = space.notes.clone();
    ui.label("Notes");
    if ui.text_edit_multiline(&mut notes).changed() {
        edit_space(app, file, id, &format!("notes of {id}"), |s| {
            s.notes = notes.clone()
        });
    }
    ui.separator();
    ui.label(RichText::new("Connections").strong());
    let neighbours: Vec<(String, String)> = app
        .loaded
        .content
        .graph
        .index_of(id)
        .map(|i| {
            let g = &app.loaded.content.graph;
            g.neighbours(i)
                .iter()
                .map(|&(n, e)| {
                    (
                        g.spaces[n].id.to_string(),
                        format!("{} ({})", g.spaces[n].name, g.edges[e].kinds.join(", ")),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    for (other, label) in neighbours {
        if ui.link(label).clicked() {
            app.map.selected = Some(Selected::Connection(id.to_string(), other));
        }
    }
}

pub(super) fn connection_inspector(app: &mut EditorApp, ui: &mut Ui, file: &str, a: &str, b: &str) {
    let names: Vec<(String, String)> = [a, b]
        .iter()
        .map(|id| {
            let g = &app.loaded.content.graph;
            (
                id.to_string(),
                g.space(*id).map_or(id.to_string(), |s| s.name.clone()),
            )
        })
        .collect();
    let name = |id: &str| {
        names
            .iter()
            .find(|(x, _)| x == id)
            .map_or(id.to_string(), |(_, n)| n.clone())
    };
    ui.heading(format!("{} – {}", name(a), name(b)));
    let Ok(listed) = app.doc.parsed::<MapFile>(file) else {
        ui.label("map.ron does not read; fix it in Problems.");
        return;
    };
    // The lookups below are shared with the edits, which change the file.
    let mut map = (*listed).clone();
    let cell = |id: &str| app.loaded.content.graph.space(id).and_then(|s| s.hex);
    let cells = cell(a).zip(cell(b));
    let Some(kinds) = with_kinds(&mut map, a, b, |k| k.clone()).or_else(|| {
        cells.and_then(|(ca, cb)| with_hexside(&mut map, ca, cb, false, |k| k.clone()))
    }) else {
        ui.label("These two spaces are not connected in the file.");
        return;
    };
    if cells.is_some() {
        ui.label(RichText::new("A hexside: what is printed on it").weak());
    }
    let Some(game) = app.loaded.content.game.clone() else {
        ui.label("The folder has no game.ron.");
        return;
    };
    ui.label(format!(
        "Kinds (none ticked: {})",
        game.default_connection_kind
    ));
    let all = game
        .connection_kinds
        .iter()
        .map(|k| (k.id.as_str(), k.name.as_str()));
    if let Some((kid, on)) = crate::ticks(ui, all, &kinds) {
        app.edit::<MapFile>(file, &format!("kinds of {a} to {b}"), |m| {
            let mut change = |kinds: &mut Vec<String>| crate::set_member(kinds, kid.clone(), on);
            let listed = with_kinds(m, a, b, &mut change);
            if listed.is_none() {
                let (ca, cb) = cells.ok_or("the two spaces are not connected")?;
                with_hexside(m, ca, cb, true, &mut change)
                    .ok_or("the two hexes are not neighbours")?;
            }
            Ok(())
        });
    }
    ui.horizontal(|ui| {
        if ui.button(format!("Open {}", name(a))).clicked() {
            app.map.selected = Some(Selected::Space(a.to_string()));
        }
        if ui.button(format!("Open {}", name(b))).clicked() {
            app.map.selected = Some(Selected::Space(b.to_string()));
        }
    });
    if ui.button("Delete connection").clicked() {
        disconnect(app, file, a, b);
    }
}
