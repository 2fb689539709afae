//! `tessera pack`: every subcommand as a user runs it, bad pack files, and shards merged by the
//! command line into the bytes one machine writes.

use crate::{scratch, stderr, tessera, workspace};
use std::path::Path;

fn ok(args: &[&str]) -> String {
    let out = tessera(args, "");
    assert!(out.status.success(), "tessera {args:?}: {}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn level(dir: &Path, name: &str, colours: u32) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(r#"{{"rule_set": "collapse", "width": 4, "height": 3, "colours": {colours}}}"#),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn new_add_remove_move_and_list_edit_the_pack_file() {
    let dir = scratch("pack-edit");
    let pack = dir.join("campaign.json");
    let pack = pack.to_str().unwrap();
    let levels: Vec<String> = (0..3).map(|i| level(&dir, &format!("l{i}.json"), 2 + i)).collect();
    ok(&["pack", "new", pack, "--name", "Campaign"]);
    assert_eq!(tessera(&["pack", "new", pack], "").status.code(), Some(2), "no overwrite");
    ok(&["pack", "add", pack, &levels[0], &levels[1]]);
    ok(&["pack", "add", pack, &levels[2], "--at", "1", "--title", "First", "--target", "40%-70%"]);
    let inline = dir.join("inline.json");
    std::fs::write(&inline, r#"{"rule_set": "slide", "width": 3, "height": 3}"#).unwrap();
    ok(&["pack", "add", pack, inline.to_str().unwrap(), "--inline", "--title", "Inline"]);
    let text = std::fs::read_to_string(pack).unwrap();
    assert!(text.contains("\"level\": \"l0.json\""), "paths relative to the pack: {text}");
    assert!(text.contains("\"win_rate\": [\n          0.4,"), "{text}");
    let list = ok(&["pack", "list", pack]);
    let order: Vec<&str> = list.lines().skip(1).map(|l| l.split(" [").next().unwrap().trim()).collect();
    assert_eq!(
        order,
        ["1. First (l2.json)", "2. l0.json", "3. l1.json", "4. Inline (inline level)"],
        "{list}"
    );
    ok(&["pack", "move", pack, "4", "1"]);
    ok(&["pack", "remove", pack, "3"]);
    let list = ok(&["pack", "list", pack]);
    assert!(list.starts_with("Campaign (3 levels)"), "{list}");
    let order: Vec<&str> = list.lines().skip(1).map(|l| l.split(" [").next().unwrap().trim()).collect();
    assert_eq!(order, ["1. Inline (inline level)", "2. First (l2.json)", "3. l1.json"]);
    // Bad edits: exit 2, the file unchanged.
    let before = std::fs::read(pack).unwrap();
    for args in [
        vec!["pack", "add", pack, &levels[1]],
        vec!["pack", "add", pack, "nowhere.json"],
        vec!["pack", "remove", pack, "9"],
        vec!["pack", "move", pack, "0", "1"],
        vec!["pack", "add", pack, &levels[0], "--target", "0.9-0.1"],
    ] {
        let out = tessera(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(pack).unwrap(), before, "{args:?}");
    }
    assert!(
        stderr(&tessera(&["pack", "add", pack, &levels[1]], "")).contains("entries 3 and 4 are both l1.json")
    );
}

#[test]
fn every_broken_pack_fails_naming_the_entry() {
    for (file, expected) in [
        ("unknown_field.json", &["entry 2", "titel"][..]),
        ("missing_level.json", &["entry 2 (Gone)", "does not exist"]),
        ("duplicate.json", &["entries 1 and 3"]),
        ("bad_band.json", &["entry 1", "low one first"]),
        ("bad_level.json", &["entry 1 (Ragged)", "ragged_board.json", "row 1"]),
    ] {
        let path = format!("fixtures/bad/packs/{file}");
        let out = tessera(&["pack", "list", &path], "");
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = stderr(&out);
        assert!(err.contains(&path), "{file}: {err}");
        for e in expected {
            assert!(err.contains(e), "{file}: {err}");
        }
    }
}

/// The fixture pack copied to a scratch folder with its levels (so results are written there).
fn fixture_copy(name: &str) -> String {
    let dir = scratch(name);
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    for l in ["classic.json", "collapse_center_board.json", "sokoban.json", "match3_locks.json"] {
        std::fs::copy(workspace().join("fixtures/levels").join(l), levels.join(l)).unwrap();
    }
    let packs = dir.join("packs");
    std::fs::create_dir_all(&packs).unwrap();
    std::fs::copy(workspace().join("fixtures/packs/first-steps.json"), packs.join("first-steps.json"))
        .unwrap();
    packs.join("first-steps.json").to_str().unwrap().to_string()
}

const RATE: [&str; 8] = ["--bot", "random", "--bot", "collapse=greedy", "--games", "6", "--max-moves", "300"];

#[test]
fn rate_then_report_as_text_json_csv_and_html() {
    let pack = fixture_copy("pack-rate");
    let mut args = vec!["pack", "rate", &pack];
    args.extend(RATE);
    args.extend(["--jobs", "2"]);
    let said = ok(&args);
    assert!(said.contains("rated 5 of 5 levels"), "{said}");
    let results = pack.replace(".json", ".results.json");
    let first = std::fs::read(&results).unwrap();
    assert!(ok(&args).contains("rated 0 of 5 levels (5 already rated)"));
    assert_eq!(std::fs::read(&results).unwrap(), first);

    let json: serde_json::Value = serde_json::from_str(&ok(&["pack", "report", &pack, "--json"])).unwrap();
    let entries = json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 5);
    assert_eq!(entries[1]["rating"]["bot"], "greedy", "collapse=greedy");
    assert_eq!(entries[0]["rating"]["bot"], "random");
    assert_eq!(entries[0]["rating"]["games"], 6);
    // Sokoban's random bot does not solve Original 1: below its 50-100 % band.
    assert!(entries[3]["flags"].as_array().unwrap().iter().any(|f| f == "outside_band"), "{json}");
    let csv = ok(&["pack", "report", &pack, "--csv"]);
    assert_eq!(csv.lines().count(), 6);
    assert!(csv.starts_with("index,title,level,rule_set"));
    let html = dir_of(&pack).join("report.html");
    ok(&["pack", "report", &pack, "--html", "--out", html.to_str().unwrap()]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("First steps") && !page.contains("<script"));
    assert!(page.contains("class=\"band\""), "target bands drawn");
    let text = ok(&["pack", "report", &pack]);
    assert!(text.contains("outside the target band"), "{text}");
    // Issue 63.12: "moves median 124 target 0–20 %" ran together.
    let banded = text.lines().find(|l| l.contains("target ")).expect("a level with a target band");
    assert!(banded.contains(" · target "), "{banded}");
    assert_eq!(tessera(&["pack", "report", &pack, "--check"], "").status.code(), Some(1));
}

fn dir_of(pack: &str) -> std::path::PathBuf {
    Path::new(pack).parent().unwrap().to_path_buf()
}

#[test]
fn shards_merged_in_any_order_write_the_one_machine_bytes() {
    let one = fixture_copy("pack-one");
    let mut args = vec!["pack", "rate", &one, "--unit-games", "2"];
    args.extend(RATE);
    ok(&args);
    let expected = std::fs::read(one.replace(".json", ".results.json")).unwrap();

    let pack = fixture_copy("pack-shards");
    let dir = dir_of(&pack);
    let shard_files: Vec<String> =
        (0..3).map(|k| dir.join(format!("shard-{k}.json")).to_str().unwrap().to_string()).collect();
    for (k, file) in shard_files.iter().enumerate() {
        let shard = format!("{k}/3");
        let mut args = vec!["pack", "rate", &pack, "--unit-games", "2", "--shard", &shard, "--out", file];
        args.extend(RATE);
        let out = tessera(&args, "");
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let results = pack.replace(".json", ".results.json");
    for order in [[2, 0, 1], [1, 2, 0]] {
        let _ = std::fs::remove_file(&results);
        let mut args = vec!["pack", "merge", &pack];
        args.extend(order.iter().map(|&i| shard_files[i].as_str()));
        ok(&args);
        assert_eq!(std::fs::read(&results).unwrap(), expected, "order {order:?}");
    }
    // A missing shard, a shard twice, a bad shard argument.
    let _ = std::fs::remove_file(&results);
    let out = tessera(&["pack", "merge", &pack, &shard_files[0], &shard_files[1]], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing shards: 2/3"), "{}", stderr(&out));
    assert!(!Path::new(&results).exists(), "nothing written");
    let mut args = vec!["pack", "rate", &pack, "--shard", "3/3", "--out", "x.json"];
    args.extend(RATE);
    let out = tessera(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--shard 3/3"), "{}", stderr(&out));
    let out = tessera(&["pack", "merge", &pack, "fixtures/levels/classic.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a pack shard file"), "{}", stderr(&out));
}

/// The moves median `pack report --json` gives entry `k` (from 0).
fn json_median(pack: &str, k: usize) -> u64 {
    let json: serde_json::Value = serde_json::from_str(&ok(&["pack", "report", pack, "--json"])).unwrap();
    json["entries"][k]["rating"]["moves_median"].as_u64().expect("a moves median")
}

/// Issue 28.2: a level that cannot be won, and games stopped by `--max-moves`, are said as such
/// (not as 0 % and a moves median of the cap) and flagged; the cap is out of the moves chart.
#[test]
fn levels_that_cannot_be_won_or_hit_the_move_cap_are_said_and_flagged() {
    let dir = scratch("pack-cap");
    let pack = dir.join("p.json");
    let pack = pack.to_str().unwrap();
    let endless = dir.join("endless.json");
    std::fs::write(
        &endless,
        r#"{"rule_set": "match3", "config": {"breeds": 5}, "seed": 1, "width": 6, "height": 6}"#,
    )
    .unwrap();
    let short = level(&dir, "short.json", 2);
    ok(&["pack", "new", pack]);
    ok(&["pack", "add", pack, endless.to_str().unwrap(), "--title", "Endless", "--target", "40%-70%"]);
    ok(&["pack", "add", pack, "fixtures/levels/classic.json", "--title", "Capped"]);
    ok(&["pack", "add", pack, &short, "--title", "Short"]);
    ok(&["pack", "rate", pack, "--bot", "random", "--games", "4", "--max-moves", "20"]);

    let text = ok(&["pack", "report", pack]);
    let line = |title: &str| text.lines().find(|l| l.contains(title)).unwrap_or_default().to_string();
    assert!(line("Endless").contains("cannot be won: no objective"), "{text}");
    // Issue 63.12: the target band apart from the figures before it.
    assert!(line("Endless").contains("(no win rate) · target 40–70 %"), "{text}");
    assert!(!line("Endless").contains("0.0 %") && !line("Endless").contains("outside"), "{text}");
    assert!(line("Capped").contains("4 of 4 games hit the move cap (20)"), "{text}");
    assert!(!line("Short").contains("<-"), "{text}");
    // Issue 36.8: the text gives each rated level's moves median too, the cap said as such.
    assert!(line("Capped").contains("moves median at the move cap (20)"), "{text}");
    let median = json_median(pack, 2);
    assert!(line("Short").contains(&format!("moves median {median}")), "{text}");
    let list = ok(&["pack", "list", pack]);
    assert!(list.contains("moves median at the move cap (20)"), "{list}");
    assert!(!list.contains("moves median 20"), "{list}");

    let json: serde_json::Value = serde_json::from_str(&ok(&["pack", "report", pack, "--json"])).unwrap();
    assert_eq!(json["entries"][0]["flags"], serde_json::json!(["no_objective"]));
    assert_eq!(json["entries"][1]["flags"], serde_json::json!(["move_cap"]));
    assert_eq!(json["entries"][1]["rating"]["capped"], 4);
    assert_eq!(tessera(&["pack", "report", pack, "--check"], "").status.code(), Some(1));

    let html = ok(&["pack", "report", pack, "--html"]);
    assert!(html.contains("cannot be won: no objective") && html.contains("median at the move cap (20)"));
    // The moves chart's scale is the short level's median, not the cap.
    let moves_svg =
        html.split("aria-label=\"moves by level\"").nth(1).unwrap().split("</svg>").next().unwrap();
    assert!(!moves_svg.contains(">20</text>"), "{moves_svg}");
}

/// Issue 27: a pack of PuzzleScript levels (a game's levels converted to files) rates like any
/// other: each level's win rate, and its puzzle measure by the PuzzleScript solver in the
/// results file.
#[test]
fn a_pack_of_puzzlescript_levels_rates_with_the_solver_s_figures() {
    let dir = scratch("pack-ps");
    let out = dir.join("levels");
    ok(&["convert", "puzzlescript", "fixtures/games/warehouse.txt", out.to_str().unwrap()]);
    let pack = dir.join("warehouse.json");
    let pack = pack.to_str().unwrap();
    ok(&["pack", "new", pack, "--name", "Warehouse"]);
    for n in 1..=3 {
        let level = out.join(format!("warehouse-{n:03}.json"));
        ok(&["pack", "add", pack, level.to_str().unwrap(), "--title", &format!("Warehouse {n}")]);
    }
    let said =
        ok(&["pack", "rate", pack, "--bot", "puzzlescript-solver", "--games", "2", "--max-moves", "200"]);
    assert!(said.contains("rated 3 of 3 levels"), "{said}");
    // The results hold each level's puzzle measure: the solver's steps and states.
    let results = std::fs::read_to_string(pack.replace(".json", ".results.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    let figure = |r: &serde_json::Value, name: &str| {
        let figures = r["puzzle"]["figures"].as_array().unwrap();
        figures.iter().find(|f| f["name"] == name).unwrap()["value"].as_u64().unwrap()
    };
    let ratings = results["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    let json: serde_json::Value = serde_json::from_str(&ok(&["pack", "report", pack, "--json"])).unwrap();
    let entries = json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    for (k, e) in entries.iter().enumerate() {
        assert_eq!(e["rating"]["bot"], "puzzlescript-solver", "{e}");
        assert_eq!(e["rating"]["win_rate"], 1.0, "the solver's solution wins: {e}");
        // The ratings are by level hash, in any order: the one of this entry.
        let r = ratings.iter().find(|r| r["key"]["level_hash"] == e["level_hash"]).expect("its rating");
        assert_eq!(r["puzzle"]["outcome"], "solved", "level {k}: {r}");
        assert_eq!(e["rating"]["moves_median"].as_u64(), Some(figure(r, "steps")), "level {k}: {r}");
        assert!(figure(r, "nodes") >= 1, "{r}");
    }
    assert_eq!(
        entries.iter().map(|e| e["rating"]["moves_median"].as_u64().unwrap()).collect::<Vec<_>>(),
        [2, 20, 11]
    );
    let text = ok(&["pack", "report", pack]);
    assert!(text.contains("Warehouse 2") && text.contains("100.0 %"), "{text}");
}

/// Issue 36.10: `pack add PACK GAME.txt --number N` adds a PuzzleScript game's level (it was
/// read as JSON: "line 1, column 2: expected ident"), as `solve`, `bot` and `difficulty` open it;
/// the level goes in the pack, titled after the game, and is the level `play` opens.
#[test]
fn pack_add_takes_a_game_s_level_by_number() {
    let dir = scratch("pack-add-game");
    let pack = dir.join("warehouse.json");
    let pack = pack.to_str().unwrap();
    let game = workspace().join("fixtures/games/warehouse.txt");
    let game = game.to_str().unwrap();
    ok(&["pack", "new", pack]);
    let said = ok(&["pack", "add", pack, game, "--number", "2"]);
    assert!(said.contains("added 1 level at position 1"), "{said}");
    ok(&["pack", "add", pack, game, "--number", "3", "--title", "Third"]);
    let list = ok(&["pack", "list", pack]);
    let order: Vec<&str> = list.lines().skip(1).map(|l| l.split(" [").next().unwrap().trim()).collect();
    assert_eq!(order, ["1. warehouse.txt level 2 (inline level)", "2. Third (inline level)"], "{list}");
    // The entries are the game's levels 2 and 3: the same hashes as the files `convert` writes.
    let out = dir.join("levels");
    ok(&["convert", "puzzlescript", game, out.to_str().unwrap()]);
    let files = dir.join("files.json");
    let files = files.to_str().unwrap();
    ok(&["pack", "new", files]);
    for n in [2, 3] {
        ok(&["pack", "add", files, out.join(format!("warehouse-{n:03}.json")).to_str().unwrap()]);
    }
    let hashes = |pack: &str| -> Vec<serde_json::Value> {
        let json: serde_json::Value = serde_json::from_str(&ok(&["pack", "list", pack, "--json"])).unwrap();
        json["entries"].as_array().unwrap().iter().map(|e| e["level_hash"].clone()).collect()
    };
    let (inline, converted) = (hashes(pack), hashes(files));
    assert!(inline.iter().all(|h| h.is_string()), "{inline:?}");
    assert_eq!(inline, converted);
    // Bad: a level the game does not have, several levels with no --number, --number on a JSON
    // level: exit 2, the pack unchanged.
    let before = std::fs::read(pack).unwrap();
    let json_level = level(&dir, "l.json", 2);
    for (args, said) in [
        (vec!["pack", "add", pack, game, "--number", "9"], "--number 9: the game has 3 levels"),
        (vec!["pack", "add", pack, game], "choose one with --number 1..3"),
        (
            vec!["pack", "add", pack, &json_level, "--number", "1"],
            "--number picks a level of a PuzzleScript game",
        ),
    ] {
        let out = tessera(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(pack).unwrap(), before, "{args:?}");
    }
}
