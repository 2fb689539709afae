//! PuzzleScript against its reference engine on inputs the suite does not have: random input
//! sequences (moves, action, undo, restart, ticks) on the suite's own games, answered by the
//! reference under Node.js (`tools/puzzlescript/reference.js`) and replayed by tessera's engine;
//! the final levels and sounds must be equal; and the solver's solutions on the fixture games,
//! which must win there at their last step. Skips (passing, with a note) when `../shared` or
//! `node` is absent; CI installs Node so that it runs there.

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use tessera_core::puzzlescript::engine::suite::{parse_testdata, run_case};

/// The reference engine's folder, if `../shared` is there.
fn reference() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/puzzlescript/reference");
    dir.join("tests/resources/testdata.js").is_file().then_some(dir)
}

/// A small deterministic generator (the test's own: splitmix64).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random input: mostly moves and action, sometimes undo, restart or a tick.
fn random_input(rng: &mut Mix) -> Value {
    match rng.below(20) {
        0..=15 => json!(rng.below(5)),
        16 | 17 => json!("undo"),
        18 => json!("restart"),
        _ => json!("tick"),
    }
}

/// The suite's every game and level, played as the solver plays (one workspace, turns from
/// states picked among those reached), ends each turn as it does when every rule is asked
/// ([`crate::puzzlescript_props::quiet_turns_match_asking_every_rule`]).
#[test]
fn the_suites_games_pass_over_rules_by_the_board_s_objects_as_asking_every_rule_does() {
    let Some(reference) = reference() else {
        eprintln!("note: ../shared is absent: the suite's games are not played");
        return;
    };
    let text = std::fs::read_to_string(reference.join("tests/resources/testdata.js")).expect("testdata.js");
    let cases = parse_testdata(&text).expect("the suite parses");
    let mut rng = Mix(0x0c0a_47e5);
    let mut seen = std::collections::BTreeSet::new();
    let mut played = 0;
    for case in &cases {
        if !seen.insert((case.source.as_str(), case.level)) {
            continue;
        }
        let Ok(game) = tessera_core::puzzlescript::engine::compile(&case.source) else { continue };
        let picks: Vec<(usize, usize)> =
            (0..30).map(|_| (rng.below(1 << 20) as usize, rng.below(6) as usize)).collect();
        if crate::puzzlescript_props::quiet_turns_match_asking_every_rule(&game, case.level, &picks).is_some()
        {
            played += 1;
        }
    }
    eprintln!("{played} levels of the suite's games played both ways");
    assert!(played >= 300, "only {played} levels started");
}

#[test]
fn random_inputs_on_the_suites_games_end_as_the_reference_engine_ends() {
    let Some(reference) = reference() else {
        eprintln!("note: ../shared is absent: the differential test against the reference is skipped");
        return;
    };
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("note: node is not installed: the differential test against the reference is skipped");
        return;
    }
    let text = std::fs::read_to_string(reference.join("tests/resources/testdata.js")).expect("testdata.js");
    let raw: Vec<Value> = {
        // The suite as JSON values (name, [source, inputs, expected, level, seed, sounds]), through
        // tessera's own reader, to keep its games, levels and seeds.
        let cases = parse_testdata(&text).expect("the suite parses");
        cases.iter().map(|c| json!([c.name, [c.source, [], "", c.level, c.seed]])).collect()
    };
    // Every 6th game, three random sequences each.
    let mut rng = Mix(0x7e55_e7a0);
    let mut cases = Vec::new();
    for (k, case) in raw.iter().enumerate().step_by(6) {
        for run in 0..3 {
            let len = 5 + rng.below(40) as usize;
            let inputs: Vec<Value> = (0..len).map(|_| random_input(&mut rng)).collect();
            let mut c = case.clone();
            c[0] = json!(format!("{} (random {run}, suite case {k})", case[0].as_str().unwrap_or("?")));
            c[1][1] = Value::Array(inputs);
            cases.push(c);
        }
    }
    let dir = std::env::temp_dir().join(format!("tessera-ps-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("cases.json");
    std::fs::write(&file, Value::Array(cases.clone()).to_string()).expect("write cases");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/puzzlescript/reference.js");
    let out = Command::new("node").arg(&script).arg(&reference).arg(&file).output().expect("node runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "the reference runner failed: {}", String::from_utf8_lossy(&out.stderr));
    let answers: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the reference's answers are JSON");
    assert_eq!(answers.len(), cases.len());
    // The reference's answers become the expected levels and sounds of a suite tessera runs.
    let mut compared = 0;
    let mut thrown = 0;
    let mut failures = Vec::new();
    let mut answered = Vec::new();
    for (mut case, answer) in cases.into_iter().zip(answers) {
        let (Some(level), Some(sounds)) = (answer["level"].as_str(), answer.get("sounds")) else {
            thrown += 1;
            continue;
        };
        case[1][2] = json!(level);
        if let Some(data) = case[1].as_array_mut() {
            data.push(sounds.clone());
        }
        answered.push(case);
    }
    let suite = parse_testdata(&Value::Array(answered).to_string()).expect("the answered suite parses");
    for case in &suite {
        compared += 1;
        let result = run_case(case);
        if !result.passed {
            failures.push(format!("{}: {}", case.name, result.first_difference.unwrap_or_default()));
        }
    }
    eprintln!("{compared} random sequences compared with the reference ({thrown} where the reference threw)");
    assert!(compared >= 150, "only {compared} sequences compared");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ from the reference:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `cases` (testdata.js's shape) answered by the reference under Node.js: one answer per case
/// (`level`, `sounds`, `errors`, `messages`; see `tools/puzzlescript/reference.js`). `None`, with
/// a note, when `../shared` or `node` is absent.
fn reference_answers(cases: &[Value]) -> Option<Vec<Value>> {
    let Some(reference) = reference() else {
        eprintln!("note: ../shared is absent: the comparison with the reference is skipped");
        return None;
    };
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("note: node is not installed: the comparison with the reference is skipped");
        return None;
    }
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tessera-ps-ref-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("cases.json");
    std::fs::write(&file, Value::Array(cases.to_vec()).to_string()).expect("write cases");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/puzzlescript/reference.js");
    let out = Command::new("node").arg(&script).arg(&reference).arg(&file).output().expect("node runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "the reference runner failed: {}", String::from_utf8_lossy(&out.stderr));
    let answers: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the reference's answers are JSON");
    assert_eq!(answers.len(), cases.len());
    Some(answers)
}

/// Whether the reference compiled the case's game without errors.
fn reference_accepts(answer: &Value) -> bool {
    answer["errors"].as_u64() == Some(0) && answer.get("error").is_none()
}

/// The case with the reference's answer as its expected level and sounds, as tessera's suite
/// runner reads it.
fn answered(case: &Value, answer: &Value) -> tessera_core::puzzlescript::engine::suite::Case {
    let mut case = case.clone();
    case[1][2] = answer["level"].clone();
    if let Some(data) = case[1].as_array_mut() {
        data.push(answer["sounds"].clone());
    }
    parse_testdata(&Value::Array(vec![case]).to_string()).expect("the answered case parses").remove(0)
}

/// Issue 36.11: a source opening with a UTF-8 byte-order mark, or with CRLF line ends, plays
/// as the reference plays it; one whose lines end with CR alone is refused, as the reference
/// refuses it (it reads one long line), and the first diagnostic says why in words.
#[test]
fn a_byte_order_mark_and_line_ends_are_read_as_the_reference_reads_them() {
    let game = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games/fuse.txt"),
    )
    .expect("the fixture game");
    let sources = [
        ("LF", game.clone()),
        ("BOM", format!("\u{feff}{game}")),
        ("CRLF", game.replace('\n', "\r\n")),
        ("BOM and CRLF", format!("\u{feff}{}", game.replace('\n', "\r\n"))),
        ("CR", game.replace('\n', "\r")),
    ];
    // tessera's verdicts, checked whether or not the reference is at hand.
    for (name, source) in &sources {
        let compiled = tessera_core::puzzlescript::engine::compile(source);
        if *name == "CR" {
            let diags = compiled.expect_err("CR-only line ends are refused");
            assert!(
                diags[0].is_error && diags[0].message.contains("carriage return alone"),
                "{:?}",
                diags[0]
            );
        } else {
            assert!(compiled.is_ok(), "{name}: {:?}", compiled.err());
        }
    }
    let cases: Vec<Value> =
        sources.iter().map(|(name, s)| json!([name, [s, [3, 3, 0, 3], "", 0, null]])).collect();
    let Some(answers) = reference_answers(&cases) else { return };
    for ((name, source), (case, answer)) in sources.iter().zip(cases.iter().zip(&answers)) {
        let accepted = tessera_core::puzzlescript::engine::compile(source).is_ok();
        assert_eq!(accepted, reference_accepts(answer), "{name}: the reference says {answer}");
        if accepted {
            let result = run_case(&answered(case, answer));
            assert!(result.passed, "{name}: {:?}", result.first_difference);
        }
    }
}

/// Issues 36.13–15, found on games written by others: the fixture game changed three ways,
/// each compiled (or refused) and played as the reference does. 13: an object's colour line,
/// a blank line, then its sprite rows: the rows are junk (warnings) and the game plays. 14: a
/// comment and then a rule on one line: the reference refuses the line (one error). 15: a sound
/// for a legend name with a non-word character (`*box`): warned of and ignored, so pushing the
/// crate makes no sound.
#[test]
fn three_games_by_others_compile_and_play_as_the_reference_has_them() {
    use tessera_core::puzzlescript::engine::compile;
    let game = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games/warehouse.txt"),
    )
    .expect("the fixture game");
    let edit = |from: &str, to: &str| {
        assert!(game.contains(from), "{from}");
        game.replacen(from, to, 1)
    };
    let blank_before_sprite = edit("Target\n#d4a017\n.....", "Target\n#d4a017\n\n.....");
    let comment_then_rule = edit(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "(decorate)  [ > Player | Crate ] -> [ > Player | > Crate ]",
    );
    let odd_sound_name = edit("Q = Player and Target", "Q = Player and Target\n*box = Crate").replacen(
        "Crate MOVE 36772507",
        "*box MOVE 12345",
        1,
    );
    // tessera's verdicts, whether or not the reference is at hand.
    let warnings = |source: &str| match compile(source) {
        Ok(g) => g.warnings().iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
        Err(d) => panic!("{d:?}"),
    };
    assert!(warnings(&blank_before_sprite).iter().any(|w| w.starts_with("Unknown junk in object section")));
    let errors = compile(&comment_then_rule).expect_err("a comment then a rule on one line is refused");
    assert_eq!(errors.iter().filter(|d| d.is_error).count(), 1, "{errors:?}");
    assert!(warnings(&odd_sound_name).iter().any(|w| w.starts_with("Was expecting a sound event")));
    // Level 1 (after the message), pushing the crate right.
    let cases: Vec<Value> = [&blank_before_sprite, &comment_then_rule, &odd_sound_name]
        .iter()
        .enumerate()
        .map(|(k, s)| json!([format!("issue 36.{}", 13 + k), [s, [3, 3, 0, 3], "", 1, null]]))
        .collect();
    let Some(answers) = reference_answers(&cases) else { return };
    for ((case, answer), source) in
        cases.iter().zip(&answers).zip([&blank_before_sprite, &comment_then_rule, &odd_sound_name])
    {
        assert_eq!(
            compile(source).is_ok(),
            reference_accepts(answer),
            "{}: the reference says {answer}",
            case[0]
        );
        if reference_accepts(answer) {
            let result = run_case(&answered(case, answer));
            assert!(result.passed, "{}: {:?}", case[0], result.first_difference);
        } else {
            assert_eq!(answer["errors"], 1, "{answer}");
        }
    }
}

/// The solver's solutions win in the reference engine, at their last step and not before: BFS's
/// and the default search's on every level of the fixture games (a realtime game's ticks
/// included).
#[test]
fn the_solver_s_solutions_win_in_the_reference_engine_at_their_last_step() {
    use tessera_core::puzzlescript::engine::{LevelEntry, compile};
    use tessera_core::puzzlescript::{PuzzleScriptLevel, Search, SolveLimits, SolveOutcome, solve_with};
    let mut cases = Vec::new();
    for name in ["warehouse", "conveyor", "fuse"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../fixtures/games/{name}.txt"));
        let source = std::fs::read_to_string(path).expect("the fixture game");
        let game = compile(&source).expect("the fixture compiles");
        // Each playable level and its entry's index (what the reference loads).
        let entries = game.levels().iter().enumerate().filter(|(_, e)| matches!(e, LevelEntry::Level { .. }));
        for (k, (entry, _)) in entries.enumerate() {
            let level =
                PuzzleScriptLevel { name: None, seed: None, source: source.as_str().into(), level: k };
            let (rules, state) = level.start(0).expect("the level starts");
            for search in [Search::Bfs, Search::Mixed] {
                let limits = SolveLimits { max_nodes: 200_000, ..SolveLimits::default() };
                let report = solve_with(&rules, &state, limits, search, &mut || false);
                let SolveOutcome::Solved(solution) = report.outcome else {
                    panic!("{name} {k} {search}: {:?}", report.outcome)
                };
                assert_eq!(report.draws, 0, "{name} {k} {search}: wins from any seed");
                let inputs: Vec<Value> = solution.iter().map(|c| c.suite_input()).collect();
                assert!(!inputs.is_empty(), "{name} {k}: not won at its start");
                cases.push(json!([format!("{name} {k} {search}"), [&source, inputs, "", entry, null]]));
            }
        }
    }
    assert!(cases.len() >= 10, "{} solutions", cases.len());
    assert!(cases.iter().any(|c| c[1][1].as_array().unwrap().contains(&json!("tick"))), "a tick among them");
    let Some(answers) = reference_answers(&cases) else { return };
    for (case, answer) in cases.iter().zip(&answers) {
        let last = case[1][1].as_array().unwrap().len() as i64 - 1;
        assert_eq!(answer["won_at"].as_i64(), Some(last), "{}: the reference says {answer}", case[0]);
    }
}
