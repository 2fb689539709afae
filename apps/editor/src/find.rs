//! Finding steps in a log: the debugger's filter and cell history (no egui).
//!
//! A [`Query`] is a few terms, all of which a step must meet: text in its command, an event
//! condition (`event:Shuffled`, `event:Matched.cascade>=3`, read from any rule set's events by
//! [`tessera_replay::EventCondition`]), a score change (`score>=N`) and a cell its events touched
//! (`cell:X,Y`). [`run`] scans a log once, a run of steps per core; [`FilterJob`] runs it off
//! the window's thread with progress and cancellation, so the window keeps drawing.
//!
//! Decisions:
//! - **Cells come from the mirror ops** ([`tessera_core::project_event`]): an event touches the
//!   cells its ops name (moves' both ends, spawns, despawns, walks' paths, a change's cell; a
//!   column shift both whole columns). No state and no mirror are needed, so a scan costs a
//!   decode per step. A change located by id alone (no cell) is not counted.
//! - **Score changes need states**: only a query with a `score` term redoes the recorded events
//!   from the start (checked redo; a step that does not fit ends the scan with an error).
//! - **Results are step numbers in order**, so Next / Previous are a binary search.
//!
//! Finding steps (`apps/editor/src/find.rs`, no egui): a `Query` (command words, `event:`
//! conditions, `rule:LINE` as `event:Rule.line=LINE`, `score>=N`, `cell:X,Y`, and words the rule
//! set recognises through `EditorGame::event_filter`, resolved by `Query::resolve`) scanned over
//! the log once by `find::run`, a run of steps per core joined in order (`run_on`; a score term
//! starts each run from `Log::state_at`; command words are tested on `Log::read_command` before any
//! event is read) (cells from each event's mirror ops through `project_event`, no state; only a
//! score term redoes the recorded events from the start), on a thread by `FilterJob` (progress in
//! an atomic, cancelled when dropped, the result over a channel polled each frame). `DebugView`
//! draws the filter box and its results (F3 / Shift+F3), the cell history (Alt+click or the cell's
//! menu: a `FilterJob` for the cell, then `find::last_touch`), the bookmarks (the log's notes, on a
//! timeline strip and in a list) and the Pin form (`tessera_replay::pin`). Tests:
//! `apps/editor/tests/find.rs` (oracles: the events' JSON and the mirror's touched cells); the
//! filter benchmark is in `benches/debug.rs`.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use tessera_core::project::{Op, Ops};
use tessera_core::{AnyEvent, Pos, RuleSet, Rules, Size, project_event};
use tessera_replay::{EventCondition, Log, StepRecord};

/// A test on one event that a rule set gives for a word of its own (a PuzzleScript object's
/// name: the events that touch that object).
pub type EventTest = Arc<dyn Fn(&AnyEvent) -> bool + Send + Sync>;

/// A word of the query the rule set recognised, with its test.
#[derive(Clone)]
pub struct NamedTest {
    /// The word as typed (lower case).
    pub name: String,
    /// What an event of the step must meet.
    pub test: EventTest,
}

impl PartialEq for NamedTest {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for NamedTest {}

impl std::fmt::Debug for NamedTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NamedTest({})", self.name)
    }
}

/// What a step must meet to be found. Parsed from text by [`Query::from_str`]: terms separated
/// by spaces, `event:COND`, `rule:LINE` (a rule of the game's source at that line fired:
/// `event:Rule.line=LINE`), `score>=N`, `cell:X,Y`, `cmd:TEXT` or any other word (text the
/// command must contain, case-insensitive, unless [`Query::resolve`] finds the rule set names
/// it: an object).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// Words the command's text must contain (lower case).
    pub text: Vec<String>,
    /// Event conditions: each must be met by an event of the step.
    pub events: Vec<EventCondition>,
    /// The score must rise by at least this much in the step.
    pub score_at_least: Option<i128>,
    /// A cell the step's events touched.
    pub cell: Option<Pos>,
    /// Words the rule set recognised (object names): an event of the step must meet each.
    pub named: Vec<NamedTest>,
}

/// A query that does not parse: the term and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    /// The term.
    pub term: String,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}': {}", self.term, self.why)
    }
}

impl std::error::Error for QueryError {}

impl FromStr for Query {
    type Err = QueryError;

    fn from_str(text: &str) -> Result<Query, QueryError> {
        let mut q = Query::default();
        for term in text.split_whitespace() {
            let err = |why: String| QueryError { term: term.to_string(), why };
            if let Some(c) = term.strip_prefix("event:") {
                q.events.push(c.parse().map_err(|e: tessera_replay::ConditionError| err(e.why.to_string()))?);
            } else if let Some(n) = term.strip_prefix("score>=") {
                q.score_at_least =
                    Some(n.parse().map_err(|_| err("expected score>=N, N a whole number".into()))?);
            } else if let Some(c) = term.strip_prefix("cell:") {
                let (x, y) = c.split_once(',').ok_or_else(|| err("expected cell:X,Y".into()))?;
                let x: u16 = x.parse().map_err(|_| err("expected cell:X,Y with whole numbers".into()))?;
                let y: u16 = y.parse().map_err(|_| err("expected cell:X,Y with whole numbers".into()))?;
                q.cell = Some(Pos::new(x, y));
            } else if let Some(n) = term.strip_prefix("rule:") {
                let line: u32 = n
                    .parse()
                    .map_err(|_| err("expected rule:LINE, LINE the rule's line in the source".into()))?;
                let c = format!("Rule.line={line}")
                    .parse()
                    .map_err(|e: tessera_replay::ConditionError| err(e.why.to_string()))?;
                q.events.push(c);
            } else if let Some(t) = term.strip_prefix("cmd:") {
                if !t.is_empty() {
                    q.text.push(t.to_lowercase());
                }
            } else {
                q.text.push(term.to_lowercase());
            }
        }
        Ok(q)
    }
}

impl Query {
    /// Steps that touched `cell`.
    pub fn cell(cell: Pos) -> Query {
        Query { cell: Some(cell), ..Query::default() }
    }

    /// Moves the text words that `recognise` knows (a rule set's object names) from command
    /// text to tests on the step's events.
    pub fn resolve(&mut self, recognise: impl Fn(&str) -> Option<EventTest>) {
        let mut text = Vec::new();
        for word in std::mem::take(&mut self.text) {
            match recognise(&word) {
                Some(test) => self.named.push(NamedTest { name: word, test }),
                None => text.push(word),
            }
        }
        self.text = text;
    }

    /// Whether the query asks nothing (every step matches).
    pub fn is_empty(&self) -> bool {
        *self == Query::default()
    }

    /// Checks the query against the log it will scan, before any scan: an event kind the rule
    /// set does not have (named with the kinds it has) and a cell off the board are errors at
    /// once, not a full scan to "0 matches".
    pub fn check(&self, rule_set: RuleSet, size: Option<Size>) -> Result<(), QueryError> {
        let kinds = tessera_replay::event_kinds(rule_set);
        for c in &self.events {
            if c.kind == "Rule" && c.field.is_some() && !kinds.contains(&"Rule") {
                return Err(QueryError {
                    term: format!("event:{c}"),
                    why: format!(
                        "rule:LINE finds rules of a game's source that fired; {rule_set} has no such rules"
                    ),
                });
            }
            if !kinds.is_empty() && !kinds.contains(&c.kind.as_str()) {
                return Err(QueryError {
                    term: format!("event:{c}"),
                    why: format!("{rule_set} has no event {} (its events: {})", c.kind, kinds.join(", ")),
                });
            }
        }
        if let (Some(cell), Some(size)) = (self.cell, size)
            && !size.contains(cell)
        {
            return Err(QueryError {
                term: format!("cell:{},{}", cell.x, cell.y),
                why: format!(
                    "off the {}×{} board (X 0 to {}, Y 0 to {})",
                    size.width,
                    size.height,
                    size.width.saturating_sub(1),
                    size.height.saturating_sub(1)
                ),
            });
        }
        Ok(())
    }

    /// Why step `rec` meets the query, a reason per term, for the inspector. The score term is
    /// said as asked (the scan checked it on the states).
    pub fn why(&self, rec: &StepRecord) -> Vec<String> {
        let mut out = Vec::new();
        if !self.text.is_empty() {
            let cmd = rec.command.as_ref().map(ToString::to_string).unwrap_or_default();
            let words: Vec<String> = self.text.iter().map(|t| format!("'{t}'")).collect();
            out.push(format!("the command '{cmd}' contains {}", words.join(" and ")));
        }
        for c in &self.events {
            if let Some(e) = rec.events.iter().find(|e| c.matches(e)) {
                out.push(format!("event:{c}: {}", event_text(e)));
            }
        }
        for n in &self.named {
            if let Some(e) = rec.events.iter().find(|e| (n.test)(e)) {
                out.push(format!("'{}' touched by {}", n.name, event_text(e)));
            }
        }
        if let Some(min) = self.score_at_least {
            out.push(format!("the score rose by {min} or more"));
        }
        if let Some(cell) = self.cell {
            let mut ops = Ops::default();
            if let Some(e) =
                rec.events.iter().find(|e| events_touch(std::slice::from_ref(*e), cell, &mut ops))
            {
                out.push(format!("cell ({}, {}) touched by {}", cell.x, cell.y, event_text(e)));
            }
        }
        out
    }
}

/// An event as the inspector shows it: its JSON form, cut short.
fn event_text(e: &AnyEvent) -> String {
    let text = e.to_json().to_string();
    match text.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// Whether `ops` (of one event) touch `cell`.
fn ops_touch(ops: &Ops, cell: Pos) -> bool {
    ops.ops().iter().any(|op| match *op {
        Op::Move { items, .. } | Op::Spawn { items, .. } | Op::Despawn { items, .. } => {
            ops.items(items).iter().any(|i| i.from == cell || i.to == cell)
        }
        Op::Walk { path, .. } => ops.cells(path).contains(&cell),
        Op::Change { at, .. } => at == Some(cell),
        Op::ShiftColumn { from, to, .. } => cell.x == from || cell.x == to,
    })
}

/// Whether `events` touch `cell`; `ops` is a reused buffer.
pub fn events_touch(events: &[AnyEvent], cell: Pos, ops: &mut Ops) -> bool {
    events.iter().any(|e| {
        ops.clear();
        project_event(e, ops);
        ops_touch(ops, cell)
    })
}

/// Steps a scan thread takes at least: below twice this, one thread scans the whole log.
pub const MIN_STEPS_PER_THREAD: u64 = 16_384;

/// Scans `log` for the steps (1 to the last) that meet `query`, in order. `progress` is set to
/// the steps scanned as it goes; `cancel` stops the scan (`Ok(None)`). An error names the step
/// that could not be read (the first such step).
///
/// A long log is cut into one run of steps per core, scanned side by side and joined in order:
/// a step's match depends on that step alone (a score term starts each run from the state
/// before it, `Log::state_at`, a keyframe and at most an interval of redone steps), so the
/// results are those of one scan from the start.
pub fn run(
    log: &Log,
    query: &Query,
    progress: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<Option<Vec<u64>>, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    run_on(log, query, cores, progress, cancel)
}

/// [`run`] on at most `threads` threads (one for a log shorter than twice
/// [`MIN_STEPS_PER_THREAD`]).
pub fn run_on(
    log: &Log,
    query: &Query,
    threads: usize,
    progress: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<Option<Vec<u64>>, String> {
    let steps = log.steps();
    let threads = (threads as u64).min(steps / MIN_STEPS_PER_THREAD).max(1);
    progress.store(0, Ordering::Relaxed);
    let found = if threads == 1 {
        scan(log, query, 1, steps, progress, cancel)?
    } else {
        let runs: Vec<(u64, u64)> =
            (0..threads).map(|k| (1 + steps * k / threads, steps * (k + 1) / threads)).collect();
        let results: Vec<Result<Option<Vec<u64>>, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = runs
                .iter()
                .map(|&(first, last)| scope.spawn(move || scan(log, query, first, last, progress, cancel)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("a scan thread stopped".into())))
                .collect()
        });
        let mut found = Vec::new();
        for r in results {
            match r? {
                Some(part) => found.extend(part),
                None => return Ok(None),
            }
        }
        Some(found)
    };
    if found.is_some() {
        progress.store(steps, Ordering::Relaxed);
    }
    Ok(found)
}

/// Scans steps `first` to `last` of `log`, adding to `progress` as it goes.
fn scan(
    log: &Log,
    query: &Query,
    first: u64,
    last: u64,
    progress: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<Option<Vec<u64>>, String> {
    const REPORT_EVERY: u64 = 4096;
    let mut found = Vec::new();
    let mut rec = StepRecord::default();
    let mut ops = Ops::default();
    let mut text = String::new();
    let mut state = match query.score_at_least {
        Some(_) => Some(log.state_at(first - 1).map_err(|e| match first {
            1 => format!("the start: {e}"),
            _ => format!("step {}: {e}", first - 1),
        })?),
        None => None,
    };
    let rules = log.rules();
    // Without a score term (which redoes every step's events), a step whose command fails the
    // text terms is passed over without reading its events, and a query of text alone reads
    // commands only.
    let text_first = query.score_at_least.is_none() && !query.text.is_empty();
    let text_only = text_first && query.events.is_empty() && query.named.is_empty() && query.cell.is_none();
    let text_fits = |c: &tessera_core::AnyCommand, text: &mut String| {
        use std::fmt::Write;
        text.clear();
        let _ = write!(text, "{c}");
        text.make_ascii_lowercase();
        query.text.iter().all(|t| text.contains(t.as_str()))
    };
    for s in first..=last {
        if (s - first) % REPORT_EVERY == REPORT_EVERY - 1 {
            progress.fetch_add(REPORT_EVERY, Ordering::Relaxed);
            if cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
        }
        if text_first {
            let c = log.read_command(s).map_err(|e| format!("step {s}: {e}"))?;
            if !text_fits(&c, &mut text) {
                continue;
            }
            if text_only {
                found.push(s);
                continue;
            }
        }
        log.read_step(s, &mut rec).map_err(|e| format!("step {s}: {e}"))?;
        let mut ok = true;
        if let (Some(min), Some(st)) = (query.score_at_least, state.as_mut()) {
            let before = st.score().unwrap_or(0);
            rules.redo(st, &rec.events).map_err(|e| format!("step {s}: {e}"))?;
            let after = st.score().unwrap_or(0);
            ok = i128::from(after) - i128::from(before) >= min;
        }
        if ok && !text_first && !query.text.is_empty() {
            ok = rec.command.as_ref().is_some_and(|c| text_fits(c, &mut text));
        }
        if ok {
            ok = query.events.iter().all(|c| rec.events.iter().any(|e| c.matches(e)));
        }
        if ok {
            ok = query.named.iter().all(|n| rec.events.iter().any(|e| (n.test)(e)));
        }
        if ok && let Some(cell) = query.cell {
            ok = events_touch(&rec.events, cell, &mut ops);
        }
        if ok {
            found.push(s);
        }
    }
    Ok(Some(found))
}

/// The first result after `step`, else the first (wrapping).
pub fn next_after(results: &[u64], step: u64) -> Option<u64> {
    let i = results.partition_point(|&s| s <= step);
    results.get(i).or(results.first()).copied()
}

/// The last result before `step`, else the last (wrapping).
pub fn previous_before(results: &[u64], step: u64) -> Option<u64> {
    let i = results.partition_point(|&s| s < step);
    if i == 0 { results.last().copied() } else { results.get(i - 1).copied() }
}

/// Cell history: the last step at or before `step` in `results` (the steps that touched the
/// cell); when that is `step` itself, the one before it ("again goes further back").
pub fn last_touch(results: &[u64], step: u64, again: bool) -> Option<u64> {
    let i = results.partition_point(|&s| s <= step);
    let at = results.get(i.checked_sub(1)?).copied()?;
    if again && at == step { i.checked_sub(2).and_then(|j| results.get(j).copied()) } else { Some(at) }
}

/// A scan on a thread: poll it each frame.
pub struct FilterJob {
    /// What it looks for.
    pub query: Query,
    progress: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
    rx: Receiver<Result<Option<Vec<u64>>, String>>,
    steps: u64,
}

impl FilterJob {
    /// Starts scanning `log` for `query`.
    pub fn start(log: Arc<Log>, query: Query) -> FilterJob {
        let progress = Arc::new(AtomicU64::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let steps = log.steps();
        let (p, c, q) = (Arc::clone(&progress), Arc::clone(&cancel), query.clone());
        std::thread::spawn(move || {
            let _ = tx.send(run(&log, &q, &p, &c));
        });
        FilterJob { query, progress, cancel, rx, steps }
    }

    /// The fraction scanned, 0 to 1.
    pub fn fraction(&self) -> f32 {
        if self.steps == 0 { 1.0 } else { self.progress.load(Ordering::Relaxed) as f32 / self.steps as f32 }
    }

    /// The result, once the scan is over (`Some(Ok(None))` if it was cancelled).
    pub fn poll(&self) -> Option<Result<Option<Vec<u64>>, String>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the filter thread stopped".into())),
        }
    }

    /// Waits for the result (tests, benchmarks).
    pub fn wait(self) -> Result<Option<Vec<u64>>, String> {
        self.rx.recv().unwrap_or_else(|_| Err("the filter thread stopped".into()))
    }
}

impl Drop for FilterJob {
    fn drop(&mut self) {
        // A job replaced or dropped stops scanning.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_parse_into_terms() {
        let q: Query = "event:Matched.cascade>=2 score>=30 cell:3,4 Swap cmd:1".parse().unwrap();
        assert_eq!(q.text, ["swap", "1"]);
        assert_eq!(q.events.len(), 1);
        assert_eq!(q.score_at_least, Some(30));
        assert_eq!(q.cell, Some(Pos::new(3, 4)));
        for bad in ["cell:3", "cell:a,b", "score>=x", "event:", "event:M.c>="] {
            assert!(bad.parse::<Query>().is_err(), "{bad}");
        }
        assert!("".parse::<Query>().unwrap().is_empty());
    }

    proptest::proptest! {
        /// Next, Previous and the cell history's jump agree with a walk over the sorted results.
        #[test]
        fn result_walks_equal_a_plain_search(mut r in proptest::collection::vec(0u64..60, 0..20), step in 0u64..70, again: bool) {
            r.sort_unstable();
            r.dedup();
            let next = r.iter().copied().find(|&s| s > step).or(r.first().copied());
            proptest::prop_assert_eq!(next_after(&r, step), next);
            let prev = r.iter().rev().copied().find(|&s| s < step).or(r.last().copied());
            proptest::prop_assert_eq!(previous_before(&r, step), prev);
            let at_or_before: Vec<u64> = r.iter().copied().filter(|&s| s <= step).collect();
            let want = match at_or_before.last() {
                Some(&l) if again && l == step => at_or_before.iter().rev().nth(1).copied(),
                l => l.copied(),
            };
            proptest::prop_assert_eq!(last_touch(&r, step, again), want);
        }
    }

    #[test]
    fn next_previous_and_last_touch_walk_the_results() {
        let r = [3, 7, 9];
        assert_eq!(next_after(&r, 0), Some(3));
        assert_eq!(next_after(&r, 7), Some(9));
        assert_eq!(next_after(&r, 9), Some(3));
        assert_eq!(previous_before(&r, 7), Some(3));
        assert_eq!(previous_before(&r, 3), Some(9));
        assert_eq!(last_touch(&r, 8, false), Some(7));
        assert_eq!(last_touch(&r, 7, false), Some(7));
        assert_eq!(last_touch(&r, 7, true), Some(3));
        assert_eq!(last_touch(&r, 3, true), None);
        assert_eq!(last_touch(&r, 2, false), None);
        assert_eq!(next_after(&[], 2), None);
    }
}
