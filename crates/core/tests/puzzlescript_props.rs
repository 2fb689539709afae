//! The PuzzleScript parser and compiler take any text without a panic or a hang, and whatever
//! compiles plays with exact undo: games made by mutating the fixture game (lines dropped,
//! repeated or swapped, characters changed, PuzzleScript's own words inserted) and texts of
//! random tokens.

use proptest::prelude::*;
use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptLevel, engine};
use tessera_core::{AnyCommand, Level, Rules};

/// The fixture game.
const GAME: &str = include_str!("../../../fixtures/games/warehouse.txt");

/// Words and symbols of the language, to make mutations that reach deep into the compiler.
const WORDS: &[&str] = &[
    "[",
    "]",
    "|",
    "->",
    "...",
    ">",
    "<",
    "^",
    "v",
    "moving",
    "stationary",
    "action",
    "no",
    "random",
    "randomdir",
    "late",
    "rigid",
    "+",
    "startloop",
    "endloop",
    "again",
    "cancel",
    "checkpoint",
    "restart",
    "win",
    "message",
    "sfx0",
    "and",
    "or",
    "=",
    "all",
    "some",
    "no",
    "on",
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
    "orthogonal",
    "player",
    "crate",
    "wall",
    "target",
    "background",
    "RULES",
    "LEGEND",
    "LEVELS",
    "OBJECTS",
    "COLLISIONLAYERS",
    "WINCONDITIONS",
    "SOUNDS",
    "=======",
    "(",
    ")",
    "\n",
    "\n\n",
    "#",
    ".",
    "P",
    "*",
    "@",
    "0",
    "1",
    "00000",
    "run_rules_on_level_start",
    "require_player_movement",
    "again_interval 0.1",
];

/// One edit of a game's lines.
#[derive(Clone, Debug)]
enum Edit {
    Drop(usize),
    Repeat(usize),
    Swap(usize, usize),
    Insert(usize, Vec<usize>),
    Char(usize, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Repeat),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), prop::collection::vec(0..WORDS.len(), 1..6)).prop_map(|(a, w)| Edit::Insert(a, w)),
        (any::<usize>(), any::<char>()).prop_map(|(a, c)| Edit::Char(a, c)),
    ]
}

/// The fixture game with `edits` applied.
fn mutated(edits: &[Edit]) -> String {
    let mut lines: Vec<String> = GAME.lines().map(String::from).collect();
    for e in edits {
        let n = lines.len().max(1);
        match e {
            Edit::Drop(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Edit::Repeat(i) if !lines.is_empty() => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::Swap(a, b) if !lines.is_empty() => lines.swap(a % n, b % n),
            Edit::Insert(i, words) => {
                let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
                lines.insert(i % (lines.len() + 1), text.join(" "));
            }
            Edit::Char(i, c) if !lines.is_empty() => {
                let line = &mut lines[i % n];
                let at =
                    line.char_indices().nth(i % (line.chars().count() + 1)).map_or(line.len(), |(k, _)| k);
                line.insert(at, *c);
            }
            _ => {}
        }
    }
    lines.join("\n")
}

/// Plays `commands` on every level of `source` that starts (at most 3), undoing each step.
fn play(source: &str, commands: &[usize]) {
    for level in 0..3 {
        let l =
            Level::PuzzleScript(PuzzleScriptLevel { name: None, seed: None, source: source.into(), level });
        let Ok(mut game) = l.start(Some(1)) else { continue };
        let mut events = Vec::new();
        for &c in commands {
            let cmd = AnyCommand::PuzzleScript(PuzzleScriptCommand::ALL[c % 7]);
            let before = game.state.clone();
            events.clear();
            if game.rules.apply(&mut game.state, &cmd, &mut events).is_ok() {
                let after = game.state.clone();
                game.rules.undo(&mut game.state, &events);
                assert_eq!(game.state, before, "undo of {cmd}");
                game.rules.redo(&mut game.state, &events).expect("redo of the rules' own events");
                assert_eq!(game.state, after, "redo of {cmd}");
            } else {
                assert_eq!(game.state, before, "a refused {cmd} changed the state");
            }
        }
    }
}

/// Plays turns on `game`'s `level` as the solver plays them, in one workspace, each from a
/// state picked among those reached (`picks`: which state, which input, a tick or `again` turn
/// among them), so that what the workspace keeps from turn to turn (the rules a board's
/// objects and movements rule out, the last `again` check) is carried across boards that
/// differ both ways; and plays each again alone, with every rule asked as it is tried (a trace
/// listing the rules tried). Both must end in the same state, flags and work. `None` when the
/// level does not start.
pub fn quiet_turns_match_asking_every_rule(
    game: &engine::Game,
    level: usize,
    picks: &[(usize, usize)],
) -> Option<usize> {
    const INPUTS: [Option<engine::Input>; 6] = [
        Some(engine::Input::Up),
        Some(engine::Input::Left),
        Some(engine::Input::Down),
        Some(engine::Input::Right),
        Some(engine::Input::Action),
        None,
    ];
    let mut reached = vec![game.start(level, None).ok()?];
    let mut ws = engine::Workspace::default();
    for (k, &(from, input)) in picks.iter().enumerate() {
        // (one pick in two goes on from the last state reached, as an `again` turn would)
        let start = if from % 2 == 0 {
            reached[reached.len() - 1].clone()
        } else {
            reached[(from / 2) % reached.len()].clone()
        };
        let input = INPUTS[input % 6];
        let (mut quiet, mut asked) = (start.clone(), start);
        let mut quiet_work = engine::Work::new(1 << 22);
        let mut asked_work = engine::Work::new(1 << 22);
        let q = game.quiet_turn(&mut ws, &mut quiet, input, &mut quiet_work);
        let mut trace = engine::Trace { tried: Some(Vec::new()), ..engine::Trace::default() };
        let a = game.turn_within(&mut asked, input, Some(&mut trace), &mut asked_work);
        assert_eq!(quiet_work, asked_work, "turn {k}: the work");
        if quiet_work.over() {
            continue;
        }
        assert_eq!(
            (q.changed, q.again, q.won, q.cancelled),
            (a.changed, a.again, a.won, a.cancelled),
            "turn {k}"
        );
        assert!(quiet == asked, "turn {k}: the states differ");
        reached.push(quiet);
    }
    Some(reached.len())
}

/// A game whose rules expand into many (properties, directions), with a loop of rules, rules
/// needing movements, objects made and unmade, late rules, and drops that fall a cell an
/// `again` turn.
const EXPANDING: &str = "title expanding
========
OBJECTS
========
Background
black
Wall
grey
Player
blue
Red
red
Green
green
Mark
white
Trail
yellow
Drop
orange
=======
LEGEND
=======
. = Background
# = Wall
P = Player
R = Red
G = Green
D = Drop
Block = Red or Green
Thing = Player or Block
=======
SOUNDS
=======
================
COLLISIONLAYERS
================
Background
Trail
Mark
Player, Wall, Red, Green, Drop
======
RULES
======
[ > Thing | Block ] -> [ > Thing | > Block ]
+ [ moving Block | Block ] -> [ moving Block | moving Block ]
[ > Player ] -> [ > Player Trail ]
[ Mark ] -> [ ]
up [ action Player | no Wall no Block no Drop ] -> [ Player | Drop ]
down [ Drop | no Wall no Block no Player no Drop ] -> [ | Drop ] again
late [ Red | Green ] -> [ Red Mark | Green ]
late [ Trail no Player ] [ Player ] -> [ ] [ Player ]
late [ Mark Red | Mark Red ] -> [ Green | Green ]
==============
WINCONDITIONS
==============
all Red on Mark
=======
LEVELS
=======
#########
#.R.GD..#
#..RG.R.#
#.P.#.G.#
#..GR...#
#########
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn turns_that_pass_over_rules_by_the_board_s_objects_do_what_asking_every_rule_does(
        mutate in any::<bool>(),
        edits in prop::collection::vec(edit(), 0..6),
        picks in prop::collection::vec((any::<usize>(), 0usize..6), 1..40),
    ) {
        let source = if mutate { mutated(&edits) } else { EXPANDING.to_string() };
        if let Ok(game) = engine::compile(&source) {
            quiet_turns_match_asking_every_rule(&game, 0, &picks);
        }
    }

    #[test]
    fn mutated_games_compile_or_name_their_errors_and_play_exactly(
        edits in prop::collection::vec(edit(), 1..8),
        commands in prop::collection::vec(0usize..7, 0..24),
    ) {
        let source = mutated(&edits);
        match engine::compile(&source) {
            Ok(_) => play(&source, &commands),
            Err(diagnostics) => {
                prop_assert!(diagnostics.iter().any(|d| d.is_error), "refused without an error");
                for d in diagnostics.iter().filter(|d| d.is_error) {
                    prop_assert!(d.line <= source.lines().count() + 1, "error line {} past the end: {}", d.line, d.message);
                }
            }
        }
    }

    #[test]
    fn random_token_soup_never_panics(words in prop::collection::vec(0..WORDS.len(), 0..200)) {
        let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        let _ = engine::compile(&text.join(" "));
    }

    #[test]
    fn any_text_never_panics(text in ".{0,400}") {
        let _ = engine::compile(&text);
    }
}

/// Found by the fuzz target: a mangled game whose aggregate expanded through itself grew one
/// rule cell without end (past 2 GB). It now compiles to errors naming the limit.
#[test]
fn an_aggregate_defined_through_itself_does_not_grow_without_end() {
    let bytes = include_bytes!("../../../fixtures/bad/puzzlescript_aggregate_loop.txt");
    let cut = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let source = String::from_utf8_lossy(&bytes[..cut]);
    let _ = engine::compile(&source);
    play(&source, &[0, 1, 2, 3, 4]);
}
