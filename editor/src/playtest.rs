//! The playtest panel: a session on the open content, its map, prompt, log, saves and die
//! overrides. Its widgets emit [`PlayCommand`]s, applied after the frame.

use egui::{Color32, RichText, Ui};
use sandtable_engine::session::{Playtest, SavedGame};

use crate::EditorApp;

/// What the playtest's widgets ask for; applied at the end of the frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayCommand {
    Start,
    Act(String),
    Undo,
    Stop,
    Save,
    Load,
    /// Dismiss a reload's report.
    Dismiss(usize),
    /// Make a kept line the running one, on its own rules.
    ReturnTo(usize),
    /// Play a kept line's actions on the running rules as far as they go.
    ReplayHere(usize),
    Discard(usize),
    /// Replay the running line on the content on disk.
    TakeFiles,
    /// Play on from before this action (0-based) in a new line with this name.
    Branch(usize, String),
    /// Rename a kept line, or the running one (`None`).
    Rename(Option<usize>, String),
    /// Compare a kept line with the running one after this many actions.
    Compare(usize, usize),
}

impl EditorApp {
    /// Starts a playtest of the current setup and shows it.
    pub fn start_playtest(&mut self) {
        self.section = crate::Section::Playtest;
        self.commands.push(PlayCommand::Start);
        self.apply_commands();
    }

    /// Applies what the playtest's widgets asked for this frame.
    pub fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                PlayCommand::Start => {
                    match Playtest::with_sources(
                        self.loaded.content.clone(),
                        self.loaded.sources.clone(),
                        self.setup.clone(),
                    ) {
                        Ok(p) => {
                            self.playtest = Some(p);
                            self.report.clear();
                        }
                        Err(e) => self.report = format!("The scenario cannot be played: {e}"),
                    }
                }
                PlayCommand::Act(action) => {
                    if let Some(p) = &mut self.playtest {
                        match p.apply(&action) {
                            Ok(()) => self.report.clear(),
                            Err(e) => self.report = e.message,
                        }
                    }
                    self.picks.clear();
                    self.focus = None;
                    self.board.unit = None;
                    self.search.clear();
                }
                PlayCommand::Undo => {
                    if let Some(p) = &mut self.playtest {
                        p.undo();
                    }
                    self.picks.clear();
                }
                PlayCommand::Stop => {
                    self.playtest = None;
                    self.report.clear();
                }
                PlayCommand::Save => self.save_playtest(),
                PlayCommand::Load => self.load_playtest(),
                PlayCommand::TakeFiles => {
                    self.reload();
                }
                PlayCommand::Dismiss(i) => {
                    if let Some(p) = &mut self.playtest {
                        p.dismiss(i);
                    }
                }
                PlayCommand::Discard(i) => {
                    if let Some(p) = &mut self.playtest {
                        p.discard(i);
                    }
                }
                PlayCommand::Branch(at, name) => {
                    if let Some(p) = &mut self.playtest {
                        let old = p.name.clone();
                        self.report = match p.branch(at, &name) {
                            Ok(()) => format!(
                                "Playing on from before action {} in \"{name}\"; \"{old}\" is kept with the other lines.",
                                at + 1
                            ),
                            Err(e) => format!("Cannot branch: {e}"),
                        };
                    }
                    self.picks.clear();
                    self.focus = None;
                }
                PlayCommand::Rename(line, name) => {
                    if let Some(p) = &mut self.playtest {
                        if let Err(e) = p.rename(line, &name) {
                            self.report = format!("Not renamed: {e}");
                        }
                    }
                }
                PlayCommand::Compare(line, step) => {
                    if let Some(p) = &self.playtest {
                        match p.compare(line, step) {
                            Ok(said) => {
                                let name = p.lines[line].name.clone();
                                self.branching.compared = Some((name, step, said));
                            }
                            Err(e) => self.report = format!("Cannot compare: {e}"),
                        }
                    }
                }
                PlayCommand::ReturnTo(i) | PlayCommand::ReplayHere(i) => {
                    if let Some(p) = &mut self.playtest {
                        let name = p.lines.get(i).map(|l| l.name.clone()).unwrap_or_default();
                        let result = if matches!(command, PlayCommand::ReturnTo(_)) {
                            p.return_to(i)
                        } else {
                            p.replay_here(i)
                        };
                        self.report = crate::reloads::replay_said(&name, result);
                    }
                    self.picks.clear();
                    self.focus = None;
                }
            }
        }
    }

    /// Writes the running playtest (setup and log) to [`EditorApp::save_path`].
    pub fn save_playtest(&mut self) {
        let Some(p) = &self.playtest else {
            return;
        };
        let saved = p.save();
        let path = std::path::PathBuf::from(&self.save_path);
        self.report = match sandtable_engine::format::write_atomic(&path, &saved.to_ron()) {
            Ok(()) => format!(
                "Saved the playtest ({} actions) to {}.",
                saved.actions.len(),
                self.save_path
            ),
            Err(e) => format!("Cannot save the playtest to {}: {e}", self.save_path),
        };
    }

    /// Reads a saved playtest from [`EditorApp::save_path`] and replays it on the open content.
    /// A corrupt file or an action that no longer plays is reported; nothing running is lost
    /// unless the saved game loads.
    pub fn load_playtest(&mut self) {
        // Bounded and text only: a saved game is never gigabytes, nor binary.
        let path = std::path::Path::new(&self.save_path);
        let text =
            match sandtable_engine::load::read_text(path, sandtable_engine::load::MAX_FILE_BYTES) {
                Ok(t) => t,
                Err(e) => {
                    self.report = format!("Cannot read {}: {e}", self.save_path);
                    return;
                }
            };
        let saved = match SavedGame::from_ron(&text) {
            Ok(s) => s,
            Err(e) => {
                self.report = format!("{}:{e}: not a saved game", self.save_path);
                return;
            }
        };
        let name = format!("saved game {}", self.save_path);
        match Playtest::replayed(
            self.loaded.content.clone(),
            self.loaded.sources.clone(),
            saved.setup.clone(),
            &saved.actions,
            &name,
        ) {
            Ok((playtest, stop)) => {
                self.report = match stop {
                    None => format!("Loaded {} actions from {}.", saved.actions.len(), self.save_path),
                    Some(e) => format!(
                        "{}: action {} (`{}`) no longer plays: {}. The {} actions before it are loaded; the whole game is kept as the line \"{name}\".",
                        self.save_path,
                        e.index + 1,
                        e.action,
                        e.illegal.message,
                        e.index
                    ),
                };
                let mut playtest = playtest;
                playtest.restore_lines(&saved);
                self.setup = saved.setup;
                if let Some(running) = self.playtest.take() {
                    playtest.keep_lines_of(running, "the game before loading");
                }
                self.playtest = Some(playtest);
            }
            Err(e) => self.report = format!("The saved game cannot be played here: {e}"),
        }
        self.picks.clear();
        self.focus = None;
    }

    pub(crate) fn playtest(&mut self, ui: &mut Ui) {
        if !self.report.is_empty() {
            ui.label(RichText::new(&self.report).color(Color32::from_rgb(200, 120, 0)));
        }
        let Some(p) = &self.playtest else {
            self.playtest_setup(ui);
            return;
        };
        let asked = crate::reloads::show(ui, p, &mut self.branching);
        self.commands.extend(asked);
        let asked = crate::branches::line_name(ui, p, &mut self.branching);
        self.commands.extend(asked);
        let state = p.session.state();
        let content = &p.content;
        let names = content.names();
        let turn = content
            .game
            .as_ref()
            .and_then(|g| g.turns.iter().find(|t| t.number == state.turn))
            .map_or(String::new(), |t| t.name.clone());
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "Turn {} ({turn}), round {}",
                    state.turn, state.round
                ))
                .strong(),
            );
            // Each track its own label, so a long row wraps between tracks.
            for (k, v) in &state.tracks {
                ui.label(format!("{}: {v}", names.or_id(k)));
                ui.add_space(6.0);
            }
        });
        egui::CollapsingHeader::new("Hands and decks")
            .id_salt("hands")
            .show(ui, |ui| hands_and_decks(ui, content, state));
        ui.horizontal_wrapped(|ui| {
            if ui.button("Undo action").clicked() {
                self.commands.push(PlayCommand::Undo);
            }
            if ui.button("Stop").clicked() {
                self.commands.push(PlayCommand::Stop);
            }
            ui.label(format!("{} actions", p.session.log().len()));
            ui.separator();
            ui.label("Game file:");
            ui.add(egui::TextEdit::singleline(&mut self.save_path).desired_width(220.0));
            if ui.button("Save game").clicked() {
                self.commands.push(PlayCommand::Save);
            }
            if ui.button("Load game").clicked() {
                self.commands.push(PlayCommand::Load);
            }
            ui.separator();
            ui.label("Next dice:");
            ui.add(
                egui::TextEdit::singleline(&mut self.dice)
                    .hint_text("6 1")
                    .desired_width(60.0),
            );
            if ui
                .add_enabled(!self.dice.trim().is_empty(), egui::Button::new("Fix dice"))
                .on_hover_text("The next rolls give these results; the override is part of the log")
                .clicked()
            {
                self.commands
                    .push(PlayCommand::Act(format!("dice {}", self.dice.trim())));
                self.dice.clear();
            }
        });
        // The prompt and the log beside the board, the board filling the rest.
        let side_width = (ui.available_width() * 0.36).clamp(280.0, 620.0);
        egui::Panel::right("playtest side")
            .resizable(true)
            .default_size(side_width)
            .show(ui, |ui| {
                if !state.record.last_combat.is_empty() {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.label(RichText::new("Last combat").strong());
                        for m in &state.record.last_combat {
                            ui.label(names.words(m));
                        }
                    });
                }
                crate::prompt::show(
                    ui,
                    content,
                    state,
                    crate::prompt::Asking {
                        picks: &mut self.picks,
                        focus: &mut self.focus,
                        unit: &mut self.board.unit,
                        search: &mut self.search,
                        commands: &mut self.commands,
                    },
                );
                ui.separator();
                let told = self
                    .chronicle
                    .update(content, &p.session.setup, p.session.log());
                let asked = crate::branches::log(ui, p, told, &mut self.branching);
                self.commands.extend(asked);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Fit").clicked() {
                    self.board.zoom = 1.0;
                    self.board.pan = egui::Vec2::ZERO;
                }
                ui.toggle_value(&mut self.board.legend, "Legend");
                ui.label(
                    RichText::new(
                        "Wheel to zoom, drag to pan; click a counter, then a green space",
                    )
                    .weak(),
                );
            });
            // Where each unit on the map stands, by its text form.
            let placed: std::collections::BTreeMap<String, String> = state
                .units
                .iter()
                .filter_map(|u| match &u.at {
                    sandtable_engine::state::Loc::Space(s) => {
                        Some((u.name(content), s.to_string()))
                    }
                    _ => None,
                })
                .collect();
            let highlight = match &state.flow.prompt {
                Some(prompt) => crate::board::answer::highlighted(
                    prompt,
                    &self.board,
                    |w| content.graph.index_of(w).is_some(),
                    |u| placed.get(u).cloned(),
                ),
                None => Vec::new(),
            };
            let click = crate::board::show(ui, content, state, &mut self.board, &highlight);
            let Some(prompt) = &state.flow.prompt else {
                return;
            };
            if click == crate::board::BoardClick::default() {
                return;
            }
            let stack: Vec<String> = click
                .space
                .as_deref()
                .map(|s| {
                    state
                        .units
                        .iter()
                        .filter(
                            |u| matches!(&u.at, sandtable_engine::state::Loc::Space(x) if x == s),
                        )
                        .map(|u| u.name(content))
                        .collect()
                })
                .unwrap_or_default();
            match crate::board::answer::answer(prompt, &click, &mut self.board, &stack) {
                MapAnswer::Act(action) => self.commands.push(PlayCommand::Act(action)),
                MapAnswer::Toggle(option) => {
                    if self.picks.contains(&option) {
                        self.picks.retain(|x| *x != option);
                    } else {
                        self.picks.push(option);
                    }
                    self.focus = None;
                }
                MapAnswer::Narrow => self.focus = click.space.clone(),
                MapAnswer::Nothing => {
                    if self.board.unit.is_some() {
                        self.focus = None;
                    }
                }
            }
        });
    }

    fn playtest_setup(&mut self, ui: &mut Ui) {
        let scenarios: Vec<(String, String)> = self
            .loaded
            .content
            .scenarios
            .iter()
            .map(|s| (s.id.clone(), s.title.clone()))
            .collect();
        if self.setup.position.is_some() {
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(
                        "Starts from a rulebook example's position, not the scenario's start.",
                    )
                    .strong(),
                );
                if ui.button("Start from the scenario's start").clicked() {
                    self.setup.position = None;
                }
            });
        }
        ui.horizontal(|ui| {
            ui.label("Scenario:");
            for (id, title) in &scenarios {
                ui.selectable_value(&mut self.setup.scenario, id.clone(), title);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Seed:");
            ui.add(egui::DragValue::new(&mut self.setup.seed));
            ui.label("First dice:");
            let mut dice: String = self
                .setup
                .dice
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            if ui
                .add(
                    egui::TextEdit::singleline(&mut dice)
                        .hint_text("6 1 4")
                        .desired_width(100.0),
                )
                .on_hover_text("Die results the first rolls give, before the seeded dice")
                .changed()
            {
                self.setup.dice = dice
                    .split_whitespace()
                    .filter_map(|d| d.parse().ok())
                    .filter(|d| (1..=100).contains(d))
                    .collect();
            }
        });
        for (id, name) in self.scenario_options() {
            let mut on = self.setup.options.contains(&id);
            if ui.checkbox(&mut on, name).changed() {
                if on {
                    self.setup.options.push(id);
                } else {
                    self.setup.options.retain(|x| *x != id);
                }
            }
        }
        let errors = self.loaded.errors().count();
        if errors > 0 {
            ui.label(
                RichText::new(format!(
                    "The content has {errors} errors: fix them to play."
                ))
                .color(Color32::RED),
            );
        }
        if ui
            .add_enabled(errors == 0, egui::Button::new("Start"))
            .clicked()
        {
            self.commands.push(PlayCommand::Start);
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Game file:");
            ui.add(egui::TextEdit::singleline(&mut self.save_path).desired_width(260.0));
            if ui
                .add_enabled(errors == 0, egui::Button::new("Load game"))
                .clicked()
            {
                self.commands.push(PlayCommand::Load);
            }
        });
    }
}

/// A card in a hand, drawn as a card: its number and title, its kind and printed values, its
/// text on hover.
fn card_face(ui: &mut Ui, card: &sandtable_engine::model::Card) {
    egui::Frame::new()
        .fill(Color32::from_rgb(236, 228, 206))
        .stroke(egui::Stroke::new(1.0, Color32::from_rgb(120, 100, 70)))
        .corner_radius(6.0)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(112.0);
            ui.set_min_height(64.0);
            ui.vertical(|ui| {
                ui.label(
                    RichText::new(format!("{} {}", card.number, card.title))
                        .strong()
                        .color(Color32::from_gray(20)),
                );
                let values: Vec<String> = card
                    .values
                    .iter()
                    .map(|(k, v)| format!("{} {v}", k.to_uppercase()))
                    .collect();
                ui.label(
                    RichText::new(format!("{}  {}", card.kind, values.join(" ")))
                        .small()
                        .color(Color32::from_gray(60)),
                );
            });
        })
        .response
        .on_hover_text(&card.text);
}

/// Each side's hand (cards drawn as cards), and each deck's draw pile, discards and cards set aside.
fn hands_and_decks(
    ui: &mut Ui,
    content: &sandtable_engine::content::Content,
    state: &sandtable_engine::state::State,
) {
    let title = |id: &String| {
        content
            .cards()
            .find(|(_, c)| c.id == *id)
            .map_or(id.clone(), |(_, c)| format!("{} {}", c.number, c.title))
    };
    let names = content.names();
    for (side, hand) in &state.hands {
        ui.label(RichText::new(format!("{} hand ({}):", names.or_id(side), hand.len())).strong());
        ui.horizontal_wrapped(|ui| {
            for id in hand {
                match content.cards().find(|(_, c)| c.id == *id) {
                    Some((_, card)) => card_face(ui, card),
                    None => {
                        ui.label(id);
                    }
                }
            }
        });
    }
    let decks: std::collections::BTreeSet<&String> = state
        .draw_piles
        .keys()
        .chain(state.discards.keys())
        .chain(state.set_aside.keys())
        .collect();
    for deck in decks {
        let count =
            |m: &std::collections::BTreeMap<String, Vec<String>>| m.get(deck).map_or(0, Vec::len);
        ui.label(format!(
            "{} deck: {} to draw, {} discarded, {} set aside",
            names.or_id(deck),
            count(&state.draw_piles),
            count(&state.discards),
            count(&state.set_aside)
        ));
        if let Some(discards) = state.discards.get(deck).filter(|d| !d.is_empty()) {
            ui.label(
                RichText::new(format!(
                    "discarded: {}",
                    discards.iter().map(title).collect::<Vec<_>>().join(", ")
                ))
                .weak(),
            );
        }
    }
}

/// What a click on a space of the playtest map answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapAnswer {
    /// The one legal action about that space or its units.
    Act(String),
    /// The space, or its one unit, is among the things to pick: tick or untick it.
    Toggle(String),
    /// Several actions are about the space and its units: show only those.
    Narrow,
    Nothing,
}

/// Whether an action names one of these (a counter named with its piece, `ge_inf#3`, counts).
pub fn mentions(option: &str, names: &[String]) -> bool {
    option.split_whitespace().any(|w| {
        // A unit of a counter with several pieces is named `counter.piece`.
        let base = match w.rsplit_once('.') {
            Some((counter, piece)) if piece.chars().all(|c| c.is_ascii_digit()) => counter,
            _ => w,
        };
        names.iter().any(|n| n == w || n == base)
    })
}

/// The counters of the units standing on a space.
pub fn units_on(state: &sandtable_engine::state::State, space: &str) -> Vec<String> {
    let mut ids: Vec<String> = state
        .units
        .iter()
        .filter(|u| matches!(&u.at, sandtable_engine::state::Loc::Space(s) if s == space))
        .map(|u| u.counter.to_string())
        .collect();
    ids.dedup();
    ids
}

/// The answer a click on a space gives to a prompt.
pub fn space_answer(prompt: &sandtable_engine::rules::Prompt, space: &str) -> MapAnswer {
    click_answer(prompt, space, &[])
}

/// The answer a click on a space with these units on it gives to a prompt: the action about
/// them when there is one, a tick when they are to be picked, else the actions narrowed.
pub fn click_answer(
    prompt: &sandtable_engine::rules::Prompt,
    space: &str,
    units: &[String],
) -> MapAnswer {
    let mut names = vec![space.to_string()];
    names.extend(units.iter().cloned());
    if prompt.pick.is_some() {
        let options = prompt.options();
        let picked: Vec<&String> = options.iter().filter(|o| names.contains(o)).collect();
        return match picked.as_slice() {
            [] => MapAnswer::Nothing,
            [one] => MapAnswer::Toggle((*one).clone()),
            _ => MapAnswer::Narrow,
        };
    }
    let options = prompt.options();
    let about: Vec<&String> = options.iter().filter(|o| mentions(o, &names)).collect();
    match about.as_slice() {
        [] => MapAnswer::Nothing,
        [one] => MapAnswer::Act((*one).clone()),
        _ => MapAnswer::Narrow,
    }
}
