//! Sounds in the editor (issue 35): a PuzzleScript step queues the sounds PuzzleScript plays for
//! it (its moves, its rules' `sfx`, `endlevel`), undo its `undo`, opening a level `startlevel`;
//! Mute and the volume persist; a seed picked and put into a rule's `sfx` plays when the rule
//! fires, and its WAV is the reference's. No sound card: the tests read what was queued.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tessera_core::puzzlescript::engine::compile;
use tessera_editor::EditorApp;
use tessera_sound::{Kind, Seed, Sound};

fn open_level_1(h: &mut Harness<'_, EditorApp>, game: &std::path::Path) {
    h.state_mut().open(game);
    h.run();
    assert_eq!(h.state().error(), None);
    h.get_by_label("Level number").set_value_accesskit(1.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    // Level 1 opens on the game's message before it ("Push every crate onto a target."): a key
    // dismisses it, as in PuzzleScript.
    h.key_press(Key::X);
    h.run();
}

/// A node's text: its label, else its value (a label's text in egui's accesskit tree).
fn shown(n: &egui_kittest::Node<'_>) -> Option<String> {
    let node = n.accesskit_node();
    node.label().or_else(|| node.value())
}

fn seed(source: &str, event: &str) -> String {
    compile(source).expect("compiles").sound_event(event).expect("declared").to_string()
}

#[test]
fn a_step_plays_its_moves_its_sfx_and_endlevel_and_undo_plays_undo() {
    let path = fixtures().join("games/chorus.txt");
    let source = std::fs::read_to_string(&path).unwrap();
    let mut h = editor();
    open_level_1(&mut h, &path);
    assert_eq!(h.state().audio().played().last(), Some(&seed(&source, "startlevel")), "the level's start");
    h.key_press(Key::ArrowRight);
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    let step = h.state().audio().last_step().to_vec();
    assert_eq!(step.len(), 4, "{step:?}");
    assert_eq!(step[2..], [seed(&source, "sfx1"), seed(&source, "endlevel")], "after the moves");
    assert!(h.state().audio().played().ends_with(&step), "one turn: all at once");
    // The status bar lists them with what plays each.
    for seed in &step {
        let listed =
            h.query_all_by_label_contains(seed).any(|n| shown(&n).is_some_and(|l| l.starts_with("Sounds: ")));
        assert!(listed, "the status bar lists {seed}");
    }
    assert!(
        h.query_all_by_label_contains("Sounds: ")
            .any(|n| shown(&n).is_some_and(|l| l.to_lowercase().contains("player move horizontal"))),
        "with what plays it"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().audio().played().last(), Some(&seed(&source, "undo")));
}

#[test]
fn mute_and_volume_persist_and_muted_sounds_are_still_listed() {
    let mut h = editor();
    open_level_1(&mut h, &fixtures().join("games/chorus.txt"));
    assert!(!h.state().settings().sound.muted);
    h.get_by_label("Mute").click();
    h.run();
    h.run();
    assert!(h.state().settings().sound.muted, "kept in the settings that persist");
    let before = h.state().audio().played().len();
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(h.state().audio().played().len() > before, "heard or not, a step's sounds are listed");
}

/// The reference's WAV of `seeds` (tools/puzzlescript/sfxr.js under Node.js), when there.
fn reference_wavs(seeds: &[String]) -> Option<Vec<Vec<u8>>> {
    let manifest = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = [manifest.join("../../../shared"), manifest.join("../../../../shared")]
        .into_iter()
        .find(|p| p.exists())?
        .join("benchmarks/puzzlescript/reference");
    let dir = std::env::temp_dir().join(format!("tessera-editor-sound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join("seeds.txt"), seeds.join("\n")).ok()?;
    let out = std::process::Command::new("node")
        .arg(manifest.join("../../tools/puzzlescript/sfxr.js"))
        .arg(&shared)
        .arg(dir.join("seeds.txt"))
        .arg(dir.join("wavs.bin"))
        .output()
        .ok()?;
    let bytes = std::fs::read(dir.join("wavs.bin")).ok()?;
    std::fs::remove_dir_all(&dir).ok();
    if !out.status.success() {
        return None;
    }
    let mut at = 0;
    let mut wavs = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let len = v["wav"].as_u64()? as usize;
        wavs.push(bytes.get(at..at + len)?.to_vec());
        at += len;
    }
    Some(wavs)
}

#[test]
fn a_picked_seed_put_in_a_rules_sfx_plays_when_the_rule_fires_as_the_reference_makes_it() {
    // A new explosion, as the picker makes one, replaces sfx1 (pushing a crate onto a target).
    let picked = Seed::of_kind(Kind::Explosion, 424_242).to_string();
    let source = std::fs::read_to_string(fixtures().join("games/chorus.txt")).unwrap();
    let old = source.lines().find(|l| l.starts_with("sfx1 ")).unwrap();
    let dir = std::env::temp_dir().join(format!("tessera-picked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("picked.txt");
    std::fs::write(&game, source.replace(old, &format!("sfx1 {picked}"))).unwrap();
    let mut h = editor();
    open_level_1(&mut h, &game);
    h.key_press(Key::ArrowRight);
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    let step = h.state().audio().last_step().to_vec();
    std::fs::remove_dir_all(&dir).ok();
    assert!(step.contains(&picked), "the rule's sfx1 is the picked seed: {step:?}");
    // The console lists what played, the sfx the step's events leave out included.
    let console = h.state().console().text();
    for seed in &step {
        assert!(console.contains(&format!(" {seed}")), "{seed} in the console:\n{console}");
    }
    // The step's sounds, written as WAV files, are the reference's bytes.
    if let Some(theirs) = reference_wavs(&step) {
        for (seed, theirs) in step.iter().zip(theirs) {
            let ours = Sound::new(&seed.parse().unwrap()).unwrap().wav();
            assert_eq!(ours, theirs, "seed {seed}");
        }
    } else {
        eprintln!("note: no ../shared or no node: the step's WAVs are not compared with the reference");
    }
}

#[test]
fn the_picker_makes_a_seed_of_its_kind_plays_it_and_inserts_it_in_the_source() {
    let mut h = editor();
    open_level_1(&mut h, &fixtures().join("games/chorus.txt"));
    h.state_mut().set_mode(tessera_editor::Mode::Edit);
    h.run();
    h.get_by_label("Explosion").click();
    h.run();
    h.run();
    let first = tessera_editor::sound_picker::last_seed(&h.ctx).expect("a new seed");
    assert_eq!(first.parse::<Seed>().unwrap().kind(), Kind::Explosion);
    assert_eq!(h.state().audio().played().last(), Some(&first), "played at once");
    h.get_by_label("Explosion").click();
    h.run();
    let second = tessera_editor::sound_picker::last_seed(&h.ctx).expect("a new seed");
    assert_ne!(second, first, "each click a new seed");
    h.get_by_label("Insert at cursor").click();
    h.run();
    let text = h.state().workbench().text();
    assert!(text.contains(&second), "inserted into the source");
}

#[test]
fn debug_plays_a_steps_sounds_when_stepping_forward_one_step_and_is_silent_on_jumps() {
    let path = fixtures().join("games/chorus.txt");
    let mut h = editor();
    open_level_1(&mut h, &path);
    h.key_press(Key::ArrowRight);
    h.run();
    let first = h.state().audio().last_step().to_vec();
    h.key_press(Key::ArrowRight);
    h.run();
    let second = h.state().audio().last_step().to_vec();
    assert!(!first.is_empty() && !second.is_empty(), "both steps make sounds");
    assert_ne!(first, second, "the steps sound different (the second pushes onto a target)");
    h.state_mut().set_mode(tessera_editor::Mode::Debug);
    h.run();
    let played = h.state().audio().played().len();
    // A jump to the start, and to the end, plays nothing.
    h.key_press(Key::Home);
    h.run();
    h.key_press(Key::End);
    h.run();
    h.key_press(Key::Home);
    h.run();
    assert_eq!(h.state().audio().played().len(), played, "jumps are silent");
    // One step forward at a time plays each step's sounds, as Play played them.
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().audio().last_step(), first, "step 1's sounds");
    assert!(h.state().audio().played().ends_with(&first), "played");
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().audio().last_step(), second, "step 2's sounds");
    // A step back is silent.
    let played = h.state().audio().played().len();
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().audio().played().len(), played, "a step back is silent");
}

#[test]
fn a_seed_clicked_in_the_source_plays() {
    let path = fixtures().join("games/chorus.txt");
    let source = std::fs::read_to_string(&path).unwrap();
    let sfx1 = seed(&source, "sfx1");
    let mut h = editor();
    open_level_1(&mut h, &path);
    h.state_mut().set_mode(tessera_editor::Mode::Edit);
    h.run();
    let line = source.lines().position(|l| l.starts_with("sfx1 ")).expect("sfx1 declared") + 1;
    h.state_mut().workbench_mut().go_to_line(line);
    h.run();
    h.run();
    // The row of the source showing the declaration (egui's text run of that row), and the
    // middle of the seed's digits in it.
    let at = {
        let runs = h.query_all_by_role(egui::accesskit::Role::TextRun);
        let run = runs
            .into_iter()
            .find(|n| n.accesskit_node().value().is_some_and(|v| v.starts_with("sfx1 ")))
            .expect("the sfx1 line is in view");
        let value = run.accesskit_node().value().unwrap();
        let k = value.find(&sfx1).expect("the seed on the line") + sfx1.len() / 2;
        let xs = run.accesskit_node().data().character_positions().expect("character positions").to_vec();
        let rect = run.rect();
        egui::pos2(rect.left() + xs[k] + 1.0, rect.center().y)
    };
    let before = h.state().audio().played().len();
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    }
    h.run();
    h.run();
    assert_eq!(h.state().audio().played().len(), before + 1, "one sound played");
    assert_eq!(h.state().audio().played().last(), Some(&sfx1), "the seed clicked");
}
