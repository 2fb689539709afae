//! The body of the `puzzlescript_bounds` fuzz target (issue 37), shared with the stable-Rust
//! harness `puzzlescript_fuzz_bounds` (this folder), which runs it over a corpus under the same
//! limits: any bytes as a PuzzleScript game, compiled, its first playable levels started and a
//! few steps played. Memory and time must stay bounded whatever the source (libFuzzer's
//! `-rss_limit_mb` and `-timeout` fail the run otherwise); a refused step (`step_too_long`
//! included) must change nothing.

use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptLevel};
use tessera_core::{AnyCommand, Level, Rules};

/// The steps played on each level.
const STEPS: usize = 8;

/// The step bound of the fuzz runs: the default's fiftieth (the default lets a runaway step
/// run 13 to 15 s, past libFuzzer's `-timeout=10`), so that a hang is still a failure.
const STEP_WORK: u64 = 40_000_000;

/// Compiles `data` as a game and plays a few steps of its first two levels: the commands come
/// from the bytes after the first NUL (or `right`, `up`, `action`, ... when there are none).
pub fn run(data: &[u8]) {
    tessera_core::puzzlescript::set_step_work(STEP_WORK);
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (source, inputs) = data.split_at(cut);
    let source: std::sync::Arc<str> = String::from_utf8_lossy(source).into();
    for level in 0..2 {
        let level =
            Level::PuzzleScript(PuzzleScriptLevel { name: None, seed: None, source: source.clone(), level });
        let Ok(mut game) = level.start(Some(0)) else { continue };
        let mut events = Vec::new();
        for k in 0..STEPS {
            let b = inputs.get(k).copied().unwrap_or(k as u8 * 3);
            let cmd = AnyCommand::PuzzleScript(PuzzleScriptCommand::ALL[usize::from(b) % 7]);
            let before = game.state.clone();
            events.clear();
            if game.rules.apply(&mut game.state, &cmd, &mut events).is_err() {
                assert_eq!(game.state, before, "a refused step changes nothing");
            }
        }
    }
}
