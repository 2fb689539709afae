//! tessera-editor: the eframe/egui board editor, player and debugger (not built yet).
//!
//! It will open on a built-in default level with three modes on one board view (Edit, Play,
//! Debug) as `shared/DESIGN.md` describes. No issue has asked for it yet; until one does this
//! binary says so and exits with status 1 rather than pretend.

fn main() -> std::process::ExitCode {
    eprintln!("tessera-editor is not built yet; use `tessera play` to play in the terminal");
    std::process::ExitCode::FAILURE
}
