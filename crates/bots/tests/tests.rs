//! Integration tests of tessera-bots: determinism, legality, the bots' blindness to the game's
//! generator, the 2048 bitboard against the engine, NMCS, the tactics bot and sweeps.

mod blind;
mod collapse;
mod determinism;
mod estimate;
mod legal;
mod slide;
mod sweep;
mod tactics;

use std::path::Path;
use tessera_core::{Game, Level};

/// A fixture level by file name.
pub fn fixture(name: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/levels").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Level::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fixture level started with `seed`.
pub fn start(name: &str, seed: u64) -> Game {
    fixture(name).start(Some(seed)).expect("fixture starts")
}

/// One fixture per rule set, with the bots that play it.
pub const FIXTURES: &[(&str, &[&str])] = &[
    ("classic.json", &["random", "greedy", "mcts", "expectimax"]),
    ("collapse_seed.json", &["random", "greedy", "mcts", "nmcs", "nrpa"]),
    ("match3_locks.json", &["random", "greedy", "mcts", "match3-greedy", "match3-mcts"]),
    ("skirmish.json", &["random", "greedy", "mcts", "tactics"]),
];

/// A bot spec by name, with small budgets so that tests stay fast.
pub fn spec(name: &str) -> tessera_bots::BotSpec {
    let kind = tessera_bots::BotKind::from_name(name).expect("a bot name");
    let mut spec = tessera_bots::BotSpec::new(kind);
    if kind.takes_budget() {
        spec.budget = Some(tessera_bots::Budget::Playouts(24));
    }
    if kind == tessera_bots::games::slide::EXPECTIMAX || kind == tessera_bots::games::collapse::NRPA {
        spec.level = Some(1);
    }
    spec
}
