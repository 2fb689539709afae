//! Level generators: a rule set's way of making new levels, each proved by its own solver,
//! registered as data the way importers are (`Plugin::GENERATORS`), listed by [`generators`].
//!
//! A [`Generator`] is a name, a help line and a function from a [`GenerateRequest`] and a
//! seeded generator to one candidate level with its proof ([`Generated`]): the solution as
//! command words (`tessera play` reads them), its figures, and the states the proof expanded.
//! The function does no I/O and reads no clock: the same request and generator state give the
//! same level on every machine. `tessera generate --rules NAME` (crate `tessera-generate`)
//! calls it once per candidate, replays each solution by the rules to a win, drops repeats and
//! orders the rest; the conformance kit (`tessera-conformance`) checks every registered
//! generator's levels start, win by their solution and repeat for a seed.

use crate::{GameRng, Level};

/// What a generator is asked for.
#[derive(Clone, Copy, Default)]
pub struct GenerateRequest<'a> {
    /// The board's width, walls included.
    pub width: usize,
    /// The board's height, walls included.
    pub height: usize,
    /// How many of the rule set's main objects (Sokoban: boxes).
    pub objects: usize,
    /// The most states one candidate's searches (making it and proving it) may expand.
    pub max_states: u64,
    /// The fewest steps a level's solution may have (Sokoban: pushes; match-3: the move limit).
    pub min_steps: usize,
    /// The most steps (match-3: the move limit); `None`: the generator's own bound.
    pub max_steps: Option<usize>,
    /// A given level: the stage a [`Takes::Stage`] generator tunes, or the room a
    /// [`Takes::Room`] generator fills (Sokoban: its walls kept, the boxes, goals and player
    /// placed anew; `objects` 0 takes the level's own count of boxes).
    pub stage: Option<&'a Level>,
    /// Cells `(x, y)` the generator leaves as they are (the editor's Keep brush). Sokoban: a
    /// locked cell keeps its ground (wall, floor, or a goal the given room has there) and no
    /// box or player starts on it.
    pub locked: &'a [(usize, usize)],
    /// The share of the playtest bot's games a tuned level must be won in, in thousandths
    /// (inclusive): `(400, 600)` is 40 % to 60 %.
    pub win_rate: Option<(u32, u32)>,
    /// The playtest games each measure plays.
    pub games: u32,
    /// The playtest bot (the caller's: bots live outside the rules).
    pub playtest: Option<&'a Playtest>,
}

impl std::fmt::Debug for GenerateRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenerateRequest")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("objects", &self.objects)
            .field("max_states", &self.max_states)
            .field("min_steps", &self.min_steps)
            .field("max_steps", &self.max_steps)
            .field("stage", &self.stage)
            .field("locked", &self.locked)
            .field("win_rate", &self.win_rate)
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

/// A playtest bot: plays `level` from its start with the game seed `seed` (the bot seeded by
/// it too) until the game ends or `max_moves` commands, deterministically.
pub type Playtest = dyn Fn(&Level, u64, u32) -> Option<Playtested> + Sync;

/// One playtest game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Playtested {
    /// Whether the level was won.
    pub won: bool,
    /// The score after each command (the first after command 1).
    pub scores: Vec<u64>,
    /// The commands, as command words.
    pub commands: Vec<String>,
}

/// What a generator starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A room of `width` by `height` with `objects` of the main kind, or a given room to fill
    /// ([`GenerateRequest::stage`]) (Sokoban).
    Room,
    /// A given level ([`GenerateRequest::stage`]) whose settings are tuned by playtests to a
    /// win rate ([`GenerateRequest::win_rate`], [`GenerateRequest::playtest`]) (match-3).
    Stage,
}

/// One level a generator made, with its proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The level.
    pub level: Level,
    /// Its rows, as the rule set writes its boards (Sokoban: XSB).
    pub rows: Vec<String>,
    /// A solution, as command words (`walk 3 4`, `up`, …), proved optimal by the rule set's
    /// solver in [`Generated::figure`].
    pub solution: Vec<String>,
    /// The figure the solution is optimal in (`pushes`).
    pub figure: &'static str,
    /// Its value: the fewest possible (Sokoban: pushes).
    pub optimal: u64,
    /// The solution's steps as players count them (Sokoban: moves, walks cell by cell).
    pub steps: u64,
    /// States expanded making and proving it (what the candidate cost; a tuned level: the
    /// commands its playtests played).
    pub states: u64,
    /// A tuned level: the playtest games of the check at its settings.
    pub measured: Option<Measured>,
}

/// The check of a tuned level: `games` playtest games, game `i` (from 0) with the seed
/// `seed + i` (wrapping), as `tessera difficulty LEVEL --bot BOT --games G --seed S` plays them;
/// `wins` of them won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// Games won.
    pub wins: u32,
    /// Games played.
    pub games: u32,
    /// Game `i`'s seed is `seed + i`.
    pub seed: u64,
}

/// Why a candidate gave no level: its cost in states is still counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoLevel {
    /// States expanded before giving up.
    pub states: u64,
}

/// A rule set's level generator (see the module docs).
#[derive(Clone, Copy)]
pub struct Generator {
    /// Its name: the rule set's (`sokoban`), for `tessera generate --rules NAME`.
    pub name: &'static str,
    /// One line for help texts.
    pub help: &'static str,
    /// What it starts from.
    pub takes: Takes,
    /// The figure of its levels ([`Generated::figure`]).
    pub figure: &'static str,
    /// Makes and proves one candidate.
    pub generate: fn(&GenerateRequest<'_>, &mut GameRng) -> Result<Generated, NoLevel>,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator").field("name", &self.name).finish()
    }
}

/// Every rule set's generators, in registry order.
pub fn generators() -> impl Iterator<Item = &'static Generator> {
    crate::GENERATORS.iter().copied().flatten()
}

/// The generator called `name`.
pub fn generator(name: &str) -> Option<&'static Generator> {
    generators().find(|g| g.name == name)
}
