//! `tessera convert FORMAT FILE OUT`: the formats are the importers the rule sets register.

use crate::{scratch, stderr, tessera};

/// `tessera convert` alone and an unknown format exit 2 listing every format; `--help` lists
/// them with what they read.
#[test]
fn convert_lists_every_registered_format() {
    let names: Vec<&str> = tessera_core::importers().map(|i| i.name).collect();
    assert!(names.contains(&"stage") && names.contains(&"samegame-testset") && names.contains(&"movingai"));
    for (args, code) in
        [(&["convert"][..], 2), (&["convert", "--help"], 0), (&["convert", "nope", "in.txt", "out.json"], 2)]
    {
        let out = tessera(args, "");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_eq!(out.status.code(), Some(code), "{args:?}: {text}");
        for name in &names {
            assert!(text.contains(name), "{args:?} does not list {name}: {text}");
        }
    }
    let out = tessera(&["convert", "nope", "in.txt", "out.json"], "");
    assert!(stderr(&out).contains("unknown format 'nope'"), "{}", stderr(&out));
}

/// A format without its files says how it is used (exit 2) and writes nothing.
#[test]
fn convert_without_files_gives_the_formats_usage() {
    let dir = scratch("convert-usage");
    let out = tessera(&["convert", "samegame-testset", dir.join("missing.txt").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tessera convert samegame-testset FILE OUTDIR"), "{}", stderr(&out));
    let out = tessera(&["convert", "stage"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tessera convert stage FILE OUT"), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
