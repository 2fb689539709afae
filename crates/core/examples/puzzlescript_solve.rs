//! Runs the PuzzleScript solver on every distinct (game, level) of PuzzleScript's regression
//! suite, with each search asked for: `cargo run --release -p tessera-core --example
//! puzzlescript_solve -- TESTDATA.js [SECONDS] [MIB] [SEARCHES] [TOTAL] [STRIDE] [AIDS] [THREADS]`
//! (defaults 10 s and 1024 MiB a level and search, searches `bfs,astar` (any of `bfs`, `astar`,
//! `greedy`, `mixed`, `width`), no total, every level,
//! every aid (`all`), one thread). `THREADS` searches that many levels at once, each on its own
//! thread (each search still on one, its budget its thread's CPU time: the same answers, the run
//! sooner on a machine with the cores free); the lines are printed in the suite's order.
//! `PUZZLESCRIPT_SOLVE_JOBS=N` runs each search on N threads (as `tessera solve --jobs N`), its
//! budget then the wall clock's seconds (run one level at a time: `THREADS` 1).
//! `PUZZLESCRIPT_SOLVE_LEVELS=3,17,...` searches only those distinct levels (0-based, in the
//! suite's order), to measure on a fixed sample. `SECONDS` written `states:N` budgets N states expanded instead of the clock (the same
//! answers on every machine and load); `states:N/S` stops at S seconds too (the levels whose
//! turns are dear, which would take minutes to reach N, out of time as with a clock). `AIDS` turns aids of the search off, to measure what each
//! buys: a comma list of `no-idle` (play `action` even where it changes nothing), `no-prune` (no
//! dead states from where objects can travel), `no-estimate` (columns plus rows, not moves),
//! `no-some` (`some X on Y` estimated 1 while it does not hold, not the nearest X's distance),
//! `no-matching` (`all X on Y` estimated by each X's nearest Y, not each X given its own),
//! `no-lead` (states of one estimate not taken nearest first by the player's distance to an
//! object still to be brought), `no-boost` (mixed: the order that found a smaller estimate
//! than any before gets no run of turns),
//! `no-freeze` (no dead states from objects that can never move again), `no-scenery` (boards
//! that differ only in objects no rule tells apart are not taken for one).
//! `SECONDS` is the search thread's CPU time (Linux: `/proc/thread-self/stat`; wall time where
//! that cannot be read), so a loaded machine does not cut searches short. `TOTAL` wall seconds
//! bound the whole run: once spent, the remaining levels are left out (the summary says how many
//! were searched). `STRIDE` K searches every K-th distinct level only (a subset, said so). Prints one line per level and search (the outcome, steps, states expanded and
//! stored, seconds; each line starts with the level's `#` index, as `PUZZLESCRIPT_SOLVE_LEVELS`
//! names it) and a summary per search: levels solved, proved unsolvable, given up, the
//! median time of the solved ones and the states expanded per second over all of them; then,
//! on the levels every search solved, the states each expanded and the steps of its solutions.
//! Levels of games with `random`/`randomdir` in their rules are counted apart ("random
//! games"); the solver still searches them, leaving out the steps that draw.
//! `PUZZLESCRIPT_SOLVE_CASES=FILE` writes every solution found in a game without random rules
//! as a case of the suite's shape (`[name, [source, inputs, "", level]]`, `tick` for a realtime
//! game's clock), for `tools/puzzlescript/reference.js` to play in the reference engine: its
//! `won_at` for each is the input after which the reference first won, the solution's last one
//! when it wins there as here. (Its final board is no check: after a win, the reference's test
//! runner may play one more `again` turn on the won level.)

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tessera_core::puzzlescript::engine::{self, LevelEntry, suite};
use tessera_core::puzzlescript::{
    Aids, PuzzleScriptCommand, PuzzleScriptLevel, Search, SolveLimits, SolveOutcome, SolveReport, solve_aided,
};

/// The `tessera` binary's allocator (see the workspace manifest), so that the table measures what
/// `tessera solve` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Whether the rules section of `source` mentions `random` or `randomdir` (a rough reading:
/// comments and case aside).
fn has_random_rules(source: &str) -> bool {
    let mut in_rules = false;
    let mut depth = 0usize;
    for line in source.lines() {
        let t = line.trim().to_ascii_lowercase();
        if ["objects", "legend", "sounds", "collisionlayers", "winconditions", "levels"].contains(&t.as_str())
        {
            in_rules = false;
        } else if t == "rules" {
            in_rules = true;
            continue;
        }
        let mut word = String::new();
        for c in t.chars().chain(std::iter::once(' ')) {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                c if c.is_alphanumeric() || c == '_' => {
                    word.push(c);
                    continue;
                }
                _ => {}
            }
            if in_rules && (word == "random" || word == "randomdir") {
                return true;
            }
            word.clear();
        }
    }
    false
}

/// The calling thread's CPU time in seconds (user and system), if Linux says it.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command's closing parenthesis: state is field 3; utime and stime are 14
    // and 15, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// A clock for one search: CPU seconds of this thread when readable, else wall seconds.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    fn start() -> Clock {
        Clock { wall: Instant::now(), cpu: cpu_seconds() }
    }

    fn elapsed(&self) -> f64 {
        self.elapsed_cpu(0.0)
    }

    /// The seconds elapsed, at least `beyond` of them read from the CPU clock when that is
    /// readable: below `beyond` seconds of wall time, the wall time (a thread's CPU time is never
    /// more), which costs no system call.
    fn elapsed_cpu(&self, beyond: f64) -> f64 {
        let wall = self.wall.elapsed().as_secs_f64();
        if wall < beyond {
            return wall;
        }
        match (self.cpu, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// The threads each search runs on: `PUZZLESCRIPT_SOLVE_JOBS`, else 1.
fn job_threads() -> usize {
    std::env::var("PUZZLESCRIPT_SOLVE_JOBS").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
}

/// One search's tally.
#[derive(Default)]
struct Tally {
    solved: usize,
    unsolvable: usize,
    random_only: usize,
    stopped: usize,
    memory: usize,
    random_solved: usize,
    /// Solved through steps that draw from the generator (this seed's solutions).
    seeded_solved: usize,
    /// Of `random_only`: searched to the end following the draws (no solution from this seed).
    seed_proved: usize,
    times: Vec<f64>,
    wall_times: Vec<f64>,
    nodes: u64,
    seconds: f64,
}

/// One level to search: its name and index in the suite, its level, whether its game has random
/// rules.
struct Job {
    /// The level's place among the suite's distinct levels (what `PUZZLESCRIPT_SOLVE_LEVELS`
    /// names).
    index: usize,
    name: String,
    suite_level: usize,
    level: PuzzleScriptLevel,
    random: bool,
}

/// What one search of one level gave: its printed line, and for the tally the report, the CPU
/// and wall seconds.
struct Done {
    line: String,
    report: SolveReport,
    t: f64,
    wall: f64,
}

/// One level's place in the run.
enum Slot {
    /// Not searched yet.
    Waiting,
    /// Left out: the total budget was spent.
    LeftOut,
    /// The level does not start.
    NoStart,
    /// Searched: each search's result.
    Searched(Vec<Done>),
}

/// Searches one level by each of `searches` (on this thread): `None` when it does not start.
fn search_level(
    job: &Job,
    searches: &[Search],
    limits: SolveLimits,
    seconds: f64,
    aids: Aids,
) -> Option<Vec<Done>> {
    let (rules, state) = job.level.start(0).ok()?;
    let mut out = Vec::new();
    for search in searches {
        let began = Clock::start();
        // PUZZLESCRIPT_SOLVE_JOBS=N: each search on N threads, as `tessera solve --jobs N` runs
        // it, its budget then wall time (the workers' CPU time is not this thread's)
        let jobs = job_threads();
        let report = solve_aided(&rules, &state, limits, *search, aids, jobs, &mut || {
            seconds.is_finite()
                && if jobs > 1 {
                    began.wall.elapsed().as_secs_f64() > seconds
                } else {
                    began.elapsed_cpu(seconds) > seconds
                }
        });
        let t = began.elapsed();
        let wall = began.wall.elapsed().as_secs_f64();
        let r = &report;
        let what = match &r.outcome {
            SolveOutcome::Solved(c) if r.draws > 0 => {
                format!("solved in {} steps ({} drawing: this seed's)", c.len(), r.draws)
            }
            SolveOutcome::Solved(c) => format!("solved in {} steps", c.len()),
            SolveOutcome::Unsolvable => "unsolvable".into(),
            SolveOutcome::Random { steps, followed: false } => {
                format!("no solution without random steps ({steps} left out; none found following them)")
            }
            SolveOutcome::Random { steps, followed: true } => {
                format!("no solution from this seed ({steps} steps drew)")
            }
            SolveOutcome::TooLong { steps } => {
                format!("gave up: {steps} steps past the work bound left out")
            }
            SolveOutcome::Stopped if r.nodes < limits.max_nodes && seconds.is_finite() => {
                "gave up: time".into()
            }
            SolveOutcome::Stopped => "gave up: states".into(),
            SolveOutcome::Memory => "gave up: memory".into(),
        };
        let (nodes, states, pruned) = (r.nodes, r.states, r.pruned);
        let line = format!(
            "#{:<3} {:<50} level {:>2}{} {search}: {what}; {nodes} expanded, {states} stored, {pruned} pruned, {t:.2} s ({wall:.2} s wall)",
            job.index,
            job.name.chars().take(50).collect::<String>(),
            job.suite_level,
            if job.random { " (random game)" } else { "" }
        );
        out.push(Done { line, report, t, wall });
    }
    Some(out)
}

/// A solution as a case of the suite's shape (see the module docs).
fn solution_case(job: &Job, search: Search, solution: &[PuzzleScriptCommand]) -> serde_json::Value {
    let inputs: Vec<serde_json::Value> = solution.iter().map(|c| c.suite_input()).collect();
    let name = format!("#{} {} {search}", job.index, job.name);
    serde_json::json!([name, [&*job.level.source, inputs, "", job.suite_level]])
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| {
        "/work/shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js".into()
    });
    let budget = args.get(2).map_or("10", String::as_str);
    let (max_nodes, seconds): (u64, f64) = match budget.strip_prefix("states:") {
        Some(n) => match n.split_once('/') {
            Some((n, s)) => (n.parse().expect("states:N/S"), s.parse().expect("states:N/S")),
            None => (n.parse().expect("states:N"), f64::INFINITY),
        },
        None => (u64::MAX, budget.parse().expect("SECONDS")),
    };
    let mut aids = Aids::default();
    for a in args.get(7).map_or("", String::as_str).split(',').filter(|a| !a.is_empty() && *a != "all") {
        match a {
            "no-idle" => aids.idle_action = false,
            "no-prune" => aids.travel_pruning = false,
            "no-estimate" => aids.travel_estimate = false,
            "no-some" => aids.some_distance = false,
            "no-matching" => aids.matching = false,
            "no-lead" => aids.lead = false,
            "no-boost" => aids.boost = false,
            "no-freeze" => aids.freeze = false,
            "no-scenery" => aids.scenery = false,
            _ => panic!(
                "{a}: give all, no-idle, no-prune, no-estimate, no-some, no-matching, no-lead, no-boost, no-freeze or no-scenery"
            ),
        }
    }
    let mib: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let searches: Vec<Search> = args
        .get(4)
        .map_or("bfs,astar", String::as_str)
        .split(',')
        .map(|n| {
            Search::from_name(n).unwrap_or_else(|| panic!("{n}: give bfs, astar, greedy, mixed or width"))
        })
        .collect();
    let total: Option<f64> = args.get(5).and_then(|s| s.parse().ok());
    let stride: usize = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let threads: usize = args.get(8).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    // PUZZLESCRIPT_SOLVE_LEVELS: a comma list of distinct levels (0-based, in the suite's order)
    // to search, and no other.
    let only: Option<BTreeSet<usize>> = std::env::var("PUZZLESCRIPT_SOLVE_LEVELS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let mut distinct = 0usize;
    // (on several jobs a search's budget is the wall clock's)
    let cpu = cpu_seconds().is_some() && job_threads() == 1;
    let text = std::fs::read_to_string(&path).expect("the suite reads");
    let cases = suite::parse_testdata(&text).expect("the suite parses");
    let mut seen = BTreeSet::new();
    let mut jobs = Vec::new();
    for case in &cases {
        if !seen.insert((case.source.clone(), case.level)) {
            continue;
        }
        let Ok(game) = engine::compile(&case.source) else { continue };
        if !matches!(game.levels().get(case.level), Some(LevelEntry::Level { .. })) {
            continue;
        }
        distinct += 1;
        if !(distinct - 1).is_multiple_of(stride)
            || only.as_ref().is_some_and(|o| !o.contains(&(distinct - 1)))
        {
            continue;
        }
        let playable =
            game.levels()[..case.level].iter().filter(|e| matches!(e, LevelEntry::Level { .. })).count();
        let level = PuzzleScriptLevel {
            name: None,
            seed: None,
            source: case.source.as_str().into(),
            level: playable,
        };
        jobs.push(Job {
            index: distinct - 1,
            name: case.name.clone(),
            suite_level: case.level,
            level,
            random: has_random_rules(&case.source),
        });
    }
    let limits = SolveLimits { max_nodes, max_bytes: mib << 20 };
    let run_began = Instant::now();
    // The levels on `threads` threads, each taking the next; printed in the suite's order.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Slot>> = Mutex::new((0..jobs.len()).map(|_| Slot::Waiting).collect());
    let printed = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    // Once the total budget is spent, the remaining levels are left out.
                    let result = if total.is_some_and(|t| run_began.elapsed().as_secs_f64() > t) {
                        Slot::LeftOut
                    } else {
                        search_level(job, &searches, limits, seconds, aids)
                            .map_or(Slot::NoStart, Slot::Searched)
                    };
                    let mut all = results.lock().expect("no thread panicked");
                    all[i] = result;
                    let mut p = printed.lock().expect("no thread panicked");
                    while let Some(r) = all.get(*p) {
                        match r {
                            Slot::Waiting => break,
                            Slot::Searched(done) => done.iter().for_each(|d| println!("{}", d.line)),
                            Slot::NoStart => println!("{:<50} does not start", jobs[*p].name),
                            Slot::LeftOut => {}
                        }
                        *p += 1;
                    }
                }
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    let mut tallies: Vec<Tally> = searches.iter().map(|_| Tally::default()).collect();
    let (mut levels, mut failed, mut random_games, mut left_out) = (0usize, 0usize, 0usize, 0usize);
    // Per search, on the levels every search solved: states expanded and solution steps.
    let mut common = vec![(0u64, 0usize); searches.len()];
    let mut common_levels = 0usize;
    let mut cases = Vec::new();
    for (job, result) in jobs.iter().zip(results) {
        let done = match result {
            Slot::Waiting | Slot::LeftOut => {
                left_out += 1;
                continue;
            }
            Slot::NoStart => {
                levels += 1;
                random_games += usize::from(job.random);
                failed += 1;
                continue;
            }
            Slot::Searched(done) => done,
        };
        levels += 1;
        random_games += usize::from(job.random);
        let mut solved_here = Vec::new();
        for ((d, tally), search) in done.iter().zip(&mut tallies).zip(&searches) {
            let r = &d.report;
            tally.nodes += r.nodes;
            tally.seconds += d.t;
            match &r.outcome {
                SolveOutcome::Solved(c) => {
                    tally.solved += 1;
                    tally.random_solved += usize::from(job.random);
                    tally.seeded_solved += usize::from(r.draws > 0);
                    tally.times.push(d.t);
                    tally.wall_times.push(d.wall);
                    solved_here.push((r.nodes, c.len()));
                    if !job.random && r.draws == 0 {
                        cases.push(solution_case(job, *search, c));
                    }
                }
                SolveOutcome::Unsolvable => tally.unsolvable += 1,
                SolveOutcome::Random { followed, .. } => {
                    tally.random_only += 1;
                    tally.seed_proved += usize::from(*followed);
                }
                SolveOutcome::TooLong { .. } | SolveOutcome::Stopped => tally.stopped += 1,
                SolveOutcome::Memory => tally.memory += 1,
            }
        }
        if solved_here.len() == searches.len() {
            common_levels += 1;
            for (c, (nodes, steps)) in common.iter_mut().zip(solved_here) {
                c.0 += nodes;
                c.1 += steps;
            }
        }
    }
    println!(
        "\n{levels} distinct levels searched{} ({random_games} of games with random rules, {failed} did not \
         start){}; {} and {mib} MiB a level and search ({aids:?})",
        if stride > 1 { format!(" (every {stride}th of {distinct})") } else { String::new() },
        if left_out > 0 {
            format!(", {left_out} left out when the total budget ran out")
        } else {
            String::new()
        },
        if max_nodes < u64::MAX && seconds.is_finite() {
            format!("{max_nodes} states or {seconds} s of {}", if cpu { "CPU time" } else { "wall time" })
        } else if max_nodes < u64::MAX {
            format!("{max_nodes} states")
        } else {
            format!("{seconds} s of {}", if cpu { "CPU time" } else { "wall time" })
        }
    );
    for (search, t) in searches.iter().zip(&mut tallies) {
        t.times.sort_by(f64::total_cmp);
        t.wall_times.sort_by(f64::total_cmp);
        let median = t.times.get(t.times.len() / 2).copied().unwrap_or(0.0);
        let median_wall = t.wall_times.get(t.wall_times.len() / 2).copied().unwrap_or(0.0);
        println!(
            "{search}: {} solved ({} of them in random games, {} through steps that draw), {} proved \
             unsolvable, {} no solution in random games ({} of them searched to the end with this seed), {} out of time, {} out of memory; median time of the solved \
             {median:.3} s ({median_wall:.3} s wall); {:.0} states expanded/s ({} in {:.1} s)",
            t.solved,
            t.random_solved,
            t.seeded_solved,
            t.unsolvable,
            t.random_only,
            t.seed_proved,
            t.stopped,
            t.memory,
            t.nodes as f64 / t.seconds.max(1e-9),
            t.nodes,
            t.seconds
        );
    }
    if searches.len() > 1 {
        let each: Vec<String> = searches
            .iter()
            .zip(&common)
            .map(|(s, (nodes, steps))| format!("{s} {nodes} states expanded, {steps} steps"))
            .collect();
        println!("on the {common_levels} levels every search solved: {}", each.join("; "));
    }
    if let Ok(file) = std::env::var("PUZZLESCRIPT_SOLVE_CASES") {
        let text = serde_json::to_string(&cases).expect("cases serialize");
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("{} solutions written as cases to {file}", cases.len());
    }
}
