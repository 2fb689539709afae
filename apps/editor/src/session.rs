//! [`Session`]: the game being played — a level, a seed, its [`History`] (undo, redo, seek,
//! branches) and the [`Mirror`] the board is drawn from, kept in step with every event.

use crate::anim::{Clock, Speed};
use std::path::Path;
use tessera_core::{AnyCommand, AnyState, Level, LevelError, Rejected};
use tessera_ecs::Mirror;
use tessera_replay::{History, NodeId, SeekError};

/// A game in progress, with everything needed to draw, undo and save it.
pub struct Session {
    level: Level,
    seed: u64,
    history: History,
    mirror: Mirror,
    clock: Clock,
}

impl Session {
    /// A new game of `level` with `seed`.
    pub fn new(level: Level, seed: u64) -> Result<Session, LevelError> {
        let game = level.start(Some(seed))?;
        Ok(Session::from_history(level, seed, History::new(game)))
    }

    /// A session over an existing history (a log opened for play, "play from here").
    pub fn from_history(level: Level, seed: u64, history: History) -> Session {
        let mirror = Mirror::from_state(history.state());
        Session { level, seed, history, mirror, clock: Clock::done() }
    }

    /// The level the game started from.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The seed the game started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The line of play, with its branches.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The current state.
    pub fn state(&self) -> &AnyState {
        self.history.state()
    }

    /// The entities the board draws.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// The clock of the step being animated.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Runs `cmd` and animates its events from `now`.
    /// Answers the texts the step shows over the board (its rule set's
    /// [`crate::games::EditorGame::message`]s), in order.
    pub fn execute(&mut self, cmd: &AnyCommand, now: f64, speed: Speed) -> Result<Vec<String>, Rejected> {
        let game = crate::games::of(self.history.rules().rule_set());
        let events = self.history.execute(cmd)?;
        let said = events.iter().filter_map(|e| game.and_then(|g| g.message(e))).collect();
        self.mirror.begin_step();
        for e in events {
            self.mirror.apply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        Ok(said)
    }

    /// Undoes the last step (animated backwards); `false` at the start.
    pub fn undo(&mut self, now: f64, speed: Speed) -> bool {
        let Some(events) = self.history.undo() else { return false };
        self.mirror.begin_step();
        for e in events.iter().rev() {
            self.mirror.unapply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        true
    }

    /// Redoes the next step of the current line; `false` at its end.
    pub fn redo(&mut self, now: f64, speed: Speed) -> bool {
        let Some(events) = self.history.redo() else { return false };
        self.mirror.begin_step();
        for e in events {
            self.mirror.apply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        true
    }

    /// Jumps to `step` of the current line (no animation).
    pub fn seek(&mut self, step: u64) -> Result<(), SeekError> {
        self.history.seek(step)?;
        self.resync();
        Ok(())
    }

    /// Switches to another branch (its tip), keeping every branch.
    pub fn switch_to(&mut self, node: NodeId) -> Result<(), SeekError> {
        self.history.switch_to(node)?;
        self.resync();
        Ok(())
    }

    /// Back to the start of the game, keeping the line of play (redo walks it again).
    pub fn restart(&mut self) {
        // Seeking to step 0 of the current line cannot fail.
        let _ = self.seek(0);
    }

    /// Saves the line of play from the start to here as a log, atomically.
    pub fn save_log(&self, path: &Path) -> Result<(), String> {
        let bytes = self
            .history
            .write_log(Vec::new(), &self.level, self.seed)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        tessera_replay::atomic_write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The log of the line of play, in memory (for the debugger).
    pub fn log_bytes(&self) -> Result<Vec<u8>, String> {
        self.history.write_log(Vec::new(), &self.level, self.seed).map_err(|e| e.to_string())
    }

    fn resync(&mut self) {
        self.mirror = Mirror::from_state(self.history.state());
        self.clock = Clock::done();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Rules;

    #[test]
    fn the_mirror_follows_execute_undo_redo_and_seek() {
        let mut s = Session::new(Level::classic(), 3).expect("classic starts");
        for _ in 0..6 {
            let cmd = s.history().rules().legal_commands(s.state())[0].clone();
            s.execute(&cmd, 0.0, Speed::Instant).expect("legal");
            assert!(*s.mirror() == Mirror::from_state(s.state()));
        }
        assert!(s.undo(0.0, Speed::Instant));
        assert!(*s.mirror() == Mirror::from_state(s.state()));
        assert!(s.redo(0.0, Speed::Instant));
        assert!(*s.mirror() == Mirror::from_state(s.state()));
        s.seek(2).expect("step 2 exists");
        assert_eq!(s.history().step(), 2);
        assert!(*s.mirror() == Mirror::from_state(s.state()));
    }
}
