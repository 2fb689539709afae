//! For this crate's tests: a level as the tessera rule set plays it (the rule set itself lives
//! in tessera-core, which depends on this crate), with the rule set's names, so the solver's
//! and the scenery's tests read as the rule set's callers do.

use crate::solver::{Puzzle, input, step};
use crate::{Command, Game, MAX_TURNS, State};

/// A level as the tessera rule set plays it, for these tests: the engine's state and
/// whether it is won (the rule set itself lives in tessera-core, which depends on this
/// crate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub(crate) state: State,
    pub(crate) won: bool,
}

impl Played {
    pub(crate) fn engine(&self) -> &State {
        &self.state
    }

    pub(crate) fn is_won(&self) -> bool {
        self.won
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Won,
    Ongoing,
}

/// The rules of one level: the compiled game.
pub(crate) struct Rules {
    pub(crate) game: Game,
}

impl Rules {
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    pub(crate) fn puzzle<'a>(&'a self, s: &'a Played) -> Puzzle<'a> {
        Puzzle { game: &self.game, start: &s.state, won: s.won, work_limit: crate::MAX_STEP_WORK }
    }

    /// One step as the rule set plays it: refused when won, for `action` in a `noaction`
    /// game, past the work bound, and when it changes nothing.
    pub(crate) fn apply(&self, s: &mut Played, c: &Command, _events: &mut Vec<()>) -> Result<(), String> {
        if s.won {
            return Err("won".into());
        }
        if *c == Command::Action && self.game.prelude().noaction {
            return Err("noaction".into());
        }
        assert_ne!(*c, Command::Restart, "these tests do not restart");
        let before = s.state.clone();
        let Some(stepped) =
            step(&self.game, &mut crate::Workspace::default(), &mut s.state, input(*c), crate::MAX_STEP_WORK)
        else {
            s.state = before;
            return Err("step_too_long".into());
        };
        if s.state == before && !stepped.won {
            return Err("no_change".into());
        }
        s.won = stepped.won;
        Ok(())
    }

    /// The cells `(x, y)` holding the object `name` (any case), in storage order.
    pub(crate) fn cells_of(&self, s: &Played, name: &str) -> Vec<(usize, usize)> {
        let object =
            self.game.objects().iter().position(|o| o.name.eq_ignore_ascii_case(name)).expect("an object");
        let h = s.state.height;
        (0..s.state.width * h)
            .filter(|&i| s.state.objects_at(i).any(|o| o == object))
            .map(|i| (i / h, i % h))
            .collect()
    }

    pub(crate) fn status(&self, s: &Played) -> Status {
        if s.won { Status::Won } else { Status::Ongoing }
    }
}

/// Playable level `n` (from 0) of `source`, started as the rule set starts it with `seed`.
pub(crate) fn start_of(source: &str, n: usize, seed: u64) -> (Rules, Played) {
    let game = crate::compile(source).expect("the game compiles");
    let entry = game
        .levels()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, crate::LevelEntry::Level { .. }))
        .nth(n)
        .map(|(i, _)| i)
        .expect("the level exists");
    let mut work = crate::Work::new(crate::MAX_STEP_WORK);
    let state = game
        .start_settled_within(entry, Some(&seed.to_string()), MAX_TURNS, &mut work)
        .expect("the level starts");
    assert!(!work.over(), "the level's start is not too long");
    (Rules { game }, Played { state, won: false })
}
