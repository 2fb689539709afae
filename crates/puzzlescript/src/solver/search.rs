//! [`Searcher`]: one search (the frontier, the store, the pool, the estimate and the aids put
//! together), expanding states until a win, a proof of none, or the budget.

use super::*;

/// The expansions each of [`solve_aided`]'s two searches makes before the other takes its
/// turn, once both run.
pub(super) const SLICE: u64 = 1024;

/// A search's running counts.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    /// States expanded.
    pub(super) nodes: u64,
    /// Steps that drew from the generator (left out, or followed).
    pub(super) random: u64,
    /// Steps left out: past the work bound.
    pub(super) too_long: u64,
    /// States found dead, not stored.
    pub(super) pruned: u64,
    /// States found so far (best-first's ties).
    pub(super) order: u64,
    /// The batch's size now, the whole batches since it changed, and how many it waits for
    /// before it grows (see `run`).
    pub(super) batch_size: usize,
    pub(super) whole: usize,
    pub(super) grow_after: usize,
    /// The mean time of one state's expansion on one thread (nanoseconds, a running mean of the
    /// last few): whether a batch is worth spreading over threads. (The clock decides only
    /// where states are expanded, never which: the answer stays the same.)
    pub(super) mean_ns: u64,
    /// The mean time (the same kind of running mean) of one state's expansion its turn came
    /// to, its steps spread over the threads: the state's steps are spread while that is the
    /// quicker (tried again now and then, see [`SPREAD_PROBE`]).
    pub(super) spread_ns: u64,
}

/// One search of [`solve_aided`], steps that draw from the generator followed or left out: it
/// runs until it ends or has expanded a given number of states, and goes on from there when
/// run again.
pub(super) struct Searcher<'a> {
    pub(super) game: &'a Game,
    pub(super) moves: &'static [Command],
    pub(super) search: Search,
    /// Each heap's order (see `new`).
    pub(super) orders: &'static [Order],
    pub(super) jobs: usize,
    pub(super) follow_random: bool,
    /// States are keyed by their look (`scenery.rs`) when set; the buffer it is made in.
    pub(super) look: Option<&'a Scenery>,
    pub(super) look_cells: Vec<u64>,
    /// `look` takes the generator for scenery: every step is played with the start's.
    pub(super) keep_rng: bool,
    /// `action` changes nothing in this game (see `Game::action_is_idle`): not played.
    pub(super) idle_action: bool,
    pub(super) work_limit: u64,
    pub(super) store: Store,
    pub(super) pruning: Pruning,
    pub(super) prunes: bool,
    pub(super) travel: Vec<Travel>,
    pub(super) some_distance: bool,
    pub(super) matching: bool,
    pub(super) lead: bool,
    /// The turns a boost gives (0: none; see [`Aids::boost`]).
    pub(super) boost_turns: u32,
    pub(super) frontier: Frontier,
    pub(super) workers: Vec<Worker>,
    /// A state's board, for the checks the merge makes (its other fields are the start's).
    pub(super) view: crate::State,
    /// Expansions worked out ahead of their turn (best-first: a state found in a batch came
    /// before the rest of it), by state id.
    pub(super) ahead: HashMap<u32, Vec<Tried>>,
    /// (id, and for best-first where it came from and its entry)
    pub(super) batch: Vec<(u32, Option<(Pick, Entry)>)>,
    /// Entries taken out of a heap while the batch was filled because their state was in the
    /// batch already (mixed: the heaps' tops are often one state): the batch slot being filled,
    /// the heap, the entry. Put back with the slots they were taken for, when those wait.
    pub(super) doubles: Vec<(usize, usize, Entry)>,
    pub(super) k: Counts,
    /// The answer when known before the first expansion (the start won, or dead).
    pub(super) early: Option<SolveOutcome>,
}

/// Adds state `id` to `frontier`, found `order`-th, `depth` steps from the start, estimated
/// `h` from a win, `novel` (1) or not (2) (see [`Store::novelty`]): in each heap by its order.
/// Whether its estimate is less than any pushed before it (the search's progress).
pub(super) fn push(
    frontier: &mut Frontier,
    order: &mut u64,
    orders: &[Order],
    id: u32,
    depth: u32,
    h: u32,
    novel: u32,
) -> bool {
    match frontier {
        Frontier::Fifo(q) => {
            q.push_back(id);
            false
        }
        Frontier::Heaps { heaps, boost, .. } => {
            *order += 1;
            for (heap, o) in heaps.iter_mut().zip(orders) {
                // (`h` is the frontier's key: the estimate, then the player's lead, which width's
                // order leaves out: its novelty leads it already)
                let (priority, h, tie) = match *o {
                    Order::AStar => (depth.saturating_add(estimate_of(h)), h, *order),
                    Order::Greedy { newest: false } => (h, h, *order),
                    Order::Greedy { newest: true } => (h, h, u64::MAX - *order),
                    Order::Width => (novel, key_of(estimate_of(h), 0), *order),
                };
                heap.push(Reverse((priority, h, tie, id, depth)));
            }
            let progress = boost.best != u32::MAX && estimate_of(h) < boost.best;
            boost.best = boost.best.min(estimate_of(h));
            progress
        }
    }
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        puzzle: Puzzle<'a>,
        search: Search,
        aids: Aids,
        jobs: usize,
        follow_random: bool,
        look: Option<&'a Scenery>,
    ) -> Searcher<'a> {
        // (the rules that only paint are not played where states are known by their look;
        // the pruning reads the whole game)
        let whole = puzzle.game;
        let game = look.and_then(|l| l.played.as_deref()).unwrap_or(whole);
        let work_limit = puzzle.work_limit;
        let start = puzzle.start;
        let mut pruning = Pruning::of(whole, start);
        let travel = if aids.travel_estimate { pruning.travel().to_vec() } else { Vec::new() };
        if !aids.travel_pruning {
            pruning.forget_travel();
        }
        if !aids.freeze {
            pruning.forget_freeze();
        }
        // Each heap's order, and the heap each expansion takes from in turn. Greedy's two tie
        // orders find different levels' solutions (on the suite, 3 levels each that the other
        // did not within 10 s): mixed runs both, and width's.
        let (orders, turns): (&'static [Order], &'static [usize]) = match search {
            Search::Bfs => (&[], &[]),
            Search::AStar => (&[Order::AStar], &[0]),
            Search::Greedy => (&[Order::Greedy { newest: false }], &[0]),
            Search::Width => (&[Order::Width], &[0]),
            Search::Mixed => (&MIXED_ORDERS, &MIXED_TURNS),
        };
        let width = orders.contains(&Order::Width);
        let jobs = jobs.max(1);
        let most = if jobs > 1 { BATCH_PER_JOB * jobs } else { 1 };
        let mut me = Searcher {
            game,
            moves: moves(game),
            search,
            orders,
            jobs,
            follow_random,
            look,
            look_cells: Vec::new(),
            keep_rng: look.is_some_and(|l| l.random_is_scenery),
            idle_action: aids.idle_action && game.action_is_idle(start.width, start.height, work_limit),
            work_limit,
            store: Store { start: start.cells.clone(), ..Store::new(start.cells.len()) },
            prunes: pruning.checks_states(),
            pruning,
            travel,
            some_distance: aids.some_distance,
            matching: aids.matching,
            lead: aids.lead,
            boost_turns: if aids.boost { BOOST_TURNS } else { 0 },
            frontier: match search {
                Search::Bfs => Frontier::Fifo(VecDeque::new()),
                _ => Frontier::Heaps {
                    heaps: orders.iter().map(|_| Buckets::default()).collect(),
                    turns,
                    turn: 0,
                    boost: Boost::default(),
                },
            },
            workers: (0..jobs).map(|_| Worker::new(start)).collect(),
            view: start.clone(),
            ahead: HashMap::new(),
            batch: Vec::new(),
            doubles: Vec::new(),
            k: Counts {
                nodes: 0,
                random: 0,
                too_long: 0,
                pruned: 0,
                order: 0,
                batch_size: most,
                whole: 0,
                grow_after: GROW_AFTER,
                mean_ns: 0,
                spread_ns: 0,
            },
            early: None,
        };
        if puzzle.won {
            me.early = Some(SolveOutcome::Solved(Vec::new()));
        } else if me.pruning.start_is_dead(game, start) {
            me.early = Some(SolveOutcome::Unsolvable);
        } else {
            let rest = me.store.rest_id(start);
            let seen = seen_as(look, &start.cells, &mut me.look_cells);
            let key = state_key(seen, rest);
            let (at, _) = me.store.find(key);
            let root = me.store.add(at, key, &start.cells, rest, Link { parent: NONE, cmd: 0, depth: 0 });
            let h = Estimate {
                game,
                travel: &me.travel,
                some_distance: me.some_distance,
                matching: me.matching,
                lead: me.lead,
            }
            .key(start);
            let novel = me.store.novelty(width, estimate_of(h), seen);
            push(&mut me.frontier, &mut me.k.order, orders, root, 0, h, novel);
        }
        me
    }

    /// The bytes it takes: its store's and its frontier's entries'.
    pub(super) fn bytes(&self) -> u64 {
        self.store.bytes().saturating_add(self.frontier.bytes(self.k.order, self.store.count() as u64))
    }

    /// About the most it grows by with `states` more states (see [`Store::growth`]).
    pub(super) fn growth(&self, states: u64) -> u64 {
        self.store.growth(states).saturating_add(states.saturating_mul(self.frontier.per_state()))
    }

    /// What the search has done, ended with `outcome`.
    pub(super) fn report(&self, outcome: SolveOutcome, draws: u64) -> SolveReport {
        SolveReport {
            outcome,
            nodes: self.k.nodes,
            states: self.store.count() as u64,
            bytes: self.bytes(),
            pruned: self.k.pruned,
            draws,
        }
    }

    /// Runs the search until it ends (its report), or (`None`) until it has expanded
    /// `pause_at` states; within `max_nodes` expansions and `max_bytes` of stored states,
    /// calling `stop` before every step.
    pub(super) fn run(
        &mut self,
        pause_at: u64,
        max_nodes: u64,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<SolveReport> {
        if let Some(outcome) = self.early.take() {
            return Some(self.report(outcome, 0));
        }
        let (outcome, draws) = self.run_until(pause_at, max_nodes, max_bytes, stop)?;
        Some(self.report(outcome, draws))
    }

    /// [`Searcher::run`]'s loop: the outcome and the solution's steps that drew.
    pub(super) fn run_until(
        &mut self,
        pause_at: u64,
        max_nodes: u64,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(SolveOutcome, u64)> {
        let Searcher {
            game,
            moves,
            search,
            orders,
            jobs,
            follow_random,
            look,
            look_cells,
            keep_rng,
            idle_action,
            work_limit,
            store,
            pruning,
            prunes,
            travel,
            some_distance,
            matching,
            lead,
            boost_turns,
            frontier,
            workers,
            view,
            ahead,
            batch,
            doubles,
            k,
            early: _,
        } = self;
        let (game, moves, search, orders, jobs, prunes) = (*game, *moves, *search, *orders, *jobs, *prunes);
        let width = orders.contains(&Order::Width);
        let estimate =
            Estimate { game, travel, some_distance: *some_distance, matching: *matching, lead: *lead };
        let expander = Expander {
            game,
            moves,
            work_limit: *work_limit,
            idle_action: *idle_action,
            follow_random: *follow_random,
            keep_rng: *keep_rng,
            // Several threads work out the checks of the states they reach; one leaves them to
            // the merge, which needs them for new states only.
            checks: (jobs > 1).then_some((&*pruning, &estimate, prunes, search != Search::Bfs)),
        };
        // The batch's size adapts: a best-first batch is cut short where a state found
        // meanwhile comes first (in greedy's order, nearly always the next state's own
        // children), and then its threads mostly expand states that wait; the size falls to
        // what was taken and grows back (doubling) after `grow_after` whole batches; a batch
        // that grew and was cut short again makes the next growth wait twice as long. (Any
        // size takes the states in one thread's order: the same answer.)
        let most = if jobs > 1 { BATCH_PER_JOB * jobs } else { 1 };
        let shared = Shared::default();
        // (never `None`: a search has one worker at least)
        let Some((mine, theirs)) = workers.split_first_mut() else {
            return Some((SolveOutcome::Stopped, 0));
        };
        let expander = &expander;
        std::thread::scope(|scope| {
            let pool = (jobs > 1).then(|| Pool::start(scope, &shared, expander, theirs));
            let pool = pool.as_ref();
            loop {
                // The states the search expands next, as far as known now: the queue's first ones,
                // or the heap's least (each still to be checked, in turn, against what the ones
                // before it add).
                batch.clear();
                doubles.clear();
                // (one state when the batch would stay on this thread: taking more out of the
                // heaps only to put them back costs time)
                let fill = if jobs > 1 && (k.batch_size as u64).saturating_mul(k.mean_ns) >= PARALLEL_WORK_NS
                {
                    k.batch_size
                } else {
                    1
                };
                while batch.len() < fill {
                    let head = match &mut *frontier {
                        Frontier::Fifo(q) => q.pop_front().map(|id| (id, None)),
                        Frontier::Heaps { heaps, turns, turn, boost } => {
                            let t = *turn;
                            let boosted = boost.left > 0;
                            let pick = Pick { t, heap: if boosted { boost.heap } else { turns[t] }, boosted };
                            let heap = &mut heaps[pick.heap];
                            let next = loop {
                                match heap.pop() {
                                    Some(Reverse((_, _, _, id, depth)))
                                        if store.depth[id as usize] != depth => {}
                                    Some(Reverse((_, _, _, id, _))) if store.slot[id as usize] == NONE => {}
                                    // A state the batch holds already: once the batch has taken it,
                                    // one thread would find this entry stale and skip it, as here;
                                    // it goes back if the batch is cut before this slot.
                                    Some(e) if batch.iter().any(|&(id, _)| id == e.0.3) => {
                                        doubles.push((batch.len(), pick.heap, e));
                                    }
                                    other => break other.map(|e| (e.0.3, Some((pick, e)))),
                                }
                            };
                            // (when this heap has nothing left, the turn stays its: the states the
                            // batch holds may add some)
                            if next.is_some() {
                                if boosted {
                                    boost.left -= 1;
                                } else {
                                    *turn = (t + 1) % turns.len();
                                }
                            }
                            next
                        }
                    };
                    match head {
                        Some(h) => batch.push(h),
                        None => break,
                    }
                }
                if batch.is_empty() {
                    break;
                }
                // Expand them (on every job), then take them in order as the search would, one at
                // a time: the same states, steps and answer whatever the number of jobs.
                // (a batch of cheap turns is left to this thread, one state at a time)
                if jobs > 1 && (batch.len() as u64).saturating_mul(k.mean_ns) >= PARALLEL_WORK_NS {
                    let budget = usize::try_from(max_nodes.saturating_sub(k.nodes)).unwrap_or(usize::MAX);
                    let todo: Vec<u32> = batch
                        .iter()
                        .take(budget.max(1))
                        .map(|&(id, _)| id)
                        .filter(|id| !ahead.contains_key(id))
                        .collect();
                    let clock = std::time::Instant::now();
                    let expanded = expand_batch(pool, expander, store, &todo, mine, &mut *stop);
                    if !expanded.is_empty() {
                        let per_state = clock.elapsed().as_nanos() * jobs as u128 / expanded.len() as u128;
                        k.mean_ns = (k.mean_ns * 7 + u64::try_from(per_state).unwrap_or(u64::MAX / 8)) / 8;
                    }
                    for (id, tried) in expanded {
                        if let Some(tried) = tried {
                            ahead.insert(id, tried);
                        }
                    }
                }
                // (how many of the batch were taken before it was cut short)
                let mut taken = batch.len();
                // (the heap whose state just expanded found a state of a smaller estimate than
                // any before: boosted once the states taken after it are put back)
                let mut boost_to = None;
                for i in 0..batch.len() {
                    let (head, entry) = batch[i];
                    if let Some(heap) = boost_to.take() {
                        // (the rest of the batch was taken in the turns' order: it waits)
                        put_back(frontier, &batch[i..]);
                        put_back_doubles(frontier, doubles, i);
                        start_boost(frontier, heap, *boost_turns);
                        taken = i;
                        break;
                    }
                    if let Some((pick, entry)) = entry
                        && i > 0
                        && let Frontier::Heaps { heaps, .. } = &mut *frontier
                    {
                        let stale =
                            store.depth[head as usize] != entry.0.4 || store.slot[head as usize] == NONE;
                        if stale && heaps.len() == 1 {
                            continue;
                        }
                        // A state found since that comes first, or (heaps in turns) a stale one,
                        // which one thread would have skipped for the next of the same heap: the
                        // rest of the batch waits its turn.
                        if stale || heaps[pick.heap].peek().is_some_and(|top| top > entry) {
                            put_back(frontier, &batch[i..]);
                            put_back_doubles(frontier, doubles, i);
                            taken = i;
                            break;
                        }
                    }
                    if k.nodes >= pause_at {
                        // (the rest of the batch waits for the next run, in its place)
                        put_back(frontier, &batch[i..]);
                        put_back_doubles(frontier, doubles, i);
                        return None;
                    }
                    if k.nodes >= max_nodes || stop() {
                        return Some((SolveOutcome::Stopped, 0));
                    }
                    let tried = match ahead.remove(&head) {
                        Some(t) => t,
                        None => {
                            let clock = std::time::Instant::now();
                            // (its steps spread over the threads while that is the quicker; in
                            // the unit tests, always, so that they try that path)
                            let quicker = cfg!(test) || k.spread_ns < k.mean_ns;
                            let probe =
                                k.nodes.is_multiple_of(if quicker { SPREAD_PROBE } else { SPREAD_PROBE * 8 });
                            let spread = pool.filter(|_| quicker != probe);
                            let tried =
                                expand_batch(spread, expander, store, &[head], mine, &mut *stop).pop();
                            let took = u64::try_from(clock.elapsed().as_nanos()).unwrap_or(u64::MAX / 8);
                            let mean = if spread.is_some() { &mut k.spread_ns } else { &mut k.mean_ns };
                            *mean = (*mean * 7 + took) / 8;
                            match tried.and_then(|(_, t)| t) {
                                Some(t) => t,
                                None => {
                                    k.nodes += 1;
                                    return Some((SolveOutcome::Stopped, 0));
                                }
                            }
                        }
                    };
                    store.release(head);
                    // (the heap it came from, which a boost would name when its order takes one)
                    let from =
                        batch[i].1.map(|(pick, _)| pick.heap).filter(|&heap| orders[heap].takes_boost());
                    let depth = store.depth[head as usize] + 1;
                    let parent_rest = store.rest_of[head as usize];
                    k.nodes += 1;
                    for t in tried {
                        let (cmd, cells, rest_state, dead, h) = match t.what {
                            Reached::TooLong => {
                                k.too_long += 1;
                                continue;
                            }
                            Reached::Random => {
                                k.random += 1;
                                continue;
                            }
                            Reached::Won { drew } => {
                                let mut path = store.path(head, moves);
                                path.push(moves[usize::from(t.cmd)]);
                                let draws = store.draws(head) + u64::from(drew);
                                return Some((SolveOutcome::Solved(path), draws));
                            }
                            Reached::State { drew, cells, rest, dead, h } => {
                                k.random += u64::from(drew);
                                (t.cmd, cells, rest, dead, h)
                            }
                        };
                        let rest = match rest_state {
                            None => parent_rest,
                            Some(st) => store.rest_id_of(*st),
                        };
                        let seen = seen_as(*look, &cells, look_cells);
                        let key = state_key(seen, rest);
                        let (at, found) = store.find(key);
                        let mut in_view = |cells: &Vec<u64>, f: &mut dyn FnMut(&crate::State) -> u32| {
                            view.cells.clone_from(cells);
                            f(view)
                        };
                        if !found && prunes {
                            let dead = dead.unwrap_or_else(|| {
                                in_view(&cells, &mut |v| u32::from(pruning.is_dead(game, v))) == 1
                            });
                            if dead {
                                // (not stored: a dead state found again is tested again)
                                k.pruned += 1;
                                continue;
                            }
                        }
                        let link = Link { parent: head, cmd, depth };
                        if found {
                            // Breadth-first finds every state first by a shortest path; best-first
                            // may not.
                            let id = store.ids[at];
                            if search != Search::Bfs && depth < store.depth[id as usize] {
                                store.reopen(id, &cells, link);
                                let h = h.unwrap_or_else(|| in_view(&cells, &mut |v| estimate.key(v)));
                                let novel = store.novelty(width, estimate_of(h), seen);
                                if push(frontier, &mut k.order, orders, id, depth, h, novel) {
                                    boost_to = from;
                                }
                            }
                            continue;
                        }
                        let entries = frontier.bytes(k.order + 1, store.count() as u64 + 1);
                        if store.bytes_after_one_more().saturating_add(entries) > max_bytes
                            || store.count() >= MAX_STATES
                        {
                            return Some((SolveOutcome::Memory, 0));
                        }
                        let id = store.add(at, key, &cells, rest, link);
                        let h = if search == Search::Bfs {
                            0
                        } else {
                            h.unwrap_or_else(|| in_view(&cells, &mut |v| estimate.key(v)))
                        };
                        let novel = store.novelty(width, estimate_of(h), seen);
                        if push(frontier, &mut k.order, orders, id, depth, h, novel) {
                            boost_to = from;
                        }
                    }
                }
                if let Some(heap) = boost_to {
                    start_boost(frontier, heap, *boost_turns);
                }
                if taken < batch.len() {
                    if taken <= 1 && batch.len() > 1 {
                        k.grow_after = (k.grow_after * 2).min(MAX_GROW_AFTER);
                    }
                    (k.batch_size, k.whole) = (taken.max(1), 0);
                } else {
                    k.whole += 1;
                    if batch.len() > 1 {
                        k.grow_after = GROW_AFTER;
                    }
                    if k.whole >= k.grow_after {
                        (k.batch_size, k.whole) = ((k.batch_size * 2).min(most), 0);
                    }
                }
                if ahead.len() > AHEAD_LIMIT * most {
                    ahead.clear();
                }
            }
            // Steps left out (past the work bound) make "no solution" no proof; steps that drew make
            // it this seed's.
            let outcome = if k.too_long > 0 {
                SolveOutcome::TooLong { steps: k.too_long }
            } else if k.random > 0 {
                SolveOutcome::Random { steps: k.random, followed: *follow_random }
            } else {
                SolveOutcome::Unsolvable
            };
            Some((outcome, 0))
        })
    }
}

/// The expansions of `ids` of `store`, in their order: on `pool`'s threads and this one (`w`)
/// when there is a pool, else on this thread alone, its checks left to the merge (which makes
/// them for new states only); `None` for those `stop` cut short.
pub(super) fn expand_batch(
    pool: Option<&Pool>,
    expander: &Expander,
    store: &Store,
    ids: &[u32],
    w: &mut Worker,
    stop: &mut dyn FnMut() -> bool,
) -> Expanded {
    if let Some(pool) = pool {
        return pool.expand_all(store, ids, w, stop);
    }
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let tried = expander.expand(store, id, w, false, stop);
        let halted = tried.is_none();
        out.push((id, tried));
        if halted {
            break;
        }
    }
    out
}
