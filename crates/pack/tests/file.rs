//! The pack file: round trip, edits, and every bad input as a typed error naming the entry.

use crate::{scratch, write_pack};
use tessera_pack::{Entry, Pack, PackError, results_path};

fn parse(text: &str) -> Result<Pack, PackError> {
    Pack::parse(text, std::path::Path::new("p.json"))
}

#[test]
fn a_pack_round_trips_and_edits_keep_order() {
    let dir = scratch("round-trip");
    let path = write_pack(&dir, 4);
    let mut pack = Pack::read(&path).unwrap();
    assert_eq!(pack.entries.len(), 4);
    pack.move_entry(3, 0).unwrap();
    pack.remove(1).unwrap();
    pack.add(Entry::path("level0.json"), Some(1)).unwrap();
    pack.save(&path).unwrap();
    let again = Pack::read(&path).unwrap();
    assert_eq!(again, pack);
    let titles: Vec<String> = again.entries.iter().map(Entry::label).collect();
    assert_eq!(titles, ["L3", "level0.json", "L1", "L2"]);
    assert_eq!(again.resolve(&path).map(|r| r.len()).ok(), Some(4));
    assert!(matches!(pack.move_entry(0, 9), Err(PackError::Edit(_))));
    assert!(matches!(pack.add(Entry::path("x.json"), Some(9)), Err(PackError::Edit(_))));
    assert_eq!(results_path(&path), dir.join("pack.results.json"));
}

#[test]
fn unknown_fields_name_the_entry() {
    let e = parse(r#"{"name": "p", "levels": [{"level": "a.json"}, {"level": "b.json", "titel": "x"}]}"#)
        .unwrap_err();
    assert!(matches!(e, PackError::Entry { entry: 2, .. }), "{e}");
    assert!(e.to_string().contains("entry 2") && e.to_string().contains("titel"), "{e}");
    let e = parse(r#"{"name": "p", "levels": [], "colour": 1}"#).unwrap_err();
    assert!(matches!(e, PackError::Syntax { line: 1, .. }), "{e}");
    let e = parse(r#"{"name": "p", "levels": [{"level": 3}]}"#).unwrap_err();
    assert!(matches!(e, PackError::Entry { entry: 1, .. }), "{e}");
}

#[test]
fn bad_bands_and_inline_levels_name_the_entry() {
    let e = parse(r#"{"name": "p", "levels": [{"level": "a.json", "target": {"win_rate": [0.8, 0.2]}}]}"#)
        .unwrap_err();
    assert!(matches!(e, PackError::Entry { entry: 1, .. }) && e.to_string().contains("low one first"), "{e}");
    let e =
        parse(r#"{"name": "p", "levels": [{"level": {"rule_set": "slide", "boardd": []}}]}"#).unwrap_err();
    assert!(e.to_string().contains("entry 1") && e.to_string().contains("inline level"), "{e}");
}

#[test]
fn missing_files_and_duplicates_name_the_entries() {
    let dir = scratch("missing");
    let path = write_pack(&dir, 3);
    let mut pack = Pack::read(&path).unwrap();
    pack.add(Entry::path("nowhere.json"), None).unwrap();
    let e = pack.resolve(&path).unwrap_err();
    assert!(
        matches!(e, PackError::Entry { entry: 4, .. }) && e.to_string().contains("does not exist"),
        "{e}"
    );
    pack.remove(3).unwrap();
    pack.add(Entry::path("level1.json"), None).unwrap();
    let e = pack.resolve(&path).unwrap_err();
    assert!(matches!(e, PackError::Duplicate { first: 2, second: 4, .. }), "{e}");
    // The same content under another name is allowed (a copy to edit): it shares ratings.
    std::fs::copy(dir.join("level2.json"), dir.join("copy.json")).unwrap();
    pack.remove(3).unwrap();
    pack.add(Entry::path("copy.json"), None).unwrap();
    let resolved = pack.resolve(&path).unwrap();
    assert_eq!(resolved[2].hash, resolved[3].hash);
    // A level file that is not a level names the entry and the file.
    std::fs::write(dir.join("copy.json"), "{\"rule_set\": \"slide\", \"board\": [[3]]}").unwrap();
    let e = pack.resolve(&path).unwrap_err();
    assert!(matches!(e, PackError::Entry { entry: 4, .. }) && e.to_string().contains("copy.json"), "{e}");
}

/// Issue 29.11: the same level file under another spelling (`./x`, `sub/../x`, an absolute
/// path, a symbolic link) is a duplicate; "no entry" names the pack; a results file whose win
/// rate is outside 0–100 % is refused, naming it.
#[test]
fn duplicates_under_other_spellings_and_bad_win_rates_are_refused() {
    let dir = scratch("spellings");
    let path = write_pack(&dir, 2);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(dir.join("level1.json"), dir.join("link.json")).unwrap();
    let absolute = dir.join("level1.json").to_str().unwrap().to_string();
    for spelling in ["./level1.json", "sub/../level1.json", absolute.as_str(), "link.json"] {
        let mut pack = Pack::read(&path).unwrap();
        pack.add(Entry::path(spelling), None).unwrap();
        let e = pack.resolve(&path).unwrap_err();
        assert!(matches!(e, PackError::Duplicate { first: 2, second: 3, .. }), "{spelling}: {e}");
        assert!(e.to_string().contains("pack.json"), "{e}");
    }
    let pack = Pack::read(&path).unwrap();
    let e = pack.resolve_entry(&path, 5).unwrap_err().to_string();
    assert!(e.contains("pack.json") && e.contains("no entry 6"), "{e}");

    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut bots = std::collections::BTreeMap::new();
    bots.insert("*".to_string(), tessera_bots::BotSpec::new(tessera_bots::BotKind::RANDOM));
    let settings =
        tessera_pack::Settings { bots, games: 2, seed: 1, config: tessera_bots::GameConfig::default() };
    tessera_pack::rate_pack(&path, settings, 2, 1, &stop, &|_| {}).unwrap();
    let results = results_path(&path);
    let text = std::fs::read_to_string(&results).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut bad = v.clone();
    bad["ratings"][0]["wins"] = serde_json::json!(20);
    std::fs::write(&results, bad.to_string()).unwrap();
    let e = tessera_pack::Results::read(&results).unwrap_err().to_string();
    assert!(e.contains("results.json") && e.contains("20 wins of 2 games"), "{e}");
}
