//! The rule set around the engine: levels, steps and their events, undo and checked redo, the
//! seed, the prelude's refusals, the source's level rows. (The engine itself is proven on the
//! reference's suite in `tests/puzzlescript.rs`.)

use super::*;
use crate::{AnyCommand, AnyEvent, Level, Plugin, Rules, Status};

/// The fixture game: three levels between two messages; pushing, a random rule, late rules,
/// again, sounds.
const GAME: &str = include_str!("../../../../fixtures/games/warehouse.txt");

fn level(n: usize) -> PuzzleScriptLevel {
    PuzzleScriptLevel { name: None, seed: None, source: GAME.into(), level: n }
}

fn start(n: usize, seed: u64) -> (PuzzleScriptRules, PuzzleScriptState) {
    level(n).start(seed).expect("the fixture's levels start")
}

fn step(
    rules: &PuzzleScriptRules,
    state: &mut PuzzleScriptState,
    cmd: PuzzleScriptCommand,
) -> Vec<PuzzleScriptEvent> {
    let mut events = Vec::new();
    rules.apply(state, &cmd, &mut events).unwrap_or_else(|e| panic!("{cmd}: {e}"));
    events
}

#[test]
fn pushing_the_crate_home_wins_and_then_every_command_is_refused() {
    let (rules, mut s) = start(0, 0);
    assert_eq!(s.rows()[2], "#.P*.O#");
    step(&rules, &mut s, PuzzleScriptCommand::Right);
    let events = step(&rules, &mut s, PuzzleScriptCommand::Right);
    assert_eq!(events.last(), Some(&PuzzleScriptEvent::Won));
    assert!(events.iter().any(|e| matches!(e, PuzzleScriptEvent::Moved { .. })));
    assert!(events.iter().any(|e| matches!(e, PuzzleScriptEvent::Sound { .. })), "the crate's move sound");
    assert_eq!(s.rows()[2], "#...P@#");
    assert_eq!(rules.status(&s), Status::Won);
    assert!(rules.legal_commands(&s).is_empty());
    let mut events = Vec::new();
    assert_eq!(rules.apply(&mut s, &PuzzleScriptCommand::Left, &mut events).map_err(|e| e.code), Err("won"));
}

#[test]
fn a_step_runs_the_again_turns_it_queues_and_undo_and_redo_are_exact() {
    let (rules, mut s) = start(1, 5);
    let before = s.clone();
    let events = step(&rules, &mut s, PuzzleScriptCommand::Action);
    let turns: Vec<u32> = events
        .iter()
        .filter_map(|e| if let PuzzleScriptEvent::Turn { index } = e { Some(*index) } else { None })
        .collect();
    assert_eq!(turns, [0, 1], "the spark's fade queues one again turn");
    assert!(events.iter().any(|e| matches!(e, PuzzleScriptEvent::Aux { .. })), "the generator moved");
    let after = s.clone();
    rules.undo(&mut s, &events);
    assert_eq!(s, before);
    assert_eq!(s.hash(), s.recompute_hash());
    rules.redo(&mut s, &events).expect("its own events redo");
    assert_eq!(s, after);
    assert_eq!(s.hash(), s.recompute_hash());
}

#[test]
fn redo_refuses_events_that_do_not_fit_and_changes_nothing() {
    let (rules, mut s) = start(0, 0);
    let events = step(&rules, &mut s, PuzzleScriptCommand::Right);
    rules.undo(&mut s, &events);
    let before = s.clone();
    // The same step again but the first cell said to hold something else.
    let mut forged = events.clone();
    let first =
        forged.iter().position(|e| matches!(e, PuzzleScriptEvent::Cell { .. })).expect("a cell changed");
    if let PuzzleScriptEvent::Cell { before: b, .. } = &mut forged[first] {
        b[0] ^= 1 << 5;
    }
    let err = rules.redo(&mut s, &forged).expect_err("a cell that does not hold what the event says");
    assert_eq!(err.event, first);
    assert_eq!(s, before);
    // A cell off the board.
    let off = vec![PuzzleScriptEvent::Cell { at: crate::Pos::new(40, 0), before: vec![1], after: vec![0] }];
    assert!(rules.redo(&mut s, &off).is_err());
    assert_eq!(s, before);
}

#[test]
fn the_seed_decides_where_random_rules_act_and_only_the_seed() {
    let spark_cells = |seed: u64| {
        let (rules, mut s) = start(1, seed);
        let events = step(&rules, &mut s, PuzzleScriptCommand::Action);
        events
            .iter()
            .filter_map(|e| if let PuzzleScriptEvent::Cell { at, .. } = e { Some(*at) } else { None })
            .collect::<Vec<_>>()
    };
    let all: Vec<_> = (0..12).map(spark_cells).collect();
    assert_eq!(all, (0..12).map(spark_cells).collect::<Vec<_>>(), "the same seed, the same cells");
    let mut distinct = all.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 3, "seeds light sparks in different cells: {all:?}");
}

#[test]
fn the_prelude_can_refuse_action_and_restart() {
    let source =
        GAME.replacen("homepage example.invalid", "homepage example.invalid\nnoaction\nnorestart", 1);
    let l = PuzzleScriptLevel { source: source.into(), ..level(0) };
    let (rules, mut s) = l.start(0).expect("starts");
    let mut events = Vec::new();
    for (cmd, code) in
        [(PuzzleScriptCommand::Action, "noaction"), (PuzzleScriptCommand::Restart, "norestart")]
    {
        assert_eq!(rules.apply(&mut s, &cmd, &mut events).map_err(|e| e.code), Err(code));
        assert!(events.is_empty());
    }
    assert!(!rules.legal_commands(&s).contains(&PuzzleScriptCommand::Action));
}

#[test]
fn a_step_that_changes_nothing_is_refused() {
    let (rules, mut s) = start(0, 0);
    let before = s.clone();
    let mut events = Vec::new();
    // Level 1's player has floor above; the wall is two cells up: the second `up` changes nothing.
    step(&rules, &mut s, PuzzleScriptCommand::Up);
    assert_eq!(
        rules.apply(&mut s, &PuzzleScriptCommand::Up, &mut events).map_err(|e| e.code),
        Err("no_change")
    );
    assert!(events.is_empty());
    assert_ne!(s, before);
}

#[test]
fn restart_goes_back_to_the_start_as_one_undoable_step() {
    let (rules, mut s) = start(2, 0);
    let start_state = s.clone();
    step(&rules, &mut s, PuzzleScriptCommand::Down);
    let moved = s.clone();
    let events = step(&rules, &mut s, PuzzleScriptCommand::Restart);
    assert_eq!(s.rows(), start_state.rows());
    rules.undo(&mut s, &events);
    assert_eq!(s, moved);
}

#[test]
fn levels_count_playable_levels_only_and_bad_games_name_their_line() {
    let err = level(3).start(0).expect_err("three playable levels");
    assert!(err.to_string().contains("level 3 does not exist: the game has 3 playable levels"), "{err}");
    let broken = GAME.replacen("P = Player", "P = Playr", 1);
    let err = PuzzleScriptLevel { source: broken.into(), ..level(0) }.start(0).expect_err("an unknown name");
    assert!(err.to_string().contains("line "), "{err}");
}

#[test]
fn level_rows_are_read_and_written_back_in_place() {
    let rows = level_rows(GAME, 2).expect("level 3's rows");
    assert_eq!(rows, ["#####", "#Q*.#", "#.*.#", "#..O#", "#####"]);
    let painted: Vec<String> =
        ["#####", "#Q..#", "#.*.#", "#.*O#", "#...#", "#####"].map(String::from).to_vec();
    let source = with_level_rows(GAME, 2, &painted).expect("written back");
    assert_eq!(level_rows(&source, 2).expect("read again"), painted);
    // Every other line is kept: the source differs only in that level's block.
    let (a, b): (Vec<&str>, Vec<&str>) = (GAME.lines().collect(), source.lines().collect());
    assert_eq!(b.len(), a.len() + 1);
    let at = a.iter().position(|l| *l == "#Q*.#").expect("level 3") - 1;
    assert_eq!(a[..at], b[..at]);
    assert_eq!(a[at + 5..], b[at + 6..]);
    // The new level plays.
    let l = PuzzleScriptLevel { source: source.into(), ..level(2) };
    let (_, s) = l.start(0).expect("the painted level starts");
    assert_eq!(s.rows().len(), 6);
}

#[test]
fn the_legend_names_what_each_glyph_paints() {
    let p = palette(GAME).expect("compiles");
    let find = |c: char| p.glyphs.iter().find(|g| g.glyph == c).map(|g| g.objects.clone());
    assert_eq!(find('#'), Some(vec!["wall".to_string()]));
    assert_eq!(find('@'), Some(vec!["crate".to_string(), "target".to_string()]));
    assert_eq!(find('Q'), Some(vec!["player".to_string(), "target".to_string()]));
}

#[test]
fn keyframes_round_trip_through_the_start_state() {
    let (rules, mut s) = start(1, 3);
    let start_state = s.clone();
    step(&rules, &mut s, PuzzleScriptCommand::Action);
    step(&rules, &mut s, PuzzleScriptCommand::Left);
    let kf = PuzzleScript::keyframe(&s).into_owned();
    assert_eq!(PuzzleScript::from_keyframe(kf, Some(&start_state)), Ok(s));
}

#[test]
fn any_level_json_round_trips_and_commands_parse() {
    let l = Level::PuzzleScript(level(1));
    assert_eq!(Level::from_json(&l.to_json()).expect("reads back"), l);
    for c in PuzzleScriptCommand::ALL {
        assert_eq!(
            AnyCommand::parse(crate::RuleSet::PuzzleScript, &c.to_string()),
            Ok(AnyCommand::PuzzleScript(c))
        );
    }
    assert!(AnyCommand::parse(crate::RuleSet::PuzzleScript, "jump").is_err());
    let _: Option<AnyEvent> = None;
}

/// A level that opens with `again` turns: `run_rules_on_level_start` lights a fuse that burns
/// one cell per `again` turn until it blows a way through the wall.
const FUSE: &str = include_str!("../../../../fixtures/games/fuse.txt");
/// The reference engine's answers on the fuse game (`tools/puzzlescript/reference.js`): the
/// board as the level opens, and after the five pushes that win.
const FUSE_SUITE: &str = include_str!("../../../../fixtures/puzzlescript/fuse_suite.json");

/// Rules version 2 opens a level as the reference does: the `again` turns its start turn queues
/// run before the first command (the fuse has burnt down and the wall is open). Version 1, kept
/// for its logs, stopped after the first turn (the spark one cell along), so its first command
/// ran the rest; both versions win with the same five pushes.
#[test]
fn from_version_2_the_start_runs_the_again_turns_of_run_rules_on_level_start() {
    use engine::level_string::level_to_string;
    let cases = engine::suite::parse_testdata(FUSE_SUITE).expect("the fuse suite reads");
    for case in &cases {
        let result = engine::suite::run_case(case);
        assert!(result.passed, "{}: {:?}", case.name, result.first_difference);
    }
    let level = PuzzleScriptLevel { name: None, seed: None, source: FUSE.into(), level: 0 };
    let (rules, mut s) = level.start(0).expect("starts");
    assert_eq!(rules.version(), <PuzzleScript as Plugin>::VERSION);
    assert_eq!(level_to_string(rules.game(), s.engine()), cases[0].expected, "the reference's start");
    assert_eq!(s.rows()[0], "#########", "the fuse has burnt");
    assert_eq!(s.rows()[2], "#P*....O#", "the dynamite is gone");

    let (old, mut s1) = level.start_version(0, 1).expect("version 1 starts");
    assert_eq!(old.version(), 1);
    assert_eq!(s1.rows()[0], "##sff####", "version 1: one turn, the spark one cell along");
    assert_eq!(s1.rows()[2], "#P*.D..O#");
    // Version 1's first push runs the fuse's three remaining turns; today's, one turn.
    let turns = |events: &[PuzzleScriptEvent]| {
        events.iter().filter(|e| matches!(e, PuzzleScriptEvent::Turn { .. })).count()
    };
    assert_eq!(turns(&step(&old, &mut s1, PuzzleScriptCommand::Right)), 4);
    assert_eq!(turns(&step(&rules, &mut s, PuzzleScriptCommand::Right)), 1);
    assert_eq!(s1, s, "after it the two games are one");
    for _ in 0..4 {
        step(&rules, &mut s, PuzzleScriptCommand::Right);
    }
    assert!(s.is_won());
    // The reference's second case: up, down, then five pushes (inputs 0, 2, then 3).
    let (_, mut r) = level.start(0).unwrap();
    for cmd in ["up", "down", "right", "right", "right", "right", "right"] {
        step(&rules, &mut r, cmd.parse().unwrap());
    }
    assert_eq!(level_to_string(rules.game(), r.engine()), cases[1].expected);
}

/// The `again` check (a turn the reference tries and undoes, to see whether the queued `again`
/// would change anything) is not in today's `Rule` events; version 1 recorded its rules.
#[test]
fn from_version_2_the_again_check_leaves_no_rule_events() {
    // Level 2, action: a spark appears (line 103), turns into a fade with `again` (line 106);
    // the again turn removes the fade (line 105).
    let rules_of = |rules: &PuzzleScriptRules, s: &mut PuzzleScriptState| {
        let mut turns: Vec<Vec<u32>> = Vec::new();
        for e in step(rules, s, PuzzleScriptCommand::Action) {
            match e {
                PuzzleScriptEvent::Turn { .. } => turns.push(Vec::new()),
                PuzzleScriptEvent::Rule { line, .. } => turns.last_mut().unwrap().push(line),
                _ => {}
            }
        }
        turns
    };
    let (rules, mut s) = start(1, 3);
    assert_eq!(rules_of(&rules, &mut s), [vec![103, 106], vec![105]]);
    let (old, mut s1) = level(1).start_version(3, 1).unwrap();
    assert_eq!(rules_of(&old, &mut s1), [vec![103, 106, 105], vec![105]], "version 1 traced the check");
    assert_eq!(s, s1, "the same turns, the same state");
}

/// A game that does not compile names the line of each error; an error about the whole game
/// (no player, no layers) names none rather than "line 0", and importing it is an error about
/// the whole file.
#[test]
fn compile_errors_name_their_line_and_whole_game_errors_none() {
    let whole = super::IMPORTERS[0].import_all("title x\n", None).unwrap_err();
    assert_eq!(whole.line, None, "{whole}");
    let text = whole.to_string();
    assert!(text.contains("There must be a player") && !text.contains("line 0"), "{text}");
    let bad_rule = GAME.replacen(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player | Crate ] -> [ > Plyer | > Crate ]",
        1,
    );
    assert_ne!(bad_rule, GAME, "the fixture has the push rule");
    let e = super::IMPORTERS[0].import_all(&bad_rule, None).unwrap_err();
    let line = 1 + GAME.lines().position(|l| l.contains("[ > Player | Crate ]")).unwrap();
    assert_eq!(e.line, Some(line), "{e}");
    assert!(e.to_string().contains(&format!("line {line}:")), "{e}");
}

/// The fixture game with thirty sounds (every event, `sfx0`–`sfx10`, object sounds; pushing a
/// crate onto a target plays `sfx1`).
const CHORUS: &str = include_str!("../../../../fixtures/games/chorus.txt");

fn chorus(n: usize) -> (engine::Game, PuzzleScriptRules, PuzzleScriptState) {
    let game = engine::compile(CHORUS).expect("the chorus fixture compiles");
    let level = PuzzleScriptLevel { name: None, seed: None, source: CHORUS.into(), level: n };
    let (rules, state) = level.start(0).expect("the chorus fixture's levels start");
    (game, rules, state)
}

fn seed_of(game: &engine::Game, event: &str) -> String {
    game.sound_event(event).unwrap_or_else(|| panic!("the fixture declares {event}")).to_string()
}

#[test]
fn a_step_plays_its_recorded_sounds_then_its_sfx_then_endlevel_as_the_reference_does() {
    // issue 35: the sounds PuzzleScript plays for a turn, beyond its sound history.
    let (game, rules, mut s) = chorus(0);
    step(&rules, &mut s, PuzzleScriptCommand::Right);
    let played = rules.step_sounds(&s, &PuzzleScriptCommand::Right).expect("the push is accepted");
    let events = step(&rules, &mut s, PuzzleScriptCommand::Right);
    let recorded: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            PuzzleScriptEvent::Sound { seed } => Some(seed.clone()),
            _ => None,
        })
        .collect();
    assert!(!recorded.is_empty(), "the moves are recorded");
    let mut want = recorded;
    want.push(seed_of(&game, "sfx1"));
    want.push(seed_of(&game, "endlevel"));
    assert_eq!(played, vec![want], "one turn: moves, the rule's sfx1, the win's endlevel");
}

#[test]
fn restart_plays_the_restart_sound_and_a_refused_command_plays_nothing() {
    let (game, rules, mut s) = chorus(0);
    step(&rules, &mut s, PuzzleScriptCommand::Down);
    assert_eq!(
        rules.step_sounds(&s, &PuzzleScriptCommand::Restart),
        Ok(vec![vec![seed_of(&game, "restart")]])
    );
    let walled = chorus(0).2;
    let mut at_wall = walled.clone();
    step(&rules, &mut at_wall, PuzzleScriptCommand::Up);
    // Against the wall: the move fails, and plays the player's cantmove sound.
    let played = rules.step_sounds(&at_wall, &PuzzleScriptCommand::Up).expect("a cantmove sound is a change");
    assert_eq!(played, vec![vec![seed_of_object(&game, "player cantmove")]]);
}

fn seed_of_object(game: &engine::Game, name: &str) -> String {
    game.sound_declarations().iter().find(|d| d.name == name).map(|d| d.seed.clone()).expect("declared")
}

#[test]
fn a_game_lists_the_sounds_it_declares_in_source_order() {
    let game = engine::compile(CHORUS).expect("compiles");
    let d = game.sound_declarations();
    assert_eq!(d.len(), 30);
    assert_eq!(
        (d[0].name.as_str(), d[0].line),
        ("startlevel", CHORUS.lines().position(|l| l.starts_with("startlevel")).map_or(0, |i| i + 1))
    );
    assert_eq!(d[29].name, "crate action");
    assert!(d.iter().all(|x| !x.seed.is_empty() && x.seed.bytes().all(|b| b.is_ascii_digit())));
    assert_eq!(game.sound_event("sfx10"), Some(d[20].seed.as_str()));
}

/// The suite's "aggregates in win conditions 2": level 1 has no crate with its dot, so "all
/// dotted on target" holds before any step.
const WON_AT_START: &str =
    include_str!("../../../../fixtures/puzzlescript/aggregates_in_win_conditions_2.txt");

/// Issue 36, point 3: the reference checks the win conditions at the end of a turn only, so a
/// level that starts in a winning layout is won by its first step (any step, even one that moves
/// nothing), and the solver's answer is that one step, not "solved in 0 steps". Version 2 had it
/// won from the start (kept, for its logs).
#[test]
fn a_level_that_starts_in_a_winning_layout_is_won_by_its_first_step() {
    let level = PuzzleScriptLevel { name: None, seed: None, source: WON_AT_START.into(), level: 0 };
    let (rules, s) = level.start(0).expect("the level starts");
    assert!(rules.version() >= 3);
    assert!(rules.game().is_won(s.engine()), "the layout meets the win conditions");
    assert!(!s.is_won());
    assert_eq!(rules.status(&s), Status::Playing);
    assert!(!rules.commands(&s).is_empty(), "steps are accepted");
    // The player is on the top row: `up` moves nothing, and still wins (the reference's checkWin
    // runs after every turn).
    let mut up = s.clone();
    let events = step(&rules, &mut up, PuzzleScriptCommand::Up);
    assert!(up.is_won() && events.contains(&PuzzleScriptEvent::Won), "{events:?}");
    // The reference's own case: its first input (right) wins the level.
    let mut right = s.clone();
    step(&rules, &mut right, PuzzleScriptCommand::Right);
    assert!(right.is_won());
    // The solver's answer: one step, which wins.
    let report = solve(&rules, &s, SolveLimits::default(), &mut || false);
    let SolveOutcome::Solved(commands) = report.outcome else { panic!("{report:?}") };
    assert_eq!(commands.len(), 1, "{commands:?}");
    let mut played = s.clone();
    step(&rules, &mut played, commands[0]);
    assert!(played.is_won());
    // Version 2 had it won at once, every command refused.
    let (old, s2) = level.start_version(0, 2).expect("version 2 starts");
    assert!(s2.is_won());
    assert!(old.commands(&s2).is_empty());
}

/// Issue 34.9: an action that changes nothing is refused as an arrow that changes nothing is
/// (`no_change`, no events, no step), as the reference keeps no undo state for a turn that
/// modified nothing (`processInput`: `addUndoState` only when `level.objects` changed), the
/// action key or an arrow alike.
#[test]
fn an_action_that_changes_nothing_is_refused_like_an_arrow_into_a_wall() {
    let source = "title Still\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nred\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer, Wall\n\n======\nRULES\n======\n\n[ > Player | Wall ] -> [ Player | Wall ]\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\n####\n#P.#\n####\n";
    let l = PuzzleScriptLevel { name: None, seed: None, source: source.into(), level: 0 };
    let (rules, mut s) = l.start(0).expect("starts");
    let before = s.clone();
    let mut events = Vec::new();
    for cmd in [PuzzleScriptCommand::Left, PuzzleScriptCommand::Action] {
        assert_eq!(rules.apply(&mut s, &cmd, &mut events).map_err(|e| e.code), Err("no_change"), "{cmd}");
        assert!(events.is_empty(), "{cmd}");
        assert_eq!(s, before, "{cmd}");
    }
    assert!(!rules.legal_commands(&s).contains(&PuzzleScriptCommand::Action));
    assert!(rules.legal_commands(&s).contains(&PuzzleScriptCommand::Right));
}

/// The console's report of a step: every rule tried in order (a rule of four directions once
/// per direction), whether it matched, and each turn's sounds, the `sfx` ones the events leave
/// out included; the state is not changed and a refused command is refused.
#[test]
fn a_step_report_lists_every_rule_tried_and_every_sound_played() {
    let source = "title Report\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nred\n\nCrate\norange\n\nTarget\nblue\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\n======\nSOUNDS\n======\n\nsfx0 23659300\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nPlayer, Wall, Crate\n\n======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ] sfx0\n[ Crate | Target | Target ] -> [ Crate | Target | Target ]\n\n==============\nWINCONDITIONS\n==============\n\nAll Crate on Target\n\n=======\nLEVELS\n=======\n\n#######\n#P*..O#\n#######\n";
    let line_of =
        |text: &str| source.lines().position(|l| l.starts_with(text)).expect("the rule is there") as u32 + 1;
    let (push, never) = (line_of("[ > Player"), line_of("[ Crate | Target"));
    let l = PuzzleScriptLevel { name: None, seed: None, source: source.into(), level: 0 };
    let (rules, s) = l.start(0).expect("starts");
    let before = s.clone();
    let report = rules.step_report(&s, &PuzzleScriptCommand::Right, true).expect("a push");
    assert_eq!(s, before, "the report plays a copy");
    assert_eq!(report.tried.len(), 1, "one turn");
    let tried = &report.tried[0];
    assert!(tried.contains(&(push, true)), "the push matched: {tried:?}");
    assert!(tried.contains(&(never, false)), "the other rule was tried and missed: {tried:?}");
    assert!(!tried.contains(&(never, true)), "{tried:?}");
    assert!(
        tried.iter().position(|t| t.0 == push) < tried.iter().position(|t| t.0 == never),
        "in the rules' order"
    );
    assert_eq!(report.sounds, vec![vec!["23659300".to_string()]], "the sfx0 the push plays");
    let mut events = Vec::new();
    let mut after = s.clone();
    rules.apply(&mut after, &PuzzleScriptCommand::Right, &mut events).expect("a push");
    assert!(
        !events.iter().any(|e| matches!(e, PuzzleScriptEvent::Sound { .. })),
        "sfx is played, not recorded"
    );
    let quiet = rules.step_report(&s, &PuzzleScriptCommand::Right, false).expect("a push");
    assert_eq!((quiet.sounds, quiet.tried), (report.sounds, vec![Vec::new()]), "no rules without asking");
    assert_eq!(rules.step_report(&s, &PuzzleScriptCommand::Left, true).map_err(|e| e.code), Err("no_change"));
}

/// Issue 66.8: every level of a game starts from one compilation ([`super::GameLevels`]): the
/// rules of two levels share the compiled game, and each level starts as its level file does.
#[test]
fn the_levels_of_one_game_start_from_one_compilation() {
    let source: std::sync::Arc<str> = include_str!("../../../../fixtures/games/warehouse.txt").into();
    let levels = super::GameLevels::compile(source).unwrap();
    assert_eq!(levels.count(), 3);
    let (a, sa) = levels.start(0, 5).unwrap();
    let (b, _) = levels.start(2, 5).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a.game_arc(), &b.game_arc()), "one compiled game");
    for k in 0..3 {
        let (rules, state) = levels.start(k, 7).unwrap();
        let (want_rules, want_state) = levels.level(k).start(7).unwrap();
        assert_eq!(rules.entry(), want_rules.entry());
        assert_eq!(state, want_state, "level {k}");
    }
    assert_eq!(sa, levels.level(0).start(5).unwrap().1);
    assert!(levels.start(3, 0).is_err());
}

/// Issue 66.3: a run's work budget. Steps take their work from it (the same count each time);
/// a step past the work left is refused and changes nothing; once it is spent every step is
/// refused; without a budget nothing changes.
#[test]
fn a_run_budget_holds_every_step_and_is_deterministic() {
    let moves = [PuzzleScriptCommand::Down, PuzzleScriptCommand::Up, PuzzleScriptCommand::Left];
    let play = |budget: u64| {
        let (rules, mut s) = start(1, 3);
        let (results, left) = with_run_budget(budget, || {
            moves
                .iter()
                .map(|c| rules.apply(&mut s, c, &mut Vec::<PuzzleScriptEvent>::new()).map_err(|e| e.code))
                .collect::<Vec<_>>()
        });
        (results, left, s)
    };
    let (all, left, end) = play(1_000_000);
    assert!(all.iter().all(Result::is_ok), "{all:?}");
    let used = 1_000_000 - left;
    assert!(used > 0);
    assert_eq!(play(1_000_000).1, left, "the same count every time");
    // Without a budget, the same steps give the same state.
    let (rules, mut s) = start(1, 3);
    for c in &moves {
        step(&rules, &mut s, *c);
    }
    assert_eq!(s, end);
    assert_eq!(run_work_left(), None, "the budget ends with its run");
    // A budget that the first step passes: refused, nothing changed, and then spent.
    let (first, left, s) = play(1);
    assert_eq!(first, vec![Err("run_budget"); 3]);
    assert_eq!(left, 0);
    assert_eq!(s, start(1, 3).1);
    // A budget of all but the last step's work: the last is refused.
    let (rules, mut probe) = start(1, 3);
    let ((), before_last) = with_run_budget(u64::MAX, || {
        for c in &moves[..2] {
            rules.apply(&mut probe, c, &mut Vec::<PuzzleScriptEvent>::new()).unwrap();
        }
    });
    let two = u64::MAX - before_last;
    let (cut, _, _) = play(two + (used - two) / 2);
    assert_eq!(&cut[..2], &[Ok(()), Ok(())]);
    assert_eq!(cut[2], Err("run_budget"));
}

/// The boards after each rule (issue 63.16) are an opt-in of the engine's trace that changes
/// nothing: on any line of play (the fixture's random rule, late rules and again turns), the
/// step traced with them has the events and the state (and so the hash) of the step played
/// without, and one board per `Rule` event of each turn, in order, of the rule's line.
#[test]
fn the_boards_after_each_rule_change_no_event_and_no_hash() {
    use proptest::prelude::*;
    let cmds = [
        PuzzleScriptCommand::Up,
        PuzzleScriptCommand::Down,
        PuzzleScriptCommand::Left,
        PuzzleScriptCommand::Right,
        PuzzleScriptCommand::Action,
    ];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(48));
    let boards_seen = std::cell::Cell::new(0usize);
    runner
        .run(&(0..3usize, 0..50u64, proptest::collection::vec(0..5usize, 1..30)), |(n, seed, moves)| {
            let (rules, mut s) = start(n, seed);
            for k in moves {
                let cmd = cmds[k];
                let traced = rules.traced_step(&s, &cmd);
                let mut events = Vec::new();
                let mut plain = s.clone();
                let applied = rules.apply(&mut plain, &cmd, &mut events);
                match (traced, applied) {
                    (Ok((tev, after, boards)), Ok(())) => {
                        prop_assert_eq!(&tev, &events);
                        prop_assert_eq!(after.hash(), plain.hash());
                        prop_assert_eq!(&after, &plain);
                        // One board a Rule event, turn by turn, of its rule's line.
                        let mut per_turn: Vec<Vec<u32>> = Vec::new();
                        for e in &events {
                            match e {
                                PuzzleScriptEvent::Turn { .. } => per_turn.push(Vec::new()),
                                PuzzleScriptEvent::Rule { line, .. } => {
                                    if let Some(t) = per_turn.last_mut() {
                                        t.push(*line)
                                    }
                                }
                                _ => {}
                            }
                        }
                        let lines: Vec<Vec<u32>> =
                            boards.iter().map(|t| t.iter().map(|(l, _)| *l).collect()).collect();
                        prop_assert_eq!(lines, per_turn);
                        boards_seen.set(boards_seen.get() + boards.iter().map(Vec::len).sum::<usize>());
                        s = plain;
                    }
                    (Err(a), Err(b)) => prop_assert_eq!(a.code, b.code),
                    (a, b) => prop_assert!(false, "traced {:?} but applied {:?}", a.map(|_| ()), b),
                }
            }
            Ok(())
        })
        .expect("tracing the boards changes nothing");
    assert!(boards_seen.get() > 0, "some rule fired on some line of play");
}

/// The board after a rule is the board as that rule left it: on the fixture's second level the
/// action fires a rule, whose cells differ between the board before the step and after it.
#[test]
fn the_board_after_a_rule_shows_what_the_rule_did() {
    let (rules, s) = start(1, 5);
    let (events, _, boards) = rules.traced_step(&s, &PuzzleScriptCommand::Action).expect("the action plays");
    let fired: Vec<&PuzzleScriptEvent> =
        events.iter().filter(|e| matches!(e, PuzzleScriptEvent::Rule { .. })).collect();
    assert!(!fired.is_empty(), "the action fires a rule: {events:?}");
    let (_, first) = &boards[0][0];
    let PuzzleScriptEvent::Rule { cells, .. } = fired[0] else { unreachable!() };
    // The cells the first rule changed differ between the board before and the board after it.
    for &p in cells {
        assert_ne!(first.cell(p), s.cell(p), "cell {p:?} changed by the rule");
    }
}
