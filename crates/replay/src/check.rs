//! QA checks over logs: [`verify`] (does today's code replay it?) and [`diff`] (where do two logs
//! part?), and [`export_json`] (a log as JSON lines).

use crate::error::LogError;
use crate::format::{FrameKind, StepRecord};
use crate::reader::{Decoded, Log};
use serde_json::json;
use std::fmt;
use std::io::Write;
use tessera_core::{AnyCommand, AnyEvent, Rejected, Rules};

/// The first step where today's rules part from a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The step (0: the start state differs from the log's step-0 keyframe).
    pub step: u64,
    /// Byte offset of the frame that disagrees.
    pub offset: u64,
    /// What differs.
    pub what: Mismatch,
    /// The recorded command (`None` at step 0).
    pub command: Option<AnyCommand>,
    /// The events the log recorded.
    pub expected_events: Vec<AnyEvent>,
    /// The events today's rules produced (empty when they refused the command).
    pub actual_events: Vec<AnyEvent>,
    /// The state hash the log recorded.
    pub expected_hash: u64,
    /// The state hash today's rules reached.
    pub actual_hash: u64,
}

/// How a step diverges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The level starts in another state than the log's step-0 keyframe.
    Start,
    /// Today's rules refused the recorded command.
    Rejected(Rejected),
    /// The events differ.
    Events,
    /// Same events, different state hash.
    Hash,
    /// The state differs from the keyframe recorded after this step.
    Keyframe,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cmd = self.command.as_ref().map_or_else(|| "start".to_string(), |c| format!("'{c}'"));
        write!(f, "step {} ({cmd}, byte {}): ", self.step, self.offset)?;
        match &self.what {
            Mismatch::Start => f.write_str("the level starts in another state than the log's")?,
            Mismatch::Rejected(r) => {
                write!(f, "today's rules refuse the command ({}: {})", r.code, r.message)?
            }
            Mismatch::Events => f.write_str("the events differ")?,
            Mismatch::Hash => f.write_str("same events, different state")?,
            Mismatch::Keyframe => f.write_str("the state differs from the recorded keyframe")?,
        }
        write!(
            f,
            "\n  expected hash {:016x}\n  actual hash   {:016x}",
            self.expected_hash, self.actual_hash
        )?;
        if self.expected_events != self.actual_events {
            write!(f, "\n  expected events:")?;
            for e in &self.expected_events {
                write!(f, "\n    {}", e.to_json())?;
            }
            write!(f, "\n  actual events:")?;
            for e in &self.actual_events {
                write!(f, "\n    {}", e.to_json())?;
            }
        }
        Ok(())
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Steps replayed and found equal.
    pub steps_ok: u64,
    /// Steps in the log.
    pub steps: u64,
    /// The rules version the log was recorded with.
    pub recorded_rules_version: u32,
    /// Today's rules version.
    pub current_rules_version: u32,
    /// The rules version the log was replayed with: the recorded one when this build keeps it
    /// ([`tessera_core::RuleSet::keeps_version`]), else today's.
    pub replayed_rules_version: u32,
    /// The first divergence, if any.
    pub divergence: Option<Divergence>,
    /// Bytes of a cut tail the log was opened without ([`Log::dropped_bytes`]): steps that were
    /// not checked.
    pub dropped_bytes: u64,
}

impl VerifyReport {
    /// No divergence, and the log was read to its end: every byte of it was checked.
    pub fn ok(&self) -> bool {
        self.divergence.is_none() && self.complete()
    }

    /// Whether the log was read to its end (no cut tail dropped on open). A cut tail's frame
    /// was never checked, so `tessera replay verify` fails without `--allow-torn-tail`.
    pub fn complete(&self) -> bool {
        self.dropped_bytes == 0
    }

    /// Whether the log was recorded by another version of the rules than today's.
    pub fn version_differs(&self) -> bool {
        self.recorded_rules_version != self.current_rules_version
    }

    /// Whether the log was recorded by a version of the rules this build no longer keeps, so
    /// that it was replayed with today's instead.
    pub fn version_dropped(&self) -> bool {
        self.replayed_rules_version != self.recorded_rules_version
    }
}

/// Re-executes the log's commands from the header's level and seed with the rules of the
/// recorded version (today's when this build no longer keeps that version: see
/// [`VerifyReport::version_dropped`]), comparing every step's events and state hash, and every keyframe's state, with the log.
/// Stops at the first divergence. Errors are about the log itself (an undecodable frame). A log
/// opened with a cut tail dropped replays what it has, but is not [`VerifyReport::ok`].
pub fn verify(log: &Log) -> Result<VerifyReport, LogError> {
    let h = log.header();
    let mut report = VerifyReport {
        steps_ok: 0,
        steps: log.steps(),
        recorded_rules_version: h.rules_version,
        current_rules_version: h.rule_set.version(),
        replayed_rules_version: log.rules_version(),
        divergence: None,
        dropped_bytes: log.dropped_bytes(),
    };
    let mut game = log.start()?;
    let keyframes: Vec<u64> = log.keyframe_steps().collect();
    let mut next_kf = 0;
    let mut check_keyframe = |step: u64, state: &tessera_core::AnyState| -> Result<Option<u64>, LogError> {
        while next_kf < keyframes.len() && keyframes[next_kf] < step {
            next_kf += 1;
        }
        if keyframes.get(next_kf) == Some(&step) {
            next_kf += 1;
            return log.keyframe_differs(step, state);
        }
        Ok(None)
    };
    if let Some(expected_hash) = check_keyframe(0, &game.state)? {
        report.divergence = Some(Divergence {
            step: 0,
            offset: log.frames().get(1).map_or(0, |f| f.offset),
            what: Mismatch::Start,
            command: None,
            expected_events: Vec::new(),
            actual_events: Vec::new(),
            expected_hash,
            actual_hash: h.state_hash(&game.state),
        });
        return Ok(report);
    }
    let mut rec = StepRecord::default();
    let mut actual = Vec::new();
    for step in 1..=log.steps() {
        log.read_step(step, &mut rec)?;
        let Some(command) = &rec.command else { continue };
        actual.clear();
        let result = game.rules.apply(&mut game.state, command, &mut actual);
        let diverge = |what: Mismatch, actual_hash: u64, actual: &[AnyEvent]| Divergence {
            step,
            offset: log.step_frame(step).map_or(0, |f| f.offset),
            what,
            command: Some(command.clone()),
            expected_events: rec.events.clone(),
            actual_events: actual.to_vec(),
            expected_hash: rec.hash,
            actual_hash,
        };
        if let Err(r) = result {
            report.divergence = Some(diverge(Mismatch::Rejected(r), h.state_hash(&game.state), &actual));
            return Ok(report);
        }
        let hash = h.state_hash(&game.state);
        if actual != rec.events {
            report.divergence = Some(diverge(Mismatch::Events, hash, &actual));
            return Ok(report);
        }
        if hash != rec.hash {
            report.divergence = Some(diverge(Mismatch::Hash, hash, &actual));
            return Ok(report);
        }
        if let Some(expected_hash) = check_keyframe(step, &game.state)? {
            let mut d = diverge(Mismatch::Keyframe, hash, &actual);
            d.expected_hash = expected_hash;
            report.divergence = Some(d);
            return Ok(report);
        }
        report.steps_ok = step;
    }
    Ok(report)
}

/// One side of a step where two logs part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSide {
    /// The command.
    pub command: AnyCommand,
    /// Its events.
    pub events: Vec<AnyEvent>,
    /// The state hash after it.
    pub hash: u64,
}

/// What [`diff`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffReport {
    /// Header fields that differ: `(field, a, b)`.
    pub header: Vec<(&'static str, String, String)>,
    /// Steps in each log.
    pub steps: (u64, u64),
    /// The first step that differs (in command, events or hash) and both sides; a side is
    /// `None` where that log has already ended. `None` when every step is equal.
    pub first_difference: Option<(u64, Option<StepSide>, Option<StepSide>)>,
}

impl DiffReport {
    /// Whether the logs record the same game (same header, same steps).
    pub fn same(&self) -> bool {
        self.header.is_empty() && self.first_difference.is_none()
    }
}

/// Finds where two logs part: header fields that differ, and the first step whose command,
/// events or state hash differ (or where one log ends before the other).
pub fn diff(a: &Log, b: &Log) -> Result<DiffReport, LogError> {
    let (ha, hb) = (a.header(), b.header());
    let mut header = Vec::new();
    let mut field = |name: &'static str, x: String, y: String| {
        if x != y {
            header.push((name, x, y));
        }
    };
    field("rule_set", ha.rule_set.to_string(), hb.rule_set.to_string());
    field("rules_version", ha.rules_version.to_string(), hb.rules_version.to_string());
    field("seed", ha.seed.to_string(), hb.seed.to_string());
    field("level", ha.level_json.clone(), hb.level_json.clone());
    let steps = (a.steps(), b.steps());
    let (mut ra, mut rb) = (StepRecord::default(), StepRecord::default());
    let side = |r: &StepRecord| {
        r.command.clone().map(|command| StepSide { command, events: r.events.clone(), hash: r.hash })
    };
    let mut first_difference = None;
    for step in 1..=steps.0.max(steps.1) {
        let in_a = step <= steps.0;
        let in_b = step <= steps.1;
        if in_a {
            a.read_step(step, &mut ra)?;
        }
        if in_b {
            b.read_step(step, &mut rb)?;
        }
        if !(in_a && in_b) || ra != rb {
            first_difference =
                Some((step, in_a.then(|| side(&ra)).flatten(), in_b.then(|| side(&rb)).flatten()));
            break;
        }
    }
    Ok(DiffReport { header, steps, first_difference })
}

/// Writes `log` as JSON lines: the header, then one line per frame in file order.
///
/// - header: `{"kind":"header","format_version","rule_set","rules_version","seed",
///   "keyframe_interval","level":{...},"dropped_bytes"}`
/// - step: `{"kind":"step","frame","offset","step","command":"up","events":[...],"hash":"<16 hex>"}`
/// - keyframe: `{"kind":"keyframe","frame","offset","step","hash","board","score"}`
/// - note: `{"kind":"note","frame","offset","step","text"}`
///
/// Hashes are 16 lower-case hex digits (a `u64` does not fit a JSON number exactly).
pub fn export_json(log: &Log, out: &mut impl Write) -> Result<(), LogError> {
    let h = log.header();
    let level: serde_json::Value = serde_json::from_str(&h.level_json).unwrap_or(serde_json::Value::Null);
    let line = json!({
        "kind": "header",
        "format_version": log.format_version(),
        "rule_set": h.rule_set.name(),
        "rules_version": h.rules_version,
        "seed": h.seed,
        "keyframe_interval": h.keyframe_interval,
        "level": level,
        "steps": log.steps(),
        "dropped_bytes": log.dropped_bytes(),
    });
    writeln!(out, "{line}")?;
    let mut step = 0u64;
    // The game followed step by step, for each step's score (null once a step does not apply).
    let mut game = Some(log.start()?);
    let mut events = Vec::new();
    for (i, f) in log.frames().iter().enumerate().skip(1) {
        let base = json!({"kind": f.kind.name(), "frame": i, "offset": f.offset});
        let mut v = base;
        match log.decode_frame(i)? {
            Decoded::Header => {}
            Decoded::Step(rec) => {
                step += 1;
                v["step"] = json!(step);
                v["command"] = json!(rec.command.as_ref().map(|c| c.to_string()));
                v["events"] = json!(rec.events.iter().map(AnyEvent::to_json).collect::<Vec<_>>());
                v["hash"] = json!(format!("{:016x}", rec.hash));
                if let (Some(g), Some(c)) = (game.as_mut(), rec.command.as_ref()) {
                    events.clear();
                    if g.rules.apply(&mut g.state, c, &mut events).is_err() {
                        game = None;
                    }
                }
                v["score"] = json!(game.as_ref().and_then(|g| g.state.score()));
            }
            Decoded::Keyframe(n, state) => {
                v["step"] = json!(n);
                v["hash"] = json!(format!("{:016x}", h.state_hash(&state)));
                v["board"] = state.board_json();
                v["score"] = json!(state.score());
            }
            Decoded::Note(note) => {
                v["step"] = json!(note.step);
                v["text"] = json!(note.text);
            }
        }
        debug_assert!(f.kind != FrameKind::Header);
        writeln!(out, "{v}")?;
    }
    Ok(())
}
