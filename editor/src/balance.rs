//! The Balance panel: a batch of self-played games run in the background on the open content
//! (progress, cancel), its statistics plotted with egui_plot, and a variant B played on the
//! same seeds beside it: other optional rules, one value changed, or the files as saved
//! against the edits not yet saved.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};
use sandtable_engine::agent::AgentKind;
use sandtable_engine::content::Content;
use sandtable_engine::load::{load, load_dir, MemSource};
use sandtable_engine::sim::{self, Comparison, Plan, Rate, Report};
use sandtable_engine::variant::{self, Setting, Sweep};

use crate::EditorApp;

/// What variant B is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// No B: one batch.
    #[default]
    None,
    /// The same content with other optional rules.
    Options,
    /// The same content with one value set (`FILE:POINTER=VALUE`).
    Set,
    /// A = the files as saved on disk, B = the content with the edits not yet saved.
    Edits,
    /// One number over a range (`FILE:POINTER=FROM..TO[:STEP]`): a batch at each value.
    Sweep,
}

/// What a finished batch shows.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub a_name: String,
    pub a: Report,
    pub b: Option<(String, Report, Comparison)>,
    /// A sweep: the place, and each value with its batch (`a` is the first).
    pub sweep: Option<(String, Vec<(i64, Report)>)>,
}

struct Running {
    done: Arc<AtomicUsize>,
    total: usize,
    cancel: Arc<AtomicBool>,
    out: Arc<Mutex<Option<Result<Outcome, String>>>>,
}

pub struct BalanceView {
    pub games: u32,
    pub seed: u64,
    /// The agent of each side, as typed (`random`, `mc:16:40`).
    pub agents: BTreeMap<String, String>,
    pub variant: Variant,
    /// The optional rules of B.
    pub b_options: Vec<String>,
    /// The value B sets.
    pub b_set: String,
    /// The number swept.
    pub sweep: String,
    running: Option<Running>,
    pub outcome: Option<Outcome>,
    pub error: String,
}

impl Default for BalanceView {
    fn default() -> BalanceView {
        BalanceView {
            games: 200,
            seed: 1,
            agents: BTreeMap::new(),
            variant: Variant::None,
            b_options: Vec::new(),
            b_set: String::new(),
            sweep: String::new(),
            running: None,
            outcome: None,
            error: String::new(),
        }
    }
}

impl BalanceView {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Games finished so far, and of how many.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.running
            .as_ref()
            .map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }

    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes a finished batch's outcome.
    fn poll(&mut self) {
        let Some(r) = &self.running else {
            return;
        };
        let taken = r.out.lock().ok().and_then(|mut o| o.take());
        if let Some(result) = taken {
            match result {
                Ok(o) => {
                    self.outcome = Some(o);
                    self.error.clear();
                }
                Err(e) => self.error = e,
            }
            self.running = None;
        }
    }
}

fn checked(loaded: sandtable_engine::load::Loaded, what: &str) -> Result<Content, String> {
    let first = loaded.errors().next().map(|d| {
        let text = loaded.sources.render(d);
        text.lines().next().unwrap_or_default().to_string()
    });
    match first {
        Some(d) => Err(format!("{what} does not check: {d}")),
        None => Ok(loaded.content),
    }
}

/// Starts the batch the panel describes on a background thread.
pub fn start(app: &mut EditorApp) {
    if app.balance.is_running() {
        return;
    }
    let view = &app.balance;
    let mut plan = Plan::new(&app.setup.scenario, view.games.max(1), view.seed);
    plan.options = app.setup.options.clone();
    for (side, spec) in &view.agents {
        match spec.parse::<AgentKind>() {
            Ok(k) => {
                plan.agents.insert(side.clone(), k);
            }
            Err(e) => {
                app.balance.error = format!("{side}: {e}");
                return;
            }
        }
    }
    let edited = app.doc.source();
    let folder = app.folder.clone();
    let variant = view.variant;
    let b_options = view.b_options.clone();
    let b_set = view.b_set.clone();
    let sweep = if variant == Variant::Sweep {
        match Sweep::parse(&view.sweep) {
            Ok(s) => Some(s),
            Err(e) => {
                app.balance.error = e;
                return;
            }
        }
    } else {
        None
    };
    let a_current = app.loaded.content.clone();
    let a_clean = !app.loaded.has_errors();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let batches = match (&sweep, variant) {
        (Some(s), _) => s.values.len(),
        (None, Variant::None) => 1,
        (None, _) => 2,
    };
    let total = plan.games as usize * batches;
    let running = Running {
        done: Arc::new(AtomicUsize::new(0)),
        total,
        cancel: Arc::new(AtomicBool::new(false)),
        out: Arc::new(Mutex::new(None)),
    };
    let (done, cancel, out) = (
        running.done.clone(),
        running.cancel.clone(),
        running.out.clone(),
    );
    app.balance.error.clear();
    app.balance.running = Some(running);
    std::thread::spawn(move || {
        // One batch, counted in the progress from `offset` on; a cancel is an error.
        let batch = |content: &Content, plan: &Plan, offset: usize| {
            let games = sim::run(
                content,
                plan,
                sim::Part::ALL,
                jobs,
                &|d| done.store(offset + d, Ordering::Relaxed),
                &cancel,
            )
            .map_err(|e| e.0)?;
            if cancel.load(Ordering::Relaxed) {
                return Err(format!("Cancelled after {} games.", offset + games.len()));
            }
            Ok::<_, String>(games)
        };
        let sweep_work = |s: &Sweep| -> Result<Outcome, String> {
            let mut points = Vec::new();
            for (k, &v) in s.values.iter().enumerate() {
                let mem = variant::apply(&edited, &[s.setting(v)])?;
                let content = checked(load(&mem), &format!("the value {v}"))?;
                let offset = k * plan.games as usize;
                let games = batch(&content, &plan, offset)?;
                points.push((v, sim::report(&sim::Context::of(&content), &plan, &games)));
            }
            let (first, a) = points.first().cloned().ok_or("the sweep has no values")?;
            Ok(Outcome {
                a_name: format!("value {first}"),
                a,
                b: None,
                sweep: Some((format!("{}:{}", s.file, s.pointer), points)),
            })
        };
        let work = || -> Result<Outcome, String> {
            if let Some(s) = &sweep {
                return sweep_work(s);
            }
            // A, and B with its plan.
            let (a_name, a, b): (String, Content, Option<(String, Content, Plan)>) = match variant {
                Variant::Edits => {
                    let saved = checked(load_dir(&folder), "the saved content")?;
                    let now = checked(load(&edited), "the edited content")?;
                    (
                        "as saved".into(),
                        saved,
                        Some(("with the unsaved edits".into(), now, plan.clone())),
                    )
                }
                _ if !a_clean => return Err("the open content has problems: see Problems".into()),
                Variant::None | Variant::Sweep => ("the open content".into(), a_current, None),
                Variant::Options => {
                    let mut b = plan.clone();
                    b.options = b_options.clone();
                    let name = format!("options [{}]", b_options.join(", "));
                    (
                        format!("options [{}]", plan.options.join(", ")),
                        a_current.clone(),
                        Some((name, a_current, b)),
                    )
                }
                Variant::Set => {
                    let setting = Setting::parse(&b_set)?;
                    let mem: MemSource = variant::apply(&edited, std::slice::from_ref(&setting))?;
                    let b = checked(load(&mem), "the variant")?;
                    (
                        "the open content".into(),
                        a_current,
                        Some((setting.to_string(), b, plan.clone())),
                    )
                }
            };
            let a_games = batch(&a, &plan, 0)?;
            let a_report = sim::report(&sim::Context::of(&a), &plan, &a_games);
            let b = match b {
                None => None,
                Some((name, content, b_plan)) => {
                    let b_games = batch(&content, &b_plan, a_games.len())?;
                    let sides: Vec<String> =
                        a_report.sides.iter().map(|s| s.side.clone()).collect();
                    let comparison = sim::compare(&a_name, &name, &sides, &a_games, &b_games);
                    Some((
                        name,
                        sim::report(&sim::Context::of(&content), &b_plan, &b_games),
                        comparison,
                    ))
                }
            };
            Ok(Outcome {
                a_name,
                a: a_report,
                b,
                sweep: None,
            })
        };
        let result = work();
        if let Ok(mut o) = out.lock() {
            *o = Some(result);
        }
    });
}

pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    app.balance.poll();
    if app.balance.is_running() {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }
    ui.heading("Balance");
    ui.label(
        RichText::new(
            "Self-played games of the playtest's scenario and options, on seeds from the batch seed: \
             the same games whatever the machine. B is played on the same seeds as A.",
        )
        .weak(),
    );
    settings(app, ui);
    ui.separator();
    if let Some((done, total)) = app.balance.progress() {
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{done} of {total} games"))
                    .desired_width(300.0),
            );
            if ui.button("Cancel").clicked() {
                app.balance.cancel();
            }
        });
    }
    if !app.balance.error.is_empty() {
        ui.colored_label(ui.visuals().warn_fg_color, &app.balance.error);
    }
    let Some(outcome) = app.balance.outcome.clone() else {
        return;
    };
    let outcome = in_names(outcome, app.loaded.content.names());
    egui::ScrollArea::vertical()
        .id_salt("balance results")
        .show(ui, |ui| results(ui, &outcome));
}

fn settings(app: &mut EditorApp, ui: &mut Ui) {
    let sides: Vec<(String, String)> = app
        .loaded
        .content
        .game
        .as_ref()
        .map(|g| {
            g.sides
                .iter()
                .map(|s| (s.id.to_string(), s.name.clone()))
                .collect()
        })
        .unwrap_or_default();
    let options = app.scenario_options();
    let view = &mut app.balance;
    ui.horizontal(|ui| {
        ui.label(format!("Scenario {}", app.setup.scenario));
        ui.label("Games");
        ui.add(egui::DragValue::new(&mut view.games).range(1..=100_000));
        ui.label("Seed");
        ui.add(egui::DragValue::new(&mut view.seed));
    });
    ui.horizontal(|ui| {
        for (id, name) in &sides {
            let spec = view
                .agents
                .entry(id.clone())
                .or_insert_with(|| "random".into());
            ui.label(format!("{name} agent"));
            ui.add(
                egui::TextEdit::singleline(spec)
                    .desired_width(90.0)
                    .hint_text(format!("{id} agent")),
            )
            .on_hover_text("random, or mc:PLAYOUTS:DEPTH (flat Monte Carlo)");
        }
    });
    ui.horizontal(|ui| {
        ui.label("Variant B:");
        ui.selectable_value(&mut view.variant, Variant::None, "none");
        ui.selectable_value(&mut view.variant, Variant::Options, "other optional rules");
        ui.selectable_value(&mut view.variant, Variant::Set, "one value changed");
        ui.selectable_value(&mut view.variant, Variant::Edits, "saved vs unsaved edits");
        ui.selectable_value(&mut view.variant, Variant::Sweep, "sweep a number");
    });
    match view.variant {
        Variant::Options => {
            ui.horizontal_wrapped(|ui| {
                ui.label("B's optional rules:");
                for (id, name) in &options {
                    let mut on = view.b_options.contains(id);
                    if ui.checkbox(&mut on, name).changed() {
                        crate::set_member(&mut view.b_options, id.clone(), on);
                    }
                }
            });
        }
        Variant::Set => {
            ui.horizontal(|ui| {
                ui.label("B sets");
                ui.add(
                    egui::TextEdit::singleline(&mut view.b_set)
                        .desired_width(420.0)
                        .hint_text("cards/axis.ron:/cards/taifun/values/ops=2"),
                );
            });
        }
        Variant::Sweep => {
            ui.horizontal(|ui| {
                ui.label("Sweep");
                ui.add(
                    egui::TextEdit::singleline(&mut view.sweep)
                        .desired_width(420.0)
                        .hint_text("scenarios/campaign.ron:/last_turn=4..12:2"),
                );
            });
        }
        Variant::None | Variant::Edits => {}
    }
    let running = view.is_running();
    if ui
        .add_enabled(!running, egui::Button::new("Run"))
        .on_hover_text("Play the games in the background")
        .clicked()
    {
        start(app);
    }
}

/// An outcome as a person reads it: sides, tracks and tables by their names.
fn in_names(mut o: Outcome, names: &sandtable_engine::content::names::Names) -> Outcome {
    let report = |r: &mut Report| {
        for s in &mut r.sides {
            s.side = names.or_id(&s.side);
        }
        r.tracks = std::mem::take(&mut r.tracks)
            .into_iter()
            .map(|(t, v)| (names.or_id(&t), v))
            .collect();
        for t in &mut r.tables {
            t.table = names.or_id(&t.table);
        }
    };
    report(&mut o.a);
    if let Some((_, r, c)) = &mut o.b {
        report(r);
        let rename = |m: &mut std::collections::BTreeMap<String, sim::Difference>| {
            *m = std::mem::take(m)
                .into_iter()
                .map(|(k, v)| (names.or_id(&k), v))
                .collect();
        };
        rename(&mut c.wins);
        rename(&mut c.tracks);
    }
    if let Some((_, points)) = &mut o.sweep {
        points.iter_mut().for_each(|(_, r)| report(r));
    }
    o
}

fn rate_text(r: &Rate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0
    )
}

const A_COLOR: Color32 = Color32::from_rgb(90, 150, 230);
const B_COLOR: Color32 = Color32::from_rgb(235, 150, 60);

/// Each side's win rate over the swept values, with its interval.
fn sweep_plot(ui: &mut Ui, place: &str, points: &[(i64, Report)]) {
    ui.label(RichText::new(format!("Win rate by the value of {place}")).strong());
    let sides: Vec<String> = points
        .first()
        .map(|(_, r)| r.sides.iter().map(|s| s.side.clone()).collect())
        .unwrap_or_default();
    let colors = [A_COLOR, B_COLOR, Color32::LIGHT_GREEN, Color32::LIGHT_RED];
    Plot::new("balance sweep")
        .height(220.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .show(ui, |p| {
            for (i, side) in sides.iter().enumerate() {
                let color = colors[i % colors.len()];
                let at = |f: &dyn Fn(&Rate) -> f64| -> PlotPoints {
                    points
                        .iter()
                        .filter_map(|(v, r)| r.sides.get(i).map(|s| [*v as f64, f(&s.wins)]))
                        .collect()
                };
                p.line(
                    Line::new(side.as_str(), at(&|w| w.rate))
                        .color(color)
                        .width(2.0),
                );
                for (name, f) in [
                    ("low", (|w: &Rate| w.low) as fn(&Rate) -> f64),
                    ("high", |w: &Rate| w.high),
                ] {
                    p.line(
                        Line::new(format!("{side} 95% {name}"), at(&f))
                            .color(color.gamma_multiply(0.5))
                            .style(egui_plot::LineStyle::dashed_loose()),
                    );
                }
            }
        });
    egui::Grid::new("balance sweep table")
        .striped(true)
        .show(ui, |ui| {
            ui.label(RichText::new("value").strong());
            for s in &sides {
                ui.label(RichText::new(format!("{s} wins")).strong());
            }
            ui.end_row();
            for (v, r) in points {
                ui.label(v.to_string());
                for s in &r.sides {
                    ui.label(rate_text(&s.wins));
                }
                ui.end_row();
            }
        });
    ui.separator();
}

fn results(ui: &mut Ui, o: &Outcome) {
    if let Some((place, points)) = &o.sweep {
        sweep_plot(ui, place, points);
    }
    let reports: Vec<(&str, &Report, Color32)> =
        std::iter::once((o.a_name.as_str(), &o.a, A_COLOR))
            .chain(o.b.as_ref().map(|(n, r, _)| (n.as_str(), r, B_COLOR)))
            .collect();
    ui.label(RichText::new("Wins (95% interval)").strong());
    egui::Grid::new("balance wins")
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            for (name, r, _) in &reports {
                ui.label(format!("{name} ({} games)", r.games));
            }
            ui.end_row();
            if let Some(first) = reports.first() {
                for (i, s) in first.1.sides.iter().enumerate() {
                    ui.label(format!("{} ({})", s.side, s.agent));
                    for (_, r, _) in &reports {
                        ui.label(
                            r.sides
                                .get(i)
                                .map(|s| rate_text(&s.wins))
                                .unwrap_or_default(),
                        );
                    }
                    ui.end_row();
                }
                ui.label("undecided");
                for (_, r, _) in &reports {
                    ui.label(rate_text(&r.undecided));
                }
                ui.end_row();
            }
        });
    ui.horizontal(|ui| {
        let w = (ui.available_width() / 2.0 - 8.0).max(200.0);
        ui.vertical(|ui| {
            ui.set_width(w);
            ui.label("Win rate by side, with its interval");
            win_plot(ui, &reports);
        });
        ui.vertical(|ui| {
            ui.set_width(w);
            ui.label("Turn games ended on");
            turn_plot(ui, &reports);
        });
    });
    for track in o.a.tracks.keys() {
        ui.label(format!("{track} at the end of each turn (mean)"));
        Plot::new(("balance track", track.as_str()))
            .height(160.0)
            .legend(Legend::default())
            .allow_scroll(false)
            .show(ui, |p| {
                for (name, r, color) in &reports {
                    if let Some(series) = r.tracks.get(track) {
                        let points: PlotPoints =
                            series.iter().map(|t| [t.turn as f64, t.mean]).collect();
                        p.line(Line::new(*name, points).color(*color));
                    }
                }
            });
    }
    if let Some((b_name, _, c)) = &o.b {
        ui.label(
            RichText::new(format!(
                "B ({b_name}) against A on the same {} seeds",
                c.games
            ))
            .strong(),
        );
        egui::Grid::new("balance comparison")
            .striped(true)
            .show(ui, |ui| {
                for h in ["", "A", "B", "B − A", "95% interval", ""] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                let mut row = |name: String, d: &sim::Difference, k: f64| {
                    ui.label(name);
                    ui.label(format!("{:.2}", d.a * k));
                    ui.label(format!("{:.2}", d.b * k));
                    ui.label(format!("{:+.2}", d.difference * k));
                    ui.label(format!("[{:+.2}, {:+.2}]", d.low * k, d.high * k));
                    ui.label(if d.significant() { "differs" } else { "" });
                    ui.end_row();
                };
                for (side, d) in &c.wins {
                    row(format!("{side} win %"), d, 100.0);
                }
                row("end turn".into(), &c.length, 1.0);
                for (t, d) in &c.tracks {
                    row(format!("final {t}"), d, 1.0);
                }
            });
    }
    ui.collapsing("Cards", |ui| cards(ui, &reports));
    ui.collapsing("Tables", |ui| {
        for t in &o.a.tables {
            let results: Vec<String> = t
                .results
                .iter()
                .map(|(r, n)| format!("{r} {:.0}%", 100.0 * *n as f64 / t.rolls.max(1) as f64))
                .collect();
            ui.label(format!(
                "{} {} ({} rolls): {}",
                t.table,
                t.column,
                t.rolls,
                results.join(", ")
            ));
        }
    });
    ui.collapsing("Spaces that changed hands", |ui| {
        for s in o.a.spaces.iter().take(30) {
            ui.label(format!(
                "{}: {} changes, in {:.0}% of games",
                s.name,
                s.changes,
                100.0 * s.games as f64 / o.a.games.max(1) as f64
            ));
        }
    });
}

fn win_plot(ui: &mut Ui, reports: &[(&str, &Report, Color32)]) {
    let names: Vec<String> = reports
        .first()
        .map(|(_, r, _)| r.sides.iter().map(|s| s.side.clone()).collect())
        .unwrap_or_default();
    Plot::new("balance win rates")
        .height(200.0)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .show(ui, |p| {
            let k = reports.len() as f64;
            for (j, (name, r, color)) in reports.iter().enumerate() {
                let x = |i: usize| i as f64 + (j as f64 - (k - 1.0) / 2.0) * 0.35;
                let bars = r
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Bar::new(x(i), s.wins.rate).width(0.3).name(&s.side))
                    .collect();
                p.bar_chart(BarChart::new(*name, bars).color(*color));
                for (i, s) in r.sides.iter().enumerate() {
                    let whisker = vec![[x(i), s.wins.low], [x(i), s.wins.high]];
                    p.line(Line::new(format!("{name} interval"), whisker).color(Color32::WHITE));
                }
            }
        });
}

fn turn_plot(ui: &mut Ui, reports: &[(&str, &Report, Color32)]) {
    Plot::new("balance turns")
        .height(200.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .show(ui, |p| {
            let k = reports.len() as f64;
            for (j, (name, r, color)) in reports.iter().enumerate() {
                let bars = r
                    .victory_turns
                    .iter()
                    .map(|(t, n)| {
                        Bar::new(*t as f64 + (j as f64 - (k - 1.0) / 2.0) * 0.4, *n as f64)
                            .width(0.4)
                    })
                    .collect();
                p.bar_chart(BarChart::new(*name, bars).color(*color));
            }
        });
}

fn cards(ui: &mut Ui, reports: &[(&str, &Report, Color32)]) {
    let Some((_, a, _)) = reports.first() else {
        return;
    };
    egui::Grid::new("balance cards")
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "card",
                "event",
                "ops",
                "sr",
                "rp",
                "combat",
                "wins as event",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for c in a.cards.iter().filter(|c| !c.played.is_empty()) {
                ui.label(&c.title);
                for w in [
                    sim::Way::Event,
                    sim::Way::Ops,
                    sim::Way::Sr,
                    sim::Way::Rp,
                    sim::Way::Combat,
                ] {
                    ui.label(c.played.get(&w).copied().unwrap_or(0).to_string());
                }
                ui.label(if c.wins_as_event.of > 0 {
                    rate_text(&c.wins_as_event)
                } else {
                    "-".into()
                });
                ui.end_row();
            }
        });
    if !a.events_never_fired.is_empty() {
        ui.label(format!(
            "Events never carried out ({}): {}",
            a.events_never_fired.len(),
            a.events_never_fired.join(", ")
        ));
    }
}
