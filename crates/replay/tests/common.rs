//! Shared helpers: small recorded slide games.

use tessera_core::slide::SlideLevel;
use tessera_core::{AnyCommand, AnyState, Dir, Game, Level, Rules, slide::SlideCommand};
use tessera_replay::{Header, Log, LogWriter, TailPolicy};

/// A `side × side` 2048 level.
pub fn level(side: usize) -> Level {
    Level::Slide(SlideLevel { width: Some(side), height: Some(side), ..SlideLevel::default() })
}

/// The slide command for a direction index (0 up, 1 down, 2 left, 3 right).
pub fn slide(i: usize) -> AnyCommand {
    AnyCommand::Slide(SlideCommand::Slide(Dir::ALL[i % 4]))
}

/// A recorded game: the log's bytes, the game at the end, and the commands that were accepted.
pub struct Recorded {
    pub bytes: Vec<u8>,
    pub end: Game,
    pub commands: Vec<AnyCommand>,
    pub states: Vec<AnyState>,
}

/// Plays `picks` (direction indices; refused ones are skipped) on `level` with `seed`, recording
/// with keyframes every `k` steps and a note after every step listed in `notes`.
pub fn record(level: &Level, seed: u64, k: u32, picks: &[usize], notes: &[usize]) -> Recorded {
    let mut game = level.start(Some(seed)).unwrap();
    let header = Header::new(level, seed, k).unwrap();
    let mut w = LogWriter::new(Vec::new(), &header, &game.state).unwrap();
    let mut events = Vec::new();
    let mut commands = Vec::new();
    let mut states = vec![game.state.clone()];
    for (i, &p) in picks.iter().enumerate() {
        let cmd = slide(p);
        events.clear();
        if game.rules.apply(&mut game.state, &cmd, &mut events).is_ok() {
            w.record(&cmd, &events, &game.state).unwrap();
            commands.push(cmd);
            states.push(game.state.clone());
        }
        if notes.contains(&i) {
            w.note(&format!("note after pick {i}")).unwrap();
        }
    }
    Recorded { bytes: w.into_inner(), end: game, commands, states }
}

/// Opens bytes strictly.
pub fn open(bytes: &[u8]) -> Log {
    Log::from_bytes(bytes.to_vec(), TailPolicy::Strict).unwrap()
}

/// The fixtures folder at the workspace root.
pub fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Writes `log` again from its decoded contents: equal to the original bytes when the encoding
/// is stable (decode then encode is the identity).
pub fn reencode(log: &Log) -> Vec<u8> {
    use tessera_replay::{FrameKind, StepRecord};
    let mut w = LogWriter::bare(Vec::new(), log.header()).unwrap();
    let (mut step, mut note) = (0u64, 0usize);
    let mut rec = StepRecord::default();
    for f in &log.frames()[1..] {
        match f.kind {
            FrameKind::Header => unreachable!("a second header"),
            FrameKind::Step => {
                step += 1;
                log.read_step(step, &mut rec).unwrap();
                w.step(rec.command.as_ref().unwrap(), &rec.events, rec.hash).unwrap();
            }
            FrameKind::Keyframe => w.keyframe(&log.keyframe(step).unwrap().unwrap()).unwrap(),
            FrameKind::Note => {
                w.note(&log.notes()[note].text).unwrap();
                note += 1;
            }
        }
    }
    w.into_inner()
}
