//! How the CLI draws a GIF (`tessera replay gif`, `solve --gif`): the look's flags and the
//! atomic write that says what it wrote. The drawing itself is `tessera_replay::gif`.

use crate::error::CliError;
use clap::Args;
use std::io::Write;
use std::path::Path;
use tessera_replay::atomic_write;

/// How a GIF is drawn and timed (`replay gif`, `solve --gif`).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct GifLook {
    /// Pixels a sprite pixel (PuzzleScript: a cell is 5 sprite pixels; default 6) or a font
    /// pixel (the other rule sets: a character is 4×6; default 3), 1 to 32.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=32))]
    pub scale: Option<u16>,
    /// Milliseconds a frame is shown before the next key press (default: the game's
    /// key_repeat_interval, 150 ms unless it says; 300 ms for the other rule sets). A frame
    /// before an `again` turn is shown for the game's again_interval, one before a tick its
    /// realtime_interval.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(0..=655_350))]
    pub delay: Option<u32>,
    /// Milliseconds the last frame is shown before the GIF loops (default 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(0..=655_350))]
    pub hold: Option<u32>,
}

impl GifLook {
    /// The library's options.
    pub fn options(&self) -> tessera_replay::gif::GifOptions {
        tessera_replay::gif::GifOptions { scale: self.scale, delay_ms: self.delay, hold_ms: self.hold }
    }
}

/// Writes a GIF made at `out` (atomically) and says what it holds.
pub fn write_gif(
    out_path: &Path,
    gif: &tessera_replay::gif::Gif,
    out: &mut impl Write,
) -> Result<(), CliError> {
    atomic_write(out_path, &gif.bytes).map_err(|e| CliError::file(out_path, e))?;
    writeln!(
        out,
        "{}: {} frames, {}×{} pixels, {} bytes",
        out_path.display(),
        gif.frames,
        gif.width,
        gif.height,
        gif.bytes.len()
    )
    .map_err(crate::error::output_error)
}
