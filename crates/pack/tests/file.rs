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
