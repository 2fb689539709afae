//! The fixtures: golden logs in `fixtures/logs` (every one must verify) and the catalogue of
//! broken logs and levels in `fixtures/bad` (each must fail the way it says).
//!
//! The broken files are made by [`generate_bad`]; to write them again run
//! `TESSERA_BLESS=1 cargo test -p tessera-replay --test tests fixtures` and commit the result.

use crate::common::{fixtures, level, record, reencode};
use std::path::Path;
use tessera_core::{Level, LevelError, RuleSet, canonical_bytes};
use tessera_replay::{FRAME_HEADER_LEN, Log, PREAMBLE_LEN, TailPolicy, verify};

/// Golden logs of every format version this crate reads: `fixtures/logs/v1` (recorded before
/// the incremental hash, kept untouched) and `fixtures/logs/v2`.
#[test]
fn every_golden_log_verifies_and_re_encodes_bit_for_bit() {
    for version in tessera_replay::OLDEST_FORMAT_VERSION..=tessera_replay::FORMAT_VERSION {
        golden_logs_verify(version);
    }
}

fn golden_logs_verify(version: u32) {
    let dir = fixtures().join("logs").join(format!("v{version}"));
    let mut seen = Vec::new();
    let mut kept = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tlog"))
        .collect();
    paths.sort();
    for path in &paths {
        let name = path.display();
        let bytes = std::fs::read(path).unwrap();
        let log =
            Log::from_bytes(bytes.clone(), TailPolicy::Strict).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(log.format_version(), version, "{name}: a log of another format version");
        let report = verify(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(d) = &report.divergence {
            panic!("{name}: today's rules diverge from the golden log:\n{d}");
        }
        let rs = log.header().rule_set;
        let recorded = report.recorded_rules_version;
        assert!(
            !report.version_dropped(),
            "{name}: recorded with {rs} rules version {recorded}, which this build no longer keeps \
             (it keeps {}..={}): a kept version lost its logs",
            rs.oldest_version(),
            rs.version()
        );
        // In today's folder a log of an older (kept) rules version says so in its name, so a
        // bump cannot leave a stale log passing as today's.
        if version == tessera_replay::FORMAT_VERSION {
            let file = path.file_name().unwrap().to_string_lossy();
            let old =
                file.strip_suffix(".tlog").and_then(|f| f.rsplit_once(".rules")).map(|(_, v)| v.to_string());
            match old {
                Some(v) => assert_eq!(
                    v,
                    recorded.to_string(),
                    "{name}: named for rules version {v}, recorded with {recorded}"
                ),
                None => assert_eq!(
                    recorded,
                    rs.version(),
                    "{name}: recorded with {rs} rules version {recorded}, today's is {}: re-record it, \
                     keeping the old one as NAME.rules{recorded}.tlog (fixtures/logs/README.md)",
                    rs.version()
                ),
            }
            kept.push((rs, recorded));
        }
        assert!(log.steps() > 0, "{name}: a golden log needs steps");
        assert_eq!(reencode(&log), bytes, "{name}: the encoding changed");
        let end = log.state_at(log.steps()).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Seeking redoes the recorded events (checked): the state must be today's end state.
        let history = tessera_replay::History::from_log(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(history.state(), &end, "{name}");
        seen.push(log.header().rule_set);
    }
    // Every rule set has a log in today's format; an older folder keeps the games of its day (a
    // rule set added later never wrote that format).
    let required: &[RuleSet] = if version == tessera_replay::FORMAT_VERSION { RuleSet::ALL } else { &[] };
    assert!(!seen.is_empty(), "no golden log in {}", dir.display());
    for rs in required {
        assert!(
            seen.contains(rs),
            "no golden log for rule set '{rs}' in {}: record one as fixtures/logs/README.md says",
            dir.display()
        );
        // Every rules version this build keeps replays a golden log of today's format.
        for v in rs.oldest_version()..=rs.version() {
            assert!(
                kept.contains(&(*rs, v)),
                "no golden log of {rs} rules version {v} in {}: this build keeps it, so a log must test it",
                dir.display()
            );
        }
    }
}

/// The same commands on a uniform 8-connected map, recorded by tactics rules version 2 (A*)
/// and 3 (jump point search): both verify, each with its own version's rules; some moves take
/// other cells of the same cost, and the games end in the same state.
#[test]
fn tactics_versions_2_and_3_both_replay_and_part_only_in_equal_cost_paths() {
    use tessera_core::AnyEvent;
    use tessera_core::tactics::TacticsEvent;
    let dir = fixtures().join("logs").join("v2");
    let open = |name: &str| Log::open(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (old, new) = (open("field_seed0.rules2.tlog"), open("field_seed0.tlog"));
    assert_eq!((old.header().rules_version, old.rules_version()), (2, 2));
    assert_eq!((new.header().rules_version, new.rules_version()), (3, 3));
    for log in [&old, &new] {
        let r = verify(log).unwrap();
        assert!(r.ok() && !r.version_dropped(), "{r:?}");
    }
    assert_eq!(old.steps(), new.steps());
    let moved = |log: &Log, step: u64| {
        let mut rec = tessera_replay::StepRecord::default();
        log.read_step(step, &mut rec).unwrap();
        let command = rec.command.clone().unwrap().to_string();
        let m = rec.events.iter().find_map(|e| match e {
            AnyEvent::Tactics(TacticsEvent::UnitMoved { path, cost, .. }) => Some((path.clone(), *cost)),
            _ => None,
        });
        (command, m)
    };
    let mut parted = 0;
    for step in 1..=old.steps() {
        let ((ca, a), (cb, b)) = (moved(&old, step), moved(&new, step));
        assert_eq!(ca, cb, "step {step}: the same commands");
        if let (Some((pa, ca)), Some((pb, cb))) = (a, b) {
            assert_eq!(ca, cb, "step {step}: the same cost");
            assert_eq!((pa.first(), pa.last()), (pb.first(), pb.last()), "step {step}");
            parted += usize::from(pa != pb);
        }
    }
    assert!(parted > 0, "version 3 takes other equal-cost cells somewhere (else the log tests nothing new)");
    assert_eq!(old.state_at(old.steps()).unwrap(), new.state_at(new.steps()).unwrap());
}

/// A broken file and how it must fail.
struct Bad {
    name: &'static str,
    kind: &'static str,
    offset: Option<u64>,
    frame: Option<u64>,
}

const fn bad(name: &'static str, kind: &'static str, offset: u64, frame: Option<u64>) -> Bad {
    Bad { name, kind, offset: Some(offset), frame }
}

/// The catalogue. In the base log the preamble is bytes 0..12, the header frame 12..179, the
/// step-0 keyframe 179..230; frame 4 (step 3) starts at 311 and the log ends at 855 (15 frames).
const BAD_LOGS: &[Bad] = &[
    bad("empty.tlog", "empty", 0, None),
    bad("bad_magic.tlog", "bad_magic", 0, None),
    bad("future_version.tlog", "unsupported_version", 8, None),
    bad("truncated_header.tlog", "truncated", 12, Some(0)),
    bad("truncated_tail.tlog", "truncated", 782, Some(13)),
    bad("flipped_byte.tlog", "crc_mismatch", 311, Some(4)),
    bad("huge_length.tlog", "oversized", 230, Some(2)),
    bad("unknown_rule_set.tlog", "unknown_rule_set", 12, Some(0)),
    bad("unknown_kind.tlog", "unknown_kind", 855, Some(14)),
    bad("undecodable_step.tlog", "undecodable", 855, Some(14)),
];

/// The base log the broken ones are made from: classic 4×4, seed 1, ten steps, keyframes
/// every 4 steps.
fn base() -> Vec<u8> {
    record(&Level::classic(), 1, 4, &[1, 2, 1, 3, 0, 2, 1, 1, 2, 3], &[]).bytes
}

fn frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut h = crc32fast::Hasher::new();
    h.update(&[kind]);
    h.update(payload);
    let mut f = (payload.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(&h.finalize().to_le_bytes());
    f.push(kind);
    f.extend_from_slice(payload);
    f
}

/// Makes every broken log and level of the catalogue.
fn generate_bad() -> Vec<(String, Vec<u8>)> {
    let base = base();
    let log = Log::from_bytes(base.clone(), TailPolicy::Strict).unwrap();
    let off = |i: usize| log.frames()[i].offset as usize;
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut put = |name: &str, bytes: Vec<u8>| out.push((name.to_string(), bytes));
    put("empty.tlog", Vec::new());
    let mut b = base.clone();
    b[..8].copy_from_slice(b"NOTALOG\0");
    put("bad_magic.tlog", b);
    let mut b = base.clone();
    b[8..12].copy_from_slice(&(tessera_replay::FORMAT_VERSION + 1).to_le_bytes());
    put("future_version.tlog", b);
    put("truncated_header.tlog", base[..40].to_vec());
    put("truncated_tail.tlog", base[..base.len() - 5].to_vec());
    let mut b = base.clone();
    let step3 = log.step_frame(3).unwrap().offset as usize;
    b[step3 + FRAME_HEADER_LEN + 1] ^= 0x10;
    put("flipped_byte.tlog", b);
    let mut b = base.clone();
    b[off(2)..off(2) + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    put("huge_length.tlog", b);
    let h = log.header();
    let payload =
        canonical_bytes(&("chess", h.rules_version, h.seed, h.keyframe_interval, h.level_json.as_str()));
    let mut b = base[..PREAMBLE_LEN].to_vec();
    b.extend(frame(0, &payload));
    b.extend_from_slice(&base[off(1)..]);
    put("unknown_rule_set.tlog", b);
    let mut b = base.clone();
    b.extend(frame(7, b"what is this"));
    put("unknown_kind.tlog", b);
    let mut b = base.clone();
    b.extend(frame(1, &[0xff; 6]));
    put("undecodable_step.tlog", b);
    for (name, text) in BAD_LEVELS_TEXT {
        put(&format!("levels/{name}"), text.as_bytes().to_vec());
    }
    out
}

const BAD_LEVELS_TEXT: &[(&str, &str)] = &[
    ("empty.json", ""),
    ("truncated.json", "{\n  \"rule_set\": \"slide\",\n  \"width\": 4,\n  \"hei"),
    ("unknown_rule_set.json", "{\n  \"rule_set\": \"chess\"\n}\n"),
    ("ragged_board.json", "{\n  \"rule_set\": \"slide\",\n  \"board\": [[0, 2], [2, 0, 0]]\n}\n"),
    ("not_a_power_of_two.json", "{\n  \"rule_set\": \"slide\",\n  \"board\": [[0, 6], [2, 0]]\n}\n"),
    ("too_big.json", "{\n  \"rule_set\": \"slide\",\n  \"width\": 4096,\n  \"height\": 4\n}\n"),
    ("misspelt_field.json", "{\n  \"rule_set\": \"slide\",\n  \"widht\": 4\n}\n"),
];

fn bad_dir() -> std::path::PathBuf {
    fixtures().join("bad")
}

fn bless_if_asked() {
    if std::env::var_os("TESSERA_BLESS").is_some() {
        for (name, bytes) in generate_bad() {
            let path = bad_dir().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            tessera_replay::atomic_write(&path, &bytes).unwrap();
        }
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e} (generate it: see tests/fixtures.rs)", path.display()))
}

#[test]
fn every_broken_log_fails_with_its_kind_and_offset() {
    bless_if_asked();
    let mut wrong = Vec::new();
    for b in BAD_LOGS {
        let bytes = read(&bad_dir().join(b.name));
        // Opened strictly; frames whose payload is only decoded on use (steps) fail in verify.
        let e = match Log::from_bytes(bytes.clone(), TailPolicy::Strict) {
            Err(e) => e,
            Ok(log) => match verify(&log) {
                Err(e) => e,
                Ok(_) => panic!("{}: opens and verifies", b.name),
            },
        };
        if (e.kind(), e.offset(), e.frame()) != (b.kind, b.offset, b.frame) {
            wrong.push(format!("{}: {:?} {:?} {:?}: {e}", b.name, e.kind(), e.offset(), e.frame()));
        }
        if e.kind() != "empty" && !e.to_string().contains(&format!("byte {}", b.offset.unwrap_or(0))) {
            wrong.push(format!("{}: the message does not name the offset: {e}", b.name));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The cut tail opens leniently with the whole frames, saying what it dropped.
    let log = Log::from_bytes(read(&bad_dir().join("truncated_tail.tlog")), TailPolicy::Lenient).unwrap();
    assert_eq!((log.steps(), log.dropped_bytes()), (9, 68));
}

#[test]
fn every_broken_level_fails_naming_where() {
    bless_if_asked();
    let expect: &[(&str, &str)] = &[
        ("empty.json", "line 1, column 0"),
        ("truncated.json", "line 4, column"),
        ("unknown_rule_set.json", "unknown variant `chess`"),
        ("ragged_board.json", "board row 1 has 3 cells, expected 2"),
        ("not_a_power_of_two.json", "board cell (1, 0): 6 is not a power of two"),
        ("too_big.json", "4096"),
        ("misspelt_field.json", "unknown field `widht`"),
    ];
    for (name, says) in expect {
        let text = String::from_utf8(read(&bad_dir().join("levels").join(name))).unwrap();
        let e = Level::from_json(&text).unwrap_err();
        assert!(e.to_string().contains(says), "{name}: {e}");
        if name.starts_with("empty") || name.starts_with("truncated") {
            assert!(matches!(e, LevelError::Syntax { .. }), "{name}: {e:?}");
        }
    }
    assert_eq!(expect.len(), BAD_LEVELS_TEXT.len());
}

#[test]
fn the_catalogue_is_what_the_generator_makes() {
    // Every generated file is in the catalogue and on disk (a rule change may alter the bytes of
    // the logs made from the base game; the kinds and offsets above must then be re-checked).
    let generated = generate_bad();
    for (name, _) in &generated {
        assert!(bad_dir().join(name).exists(), "{name} is missing: TESSERA_BLESS=1 to generate");
        assert!(name.starts_with("levels/") || BAD_LOGS.iter().any(|b| b.name == name), "{name}");
    }
    let _ = level;
}

#[test]
fn every_fixture_level_survives_a_log_keyframe() {
    // States go into keyframes through bincode, which is not self-describing: a serde attribute
    // such as `skip_serializing_if` on a state's field breaks decoding. Catch it for every level.
    let mut paths: Vec<_> = std::fs::read_dir(fixtures().join("levels"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let level = Level::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let game = level.start(Some(3)).unwrap();
        let header = tessera_replay::Header::new(&level, 3, 4).unwrap();
        let bytes = tessera_replay::LogWriter::new(Vec::new(), &header, &game.state).unwrap().into_inner();
        let log =
            Log::from_bytes(bytes, TailPolicy::Strict).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let state = log.keyframe(0).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(state.as_ref(), Some(&game.state), "{}", path.display());
        assert!(verify(&log).unwrap().ok(), "{}", path.display());
    }
}
