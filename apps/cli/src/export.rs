//! `tessera export GAME.txt --html OUT.html`: a PuzzleScript game as one self-contained web page
//! that plays it on tessera's engine compiled to WebAssembly (`crates/web`, `docs/export.md`).
//! The page needs the web player built once (`crates/web/build.sh`); without it the command says
//! so and names that command.

use crate::error::CliError;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `tessera export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The PuzzleScript game (`.txt`).
    pub game: PathBuf,
    /// The page to write: one HTML file with everything inlined (no network).
    #[arg(long, value_name = "OUT.html")]
    pub html: PathBuf,
}

/// Runs `tessera export`.
pub fn run(args: &ExportArgs) -> Result<(), CliError> {
    match tessera_web::write_page(&args.game, &args.html) {
        Ok(bytes) => {
            eprintln!("{}: {bytes} bytes", args.html.display());
            Ok(())
        }
        Err(e) => Err(CliError::BadInput(e.to_string())),
    }
}
