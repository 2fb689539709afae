//! The `tessera-editor` binary: opens the editor on the built-in default level, or on the level
//! or log given as its argument.
//!
//! `TESSERA_SCREENSHOT=out.png` renders a few frames, saves a screenshot there and exits (for a
//! person or CI looking at the real window, e.g. under `xvfb-run`). With it,
//! `TESSERA_SCREENSHOT_CLICKS="x,y x,y"` clicks those board cells first and
//! `TESSERA_SCREENSHOT_HOVER="x,y"` hovers one, to show a selection, a range or a path, and
//! `TESSERA_SCREENSHOT_MODE=edit|play|debug|pack` picks the mode shown;
//! `TESSERA_SCREENSHOT_STEP=N` shows step `N` of the log open in Debug and
//! `TESSERA_SCREENSHOT_LINE=N` scrolls a game's source pane to line `N`, and
//! `TESSERA_SCREENSHOT_SOURCE=hidden` hides the pane for the shot (the README's pictures,
//! `docs/workbench.png` and `docs/debug.png`, are taken this way: see `docs/editor.md`).
//!
//! Unsaved edits are copied to a recovery folder (`TESSERA_RECOVERY_DIR`, else the user's state
//! folder; see `recovery`) and offered back after a crash. The screenshot hook does so only when
//! `TESSERA_RECOVERY_DIR` is set (to show the question).

use std::path::PathBuf;
use std::process::ExitCode;
use tessera_editor::{EditorApp, SETTINGS_KEY, Settings};

const HEADLESS_HINT: &str = "for headless use, run the `tessera` command line instead \
     (`cargo run --release -p tessera-cli -- play|replay ...`)";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let path = args.next().map(PathBuf::from);
    if path.as_deref().is_some_and(|p| p == "--help" || p == "-h") || args.next().is_some() {
        eprintln!("usage: tessera-editor [LEVEL.json | MAP.map | STAGE.txt | LOG.tlog]");
        return ExitCode::from(2);
    }
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!("tessera-editor: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); {HEADLESS_HINT}");
        return ExitCode::FAILURE;
    }
    let screenshot = std::env::var_os("TESSERA_SCREENSHOT").map(PathBuf::from);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]).with_title("tessera"),
        ..Default::default()
    };
    let result = eframe::run_native(
        "tessera",
        options,
        Box::new(move |cc| {
            let settings: Settings =
                cc.storage.and_then(|s| eframe::get_value(s, SETTINGS_KEY)).unwrap_or_default();
            let mut app = EditorApp::new(settings);
            // Sounds play on the system's audio device (silent, saying so, without one).
            app.enable_audio();
            // Unsaved edits are kept where a crash cannot take them, and offered back on the
            // next start. The screenshot hook shows the window as asked: recovery only when
            // TESSERA_RECOVERY_DIR names a folder.
            let dir = match screenshot {
                None => tessera_editor::recovery::default_dir(),
                Some(_) => std::env::var_os("TESSERA_RECOVERY_DIR").map(PathBuf::from),
            };
            if let Some(dir) = dir {
                app.enable_recovery(&dir, tessera_editor::recovery::DEFAULT_EVERY);
            }
            if let Some(p) = &path {
                app.open(p);
            }
            if screenshot.is_some() {
                for p in cells_from_env("TESSERA_SCREENSHOT_CLICKS") {
                    app.click_cell(p, 0.0);
                }
                if let Some(p) = cells_from_env("TESSERA_SCREENSHOT_HOVER").first() {
                    app.hover_cell(*p);
                }
                match std::env::var("TESSERA_SCREENSHOT_MODE").as_deref() {
                    Ok("edit") => app.set_mode(tessera_editor::Mode::Edit),
                    Ok("play") => app.set_mode(tessera_editor::Mode::Play),
                    Ok("debug") => app.set_mode(tessera_editor::Mode::Debug),
                    Ok("pack") => app.set_mode(tessera_editor::Mode::Pack),
                    _ => {}
                }
                if let Some(step) = number_from_env("TESSERA_SCREENSHOT_STEP") {
                    app.debug_mut().seek(step);
                }
                if let Some(line) = number_from_env("TESSERA_SCREENSHOT_LINE") {
                    app.workbench_mut().go_to_line(line as usize);
                }
                if std::env::var("TESSERA_SCREENSHOT_SOURCE").as_deref() == Ok("hidden") {
                    app.show_source(false);
                }
            }
            Ok(Box::new(Window { app, screenshot, frames: 0 }))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera-editor: cannot open a window: {e}; {HEADLESS_HINT}");
            ExitCode::FAILURE
        }
    }
}

/// A number in the environment variable `name` (none when unset or not a number).
fn number_from_env(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// Cells `x,y` separated by spaces in the environment variable `name` (bad ones are skipped).
fn cells_from_env(name: &str) -> Vec<tessera_core::Pos> {
    let text = std::env::var(name).unwrap_or_default();
    text.split_whitespace()
        .filter_map(|c| {
            let (x, y) = c.split_once(',')?;
            Some(tessera_core::Pos::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
        })
        .collect()
}

/// The app in eframe, plus the screenshot hook.
struct Window {
    app: EditorApp,
    screenshot: Option<PathBuf>,
    frames: u32,
}

/// Frames rendered before the screenshot is taken (fonts loaded, layout settled).
const SCREENSHOT_FRAME: u32 = 8;

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.ui(ui);
        let Some(path) = &self.screenshot else { return };
        self.frames += 1;
        let ctx = ui.ctx().clone();
        if self.frames == SCREENSHOT_FRAME {
            self.app.close_without_asking();
            let (path, done) = (path.clone(), ctx.clone());
            ctx.request_screenshot(move |image| {
                match save_png(&path, &image) {
                    Ok(()) => eprintln!("tessera-editor: screenshot saved to {}", path.display()),
                    Err(e) => eprintln!("tessera-editor: screenshot {}: {e}", path.display()),
                }
                done.send_viewport_cmd(egui::ViewportCommand::Close);
                done.request_repaint();
            });
        }
        ctx.request_repaint();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // A screenshot shows the window as asked and leaves the user's settings as they were.
        if self.screenshot.is_some() {
            return;
        }
        eframe::set_value(storage, SETTINGS_KEY, self.app.settings());
    }
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let mut bytes = Vec::new();
    let mut enc = png::Encoder::new(&mut bytes, w as u32, h as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    writer.write_image_data(&rgba).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    tessera_replay::atomic_write(path, &bytes).map_err(|e| e.to_string())
}
