//! Rating: only changed levels are re-rated; threads do not change the bytes; shards merge into
//! exactly the one-machine bytes, in any order (property test); bad merges are refused.

use crate::{scratch, small_level, write_pack};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use tessera_bots::{BotKind, BotSpec, GameConfig};
use tessera_pack::rate::{self, ANY_RULE_SET};
use tessera_pack::{Opened, PackError, Settings, Shard, ShardFile, rate_pack, results_path};

fn settings(games: u64) -> Settings {
    let mut bots = BTreeMap::new();
    bots.insert(ANY_RULE_SET.to_string(), BotSpec::new(BotKind::RANDOM));
    Settings { bots, games, seed: 3, config: GameConfig { max_moves: 200, keep_going: false } }
}

fn rate(path: &Path, games: u64, jobs: usize) -> usize {
    let stop = AtomicBool::new(false);
    rate_pack(path, settings(games), 4, jobs, &stop, &|_| {}).expect("rated").1
}

#[test]
fn re_rating_plays_only_the_levels_that_changed() {
    let dir = scratch("re-rate");
    let path = write_pack(&dir, 4);
    assert_eq!(rate(&path, 6, 2), 4);
    let first = std::fs::read(results_path(&path)).unwrap();
    assert_eq!(rate(&path, 6, 2), 0, "nothing changed");
    assert_eq!(std::fs::read(results_path(&path)).unwrap(), first);
    // Edit level 2: only it is rated again, and its old rating goes (no level has that hash).
    std::fs::write(dir.join("level2.json"), small_level(5)).unwrap();
    assert_eq!(rate(&path, 6, 1), 1);
    let opened = Opened::open(&path).unwrap();
    assert_eq!(opened.results.ratings.len(), 4);
    assert!(opened.entries.iter().all(|e| opened.results.latest(&e.hash, e.rule_set).is_some()));
    // Other settings rate everything again, and keep the first ratings beside them.
    assert_eq!(rate(&path, 5, 2), 4);
    assert_eq!(Opened::open(&path).unwrap().results.ratings.len(), 8);
}

#[test]
fn the_results_file_is_the_same_on_one_and_two_threads() {
    let (a, b) = (scratch("threads-1"), scratch("threads-2"));
    let (pa, pb) = (write_pack(&a, 5), write_pack(&b, 5));
    rate(&pa, 8, 1);
    rate(&pb, 8, 2);
    assert_eq!(std::fs::read(results_path(&pa)).unwrap(), std::fs::read(results_path(&pb)).unwrap());
}

/// The shard files of a pack cut in `count` shards (each through JSON, as a file would be).
fn shards(path: &Path, games: u64, unit: u64, count: u64) -> Vec<(String, ShardFile)> {
    let opened = Opened::open(path).unwrap();
    let plan = opened.plan(path, settings(games), unit).unwrap();
    let stop = AtomicBool::new(false);
    (0..count)
        .map(|index| {
            let s = rate::run(&plan, Shard { index, count }, 1, &stop, &|_| {}).unwrap();
            let text = serde_json::to_string(&s).unwrap();
            (format!("shard-{index}"), serde_json::from_str(&text).unwrap())
        })
        .collect()
}

fn merged(path: &Path, games: u64, unit: u64, shards: &[(String, ShardFile)]) -> Result<String, PackError> {
    let opened = Opened::open(path).unwrap();
    let plan = opened.plan(path, settings(games), unit).unwrap();
    rate::merge(&plan, &opened.results, &opened.entries, shards).map(|r| r.to_json())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any number of shards, any unit size, merged in any order, with some levels already
    /// rated: exactly the bytes of one machine's results file.
    #[test]
    fn shards_merge_into_the_one_machine_bytes(
        levels in 1usize..5,
        games in 1u64..9,
        unit in 1u64..5,
        count in 1u64..7,
        pre_rated in 0usize..3,
        order in Just(()).prop_perturb(|_, mut rng| rng.next_u64()),
    ) {
        let dir = scratch(&format!("prop-{levels}-{games}-{unit}-{count}-{pre_rated}-{order}"));
        let path = write_pack(&dir, levels);
        // Some levels rated before (a pack of the first `pre_rated` levels, same folder).
        if pre_rated > 0 {
            let mut pack = tessera_pack::Pack::read(&path).unwrap();
            pack.entries.truncate(pre_rated.min(levels));
            let sub = dir.join("sub.json");
            pack.save(&sub).unwrap();
            rate_pack(&sub, settings(games), unit, 1, &AtomicBool::new(false), &|_| {}).unwrap();
            std::fs::copy(results_path(&sub), results_path(&path)).unwrap();
        }
        let before = std::fs::read(results_path(&path)).ok();
        let mut parts = shards(&path, games, unit, count);
        // A deterministic shuffle from the drawn `order`.
        let mut x = order | 1;
        for i in (1..parts.len()).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            parts.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let bytes = merged(&path, games, unit, &parts).unwrap();
        rate_pack(&path, settings(games), unit, 2, &AtomicBool::new(false), &|_| {}).unwrap();
        let one = std::fs::read_to_string(results_path(&path)).unwrap();
        prop_assert_eq!(bytes, one);
        // The shards were planned against the results file as it was before the rating.
        if let Some(b) = before { std::fs::write(results_path(&path), b).unwrap(); }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn merges_of_wrong_shards_are_refused() {
    let dir = scratch("bad-merge");
    let path = write_pack(&dir, 3);
    let parts = shards(&path, 4, 2, 3);
    let e = merged(&path, 4, 2, &parts[..2]).unwrap_err();
    assert!(e.to_string().contains("missing shards: 2/3"), "{e}");
    let twice = vec![parts[0].clone(), parts[1].clone(), parts[0].clone()];
    assert!(merged(&path, 4, 2, &twice).unwrap_err().to_string().contains("both shard 0/3"));
    // Planned with another unit size: another plan.
    let e = merged(&path, 4, 1, &parts).unwrap_err();
    assert!(e.to_string().contains("planned for another"), "{e}");
    // A level edited after the shards ran: another plan.
    std::fs::write(dir.join("level1.json"), small_level(7)).unwrap();
    assert!(merged(&path, 4, 2, &parts).unwrap_err().to_string().contains("planned for another"));
    // An interrupted shard.
    std::fs::write(dir.join("level1.json"), small_level(1)).unwrap();
    let mut cut = parts.clone();
    cut[1].1.interrupted = true;
    cut[1].1.seal();
    assert!(merged(&path, 4, 2, &cut).unwrap_err().to_string().contains("interrupted"));
    assert!(merged(&path, 4, 2, &parts).is_ok());
}

#[test]
fn a_stopped_rating_keeps_nothing_half_done() {
    let dir = scratch("stop");
    let path = write_pack(&dir, 3);
    let stop = AtomicBool::new(true);
    let (results, rated, interrupted) = rate_pack(&path, settings(4), 2, 1, &stop, &|_| {}).unwrap();
    assert!(interrupted);
    assert_eq!((rated, results.ratings.len()), (0, 0));
    assert!(matches!(Shard::parse("4/4"), Err(PackError::Settings(_))));
    assert_eq!(Shard::parse("1/4").unwrap(), Shard { index: 1, count: 4 });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Issue 29.1: a hand-edited shard (one game's field changed, or any digit of the file
    /// changed) is refused by name; it never merges into other results.
    #[test]
    fn an_edited_shard_is_refused(
        field in 0usize..6,
        pick in any::<u64>(),
        digit in any::<u64>(),
        new_digit in 0u8..10,
    ) {
        let dir = scratch(&format!("edit-{field}-{pick}-{digit}-{new_digit}"));
        let path = write_pack(&dir, 2);
        let parts = shards(&path, 3, 2, 2);
        let (name, shard) = &parts[(pick % 2) as usize];
        let text = serde_json::to_string(shard).unwrap();
        let file = dir.join(format!("{name}.json"));
        // One game's field changed through the JSON.
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let units = v["units"].as_array_mut().unwrap();
        prop_assume!(!units.is_empty());
        let n = units.len();
        let games = units[(pick as usize) % n]["games"].as_array_mut().unwrap();
        let m = games.len();
        let game = &mut games[(pick as usize / 7) % m];
        let key = ["won", "score", "moves", "seed", "objectives_met", "top_tile"][field];
        game[key] = match &game[key] {
            serde_json::Value::Bool(b) => serde_json::Value::Bool(!b),
            x => serde_json::json!(x.as_u64().unwrap() + 1),
        };
        let e = tessera_pack::ShardFile::parse(&v.to_string(), &file).unwrap_err().to_string();
        prop_assert!(e.contains(&*file.display().to_string()) && e.contains("checksum"), "{}", e);
        // One digit of the file changed.
        let digits: Vec<usize> = text.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
        let at = digits[(digit % digits.len() as u64) as usize];
        let mut bytes = text.clone().into_bytes();
        prop_assume!(bytes[at] != b'0' + new_digit);
        bytes[at] = b'0' + new_digit;
        let edited = String::from_utf8(bytes).unwrap();
        match tessera_pack::ShardFile::parse(&edited, &file) {
            Ok(parsed) => prop_assert!(false, "an edited shard was accepted: {:?}", parsed.checksum),
            Err(e) => prop_assert!(e.to_string().contains(&*file.display().to_string()), "{}", e),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Issue 29.2: sizes read from a shard are bounded before anything is allocated for them.
#[test]
fn a_shard_with_huge_sizes_is_refused() {
    let dir = scratch("huge-shard");
    let path = write_pack(&dir, 2);
    let parts = shards(&path, 3, 2, 2);
    let file = dir.join("shard.json");
    for (count, games) in [(1u64 << 63, 3), (1_000_000_000, 3), (2, 1_000_000_000_000)] {
        let mut s = parts[0].1.clone();
        s.shard.count = count;
        s.settings.games = games;
        s.seal();
        let e = tessera_pack::ShardFile::parse(&serde_json::to_string(&s).unwrap(), &file).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("shard.json") && e.contains("at most"), "{e}");
        // The library's merge checks too.
        let bad = vec![(String::from("huge"), s)];
        assert!(merged(&path, 3, 2, &bad).unwrap_err().to_string().contains("huge"));
    }
    let mut many = settings(1_000_000);
    assert!(many.check().is_ok());
    many.games = 1_000_001;
    assert!(many.check().unwrap_err().to_string().contains("at most 1000000"));
}

/// A pack of two Sokoban levels, the second needing one more push, and a 2048 level.
fn puzzle_pack(dir: &Path) -> std::path::PathBuf {
    let one = serde_json::json!({"rule_set": "sokoban", "board": ["#####", "#@$.#", "#####"]});
    let two = serde_json::json!({"rule_set": "sokoban", "board": ["######", "#@$ .#", "######"]});
    std::fs::write(dir.join("one.json"), one.to_string()).unwrap();
    std::fs::write(dir.join("two.json"), two.to_string()).unwrap();
    std::fs::write(dir.join("slide.json"), small_level(0)).unwrap();
    let pack = dir.join("pack.json");
    std::fs::write(
        &pack,
        r#"{"name": "p", "levels": [{"level": "one.json"}, {"level": "two.json"}, {"level": "slide.json"}]}"#,
    )
    .unwrap();
    pack
}

/// Issue 65.2: `pack rate` keeps the estimate `tessera difficulty` gives each puzzle level (the
/// same number and reasons), and the curve shows it; a level without a solver gets none.
#[test]
fn rating_keeps_the_puzzle_levels_estimates_for_the_curve() {
    let dir = scratch("estimates");
    let path = puzzle_pack(&dir);
    rate(&path, 2, 2);
    let opened = Opened::open(&path).unwrap();
    assert_eq!(opened.results.estimates.len(), 2, "the two sokoban levels");
    let curve = opened.curve();
    for (entry, resolved) in curve.entries.iter().zip(&opened.entries).take(2) {
        let want = tessera_bots::estimate::estimate_level(&resolved.level, &Default::default()).unwrap();
        let got = entry.estimate.as_ref().expect("an estimate on the curve");
        assert_eq!((got.difficulty, &got.why), (want.difficulty, &want.why));
    }
    assert!(curve.entries[2].estimate.is_none(), "2048 has no solver");
    let [a, b] = [0, 1].map(|i| curve.entries[i].estimate.as_ref().unwrap().difficulty);
    assert!(b > a, "one more push rates harder: {a} then {b}");
    assert!(curve.to_csv().lines().nth(1).unwrap().contains("1 push"), "{}", curve.to_csv());
    assert!(curve.to_html().contains("Difficulty estimate by level"));
}

/// Ratings made before estimates were kept get them at the next `pack rate`, and shards carry
/// them: merged, the bytes are one machine's.
#[test]
fn estimates_are_filled_in_and_carried_by_shards() {
    let dir = scratch("estimates-fill");
    let path = puzzle_pack(&dir);
    rate(&path, 2, 1);
    let full = std::fs::read_to_string(results_path(&path)).unwrap();
    let mut old: serde_json::Value = serde_json::from_str(&full).unwrap();
    old.as_object_mut().unwrap().remove("estimates");
    std::fs::write(results_path(&path), old.to_string()).unwrap();
    assert_eq!(rate(&path, 2, 1), 0, "nothing to rate");
    assert_eq!(std::fs::read_to_string(results_path(&path)).unwrap(), full);
    let other = scratch("estimates-shards");
    let sharded = puzzle_pack(&other);
    let parts = shards(&sharded, 2, 1, 3);
    assert_eq!(merged(&sharded, 2, 1, &parts).unwrap(), full);
}
