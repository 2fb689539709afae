//! `tessera range`, `tessera path` and `tessera path-bench` on tactics levels and Moving AI files
//! generated in a scratch directory (no dependency on `../shared`).

use crate::{json_lines, scratch, stderr, tessera};

/// A 6×4 Moving AI map with a wall that forces detours.
const MAP: &str = "type octile\nheight 4\nwidth 6\nmap\n......\n.@@@..\n...@..\nT.....\n";

/// Problems on `MAP` with their optimal octile lengths (straight 1, diagonal √2, no corner
/// cutting), worked out by hand.
const SCEN: &str = "version 1\n\
0\tt.map\t6\t4\t0\t0\t5\t0\t5\n\
0\tt.map\t6\t4\t0\t0\t0\t2\t2\n\
0\tt.map\t6\t4\t0\t2\t5\t3\t5.41421356\n\
0\tt.map\t6\t4\t0\t0\t2\t2\t4\n";

fn files(name: &str, scen: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(name);
    let (map, sc) = (dir.join("t.map"), dir.join("t.map.scen"));
    std::fs::write(&map, MAP).unwrap();
    std::fs::write(&sc, scen).unwrap();
    (map, sc)
}

#[test]
fn path_bench_reports_every_problem_as_json() {
    let (map, scen) = files("bench-ok", SCEN);
    let out = tessera(&["path-bench", map.to_str().unwrap(), scen.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["problems"], 4);
    assert_eq!(v["mismatches"], 0);
    assert!(v["total_ms"].as_f64().unwrap() >= 0.0);
    assert!(v["mean_us"].as_f64().unwrap() >= 0.0);
    let text = tessera(&["path-bench", map.to_str().unwrap(), scen.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("problems: 4\nmismatches: 0\n"), "{text}");
}

#[test]
fn path_bench_exits_1_on_a_wrong_optimal_length() {
    let (map, scen) = files("bench-mismatch", &SCEN.replace("\t5.41421356\n", "\t5\n"));
    let out = tessera(&["path-bench", map.to_str().unwrap(), scen.to_str().unwrap(), "--json"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mismatches"], 1);
    assert!(stderr(&out).contains("line 4"), "{}", stderr(&out));
}

#[test]
fn path_bench_exits_2_on_bad_files_naming_the_line() {
    let (map, scen) = files("bench-bad", "version 1\n0\tt.map\t6\t4\t0\t0\n");
    let out = tessera(&["path-bench", map.to_str().unwrap(), scen.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("t.map.scen: line 2: expected 9 tab-separated fields"), "{}", stderr(&out));
    // A start on a blocked cell.
    let (map, scen) = files("bench-blocked", "version 1\n0\tt.map\t6\t4\t1\t1\t5\t0\t4\n");
    let out = tessera(&["path-bench", map.to_str().unwrap(), scen.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2: start (1, 1) is blocked"), "{}", stderr(&out));
    // A broken map.
    let dir = scratch("bench-badmap");
    std::fs::write(dir.join("b.map"), "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").unwrap();
    let out = tessera(&["path-bench", dir.join("b.map").to_str().unwrap(), scen.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("b.map: line 6: map row 1, column 1: unknown terrain 'x'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn path_on_a_moving_ai_map_goes_round_the_wall() {
    let (map, _) = files("path-map", SCEN);
    let out = tessera(&["path", map.to_str().unwrap(), "0", "2", "5", "3", "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cost"], 5414);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.first().unwrap(), &serde_json::json!([0, 2]));
    assert_eq!(cells.last().unwrap(), &serde_json::json!([5, 3]));
    assert_eq!(v["glyphs"].as_array().unwrap().len(), cells.len() - 1);
    let out = tessera(&["path", map.to_str().unwrap(), "0", "0", "9", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("goal (9, 0) is off the 6x4 map"), "{}", stderr(&out));
}

#[test]
fn path_on_the_skirmish_level_draws_arrows() {
    let out = tessera(&["path", "fixtures/levels/skirmish.json", "1", "1", "11", "14"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("path from (1, 1) to (11, 14): cost 25, 25 steps\n"), "{text}");
    assert!(text.contains('↓'), "{text}");
    let out = tessera(&["path", "fixtures/levels/skirmish.json", "1", "1", "12", "14"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("unit 6 stands on the goal"));
    let out = tessera(&["path", "fixtures/levels/skirmish.json", "1", "1", "11", "14", "--weight", "x"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 12: (6, 1) is a wall; a path from it was returned, the reverse refused. Both are
/// refused now.
#[test]
fn no_path_starts_or_ends_in_a_wall() {
    for (args, why) in
        [(["6", "1", "0", "0"], "the start is impassable"), (["0", "0", "6", "1"], "the goal is impassable")]
    {
        let mut all = vec!["path", "fixtures/levels/skirmish.json"];
        all.extend(args);
        let out = tessera(&all, "");
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("no path from") && text.contains(why), "{args:?}: {text}");
        all.push("--json");
        let v = &json_lines(&tessera(&all, ""))[0];
        assert_eq!(v["cost"], serde_json::Value::Null, "{args:?}");
    }
}

#[test]
fn range_lists_reachable_cells_with_costs() {
    let out = tessera(&["range", "fixtures/levels/skirmish.json", "0", "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["unit"].as_u64(), v["left"].as_u64()), (Some(0), Some(5000)));
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 20);
    assert!(cells.iter().all(|c| c["cost"].as_u64().unwrap() <= 5000));
    // (2, 0) is forest next to plain: 1 + 2.
    assert!(cells.contains(&serde_json::json!({"x": 2, "y": 0, "cost": 3000})));
    let text = tessera(&["range", "fixtures/levels/skirmish.json", "#0"], "");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("unit 0 (team 0) at (1, 1) with 5 of 5 movement left: 20 cells in range\n"),
        "{text}"
    );
    let out = tessera(&["range", "fixtures/levels/skirmish.json", "42"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("there is no unit 42"), "{}", stderr(&out));
    let out = tessera(&["range", "fixtures/levels/classic.json", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a tactics level"), "{}", stderr(&out));
}

#[test]
fn play_moves_units_and_undoes() {
    let script = "move 0 3 2\nundo\nmove 0 3 2\nend-turn\nmove 4 3 14\n";
    let out = tessera(&["play", "fixtures/levels/skirmish.json", "--commands", "-", "--json"], script);
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = crate::json_lines(&out);
    let applied = |s: &&serde_json::Value| s["outcome"] == "applied";
    let moved =
        steps.iter().filter(applied).filter(|s| s["events"].to_string().contains("UnitMoved")).count();
    assert_eq!(moved, 3);
    assert!(steps.iter().any(|s| s["outcome"] == "undone"));
    assert!(steps.iter().any(|s| s["events"].to_string().contains("TurnEnded")));
}

#[test]
fn moving_ai_maps_play_and_convert_as_levels() {
    let (map, _) = files("map-level", SCEN);
    let out = tessera(&["play", map.to_str().unwrap(), "--commands", "-", "--json"], "end-turn\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = crate::json_lines(&out);
    assert_eq!(steps[0]["rule_set"], "tactics");
    let level = map.with_file_name("t.json");
    let out = tessera(&["convert", "movingai", map.to_str().unwrap(), level.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&level).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["rule_set"], "tactics");
    assert_eq!(json["config"]["connectivity"], "eight");
    assert_eq!(json["map"][1], ".@@@..");
    // The converted level answers like the map itself.
    let a = tessera(&["path", map.to_str().unwrap(), "0", "2", "5", "3", "--json"], "");
    let b = tessera(&["path", level.to_str().unwrap(), "0", "2", "5", "3", "--json"], "");
    assert_eq!(a.stdout, b.stdout);
}
