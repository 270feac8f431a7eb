//! `sandtable-editor`: opens a game folder (the bundled Barbarossa to Berlin when none is given).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// The Balance panel's self-play allocates many small strings: mimalloc is faster at it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use sandtable_editor::{bundled_content, EditorApp, Quit, Section};

#[derive(Parser)]
#[command(
    name = "sandtable-editor",
    version,
    about = "Sandtable's editor: edit a game folder (map, counters, cards, tables, scenarios), see every problem as you type, and playtest it live while it changes"
)]
struct Args {
    /// The game folder to open; the bundled Barbarossa to Berlin when omitted.
    dir: Option<PathBuf>,
    /// Save a screenshot of the window to this PNG file after the first frames, then quit.
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// Start a playtest of the folder's first scenario and show it.
    #[arg(long)]
    playtest: bool,
    /// Open this saved game (a playtest saved by the editor) in the playtest.
    #[arg(long, value_name = "FILE")]
    game: Option<PathBuf>,
    /// Open on this panel: overview, game, map, counters, cards, tables, scenarios, playtest,
    /// balance, problems.
    #[arg(long, value_name = "PANEL")]
    section: Option<String>,
    /// The window's size in points, `WIDTHxHEIGHT` (1280x800 when omitted).
    #[arg(long, value_name = "WxH", value_parser = window_size)]
    window: Option<(f32, f32)>,
    /// The playtest board's zoom (1 shows the whole map).
    #[arg(long, value_name = "FACTOR")]
    zoom: Option<f32>,
    /// Centre the playtest board on this space.
    #[arg(long, value_name = "SPACE")]
    centre: Option<String>,
    /// Open the Balance panel and start a batch of this many self-played games (a screenshot
    /// waits for it).
    #[arg(long, value_name = "GAMES")]
    balance: Option<u32>,
}

/// A window size written `1920x1080`.
fn window_size(text: &str) -> Result<(f32, f32), String> {
    let parse = |t: &str| {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| (200.0..=10000.0).contains(v))
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => match (parse(w), parse(h)) {
            (Some(w), Some(h)) => Ok((w, h)),
            _ => Err(format!("`{text}`: each side from 200 to 10000")),
        },
        None => Err(format!(
            "`{text}` is not WIDTHxHEIGHT (for example 1920x1080)"
        )),
    }
}

/// The eframe shell around the app: window and screenshot handling.
struct Shell {
    app: EditorApp,
    screenshot: Option<PathBuf>,
    frames: u32,
    result: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Closing the window with unsaved changes asks first (the app shows the question).
        if ui.ctx().input(|i| i.viewport().close_requested()) {
            self.app.request_quit();
            if self.app.quit != Quit::Confirmed {
                ui.ctx()
                    .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            }
        }
        self.app.show(ui);
        if self.app.quit == Quit::Confirmed {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let Some(path) = self.screenshot.clone() else {
            return;
        };
        if self.app.balance.is_running() {
            // A batch started with --balance is shown finished.
            return;
        }
        self.frames += 1;
        if self.frames == 5 {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Screenshot(Default::default()));
        }
        let image = ui.ctx().input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Screenshot { image, .. } => Some(image.clone()),
                _ => None,
            })
        });
        if let Some(image) = image {
            let [w, h] = image.size;
            let outcome =
                match image::RgbaImage::from_raw(w as u32, h as u32, image.as_raw().to_vec()) {
                    Some(buffer) => buffer.save(&path).map_err(|e| e.to_string()).err(),
                    None => Some("the screenshot had the wrong size".to_string()),
                };
            *self.result.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(outcome.unwrap_or_default());
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ui.ctx().request_repaint();
    }
}

fn has_display() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let dir = args.dir.unwrap_or_else(bundled_content);
    if !dir.is_dir() {
        eprintln!("sandtable-editor: `{}` is not a folder", dir.display());
        return ExitCode::from(2);
    }
    if !has_display() {
        eprintln!(
            "sandtable-editor: no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set).\n\
             Run it in a desktop session, or under a virtual display: xvfb-run sandtable-editor.\n\
             To check content without a window, use: sandtable validate {}",
            dir.display()
        );
        return ExitCode::from(1);
    }
    let result = std::sync::Arc::new(std::sync::Mutex::new(None));
    let mut app = EditorApp::open(&dir);
    app.watch_folder();
    if let Some(name) = &args.section {
        match Section::ALL
            .into_iter()
            .find(|s| s.label().eq_ignore_ascii_case(name))
        {
            Some(section) => app.section = section,
            None => {
                let names: Vec<String> = Section::ALL
                    .iter()
                    .map(|s| s.label().to_lowercase())
                    .collect();
                eprintln!(
                    "sandtable-editor: no panel `{name}`: use {}",
                    names.join(", ")
                );
                return ExitCode::from(2);
            }
        }
    }
    if args.playtest {
        app.start_playtest();
    }
    if let Some(game) = &args.game {
        app.section = Section::Playtest;
        app.save_path = game.display().to_string();
        app.load_playtest();
    }
    if let Some(zoom) = args.zoom {
        app.board.zoom = zoom.clamp(0.5, 30.0);
    }
    app.board.centre_on = args.centre.clone();
    if let Some(games) = args.balance {
        app.section = Section::Balance;
        app.balance.games = games.max(1);
        sandtable_editor::balance::start(&mut app);
    }
    let shell = Shell {
        app,
        screenshot: args.screenshot.clone(),
        frames: 0,
        result: result.clone(),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size({
                let (w, h) = args.window.unwrap_or((1280.0, 800.0));
                [w, h]
            })
            .with_title("Sandtable"),
        ..Default::default()
    };
    if let Err(e) = eframe::run_native("Sandtable", options, Box::new(|_| Ok(Box::new(shell)))) {
        eprintln!("sandtable-editor: could not open a window: {e}");
        return ExitCode::from(1);
    }
    if let Some(path) = args.screenshot {
        match result.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(e) if e.is_empty() => eprintln!("saved {}", path.display()),
            Some(e) => {
                eprintln!("sandtable-editor: could not save the screenshot: {e}");
                return ExitCode::from(1);
            }
            None => {
                eprintln!("sandtable-editor: the window closed before a screenshot was taken");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}
