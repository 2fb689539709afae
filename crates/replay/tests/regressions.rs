//! Regression folders (issue 21): `fixtures/regressions` and the golden logs pass through the
//! code behind `tessera replay check`; pinning never overwrites and writes nothing for a log
//! that cannot guard anything; a changed sidecar or log fails.

use crate::common::{fixtures, level, record};
use tessera_replay::{CheckOutcome, Log, RegressError, TailPolicy, check_dir, pin};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-regress-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_regression_log_and_golden_log_passes() {
    let dir = fixtures().join("regressions");
    let results = check_dir(&dir, 2).unwrap();
    assert!(results.len() >= 4, "fixtures/regressions holds the logs made from play");
    for r in &results {
        assert!(r.passed(), "{}: {:?}", r.name, r.outcome);
    }
    for version in ["v1", "v2"] {
        let results = check_dir(&fixtures().join("logs").join(version), 2).unwrap();
        assert!(!results.is_empty());
        for r in &results {
            assert!(r.passed(), "golden {version}/{}: {:?}", r.name, r.outcome);
        }
    }
}

#[test]
fn pin_writes_log_and_sidecar_and_never_overwrites() {
    let dir = scratch("pin");
    let rec = record(&level(4), 3, 4, &[0, 2, 1, 3, 0, 2, 1, 3], &[]);
    let src = dir.join("bug.tlog");
    std::fs::write(&src, &rec.bytes).unwrap();
    let log = Log::open(&src).unwrap();
    let into = dir.join("reg");
    let pinned = pin(&log, &src, &into, "bug", "guards a bug").unwrap();
    assert_eq!(std::fs::read(&pinned.log).unwrap(), rec.bytes);
    assert_eq!(pinned.sidecar_data.steps, log.steps());
    assert_eq!(pinned.sidecar_data.guards, "guards a bug");
    let again = pin(&log, &src, &into, "bug", "other");
    assert!(matches!(again, Err(RegressError::Exists(_))), "{again:?}");
    assert!(matches!(pin(&log, &src, &into, "../x", ""), Err(RegressError::BadName(_))));
    let results = check_dir(&into, 1).unwrap();
    assert_eq!(results.len(), 1);
    assert!(results[0].passed(), "{:?}", results[0].outcome);

    // A sidecar that expects another end fails; one that does not parse is unreadable.
    let side = pinned.sidecar.clone();
    let text = std::fs::read_to_string(&side).unwrap();
    let wrong = text.replace(&pinned.sidecar_data.final_hash, "0000000000000000");
    std::fs::write(&side, wrong).unwrap();
    let r = &check_dir(&into, 1).unwrap()[0];
    assert!(matches!(&r.outcome, CheckOutcome::Failed(m) if m.contains("final state hash")), "{r:?}");
    std::fs::write(&side, "{ not json").unwrap();
    let r = &check_dir(&into, 1).unwrap()[0];
    assert!(matches!(&r.outcome, CheckOutcome::Unreadable(m) if m.contains("bug.json")), "{r:?}");
    // A sidecar without its log is reported.
    std::fs::write(&side, &text).unwrap();
    std::fs::remove_file(&pinned.log).unwrap();
    let r = &check_dir(&into, 1).unwrap()[0];
    assert!(matches!(&r.outcome, CheckOutcome::Unreadable(m) if m.contains("without its log")), "{r:?}");
    assert!(check_dir(&dir.join("missing"), 1).is_err());
}

#[test]
fn a_log_that_does_not_replay_is_not_pinned() {
    let dir = scratch("diverges");
    let rec = record(&level(4), 3, 4, &[0, 2, 1, 3], &[]);
    // The steps of a game of seed 4 under the header and start of seed 3: whole frames with
    // good crcs, which today's rules do not replay.
    let other = record(&level(4), 4, 4, &[0, 2, 1, 3], &[]);
    let log = Log::from_bytes(rec.bytes.clone(), TailPolicy::Strict).unwrap();
    let other_log = Log::from_bytes(other.bytes.clone(), TailPolicy::Strict).unwrap();
    let head_end = log.step_frame(1).unwrap().offset as usize;
    let other_steps = other_log.step_frame(1).unwrap().offset as usize;
    let mut spliced = rec.bytes[..head_end].to_vec();
    spliced.extend_from_slice(&other.bytes[other_steps..]);
    let src = dir.join("spliced.tlog");
    std::fs::write(&src, &spliced).unwrap();
    let bad = Log::open(&src).unwrap();
    let into = dir.join("reg");
    let r = pin(&bad, &src, &into, "spliced", "");
    assert!(matches!(r, Err(RegressError::Diverges { .. })), "{r:?}");
    assert!(!into.join("spliced.tlog").exists() && !into.join("spliced.json").exists());
}

/// Every rule set's events (all the golden logs' steps): the kind is the JSON form's variant
/// name, and every number or list field reads as the JSON form has it.
#[test]
fn event_kinds_and_fields_match_the_json_form_in_every_rule_set() {
    use tessera_replay::{StepRecord, event_field, event_kind};
    let dir = fixtures().join("logs").join("v2");
    let mut kinds = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "tlog") {
            continue;
        }
        let log = Log::open(&path).unwrap();
        let mut rec = StepRecord::default();
        for s in 1..=log.steps() {
            log.read_step(s, &mut rec).unwrap();
            for e in &rec.events {
                let json = e.to_json();
                let (name, body) = match &json {
                    serde_json::Value::String(s) => (s.clone(), None),
                    serde_json::Value::Object(m) => {
                        let (k, v) = m.iter().next().unwrap();
                        (k.clone(), Some(v))
                    }
                    other => panic!("{}: {other}", path.display()),
                };
                assert_eq!(event_kind(e), name, "{}", path.display());
                kinds.insert(format!("{}:{name}", log.header().rule_set.name()));
                if let Some(serde_json::Value::Object(fields)) = body {
                    for (k, v) in fields {
                        let want = match v {
                            serde_json::Value::Number(n) => n.as_i64().map(i128::from),
                            serde_json::Value::Array(a) => Some(a.len() as i128),
                            serde_json::Value::Bool(b) => Some(i128::from(*b)),
                            _ => continue,
                        };
                        assert_eq!(event_field(e, k), want, "{}: {json} field {k}", path.display());
                    }
                }
            }
        }
    }
    for rs in tessera_core::RuleSet::ALL {
        assert!(kinds.iter().any(|k| k.starts_with(&format!("{}:", rs.name()))), "{rs:?}: {kinds:?}");
    }
}
