//! Any bytes as a PuzzleScript game: compiled (errors with lines, never a panic or a hang), and
//! when it compiles, its first levels played with commands taken from the bytes after the first
//! NUL, each step undone and redone exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptLevel};
use tessera_core::{AnyCommand, Level, Rules};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (source, inputs) = data.split_at(cut);
    let source: std::sync::Arc<str> = String::from_utf8_lossy(source).into();
    for level in 0..2 {
        let level =
            Level::PuzzleScript(PuzzleScriptLevel { name: None, seed: None, source: source.clone(), level });
        let Ok(mut game) = level.start(Some(0)) else { continue };
        let mut events = Vec::new();
        for &b in inputs.iter().take(64) {
            let cmd = AnyCommand::PuzzleScript(PuzzleScriptCommand::ALL[usize::from(b) % 7]);
            let before = game.state.clone();
            events.clear();
            if game.rules.apply(&mut game.state, &cmd, &mut events).is_ok() {
                let after = game.state.clone();
                game.rules.undo(&mut game.state, &events);
                assert_eq!(game.state, before, "undo restores the state");
                game.rules.redo(&mut game.state, &events).expect("redo of the rules' own events");
                assert_eq!(game.state, after, "redo gives the step's state");
            } else {
                assert_eq!(game.state, before, "a refused command changes nothing");
            }
        }
    }
});
