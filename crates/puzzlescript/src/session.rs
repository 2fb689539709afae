//! [`Session`]: the reference test procedure (`runTest` in `testingFrameWork.js`): load a level,
//! run its start-of-level `again` turns, then feed inputs (`undo`, `restart`, `tick`, moves),
//! each followed by the `again` turns it queues; with the reference's undo stack, level changes
//! on a win and sound history.
//!
//! `runTest`'s procedure: again turns, the undo stack of snapshots, restarts, level changes

use super::level_string::level_to_string;
use super::turn::{Runtime, Scratch};
use super::{DEFAULT_SEED, Game, Input, LevelEntry, StartError, State, Work};
use serde::{Deserialize, Serialize};

/// One recorded input of the regression suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestInput {
    /// A move or action.
    Input(Input),
    /// Undo.
    Undo,
    /// Restart.
    Restart,
    /// A turn without input.
    Tick,
}

/// A play session with the reference's whole-game behaviour.
#[derive(Clone, Debug)]
pub struct Session<'g> {
    game: &'g Game,
    state: State,
    backups: Vec<Vec<u64>>,
    sounds: Vec<String>,
    againing: bool,
    /// again turns run by the last input (capped)
    pub again_cap_hit: bool,
    /// the turns' buffers and what rules found, kept from turn to turn
    scratch: Scratch,
    /// The work of the current input and its `again` turns (or of the start), within
    /// the step bound of the process ([`crate::step_work`]).
    work: Work,
    /// All the work done since the session began.
    total_work: u64,
    /// An input (or the start) passed the step bound: its turn stopped part-way, and the
    /// session takes no more input (issue 37.4).
    pub too_long: bool,
}

/// Again turns after one input before giving up (the reference would loop forever).
pub const MAX_AGAIN_TURNS: usize = 2_000;

impl<'g> Session<'g> {
    /// Loads `level` with `seed` and runs the start-of-level again turns. Sounds made while
    /// loading are not recorded (the reference clears its history after compiling).
    pub fn new(game: &'g Game, level: usize, seed: Option<&str>) -> Result<Session<'g>, StartError> {
        match game.levels.get(level) {
            None => return Err(StartError::NoSuchLevel(level)),
            Some(LevelEntry::Message { .. }) => return Err(StartError::Message(level)),
            Some(LevelEntry::Level { .. }) => game.check_playable(level)?,
        }
        let mut s = Session {
            game,
            state: game.blank_state(seed.unwrap_or(DEFAULT_SEED)),
            backups: Vec::new(),
            sounds: Vec::new(),
            againing: false,
            again_cap_hit: false,
            scratch: Scratch::default(),
            work: Work::new(crate::step_work()),
            total_work: 0,
            too_long: false,
        };
        {
            let mut rt = Runtime::with_scratch(
                game,
                &mut s.state,
                &mut s.backups,
                &mut s.sounds,
                None,
                &mut s.scratch,
            );
            rt.work_limit = s.work.limit;
            rt.load_level(level);
            s.againing = rt.againing;
            s.work.spent = rt.work();
        }
        s.sounds.clear();
        s.drain_again();
        Ok(s)
    }

    fn drain_again(&mut self) {
        let mut n = 0;
        while self.againing && !self.work.over() {
            if n >= MAX_AGAIN_TURNS {
                self.again_cap_hit = true;
                self.againing = false;
                break;
            }
            n += 1;
            self.againing = false;
            let mut rt = Runtime::with_scratch(
                self.game,
                &mut self.state,
                &mut self.backups,
                &mut self.sounds,
                None,
                &mut self.scratch,
            );
            rt.work_limit = self.work.limit.saturating_sub(self.work.spent);
            rt.process_input(None, false, false);
            self.againing = rt.againing;
            self.work.spent = self.work.spent.saturating_add(rt.work());
        }
        self.total_work = self.total_work.saturating_add(self.work.spent);
        if self.work.over() {
            self.too_long = true;
            self.againing = false;
        }
    }

    /// All the work done since the session began (see [`Work`]).
    pub fn total_work(&self) -> u64 {
        self.total_work
    }

    /// Processes one input, then every `again` turn it queues, within the step bound; nothing
    /// once an input passed it ([`Session::too_long`]).
    pub fn input(&mut self, input: TestInput) {
        if self.too_long {
            return;
        }
        self.work.spent = 0;
        {
            let mut rt = Runtime::with_scratch(
                self.game,
                &mut self.state,
                &mut self.backups,
                &mut self.sounds,
                None,
                &mut self.scratch,
            );
            rt.work_limit = self.work.limit;
            rt.againing = self.againing;
            match input {
                TestInput::Undo => rt.do_undo(false, true),
                TestInput::Restart => rt.do_restart(false),
                TestInput::Tick => {
                    rt.process_input(None, false, false);
                }
                TestInput::Input(i) => {
                    rt.process_input(Some(i.mask()), false, false);
                }
            }
            self.againing = rt.againing;
            self.work.spent = rt.work();
        }
        self.drain_again();
    }

    /// The board as the suite records it (`convertLevelToString`).
    pub fn level_string(&self) -> String {
        level_to_string(self.game, &self.state)
    }

    /// Sounds recorded so far (`soundHistory`).
    pub fn sounds(&self) -> &[String] {
        &self.sounds
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Undo snapshots held.
    pub fn undo_depth(&self) -> usize {
        self.backups.len()
    }
}
