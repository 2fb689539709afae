//! The Generate pane (issue 64.7): a round on a small game, candidates arriving in the gallery
//! while the window keeps drawing, Accept appending a level that compiles and wins by its
//! solution (saved by Ctrl+S), Reject, the Keep brush, Cancel, Show the solution.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use tessera_core::Pos;
use tessera_core::puzzlescript::{PuzzleScriptLevel, engine, level_rows, playable_count};
use tessera_editor::{EditorApp, Mode};

/// A copy of fixtures/games/NAME in a folder of its own, to save over.
fn copy_of(name: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-generate-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::copy(fixtures().join("games").join(name), &path).unwrap();
    path
}

/// The editor on the game at `path`, in Edit, the Generate pane open.
fn generating(path: &std::path::Path) -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(path);
    h.run();
    assert_eq!(h.state().error(), None);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Generate").click();
    h.run();
    assert!(h.state().generate_shown());
    h
}

/// Steps frames until the round ends (at most 60 s), the window drawing all along.
fn wait_for_round(h: &mut Harness<'_, EditorApp>) {
    let mut frames = 0;
    h.step();
    while h.state().generate().running() {
        assert!(frames < 6000, "the round ended within 60 s");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
}

/// Clicks the `n`-th widget labelled `label` (from the top).
fn click_nth(h: &mut Harness<'_, EditorApp>, label: &str, n: usize) {
    let mut all: Vec<_> = h.query_all_by_label(label).collect();
    all.sort_by(|a, b| a.rect().top().total_cmp(&b.rect().top()));
    let node = all.get(n).unwrap_or_else(|| panic!("{label} #{n}"));
    node.click();
    h.step();
    h.step();
}

/// Clicks cell `p` of the template the Keep brush paints (a press and a release on it).
fn click_template(h: &mut Harness<'_, EditorApp>, p: Pos) {
    let at = h.state().generate().template_cell_centre(p).expect("the template is drawn");
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        h.run();
    }
}

fn source_text(h: &Harness<'_, EditorApp>) -> String {
    h.state().workbench().text().to_string()
}

#[test]
fn accept_appends_a_level_that_compiles_wins_and_is_saved() {
    let path = copy_of("fuse.txt", "accept");
    let mut h = generating(&path);
    h.state_mut().generate_mut().count = 3;
    h.get_by_label("Start").click();
    h.step();
    assert!(h.state().generate().running(), "the round runs on its worker");
    wait_for_round(&mut h);
    let candidates = h.state().generate().candidates().len();
    assert_eq!(candidates, 3, "{}", h.state().generate().progress_line());
    assert!(h.query_by_label_contains("proved 3 of 3").is_some(), "{}", h.state().generate().progress_line());
    let before = source_text(&h);
    let levels = playable_count(&engine::compile(&before).unwrap());
    let chosen = h.state().generate().candidates()[0].game_level().unwrap().clone();
    assert!(h.query_by_label_contains(&format!("#1 · {} steps", chosen.steps())).is_some());
    assert!(h.query_by_label_contains(&format!("difficulty {:.2}", chosen.difficulty)).is_some());
    click_nth(&mut h, "Accept", 0);
    h.run();
    // The source pane shows the game with the level appended, in the legend's characters.
    let after = source_text(&h);
    assert!(after.starts_with(&before), "the source is kept, the level after it");
    let game = engine::compile(&after).expect("the source with the level compiles");
    assert_eq!(playable_count(&game), levels + 1);
    assert_eq!(level_rows(&after, levels).unwrap(), chosen.rows);
    // Its solution wins it.
    let level = PuzzleScriptLevel { name: None, seed: None, source: after.clone().into(), level: levels };
    let (rules, mut state) = level.start(0).unwrap();
    let mut events = Vec::new();
    use tessera_core::Rules;
    for c in &chosen.solution {
        rules.apply(&mut state, c, &mut events).unwrap();
    }
    assert!(state.is_won(), "the accepted level wins by its solution");
    assert_eq!(h.state().generate().candidates().len(), candidates - 1, "Accept takes it off the gallery");
    assert!(h.state().window_title().contains("unsaved"), "{}", h.state().window_title());
    // Ctrl+S writes it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(level_rows(&saved, levels).unwrap(), chosen.rows, "saved to {}", path.display());
    // Undo edit takes the level back out.
    h.state_mut().edit_mut().undo();
    h.run();
    assert_eq!(playable_count(&engine::compile(&source_text(&h)).unwrap()), levels);
}

#[test]
fn reject_drops_a_candidate_and_more_like_this_grows_from_it() {
    let path = copy_of("fuse.txt", "reject");
    let mut h = generating(&path);
    h.state_mut().generate_mut().count = 2;
    h.get_by_label("Start").click();
    wait_for_round(&mut h);
    assert_eq!(h.state().generate().candidates().len(), 2);
    let first = h.state().generate().candidates()[0].rows().to_vec();
    let before = source_text(&h);
    click_nth(&mut h, "Reject", 0);
    h.run();
    let left: Vec<Vec<String>> =
        h.state().generate().candidates().iter().map(|c| c.rows().to_vec()).collect();
    assert_eq!(left.len(), 1);
    assert!(!left.contains(&first), "the rejected one is gone");
    assert_eq!(source_text(&h), before, "Reject leaves the game alone");
    // More like this: the next round's candidates are grown from the one chosen (its size).
    let template = left[0].clone();
    click_nth(&mut h, "More like this", 0);
    wait_for_round(&mut h);
    let now = h.state().generate().candidates();
    assert!(now.len() > 1, "{}", h.state().generate().progress_line());
    assert!(now.iter().any(|c| c.round == 2), "a second round");
    for c in now.iter().filter(|c| c.round == 2) {
        assert_eq!((c.rows().len(), c.rows()[0].len()), (template.len(), template[0].len()));
        assert_ne!(c.rows(), template);
    }
}

#[test]
fn kept_cells_are_unchanged_in_every_candidate() {
    let path = copy_of("warehouse.txt", "keep");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    // Warehouse has several levels: the chooser opens the first.
    if let Some(open) = h.query_by_label("Open level") {
        open.click();
        h.run();
    }
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Generate").click();
    h.run();
    let source = source_text(&h);
    let rows = level_rows(&source, 0).unwrap();
    // Paint the Keep brush over the player's cell and a crate's (a click each, on the template).
    let mut wanted = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
            if matches!(c, 'P' | '*') && wanted.len() < 2 {
                wanted.push((x, y));
            }
        }
    }
    assert_eq!(wanted.len(), 2, "{rows:?}");
    for &(x, y) in &wanted {
        click_template(&mut h, Pos::new(x as u16, y as u16));
    }
    let kept: Vec<(usize, usize)> = h.state().generate().kept().iter().copied().collect();
    let mut sorted = wanted.clone();
    sorted.sort();
    assert_eq!(kept, sorted, "the Keep brush locked the cells clicked");
    assert!(h.query_by_label_contains("2 cells kept").is_some());
    {
        let g = h.state_mut().generate_mut();
        (g.count, g.min_steps) = (3, 2);
    }
    h.get_by_label("Start").click();
    wait_for_round(&mut h);
    let candidates = h.state().generate().candidates();
    assert!(!candidates.is_empty(), "{}", h.state().generate().progress_line());
    for c in candidates {
        for &(x, y) in &wanted {
            assert_eq!(
                c.rows()[y].chars().nth(x),
                rows[y].chars().nth(x),
                "({x}, {y}) kept in {:?}",
                c.rows()
            );
        }
    }
    // A click on a kept cell unlocks it.
    let (x, y) = wanted[0];
    click_template(&mut h, Pos::new(x as u16, y as u16));
    assert_eq!(h.state().generate().kept().len(), 1);
}

#[test]
fn cancel_stops_the_round_and_the_window_never_waits() {
    let path = copy_of("warehouse.txt", "cancel");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    if let Some(open) = h.query_by_label("Open level") {
        open.click();
        h.run();
    }
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Generate").click();
    h.run();
    {
        // A round that cannot end soon: long solutions asked of small levels, a large budget.
        let g = h.state_mut().generate_mut();
        (g.count, g.min_steps, g.states, g.level_states) = (50, 60, 1_000_000_000, 5_000_000);
    }
    h.get_by_label("Start").click();
    for _ in 0..10 {
        let t = std::time::Instant::now();
        h.step();
        assert!(t.elapsed() < std::time::Duration::from_secs(2), "a frame does not wait on the round");
        assert!(h.state().generate().running());
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    let cancel = h.query_all_by_label("Cancel").next().expect("Cancel");
    cancel.click();
    h.step();
    assert!(!h.state().generate().running(), "Cancel stops the round");
    assert!(
        h.state().generate().progress_line().contains("cancelled"),
        "{}",
        h.state().generate().progress_line()
    );
    let shown = h.state().generate().progress();
    std::thread::sleep(std::time::Duration::from_millis(200));
    h.run();
    assert_eq!(h.state().generate().progress(), shown, "nothing more arrives");
    assert!(h.state().generate().candidates().is_empty());
}

#[test]
fn show_the_solution_plays_a_candidate_to_a_win() {
    let path = copy_of("fuse.txt", "show");
    let mut h = generating(&path);
    h.state_mut().generate_mut().count = 1;
    h.get_by_label("Start").click();
    wait_for_round(&mut h);
    assert_eq!(h.state().generate().candidates().len(), 1);
    let rows = h.state().generate().candidates()[0].rows().to_vec();
    click_nth(&mut h, "Show the solution", 0);
    assert_eq!(h.state().mode(), Mode::Play);
    assert!(h.state().walking(), "the solution is being shown");
    match h.state().session().level() {
        tessera_core::Level::PuzzleScript(l) => assert_eq!(level_rows(&l.source, l.level).unwrap(), rows),
        _ => panic!("a puzzlescript game"),
    }
    h.get_by_label("Instant").click();
    let mut frames = 0;
    while h.state().walking() {
        assert!(frames < 2000);
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
        frames += 1;
    }
    h.run();
    match h.state().session().state() {
        tessera_core::AnyState::PuzzleScript(s) => assert!(s.is_won(), "the solution wins the candidate"),
        _ => panic!("a puzzlescript game"),
    }
    // The pane stays in Play, and the candidate is still there to accept.
    assert!(h.state().generate_shown());
    assert_eq!(h.state().generate().candidates().len(), 1);
}

/// A level file of `json` in a folder of its own, opened in Edit with the Generate pane open.
fn generating_level(json: serde_json::Value, test: &str) -> (Harness<'static, EditorApp>, PathBuf) {
    let dir = std::env::temp_dir().join(format!("tessera-generate-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let h = generating(&path);
    (h, dir)
}

/// A plus-shaped Sokoban room with two boxes.
const CROSS: [&str; 9] = [
    "#########",
    "###   ###",
    "###   ###",
    "#   .   #",
    "#  $@ .$#",
    "#       #",
    "###   ###",
    "###   ###",
    "#########",
];

/// Issue 64.7 for Sokoban: the pane fills the room shown (walls kept, its count of boxes), a
/// cell painted with the Keep brush stays plain floor, candidates show their pushes, Accept
/// puts them in a collection that Save collection writes as XSB, which reads back in order;
/// Show the solution wins.
#[test]
fn sokoban_rooms_fill_the_room_shown_and_accepted_ones_save_as_a_collection() {
    let (mut h, dir) =
        generating_level(serde_json::json!({"rule_set": "sokoban", "board": CROSS}), "sokoban");
    assert!(h.query_by_label_contains("Sokoban rooms by reverse play").is_some());
    assert!(h.query_by_label("Keep walls").is_none(), "a PuzzleScript option only");
    // Lock (1, 3), floor at the room's left arm, with the Keep brush.
    click_template(&mut h, Pos::new(1, 3));
    assert_eq!(h.state().generate().kept().iter().copied().collect::<Vec<_>>(), vec![(1, 3)]);
    {
        let g = h.state_mut().generate_mut();
        (g.count, g.min_steps) = (3, 2);
    }
    h.get_by_label("Start").click();
    wait_for_round(&mut h);
    let rows: Vec<Vec<String>> =
        h.state().generate().candidates().iter().map(|c| c.rows().to_vec()).collect();
    assert!(rows.len() >= 2, "{}", h.state().generate().progress_line());
    for r in &rows {
        assert_ne!(r, &CROSS.map(String::from).to_vec(), "not the room itself");
        for (a, b) in r.iter().zip(CROSS) {
            assert_eq!(
                a.replace(['.', '$', '*', '@', '+'], " "),
                b.replace(['.', '$', '*', '@', '+'], " "),
                "{r:?}"
            );
        }
        assert_eq!(r[3].chars().nth(1), Some(' '), "the kept cell stays plain floor: {r:?}");
        assert_eq!(r.iter().flat_map(|l| l.chars()).filter(|&c| matches!(c, '$' | '*')).count(), 2);
    }
    let first = h.state().generate().candidates()[0].rules_level().unwrap().clone();
    assert!(h.query_by_label_contains(&format!("#1 · {} pushes", first.optimal)).is_some());
    click_nth(&mut h, "Accept", 0);
    click_nth(&mut h, "Accept", 0);
    h.run();
    assert_eq!(h.state().generate().collection().len(), 2);
    assert!(h.query_by_label_contains("2 levels accepted").is_some());
    assert!(h.query_by_label("Save collection…").is_some());
    let out = dir.join("rooms.xsb");
    // Through the file dialog, as a designer saves it: Edit's status line says where it went.
    h.get_by_label("Save collection…").click();
    h.run();
    h.get_by_label("Path").set_text_value_accesskit(&out.display().to_string());
    h.run();
    h.get_by_label("Save file").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit);
    let said = h.state().message().unwrap_or_default();
    assert!(said.starts_with("saved 2 levels to ") && said.contains("rooms.xsb"), "{said:?}");
    let read = tessera_core::sokoban::parse_levels(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let boards: Vec<Vec<String>> = read
        .iter()
        .map(|(_, l)| match l {
            tessera_core::Level::Sokoban(s) => s.board.clone(),
            _ => panic!("Sokoban"),
        })
        .collect();
    assert_eq!(boards, vec![rows[0].clone(), rows[1].clone()], "the accepted levels, in order");
    // Show the solution plays the next one to a win.
    assert!(!h.state().generate().candidates().is_empty());
    // Fold the options and the Keep brush, so the gallery is in view.
    h.get_by_label("Options").click();
    h.run();
    h.get_by_label("Keep brush").click();
    h.run();
    click_nth(&mut h, "Show the solution", 0);
    assert_eq!(h.state().mode(), Mode::Play, "{:?}", h.state().error());
    h.get_by_label("Instant").click();
    let mut frames = 0;
    while h.state().walking() {
        assert!(frames < 2000);
        h.step();
        frames += 1;
    }
    h.run();
    match h.state().session().state() {
        tessera_core::AnyState::Sokoban(s) => assert!(s.is_solved(), "the solution wins the candidate"),
        _ => panic!("a Sokoban game"),
    }
}

/// Issue 64.7 for match-3: the pane tunes the stage shown; a candidate names its move limit,
/// target and the bot's wins; Accept gives Edit's stage those settings as one undoable edit.
#[test]
fn match3_stages_are_tuned_and_accept_gives_edit_the_settings() {
    let stage = std::fs::read_to_string(fixtures().join("levels/match3_locks.json")).unwrap();
    let (mut h, _dir) = generating_level(serde_json::from_str(&stage).unwrap(), "match3");
    assert!(h.query_by_label_contains("tuned by the match-3 bot").is_some());
    assert!(h.query_by_label("Keep brush").is_none(), "a stage keeps its board");
    {
        let g = h.state_mut().generate_mut();
        (g.count, g.games, g.win_rate, g.min_steps, g.max_steps) = (1, 20, (0.2, 0.8), 8, Some(20));
    }
    h.get_by_label("Start").click();
    wait_for_round(&mut h);
    let c = h.state().generate().candidates();
    assert_eq!(c.len(), 1, "{}", h.state().generate().progress_line());
    let tuned = c[0].rules_level().unwrap().clone();
    let tessera_core::Level::Match3(t) = &tuned.level else { panic!("match-3") };
    let (limit, target) = (t.config.move_limit.unwrap(), t.config.target_score.unwrap());
    assert!((8..=20).contains(&limit));
    let m = tuned.measured.unwrap();
    assert!(m.wins * 5 >= m.games && m.wins * 5 <= m.games * 4, "{m:?}");
    assert!(h.query_by_label_contains(&format!("move limit {limit} · target {target}")).is_some());
    click_nth(&mut h, "Accept", 0);
    h.run();
    let tessera_core::Level::Match3(edited) = h.state().edit().draft().to_level() else { panic!("match-3") };
    assert_eq!((edited.config.move_limit, edited.config.target_score), (Some(limit), Some(target)));
    assert_eq!(edited.board, t.board, "the board stays");
    h.state_mut().edit_mut().undo();
    h.run();
    let tessera_core::Level::Match3(back) = h.state().edit().draft().to_level() else { panic!("match-3") };
    assert_eq!((back.config.move_limit, back.config.target_score), (Some(25), Some(3000)));
}
