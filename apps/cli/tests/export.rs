//! `tessera export`: the game as one web page, and that page played in a real browser.
//!
//! The browser test needs Debian's chromium, Node.js with puppeteer-core (`npm install --prefix
//! target/web/node puppeteer-core`, or on `NODE_PATH`) and a WebAssembly toolchain for
//! `crates/web/build.sh` (`.ci/run` installs all of them); without one of them it says which and
//! passes without running.

use super::{scratch, stderr, tessera, workspace};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The chorus fixture's solutions (found by `tessera solve`), level by level.
const SOLUTIONS: [&[&str]; 3] = [
    &["right", "right"],
    &[
        "left", "up", "right", "right", "right", "left", "left", "down", "down", "right", "up", "right",
        "right", "left", "up", "up", "left", "down", "right", "down", "down", "left", "left", "up", "right",
        "right",
    ],
    &["down", "down", "right", "right", "up", "up", "left", "down", "left", "down", "right"],
];

#[test]
fn export_without_a_built_player_names_the_command_that_builds_it() {
    let dir = scratch("export-no-player");
    let out = dir.join("chorus.html");
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["export", "fixtures/games/chorus.txt", "--html"])
        .arg(&out)
        .current_dir(workspace())
        .env("TESSERA_WEB_WASM", dir.join("missing.wasm"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the web player is not built"), "{}", stderr(&o));
    assert!(stderr(&o).contains("`crates/web/build.sh`"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written");
}

#[test]
fn export_refuses_a_game_that_does_not_compile_and_writes_nothing() {
    let dir = scratch("export-bad-game");
    let wasm = dir.join("fake.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "title broken\n\nOBJECTS\n\nPlayer\nnotacolour\n").unwrap();
    let out = dir.join("bad.html");
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["export"])
        .arg(&bad)
        .arg("--html")
        .arg(&out)
        .env("TESSERA_WEB_WASM", &wasm)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.txt"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Why the browser test cannot run here, if it cannot.
fn browser_missing() -> Option<String> {
    if !Path::new("/usr/bin/chromium").is_file() && std::env::var_os("TESSERA_CHROMIUM").is_none() {
        return Some("no /usr/bin/chromium (apt-get install -y chromium)".into());
    }
    node_missing()
}

/// Why the Firefox browser test cannot run here, if it cannot.
fn firefox_missing() -> Option<String> {
    if !Path::new("/usr/bin/firefox-esr").is_file() && std::env::var_os("TESSERA_FIREFOX").is_none() {
        return Some("no /usr/bin/firefox-esr (apt-get install -y firefox-esr)".into());
    }
    node_missing()
}

/// Why node and puppeteer-core cannot drive a browser here, if they cannot.
fn node_missing() -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Some("no node (apt-get install -y nodejs)".into());
    }
    let found = Command::new("node")
        .args(["-e", "require.resolve('puppeteer-core')"])
        .env("NODE_PATH", node_path())
        .output();
    if !found.is_ok_and(|o| o.status.success()) {
        return Some("no puppeteer-core (npm install --prefix target/web/node puppeteer-core)".into());
    }
    None
}

fn node_path() -> String {
    let ours = workspace().join("target/web/node/node_modules");
    match std::env::var("NODE_PATH") {
        Ok(p) if !p.is_empty() => format!("{}:{p}", ours.display()),
        _ => ours.display().to_string(),
    }
}

/// One browser at a time: three side by side on two cores (with the rest of the tests) slowed a
/// key's down-to-up past the game's key_repeat_interval, and the page rightly repeated it.
fn one_browser() -> std::sync::MutexGuard<'static, ()> {
    static BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());
    BROWSER.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Builds the web player (incrementally); `Err` with why when there is no toolchain.
fn build_player() -> Result<PathBuf, String> {
    // One build at a time: the browser tests run side by side and share target/web.
    static BUILD: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = BUILD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let o = Command::new(workspace().join("crates/web/build.sh")).output().map_err(|e| e.to_string())?;
    match o.status.code() {
        Some(0) => Ok(workspace().join("target/web/tessera_web.wasm")),
        Some(2) => Err(String::from_utf8_lossy(&o.stderr).into_owned()),
        _ => panic!("crates/web/build.sh failed:\n{}", String::from_utf8_lossy(&o.stderr)),
    }
}

/// The key a command is pressed with.
fn key(command: &str) -> &'static str {
    match command {
        "up" => "ArrowUp",
        "down" => "KeyS",
        "left" => "ArrowLeft",
        "right" => "KeyD",
        "action" => "KeyX",
        other => panic!("no key for {other}"),
    }
}

fn keys(commands: &[&str]) -> serde_json::Value {
    serde_json::json!({ "keys": commands.iter().map(|c| key(c)).collect::<Vec<_>>() })
}

/// The state hash `tessera play --json` prints after `commands` on the chorus fixture's level
/// `number` from `seed`.
fn cli_hash(number: usize, seed: &str, commands: &[&str], dir: &Path) -> String {
    cli_hash_of("fixtures/games/chorus.txt", number, seed, commands, dir)
}

/// The state hash `tessera play --json` prints after `commands` on `game`'s level `number`.
fn cli_hash_of(game: &str, number: usize, seed: &str, commands: &[&str], dir: &Path) -> String {
    let script = dir.join(format!("commands-{number}-{}.txt", commands.len()));
    std::fs::write(&script, commands.join("\n") + "\n").unwrap();
    let n = number.to_string();
    let s = script.display().to_string();
    let o =
        tessera(&["play", game, "--number", &n, "--seed", seed, "--commands", &s, "--json", "--quiet"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    // With --quiet the last line is the summary.
    let hash = last.get("hash").unwrap_or(&last["summary"]["hash"]);
    hash.as_str().unwrap_or_else(|| panic!("no hash in {last}")).to_string()
}

/// Issue 62's browser test: the exported chorus fixture opened from disk in headless chromium and
/// played by key presses through its three levels, with its messages, an undo and a restart; its
/// hashes are the CLI's, its screenshots show the game's colours, and the session log downloaded
/// with L verifies and replays to the page's hash.
#[test]
fn an_exported_game_plays_in_a_real_browser() {
    if let Some(why) = browser_missing() {
        eprintln!("skipped: the browser test needs chromium, node and puppeteer-core: {why}");
        return;
    }
    plays_through("chromium");
}

/// The same test in Firefox (Debian's firefox-esr, driven by puppeteer-core over WebDriver
/// BiDi): the page plays the same, to the same hashes, and its log downloads and verifies.
#[test]
fn an_exported_game_plays_in_firefox() {
    if let Some(why) = firefox_missing() {
        eprintln!("skipped: the Firefox test needs firefox-esr, node and puppeteer-core: {why}");
        return;
    }
    plays_through("firefox");
}

/// The browser test's body, in `browser` (`chromium` or `firefox`).
fn plays_through(browser: &str) {
    let _one = one_browser();
    let wasm = match build_player() {
        Ok(w) => w,
        Err(why) => {
            eprintln!("skipped: no WebAssembly toolchain to build the web player: {why}");
            return;
        }
    };
    let dir = scratch(&format!("export-browser-{browser}"));
    let html = dir.join("chorus.html");
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["export", "fixtures/games/chorus.txt", "--html"])
        .arg(&html)
        .current_dir(workspace())
        .env("TESSERA_WEB_WASM", &wasm)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let size = std::fs::metadata(&html).unwrap().len();
    assert!(size < 1_500_000, "the page is {size} bytes");

    let (two, last2) = SOLUTIONS[1].split_at(SOLUTIONS[1].len() - 1);
    let steps = vec![
        serde_json::json!({"screenshot": "title"}),
        serde_json::json!({"record": "title"}),
        serde_json::json!({"keys": ["KeyX"]}),
        serde_json::json!({"record": "message1"}),
        serde_json::json!({"keys": ["Space"]}),
        serde_json::json!({"wait": "level", "equals": 1}),
        serde_json::json!({"screenshot": "level1"}),
        keys(SOLUTIONS[0]),
        serde_json::json!({"wait": "won", "includes": 1}),
        serde_json::json!({"wait": "level", "equals": 2}),
        // A step, undone (Z); two steps, restarted (R): then the solution.
        keys(&["left"]),
        serde_json::json!({"keys": ["KeyZ"]}),
        serde_json::json!({"record": "undone"}),
        keys(&["left", "up"]),
        serde_json::json!({"keys": ["KeyR"]}),
        serde_json::json!({"record": "restarted"}),
        keys(two),
        serde_json::json!({"record": "before_last"}),
        keys(last2),
        serde_json::json!({"wait": "won", "includes": 2}),
        serde_json::json!({"wait": "screen", "equals": "message"}),
        serde_json::json!({"record": "message2"}),
        serde_json::json!({"screenshot": "message2"}),
        serde_json::json!({"download": "level2"}),
        // (X, as the message says: the key Firefox sends after a download reaches the page too)
        serde_json::json!({"keys": ["KeyX"]}),
        serde_json::json!({"wait": "level", "equals": 3}),
        keys(SOLUTIONS[2]),
        serde_json::json!({"wait": "won", "includes": 3}),
        serde_json::json!({"wait": "screen", "equals": "end"}),
        serde_json::json!({"record": "end"}),
    ];
    let plan = dir.join("plan.json");
    std::fs::write(&plan, serde_json::json!({ "steps": steps }).to_string()).unwrap();
    let o = Command::new("node")
        .arg(workspace().join("crates/web/tests/browser.mjs"))
        .arg(&html)
        .arg(&plan)
        .arg(dir.join("out"))
        .env("NODE_PATH", node_path())
        .env("TESSERA_BROWSER", browser)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let r: serde_json::Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("the driver's output is not JSON ({e}): {text}\n{}", stderr(&o)));
    assert!(o.status.success() && r.get("failure").is_none(), "{r:#}");
    assert_eq!(r["errors"], serde_json::json!([]), "the page's errors");
    assert_eq!(r["requests"], serde_json::json!([]), "no network");
    eprintln!(
        "{} ({browser}): page {size} bytes, first frame {} ms after navigation",
        r["version"], r["firstFrameMs"]
    );

    let rec = &r["records"];
    assert_eq!(rec["title"]["level"], 0);
    assert_eq!(rec["message1"]["level"], 0, "a message is not a level");
    assert_eq!(rec["message1"]["screen"], "message");
    // Level 2: the page's hashes are the CLI's, from the seed the page drew.
    let seed = rec["before_last"]["seed"].as_str().unwrap().to_string();
    assert_eq!(rec["undone"]["hash"].as_str().unwrap(), cli_hash(2, &seed, &[], &dir), "undo: the start");
    assert_eq!(
        rec["restarted"]["hash"].as_str().unwrap(),
        cli_hash(2, &seed, &["left", "up", "restart"], &dir)
    );
    assert_eq!(rec["before_last"]["level"], 2);
    let mut line = vec!["left", "up", "restart"];
    line.extend(two);
    assert_eq!(rec["before_last"]["hash"].as_str().unwrap(), cli_hash(2, &seed, &line, &dir));
    line.extend(last2);
    let won2 = cli_hash(2, &seed, &line, &dir);
    assert_eq!(rec["message2"]["level"], 0);
    assert_eq!(rec["message2"]["results"][1], serde_json::json!({"level": 2, "hash": won2}));
    assert_eq!(rec["message2"]["hash"].as_str(), Some(won2.as_str()), "the level won stays the level played");
    assert_eq!(rec["end"]["won"], serde_json::json!([1, 2, 3]));
    assert_eq!(rec["end"]["screen"], "end");

    // The screenshots: the title's text on the default black; level 1 in the game's own colours.
    let colours = |name: &str| r["screenshots"][name]["colours"].as_object().unwrap().clone();
    let title = colours("title");
    assert!(title["#000000"].as_u64().unwrap() > 400_000, "{title:?}");
    assert!(title.get("#ffffff").is_some_and(|n| n.as_u64().unwrap() > 100), "white text: {title:?}");
    let level1 = colours("level1");
    for (c, what) in [
        ("#1d1d2b", "background"),
        ("#6b4f3a", "wall"),
        ("#b7791f", "crate"),
        ("#2b6cb0", "player"),
        ("#d4a017", "target"),
    ] {
        assert!(
            level1.get(c).is_some_and(|n| n.as_u64().unwrap() >= 100),
            "no {what} ({c}) in level 1: {level1:?}"
        );
    }

    // Sounds: start of level, end of level, undo, restart, message, as the game declares them.
    let sounds: Vec<&str> = r["sounds"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    for (seed, what) in [
        ("96617908", "startgame"),
        ("50317500", "startlevel"),
        ("25819101", "endlevel"),
        ("45058102", "undo"),
        ("40087903", "restart"),
        ("95464904", "showmessage"),
        ("70112709", "endgame"),
    ] {
        assert!(sounds.contains(&seed), "no {what} sound ({seed}) in {sounds:?}");
    }

    // The downloaded log: verifies, and replays to the page's hash.
    let log = r["downloads"]["level2"]["file"].as_str().unwrap().to_string();
    assert_eq!(r["downloads"]["level2"]["name"], "warehouse-chorus-level2.tlog");
    let o = tessera(&["replay", "verify", &log], "");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    let o = tessera(&["replay", "show", &log, "--json"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let shown: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(shown["hash"].as_str(), Some(won2.as_str()), "{shown}");
    let o = tessera(&["replay", "info", &log], "");
    let info = String::from_utf8_lossy(&o.stdout);
    assert!(info.contains(&format!("seed:              {seed}")), "{info}");
    assert!(info.contains(&format!("steps:             {}", line.len())), "{info}");
}

/// A game of one level with a `checkpoint`: the flag two steps right of the player sets one.
const CHECKPOINT_GAME: &str = "title Checkpoint\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\n\
    Wall\ngrey\n\nPlayer\nwhite\n\nFlag\nyellow\n\nGoal\ngreen\n\n=======\nLEGEND\n=======\n\n\
    . = Background\n# = Wall\nP = Player\nF = Flag\nG = Goal\n\n=======\nSOUNDS\n=======\n\n\
    ================\nCOLLISIONLAYERS\n================\n\nBackground\nFlag, Goal\nPlayer, Wall\n\n\
    ======\nRULES\n======\n\nlate [ Player Flag ] -> [ Player ] checkpoint\n\n\
    ==============\nWINCONDITIONS\n==============\n\nsome Player on Goal\n\n=======\nLEVELS\n=======\n\n\
    #########\n#P.F...G#\n#########\n";

/// Issue 62.3 in a real browser: keys pressed while `again` turns are on screen are played
/// after them, in order (chorus: Action's spark fades in an `again` turn; Right pressed at
/// once still moves); a checkpoint is kept between visits (the page loaded again, Continue:
/// the checkpoint's board, which is the CLI's after the same line and a restart, and undo
/// stops there), as PuzzleScript keeps them.
#[test]
fn queued_keys_and_checkpoints_kept_between_visits_in_a_real_browser() {
    if let Some(why) = browser_missing() {
        eprintln!("skipped: the browser test needs chromium, node and puppeteer-core: {why}");
        return;
    }
    let _one = one_browser();
    let wasm = match build_player() {
        Ok(w) => w,
        Err(why) => {
            eprintln!("skipped: no WebAssembly toolchain to build the web player: {why}");
            return;
        }
    };
    let dir = scratch("export-browser-queue");
    let export = |game: &Path, html: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .arg("export")
            .arg(game)
            .arg("--html")
            .arg(html)
            .current_dir(workspace())
            .env("TESSERA_WEB_WASM", &wasm)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let run = |html: &Path, steps: Vec<serde_json::Value>, name: &str| -> serde_json::Value {
        let plan = dir.join(format!("{name}.json"));
        std::fs::write(&plan, serde_json::json!({ "steps": steps }).to_string()).unwrap();
        let o = Command::new("node")
            .arg(workspace().join("crates/web/tests/browser.mjs"))
            .arg(html)
            .arg(&plan)
            .arg(dir.join(name))
            .env("NODE_PATH", node_path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let r: serde_json::Value = serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("the driver's output is not JSON ({e}): {text}\n{}", stderr(&o)));
        assert!(o.status.success() && r.get("failure").is_none(), "{r:#}");
        assert_eq!(r["errors"], serde_json::json!([]), "the page's errors");
        r
    };

    // Queued keys: X (a spark, then its again turn), D pressed at once, before the turn shows.
    let chorus = dir.join("chorus.html");
    export(&workspace().join("fixtures/games/chorus.txt"), &chorus);
    let r = run(
        &chorus,
        vec![
            serde_json::json!({"keys": ["KeyX", "Space"]}),
            serde_json::json!({"wait": "level", "equals": 1}),
            serde_json::json!({"keys": ["KeyX", "KeyD"], "nowait": true}),
            serde_json::json!({"record": "pressed"}),
            serde_json::json!({"sleep": 1500}),
            serde_json::json!({"record": "after"}),
        ],
        "queue",
    );
    let rec = &r["records"];
    assert_eq!(rec["pressed"]["waiting"], 1, "D waits for the again turn: {rec}");
    let seed = rec["after"]["seed"].as_str().unwrap().to_string();
    assert_eq!(rec["after"]["waiting"], 0);
    assert_eq!(
        rec["after"]["hash"].as_str().unwrap(),
        cli_hash(1, &seed, &["action", "right"], &dir),
        "the key pressed during the again turn was played after it"
    );

    // Checkpoints kept between visits.
    let game = dir.join("checkpoint.txt");
    std::fs::write(&game, CHECKPOINT_GAME).unwrap();
    let html = dir.join("checkpoint.html");
    export(&game, &html);
    let r = run(
        &html,
        vec![
            serde_json::json!({"keys": ["KeyX"]}),
            serde_json::json!({"wait": "level", "equals": 1}),
            serde_json::json!({"keys": ["KeyD", "KeyD", "KeyD"]}),
            serde_json::json!({"record": "played"}),
            serde_json::json!({"reload": true}),
            serde_json::json!({"record": "title"}),
            serde_json::json!({"keys": ["KeyX"]}),
            serde_json::json!({"wait": "level", "equals": 1}),
            serde_json::json!({"record": "continued"}),
            serde_json::json!({"keys": ["KeyZ"]}),
            serde_json::json!({"record": "undo"}),
            serde_json::json!({"keys": ["KeyD"]}),
            serde_json::json!({"keys": ["KeyR"]}),
            serde_json::json!({"record": "restarted"}),
        ],
        "checkpoint",
    );
    let rec = &r["records"];
    let g = game.display().to_string();
    let seed = rec["played"]["seed"].as_str().unwrap().to_string();
    assert_eq!(rec["played"]["hash"].as_str().unwrap(), cli_hash_of(&g, 1, &seed, &["right"; 3], &dir));
    assert_eq!(rec["title"]["screen"], "title");
    assert!(rec["title"]["choices"].to_string().contains("continue"), "{}", rec["title"]);
    // The checkpoint's board: the player on the flag's cell, the flag gone.
    let at_checkpoint = cli_hash_of(&g, 1, &seed, &["right", "right", "right", "restart"], &dir);
    assert_eq!(rec["continued"]["seed"].as_str(), Some(seed.as_str()), "the level's kept seed");
    assert_eq!(rec["continued"]["hash"].as_str(), Some(at_checkpoint.as_str()));
    assert_ne!(at_checkpoint, cli_hash_of(&g, 1, &seed, &[], &dir), "not the level's start");
    assert_eq!(rec["undo"]["hash"].as_str(), Some(at_checkpoint.as_str()), "nothing before it to undo");
    assert_eq!(rec["restarted"]["hash"].as_str(), Some(at_checkpoint.as_str()), "restart goes back to it");
}
