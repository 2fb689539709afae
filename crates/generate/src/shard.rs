//! A run split over machines (`tessera generate ... --shard I/N`, issue 64.4) and joined again
//! (`tessera generate merge`): the join gives the levels, the output bytes and the figures of
//! the one-machine run with the same options.
//!
//! The one-machine run takes candidates 0, 1, 2, … in order: each is charged its states, and
//! the run stops at the first candidate whose charge would take the spent states past the
//! budget, or when `count` levels are kept. Shard `I/N` evaluates candidates `I-1`, `I-1+N`, …
//! in their order with the same budget and the same keep rule, and records, for every one it
//! took and for the one it stopped at, the candidate's charge and its level (when it proved
//! one). That is enough: a shard's own states up to candidate `j` are a part of the run's up to
//! `j`, and the levels it keeps up to `j` are at most the run's (a level a shard refuses as a
//! repeat or for a band already filled is refused by the run too), so the run stops at or
//! before each shard's last record. The join ([`join`], [`join_rules`]) walks the records of
//! all shards in candidate order and replays the run's budget and keep decisions exactly.
//!
//! A part is JSON ([`Part`]): the run's options ([`RunKey`]), the game's path and the hash of
//! its source, the shard, and the records. Only a budget of states can be split (a clock stops
//! each machine at a different candidate).

use crate::candidate::evaluate;
use crate::game::Prepared;
use crate::rules::{RulesLevel, RulesOutcome, finish_rules};
use crate::run::{Ended, Eval, Keeper, Outcome, Progress, Scheduled, finish, schedule};
use crate::{Budget, Curve, EstimateLimits, GenerateError, Level, Options};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use tessera_core::Generator;
use tessera_core::puzzlescript::PuzzleScriptCommand;

/// The `format` field of every part.
pub const PART_FORMAT: &str = "tessera-generate-part";
/// The part format's version.
pub const PART_VERSION: u32 = 1;

/// The options of a run that decide its levels (all of [`Options`] but `jobs` and `shard`),
/// as a part records them: every part of a join must have the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunKey {
    /// Levels asked for.
    pub count: usize,
    /// The run's seed.
    pub seed: u64,
    /// The budget of states.
    pub states: u64,
    /// `--from` (from 0).
    pub from: Option<usize>,
    /// `--size`.
    pub size: Option<(usize, usize)>,
    /// `--boxes`.
    pub objects: Option<usize>,
    /// `--min-steps`.
    pub min_steps: usize,
    /// `--max-steps`.
    pub max_steps: Option<usize>,
    /// `--keep-walls`.
    pub keep_walls: bool,
    /// `--level-states`.
    pub level_states: u64,
    /// The most bytes a candidate's search stores.
    pub level_bytes: u64,
    /// `--difficulty A..B`, as the bits of the two numbers (exact).
    pub difficulty: Option<(u64, u64)>,
    /// The estimate's budget.
    pub estimate: EstimateLimits,
    /// `rising` or `flat`.
    pub curve: String,
    /// `--stage`: the match-3 stage whose limits are chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<tessera_core::Level>,
    /// `--win-rate A..B`, as the bits of the two numbers (exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<(u64, u64)>,
    /// `--games`: the bot's games a measure.
    #[serde(default)]
    pub games: u32,
    /// The template given as rows (the editor's "More like this").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Vec<String>>,
    /// The cells every candidate keeps (the editor's Keep brush).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locked: Vec<(usize, usize)>,
}

impl RunKey {
    /// The key of `options`; an error unless the budget is of states.
    pub fn of(options: &Options) -> Result<RunKey, GenerateError> {
        let Budget::States(states) = options.budget else {
            return Err(GenerateError::Option(
                "--shard needs --states N: a clock stops each machine at a different candidate".into(),
            ));
        };
        Ok(RunKey {
            count: options.count,
            seed: options.seed,
            states,
            from: options.from,
            size: options.size,
            objects: options.objects,
            min_steps: options.min_steps,
            max_steps: options.max_steps,
            keep_walls: options.keep_walls,
            level_states: options.level_states,
            level_bytes: options.level_bytes,
            difficulty: options.difficulty.map(|(a, b)| (a.to_bits(), b.to_bits())),
            estimate: options.estimate,
            curve: match options.curve {
                Curve::Rising => "rising".into(),
                Curve::Flat => "flat".into(),
            },
            stage: options.stage.clone(),
            win_rate: options.win_rate.map(|(a, b)| (a.to_bits(), b.to_bits())),
            games: options.games,
            template: options.template.clone(),
            locked: options.locked.clone(),
        })
    }

    /// Options with these figures (one job, no shard): what the join replays.
    pub fn options(&self) -> Result<Options, GenerateError> {
        let curve = Curve::from_name(&self.curve)
            .ok_or_else(|| GenerateError::Parts(format!("curve {:?}: not rising or flat", self.curve)))?;
        Ok(Options {
            count: self.count,
            seed: self.seed,
            budget: Budget::States(self.states),
            from: self.from,
            size: self.size,
            objects: self.objects,
            min_steps: self.min_steps,
            max_steps: self.max_steps,
            keep_walls: self.keep_walls,
            jobs: 1,
            level_states: self.level_states,
            level_bytes: self.level_bytes,
            difficulty: self.difficulty.map(|(a, b)| (f64::from_bits(a), f64::from_bits(b))),
            estimate: self.estimate,
            curve,
            shard: None,
            stage: self.stage.clone(),
            win_rate: self.win_rate.map(|(a, b)| (f64::from_bits(a), f64::from_bits(b))),
            games: self.games,
            template: self.template.clone(),
            locked: self.locked.clone(),
        })
    }
}

/// One shard's records of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part<L> {
    /// [`PART_FORMAT`].
    pub format: String,
    /// [`PART_VERSION`].
    pub version: u32,
    /// The game's path as the shard was given it (a PuzzleScript run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The rule set whose generator ran (`--rules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// xxh3-64 of the game's source, hex (empty for a rule set's generator).
    pub source_hash: String,
    /// The options that decide the levels.
    pub run: RunKey,
    /// This shard, `[I, N]`, I from 1.
    pub shard: [u64; 2],
    /// How the shard ended: `count`, `budget` or `interrupted`.
    pub ended: String,
    /// The shard's candidates taken.
    pub candidates: u64,
    /// The budget states those cost.
    pub states: u64,
    /// The shard's wall-clock seconds (not deterministic).
    pub seconds: f64,
    /// Every candidate the shard took, and the one it stopped at, in order.
    pub records: Vec<Record<L>>,
}

/// A candidate's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record<L> {
    /// The candidate.
    pub candidate: u64,
    /// What it cost the budget.
    pub charge: u64,
    /// The level it proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<L>,
}

/// A PuzzleScript level in a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFound {
    /// Its rows.
    pub rows: Vec<String>,
    /// Its solution.
    pub solution: Vec<PuzzleScriptCommand>,
    /// States its proof expanded.
    pub states: u64,
    /// Its difficulty, for people.
    pub difficulty: f64,
    /// Its difficulty's bits (exact).
    pub difficulty_bits: u64,
    /// The estimate's reasons.
    pub why: Vec<String>,
    /// Objects simplification took away.
    pub removed: usize,
    /// Its candidate's milliseconds.
    pub millis: u64,
}

/// A rule set's level in a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFound {
    /// Its rows.
    pub rows: Vec<String>,
    /// The level.
    pub level: tessera_core::Level,
    /// Its solution's command words.
    pub solution: Vec<String>,
    /// The figure it is optimal in.
    pub figure: String,
    /// Its value.
    pub optimal: u64,
    /// Its steps.
    pub steps: u64,
    /// States its generator expanded.
    pub states: u64,
    /// Its difficulty, for people.
    pub difficulty: f64,
    /// Its difficulty's bits (exact).
    pub difficulty_bits: u64,
    /// The estimate's reasons.
    pub why: Vec<String>,
    /// The bot's games won and played (a match-3 stage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<tessera_core::Measured>,
    /// Its candidate's milliseconds.
    pub millis: u64,
}

/// What a part's records hold ([`GameFound`], [`RulesFound`]).
pub trait PartLevel: Serialize + DeserializeOwned + Clone {}
impl PartLevel for GameFound {}
impl PartLevel for RulesFound {}

/// A PuzzleScript run's part.
pub type GamePart = Part<GameFound>;
/// A rule set's run's part.
pub type RulesPart = Part<RulesFound>;

impl From<&Level> for GameFound {
    fn from(l: &Level) -> Self {
        GameFound {
            rows: l.rows.clone(),
            solution: l.solution.clone(),
            states: l.states,
            difficulty: l.difficulty,
            difficulty_bits: l.difficulty.to_bits(),
            why: l.why.clone(),
            removed: l.removed,
            millis: l.millis,
        }
    }
}

impl GameFound {
    fn level(self, candidate: u64) -> Level {
        Level {
            rows: self.rows,
            solution: self.solution,
            states: self.states,
            difficulty: f64::from_bits(self.difficulty_bits),
            why: self.why,
            candidate,
            removed: self.removed,
            millis: self.millis,
        }
    }
}

impl From<&RulesLevel> for RulesFound {
    fn from(l: &RulesLevel) -> Self {
        RulesFound {
            rows: l.rows.clone(),
            level: l.level.clone(),
            solution: l.solution.clone(),
            figure: l.figure.to_string(),
            optimal: l.optimal,
            steps: l.steps,
            states: l.states,
            difficulty: l.difficulty,
            difficulty_bits: l.difficulty.to_bits(),
            why: l.why.clone(),
            measured: l.measured,
            millis: l.millis,
        }
    }
}

impl RulesFound {
    fn level(self, g: &Generator, candidate: u64) -> Result<RulesLevel, GenerateError> {
        if self.figure != g.figure {
            return Err(GenerateError::Parts(format!(
                "candidate {candidate}: its figure is {:?}, {}'s generator's is {:?}",
                self.figure, g.name, g.figure
            )));
        }
        Ok(RulesLevel {
            rows: self.rows,
            level: self.level,
            solution: self.solution,
            figure: g.figure,
            optimal: self.optimal,
            steps: self.steps,
            states: self.states,
            difficulty: f64::from_bits(self.difficulty_bits),
            why: self.why,
            measured: self.measured,
            candidate,
            millis: self.millis,
        })
    }
}

fn ended_name(e: Ended) -> &'static str {
    match e {
        Ended::Count => "count",
        Ended::Budget => "budget",
        Ended::Interrupted => "interrupted",
    }
}

/// xxh3-64 of `source`, hex.
pub fn source_hash(source: &str) -> String {
    format!("{:016x}", tessera_core::state_hash(source))
}

/// Results by candidate: its result and its charge.
type Records<T> = BTreeMap<u64, (Option<T>, u64)>;
/// Results in candidate order: the candidate, its charge and its result.
type Taken<T> = Vec<(u64, u64, Option<T>)>;
/// The parts checked: the run's options, the records, the shards and the seconds.
type Checked<L> = (Options, Records<L>, u64, f64);

/// Runs shard `options.shard` with `eval`, recording each result in candidate order up to the
/// one the shard stopped at.
fn run_part<T: Clone + Send>(
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
    eval: &Eval<'_, T>,
    keep: &mut dyn FnMut(T) -> bool,
) -> Result<(Scheduled, Taken<T>), GenerateError> {
    if options.shard.is_none() {
        return Err(GenerateError::Option("a part is a shard's: give --shard I/N".into()));
    }
    RunKey::of(options)?;
    let seen: Mutex<Records<T>> = Mutex::new(BTreeMap::new());
    let recording = |index: u64, stop: &dyn Fn() -> bool| {
        let (r, charge) = eval(index, stop);
        if let Ok(mut m) = seen.lock() {
            m.insert(index, (r.clone(), charge));
        }
        (r, charge)
    };
    let run = schedule(options, interrupt, progress, &recording, keep);
    let (shard, shards) = options.shard.unwrap_or((0, 1));
    // The candidates taken and, ended by the budget, the one that would have passed it.
    let last = run.taken + u64::from(run.ended == Ended::Budget);
    let map = seen.into_inner().unwrap_or_default();
    let records = (0..last)
        .filter_map(|k| {
            let index = k * shards + shard;
            map.get(&index).map(|(r, c)| (index, *c, r.clone()))
        })
        .collect();
    Ok((run, records))
}

/// Shard `options.shard` of the run [`crate::generate`] makes: its part.
pub fn generate_part(
    game: &Prepared,
    game_name: &str,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GamePart, GenerateError> {
    let mut keeper = Keeper::new(options, game.known.clone());
    let eval = |index: u64, stop: &dyn Fn() -> bool| {
        let e = evaluate(game, options, index, stop);
        (e.level, e.charge)
    };
    let (run, records) = run_part(options, interrupt, progress, &eval, &mut |level: Level| {
        let (rows, d) = (level.rows.clone(), level.difficulty);
        keeper.offer(level, &rows, d)
    })?;
    Ok(part(options, Some(game_name.into()), None, source_hash(&game.source), &run, records, |l| l.into()))
}

/// Shard `options.shard` of the run [`crate::generate_rules`] makes: its part.
pub fn generate_rules_part(
    g: &'static Generator,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<RulesPart, GenerateError> {
    let mut keeper = Keeper::new(options, crate::rules::known(options));
    let eval = |index: u64, _stop: &dyn Fn() -> bool| crate::rules::evaluate(g, options, index);
    let (run, records) = run_part(options, interrupt, progress, &eval, &mut |level: RulesLevel| {
        let (rows, d) = (level.rows.clone(), level.difficulty);
        keeper.offer(level, &rows, d)
    })?;
    Ok(part(options, None, Some(g.name.into()), String::new(), &run, records, |l| l.into()))
}

fn part<T, L>(
    options: &Options,
    game: Option<String>,
    rules: Option<String>,
    source_hash: String,
    run: &Scheduled,
    records: Vec<(u64, u64, Option<T>)>,
    found: impl Fn(&T) -> L,
) -> Part<L> {
    let (i, n) = options.shard.unwrap_or((0, 1));
    Part {
        format: PART_FORMAT.into(),
        version: PART_VERSION,
        game,
        rules,
        source_hash,
        run: RunKey::of(options).unwrap_or_else(|_| unreachable!("checked by run_part")),
        shard: [i + 1, n],
        ended: ended_name(run.ended).into(),
        candidates: run.taken,
        states: run.spent,
        seconds: run.seconds,
        records: records
            .into_iter()
            .map(|(candidate, charge, r)| Record { candidate, charge, level: r.as_ref().map(&found) })
            .collect(),
    }
}

/// Checks that `parts` are the shards 1..N of one run (same format, options, game and N, each
/// shard once, none interrupted) and returns the run's options and the records by candidate.
fn check_parts<L: Clone>(parts: &[Part<L>]) -> Result<Checked<L>, GenerateError> {
    let bad = |what: String| Err(GenerateError::Parts(what));
    let Some(first) = parts.first() else { return bad("no part to join".into()) };
    let n = first.shard[1];
    let mut have = BTreeSet::new();
    let mut records = BTreeMap::new();
    let mut seconds = 0.0;
    for (k, p) in parts.iter().enumerate() {
        let name = format!("part {} (shard {}/{})", k + 1, p.shard[0], p.shard[1]);
        if p.format != PART_FORMAT || p.version != PART_VERSION {
            return bad(format!("{name}: not a part of version {PART_VERSION} ({} {})", p.format, p.version));
        }
        if p.run != first.run || p.game != first.game || p.rules != first.rules {
            return bad(format!("{name}: another run's (its options or game differ from part 1's)"));
        }
        if p.source_hash != first.source_hash {
            return bad(format!("{name}: made from another version of the game (its source hash differs)"));
        }
        if p.shard[1] != n || p.shard[0] == 0 || p.shard[0] > n {
            return bad(format!("{name}: part 1 is of {n} shards"));
        }
        if !have.insert(p.shard[0]) {
            return bad(format!("{name}: shard {} given twice", p.shard[0]));
        }
        if p.ended == "interrupted" {
            return bad(format!("{name}: the shard was interrupted; run it again"));
        }
        seconds += p.seconds;
        for r in &p.records {
            if r.candidate % n != p.shard[0] - 1 {
                return bad(format!("{name}: candidate {} is not of this shard", r.candidate));
            }
            if records.insert(r.candidate, (r.level.clone(), r.charge)).is_some() {
                return bad(format!("{name}: candidate {} recorded twice", r.candidate));
            }
        }
    }
    if have.len() as u64 != n {
        let missing: Vec<String> =
            (1..=n).filter(|i| !have.contains(i)).map(|i| format!("{i}/{n}")).collect();
        return bad(format!("shards missing: {}", missing.join(", ")));
    }
    Ok((first.run.options()?, records, n, seconds))
}

/// Replays the run's decisions over the records in candidate order (see the module docs).
fn replay<T>(
    options: &Options,
    mut records: Records<T>,
    shards: u64,
    seconds: f64,
    keep: &mut dyn FnMut(u64, T) -> Result<bool, GenerateError>,
) -> Result<Scheduled, GenerateError> {
    let budget = match options.budget {
        Budget::States(n) => n,
        Budget::Time(_) => u64::MAX,
    };
    let (mut taken, mut spent, mut kept) = (0u64, 0u64, 0usize);
    let mut j = 0u64;
    let ended = loop {
        let Some((result, charge)) = records.remove(&j) else {
            return Err(GenerateError::Parts(format!(
                "shard {}/{shards} stops before candidate {j}, where the run goes on: the parts are not of one run",
                j % shards + 1
            )));
        };
        if spent + charge > budget {
            break Ended::Budget;
        }
        taken += 1;
        spent += charge;
        if let Some(r) = result
            && keep(j, r)?
        {
            kept += 1;
        }
        if kept >= options.count {
            break Ended::Count;
        }
        j += 1;
    };
    Ok(Scheduled { taken, spent, ended, seconds })
}

/// Joins the parts of a PuzzleScript run into the one-machine run's outcome (the same levels,
/// output, candidates, states and end; its seconds the parts' added). `game` is prepared with
/// [`join_options`]' options, from the source the parts were made from.
pub fn join(game: &Prepared, parts: &[GamePart]) -> Result<Outcome, GenerateError> {
    let (options, records, shards, seconds) = check_parts(parts)?;
    if parts[0].game.is_none() || parts[0].source_hash != source_hash(&game.source) {
        return Err(GenerateError::Parts(
            "the game is not the one the parts were made from (its source hash differs)".into(),
        ));
    }
    let mut keeper = Keeper::new(&options, game.known.clone());
    let run = replay(&options, records, shards, seconds, &mut |j, found: GameFound| {
        let level = found.level(j);
        let (rows, d) = (level.rows.clone(), level.difficulty);
        Ok(keeper.offer(level, &rows, d))
    })?;
    finish(game, &options, keeper.kept, run)
}

/// The options the parts were made with (checked to be one run's), to prepare the game with.
pub fn join_options<L: Clone>(parts: &[Part<L>]) -> Result<Options, GenerateError> {
    check_parts(parts).map(|(o, ..)| o)
}

/// Joins the parts of a rule set's run into the one-machine run's outcome.
pub fn join_rules(parts: &[RulesPart]) -> Result<(&'static Generator, RulesOutcome), GenerateError> {
    let (options, records, shards, seconds) = check_parts(parts)?;
    let name = parts[0].rules.clone().unwrap_or_default();
    let g = tessera_core::generator(&name).ok_or_else(|| {
        GenerateError::Parts(format!("the parts are of --rules {name:?}, which has no generator"))
    })?;
    let mut keeper = Keeper::new(&options, crate::rules::known(&options));
    let run = replay(&options, records, shards, seconds, &mut |j, found: RulesFound| {
        let level = found.level(g, j)?;
        let (rows, d) = (level.rows.clone(), level.difficulty);
        Ok(keeper.offer(level, &rows, d))
    })?;
    Ok((g, finish_rules(&options, keeper.kept, run)?))
}

/// Reads a part from its JSON.
pub fn read_part<L: DeserializeOwned>(text: &str) -> Result<Part<L>, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate, prepare};
    use proptest::prelude::*;

    fn fuse() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/games/fuse.txt"))
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any split of a run into N shards joins into the one-machine run: the same output,
        /// candidates, states and end, with parts read back from their JSON.
        #[test]
        fn any_split_joins_into_the_one_machine_run(
            shards in 1u64..5, seed in 0u64..50, states in 5_000u64..60_000, count in 1usize..4,
        ) {
            let source = fuse();
            let options = Options {
                count, seed, budget: Budget::States(states), level_states: 3_000, jobs: 2, ..Options::default()
            };
            let game = prepare(&source, &options).unwrap();
            let one = generate(&game, &options, &AtomicBool::new(false), &mut |_| {}).unwrap();
            let mut parts = Vec::new();
            for i in (0..shards).rev() {
                let o = Options { shard: Some((i, shards)), ..options.clone() };
                let part = generate_part(&game, "fuse.txt", &o, &AtomicBool::new(false), &mut |_| {}).unwrap();
                let text = serde_json::to_string(&part).unwrap();
                parts.push(read_part::<GameFound>(&text).unwrap());
            }
            let joined = join(&game, &parts).unwrap();
            prop_assert_eq!(&joined.source, &one.source);
            prop_assert_eq!((joined.candidates, joined.states, joined.ended), (one.candidates, one.states, one.ended));
            let key = |l: &Level| (l.rows.clone(), l.solution.clone(), l.difficulty.to_bits(), l.candidate);
            prop_assert_eq!(joined.levels.iter().map(key).collect::<Vec<_>>(), one.levels.iter().map(key).collect::<Vec<_>>());
        }
    }
}
