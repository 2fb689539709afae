//! The player's logic, natively: the same code the page runs compiled to WebAssembly.

use super::*;
use tessera_core::Rules;
use tessera_replay::{Log, TailPolicy, verify};

const CHORUS: &str = include_str!("../../../fixtures/games/chorus.txt");
const FUSE: &str = include_str!("../../../fixtures/games/fuse.txt");

fn settle(p: &mut Player) {
    let mut n = 0;
    while p.pending() {
        p.advance();
        n += 1;
        assert!(n < 10_000, "the queue never empties");
    }
}

/// The title screen, New game, the first message: the first level on screen.
fn chorus_level_one(seed: u64) -> Player {
    let mut p = Player::new(CHORUS).unwrap();
    p.set_next_seed(seed);
    assert_eq!(p.screen(), Screen::Title);
    assert_eq!(p.level(), 0);
    assert_eq!(p.choices(), vec![Choice::NewGame]);
    p.key(Key::Action);
    assert_eq!(p.screen(), Screen::Message);
    assert_eq!(p.message(), Some("Push every crate onto a target."));
    assert_eq!(p.level(), 0);
    p.key(Key::Action);
    assert_eq!(p.screen(), Screen::Level);
    assert_eq!(p.level(), 1);
    p
}

/// The state hash the CLI's rules reach from `seed` with `commands` on playable level `number`.
fn native_hash(number: usize, seed: u64, commands: &[PuzzleScriptCommand]) -> u64 {
    let (level, _) = tessera_core::puzzlescript::import_level(CHORUS, Some("chorus.txt"), number).unwrap();
    let mut g = level.unwrap().level.start(Some(seed)).unwrap();
    let mut events = Vec::new();
    for c in commands {
        events.clear();
        g.rules.apply(&mut g.state, &AnyCommand::PuzzleScript(*c), &mut events).unwrap();
    }
    g.state.hash()
}

#[test]
fn plays_the_game_in_order_and_its_hashes_are_the_clis() {
    let mut p = chorus_level_one(42);
    let start = p.hash().unwrap();
    assert_eq!(start, native_hash(1, 42, &[]));
    p.key(Key::Right);
    p.key(Key::Right);
    let won_hash = native_hash(1, 42, &[PuzzleScriptCommand::Right, PuzzleScriptCommand::Right]);
    assert_eq!(p.hash(), Some(won_hash));
    assert_eq!(p.won(), &[1]);
    assert_eq!(p.results(), &[(1, won_hash)]);
    // The won level stays on screen until the queue moves on; keys do nothing meanwhile.
    p.key(Key::Left);
    assert_eq!(p.hash(), Some(won_hash));
    p.set_next_seed(7);
    settle(&mut p);
    assert_eq!(p.screen(), Screen::Level);
    assert_eq!(p.level(), 2);
    assert_eq!(p.seed(), Some(7));
    assert_eq!(p.hash(), Some(native_hash(2, 7, &[])));
    assert_eq!(p.progress()["entry"], 2);
}

#[test]
fn the_session_log_verifies_and_ends_at_the_players_state() {
    let mut p = chorus_level_one(1234);
    for k in [Key::Down, Key::Right, Key::Undo, Key::Right, Key::Restart, Key::Up] {
        p.key(k);
        settle(&mut p);
    }
    let bytes = p.log().unwrap();
    let log = Log::from_bytes(bytes, TailPolicy::Strict).unwrap();
    assert_eq!(log.header().seed, 1234);
    // Down, Right (undone), Right, Restart, Up: four steps on the line of play.
    assert_eq!(log.steps(), 4);
    let report = verify(&log).unwrap();
    assert!(report.complete(), "{report:?}");
    let h = tessera_replay::History::from_log(&log).unwrap();
    assert_eq!(Some(h.hash()), p.hash());
    // The log says where the player was: a note at the step on screen (the editor's Debug
    // opens it there), naming the level.
    assert_eq!(log.player_step(), Some(4));
    let note = &log.notes().last().unwrap().text;
    assert_eq!(note, "the player was here: level 1, step 4");
    // Two undos later the player is at step 2, and the log ends there.
    p.key(Key::Undo);
    p.key(Key::Undo);
    settle(&mut p);
    let log = Log::from_bytes(p.log().unwrap(), TailPolicy::Strict).unwrap();
    assert_eq!((log.steps(), log.player_step()), (2, Some(2)));
    assert!(verify(&log).unwrap().complete());
}

#[test]
fn undo_restores_the_board_shown_and_plays_its_sound() {
    let mut p = chorus_level_one(3);
    let before = (p.hash(), p.render().to_vec());
    p.key(Key::Down);
    settle(&mut p);
    assert_ne!(p.hash(), before.0);
    p.take_sounds();
    p.key(Key::Undo);
    assert_eq!((p.hash(), p.render().to_vec()), before);
    assert_eq!(p.take_sounds(), vec!["45058102".to_string()]);
}

#[test]
fn again_turns_are_shown_one_at_a_time() {
    // Action lights a spark on a random cell (its CREATE sound) that fades in a late `again`
    // turn (Fade's DESTROY sound): each turn's sounds play with it.
    let mut p = chorus_level_one(5);
    p.take_sounds();
    p.key(Key::Action);
    assert!(p.pending(), "the again turn waits");
    assert_eq!(p.delay_ms(), Some(150));
    let first = p.render().to_vec();
    assert_eq!(p.take_sounds(), vec!["40003707".to_string()]);
    settle(&mut p);
    assert_eq!(p.take_sounds(), vec!["33851508".to_string()]);
    let last = p.render().to_vec();
    assert_ne!(first, last, "the again turn changed the board shown");
    // What is shown at the end is the state.
    p.sync_display();
    assert_eq!(p.render().to_vec(), last);
}

/// Keys pressed while `again` turns are on screen are kept and played in order once the turns
/// have been shown (PuzzleScript's key buffer), a held key's repeats are not; undo drops them.
#[test]
fn keys_during_again_turns_are_queued_in_order() {
    let mut p = chorus_level_one(5);
    p.key(Key::Action);
    assert!(p.pending(), "the again turn waits");
    let steps = |p: &Player| p.play.as_ref().unwrap().history.step();
    assert_eq!(steps(&p), 1);
    p.key(Key::Down);
    p.key(Key::Right);
    p.key_repeat(Key::Right);
    assert_eq!((steps(&p), p.waiting()), (1, 2), "kept, not played yet; the repeat dropped");
    settle(&mut p);
    assert_eq!(p.waiting(), 0);
    let line: Vec<_> = (1..=3)
        .map(|n| {
            let log = Log::from_bytes(p.log().unwrap(), TailPolicy::Strict).unwrap();
            let mut rec = Default::default();
            log.read_step(n, &mut rec).unwrap();
            rec.command.unwrap()
        })
        .collect();
    use PuzzleScriptCommand as C;
    assert_eq!(line, [C::Action, C::Down, C::Right].map(AnyCommand::PuzzleScript), "in the order pressed");
    assert_eq!(p.hash(), Some(native_hash(1, 5, &[C::Action, C::Down, C::Right])));
    // Undo while keys wait drops them.
    p.key(Key::Action);
    p.key(Key::Up);
    assert_eq!(p.waiting(), 1);
    p.key(Key::Undo);
    assert_eq!(p.waiting(), 0);
    settle(&mut p);
    assert_eq!(steps(&p), 3, "the Action undone, the Up never played");
    // At most MAX_WAITING are kept.
    p.key(Key::Action);
    for _ in 0..MAX_WAITING + 3 {
        p.key(Key::Left);
    }
    assert_eq!(p.waiting(), MAX_WAITING);
}

#[test]
fn a_level_start_with_again_turns_and_noaction() {
    let mut p = Player::new(FUSE).unwrap();
    p.key(Key::Action);
    assert_eq!(p.level(), 1);
    let h = p.hash();
    p.key(Key::Action); // noaction: refused, nothing recorded
    assert_eq!(p.hash(), h);
    assert_eq!(Log::from_bytes(p.log().unwrap(), TailPolicy::Strict).unwrap().steps(), 0);
}

#[test]
fn escape_opens_the_menu_and_report_asks_for_the_log() {
    let mut p = chorus_level_one(0);
    p.key(Key::Escape);
    assert_eq!(p.screen(), Screen::Menu);
    assert_eq!(p.level(), 0);
    assert_eq!(p.choices(), vec![Choice::Resume, Choice::RestartLevel, Choice::Report, Choice::TitleScreen]);
    p.key(Key::Down);
    p.key(Key::Down);
    p.key(Key::Action);
    assert!(p.take_report());
    assert!(!p.take_report());
    assert_eq!(p.screen(), Screen::Level);
    p.key(Key::Escape);
    p.key(Key::Escape);
    assert_eq!(p.screen(), Screen::Level);
}

#[test]
fn progress_is_kept_and_continued() {
    let mut p = chorus_level_one(0);
    p.key(Key::Right);
    p.key(Key::Right);
    settle(&mut p);
    let saved = p.progress();
    let mut q = Player::new(CHORUS).unwrap();
    q.set_progress(&saved);
    assert_eq!(q.choices(), vec![Choice::Continue, Choice::NewGame]);
    q.key(Key::Action);
    assert_eq!(q.level(), 2);
    assert_eq!(q.won(), &[1]);
    // Nonsense is ignored.
    let mut r = Player::new(CHORUS).unwrap();
    r.set_progress(&serde_json::json!({"entry": 999, "won": [0, 77, "x"]}));
    assert_eq!(r.choices(), vec![Choice::NewGame]);
    assert!(r.won().is_empty());
}

/// A level with a `checkpoint`: the flag two steps right of the player sets one.
const CHECKPOINT: &str = "title Checkpoint\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
    Flag\nyellow\n\nGoal\ngreen\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\nF = Flag\nG = Goal\n\n\
    SOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nFlag, Goal\nPlayer, Wall\n\nRULES\n\n\
    late [ Player Flag ] -> [ Player ] checkpoint\n\nWINCONDITIONS\n\nsome Player on Goal\n\nLEVELS\n\n\
    #########\n#P.F...G#\n#########\n";

/// The hash the CLI's rules reach on the checkpoint game's level from `seed` with `commands`.
fn checkpoint_hash(seed: u64, commands: &[PuzzleScriptCommand]) -> u64 {
    let (level, _) = tessera_core::puzzlescript::import_level(CHECKPOINT, None, 1).unwrap();
    let mut g = level.unwrap().level.start(Some(seed)).unwrap();
    let mut events = Vec::new();
    for c in commands {
        g.rules.apply(&mut g.state, &AnyCommand::PuzzleScript(*c), &mut events).unwrap();
    }
    g.state.hash()
}

/// A checkpoint is kept between visits (PuzzleScript keeps its board): Continue shows the
/// checkpoint's board from the level's seed, undo stops there, restart goes back to it, and the
/// session's log still verifies. Before a checkpoint, or after undoing it, nothing is kept.
#[test]
fn a_checkpoint_is_kept_between_visits() {
    use PuzzleScriptCommand as C;
    let mut p = Player::new(CHECKPOINT).unwrap();
    p.set_next_seed(99);
    p.key(Key::Action);
    assert_eq!(p.level(), 1);
    p.key(Key::Right);
    assert!(p.progress().get("checkpoint").is_none(), "no checkpoint yet: {}", p.progress());
    p.key(Key::Right);
    p.key(Key::Right);
    let saved = p.progress();
    assert_eq!(saved["checkpoint"], serde_json::json!({"entry": 0, "seed": "99", "line": "rrr"}));
    let at_checkpoint = checkpoint_hash(99, &[C::Right, C::Right, C::Right, C::Restart]);
    assert_ne!(at_checkpoint, checkpoint_hash(99, &[]));
    // The next visit.
    let mut q = Player::new(CHECKPOINT).unwrap();
    q.set_next_seed(1);
    q.set_progress(&serde_json::from_str(&saved.to_string()).unwrap());
    assert_eq!(q.choices(), vec![Choice::Continue, Choice::NewGame]);
    q.key(Key::Action);
    assert_eq!((q.level(), q.seed(), q.hash()), (1, Some(99), Some(at_checkpoint)));
    q.key(Key::Undo);
    assert_eq!(q.hash(), Some(at_checkpoint), "nothing before the checkpoint to undo");
    q.key(Key::Right);
    q.key(Key::Undo);
    assert_eq!(q.hash(), Some(at_checkpoint));
    q.key(Key::Right);
    q.key(Key::Restart);
    assert_eq!(q.hash(), Some(at_checkpoint), "restart goes back to it");
    assert_eq!(q.progress()["checkpoint"]["line"], "rrrRrR", "still kept");
    let log = Log::from_bytes(q.log().unwrap(), TailPolicy::Strict).unwrap();
    assert!(verify(&log).unwrap().complete());
    // The title screen and back: still the checkpoint.
    q.key(Key::Escape);
    q.key(Key::Down);
    q.key(Key::Down);
    q.key(Key::Down);
    q.key(Key::Action);
    assert_eq!(q.screen(), Screen::Title);
    assert!(q.progress().get("checkpoint").is_some());
    q.key(Key::Action);
    assert_eq!(q.hash(), Some(at_checkpoint), "continued within the visit");
    // Undoing the step that reached the checkpoint takes it back: nothing kept.
    p.key(Key::Undo);
    p.key(Key::Undo);
    assert!(p.progress().get("checkpoint").is_none(), "{}", p.progress());
    // New game drops it; a line that no longer plays starts the level afresh.
    let mut n = Player::new(CHECKPOINT).unwrap();
    n.set_progress(&saved);
    n.key(Key::Down);
    n.key(Key::Action);
    assert_eq!(n.choices(), Vec::<Choice>::new());
    assert!(n.progress().get("checkpoint").is_none());
    let mut bad = saved.clone();
    bad["checkpoint"]["line"] = "uuuuuuuu".into();
    let mut b = Player::new(CHECKPOINT).unwrap();
    b.set_next_seed(99);
    b.set_progress(&bad);
    b.key(Key::Action);
    assert_eq!(b.level(), 1);
    assert!(b.hash().is_some());
}

const FLICK: &str = "title Flick\nflickscreen 3x2\nnoundo\nnorestart\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\n\
                     Goal\nyellow\n\nLEGEND\n\n. = Background\nP = Player\nG = Goal\n\nSOUNDS\n\nCOLLISIONLAYERS\n\n\
                     Background\nGoal\nPlayer\n\nRULES\n\nWINCONDITIONS\n\nAll Player on Goal\n\nLEVELS\n\nP.....\n......\n.....G\n";

#[test]
fn flickscreen_shows_the_screen_the_player_is_on_and_noundo_norestart_hold() {
    let mut p = Player::new(FLICK).unwrap();
    p.key(Key::Action);
    assert_eq!(p.level(), 1);
    assert_eq!(p.window(), (0, 0, 3, 2));
    assert_eq!(p.render().len(), 3 * 5 * 2 * 5 * 4);
    for _ in 0..3 {
        p.key(Key::Right);
    }
    assert_eq!(p.window(), (3, 0, 3, 2));
    let h = p.hash();
    p.key(Key::Undo);
    p.key(Key::Restart);
    assert_eq!(p.hash(), h);
    p.key(Key::Escape);
    assert_eq!(p.choices(), vec![Choice::Resume, Choice::Report, Choice::TitleScreen]);
    p.key(Key::Escape);
    p.key(Key::Down);
    p.key(Key::Down);
    assert_eq!(p.window(), (3, 2, 3, 1));
}

#[test]
fn a_message_command_shows_over_the_level_until_action() {
    let src =
        FLICK.replace("RULES\n\n", "RULES\n\n[ > Player | Goal ] -> [ > Player | Goal ] message Almost!\n\n");
    let mut p = Player::new(&src).unwrap();
    p.key(Key::Action);
    for k in [Key::Right, Key::Right, Key::Right, Key::Right, Key::Down, Key::Down] {
        p.key(k);
    }
    assert!(p.overlay().is_none());
    p.key(Key::Right);
    assert_eq!(p.overlay(), Some("Almost!"));
    assert_eq!(p.won(), &[1]);
    assert_eq!(p.level(), 0);
    p.key(Key::Right); // not Action: the message stays
    assert_eq!(p.overlay(), Some("Almost!"));
    p.key(Key::Action);
    assert_eq!(p.overlay(), None);
    assert_eq!(p.level(), 1);
}

#[test]
fn a_game_that_does_not_compile_is_an_error() {
    assert!(Player::new("not a game").is_err());
    let e = page(b"\0asm\x01\0\0\0", "title x\n").unwrap_err();
    assert!(matches!(e, ExportError::Game(_)), "{e}");
}

#[test]
fn the_page_holds_the_game_and_the_module_and_no_closing_script_tag() {
    let src = CHORUS.replace("author tessera", "author </script><script>alert(1)</script>");
    let html = page(b"\0asm\x01\0\0\0", &src).unwrap();
    assert_eq!(html.matches("</script>").count(), 2, "only the page's own two scripts close");
    assert!(html.contains("<title>Warehouse chorus</title>"));
    assert!(html.contains("\"wasm\":\""));
    assert!(!html.contains("http://") && !html.contains("https://"), "nothing from the network");
    // The source comes back out of the page's JSON exactly.
    let start = html.find("window.TESSERA_GAME = ").unwrap() + "window.TESSERA_GAME = ".len();
    let end = start + html[start..].find(";</script>").unwrap();
    let v: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(v["source"], src.as_str());
}

#[test]
fn sounds_are_the_synthesisers() {
    let s = sound_samples("45058102").unwrap();
    let seed = tessera_sound::Seed::parse("45058102").unwrap();
    assert_eq!(s, tessera_sound::Sound::new(&seed).unwrap().samples());
    assert!(sound_samples("x").is_err());
}

#[test]
fn the_fixture_suite_passes() {
    let text = include_str!("../../../fixtures/puzzlescript/warehouse_suite.json");
    let (passed, failed) = run_suite(text).unwrap();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(passed >= 4);
}
