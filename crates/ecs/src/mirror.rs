//! [`Mirror`]: the world, its per-cell indexes and id map, built from a state; the queries.

use crate::check::Scratch;
use crate::components::{Anim, Cell, GameId, Ghost, Trail};
use crate::error::{Inconsistent, MirrorError};
use hecs::{Entity, World};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use tessera_core::project::{Layer, Look, Piece, PieceVisitor, Stage};
use tessera_core::{AnyEvent, AnyState, Id, Pos, RuleSet, Size, project_state};

/// Counts phases: a new phase starts whenever an animating op's [`Stage`] differs from the
/// previous animating op's (its group, or both levels set and different). Works the same
/// whichever order the ops come in, so unapplying a step's events in reverse numbers the phases
/// in reverse.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Phases {
    count: u32,
    group: Option<u8>,
    level: Option<u32>,
}

impl Phases {
    fn enter(&mut self, stage: Stage) -> u32 {
        let same = self.group == Some(stage.group)
            && (stage.level.is_none() || self.level.is_none() || stage.level == self.level);
        if same {
            self.level = self.level.or(stage.level);
        } else {
            self.count += 1;
            self.group = Some(stage.group);
            self.level = stage.level;
        }
        self.count - 1
    }
}

/// Hashes a game id for the id → entity map: one multiplication (Fibonacci hashing) of the
/// `u32` and a fold, no seed, so lookups cost a few instructions (a `BTreeMap` of a 64×64 board's pieces
/// took about 300 per lookup, a third of following a fall). The map is never iterated for
/// anything ordered ([`Mirror::pieces_by_id`] sorts). Ids from a hostile log could collide on
/// purpose: that makes lookups slower, never wrong.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        // The table indexes by the low bits: fold the product's high bits (which depend on every
        // bit of the id) into them.
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Game id → piece.
pub(crate) type IdMap = HashMap<Id, Entity, BuildHasherDefault<IdHasher>>;

/// An ordered, comparable view of a mirror's live entities: no animations, no ghosts, no
/// entity handles. Two mirrors of the same game state have equal snapshots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The rule set.
    pub rule_set: RuleSet,
    /// The board's size.
    pub size: Size,
    /// Every live entity's cell, layer, look and game id, sorted by (row, column, layer, id).
    pub entities: Vec<(Pos, Layer, Look, Option<Id>)>,
}

/// An iterator that yields `.1` items (counted beforehand) and says so in its size hint.
struct Counted<I>(I, usize);

impl<I: Iterator> Iterator for Counted<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.0.next()?;
        self.1 = self.1.saturating_sub(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.1, Some(self.1))
    }
}

/// Builds a mirror from a state's pieces ([`Mirror::from_state`]) in three runs of the
/// projection, with no buffer of pieces (a 1024×1024 map has a million): one counts the ground
/// cells and pieces (hecs reserves a batch's upper bound, which a filter puts at every piece),
/// one spawns the ground, one the pieces; then a scan of the world's columns indexes each
/// entity by its cell (and a piece by its id).
struct Build {
    rule_set: RuleSet,
}

impl PieceVisitor for Build {
    type Output = Mirror;

    fn visit<I: Iterator<Item = Piece>>(self, size: Size, pieces: impl Fn() -> I) -> Mirror {
        let mut m = Mirror {
            world: World::new(),
            rule_set: self.rule_set,
            size,
            pieces: vec![None; size.area()],
            ground: vec![None; size.area()],
            ids: IdMap::default(),
            ghosts: Vec::new(),
            animated: Vec::new(),
            touched: Vec::new(),
            phases: Phases::default(),
            reversed: false,
            scratch: None,
        };
        let ground = |p: &Piece| p.layer == Layer::Ground && size.contains(p.cell);
        let piece = |p: &Piece| p.layer == Layer::Piece && p.id.is_some() && size.contains(p.cell);
        let counts =
            pieces().fold((0, 0), |(g, n), p| (g + usize::from(ground(&p)), n + usize::from(piece(&p))));
        if counts.0 > 0 {
            // (Most boards have no ground: no run for it.)
            let batch = Counted(pieces().filter(ground).map(|p| (Cell(p.cell), p.look)), counts.0);
            m.world.spawn_batch(batch).for_each(drop);
        }
        let batch = Counted(
            pieces().filter(piece).map(|p| (Cell(p.cell), p.look, GameId(p.id.unwrap_or(Id(0))))),
            counts.1,
        );
        m.world.spawn_batch(batch).for_each(drop);
        // The indexes, from the world's columns (a scan, cheaper than running the projection
        // again); the world holds nothing else yet.
        m.ids.reserve(counts.1);
        for (e, cell, id) in m.world.query_mut::<(Entity, &Cell, Option<&GameId>)>() {
            match id {
                Some(id) => {
                    m.pieces[size.index(cell.0)] = Some(e);
                    m.ids.insert(id.0, e);
                }
                None => m.ground[size.index(cell.0)] = Some(e),
            }
        }
        m
    }
}

/// A hecs [`World`] that mirrors one game: see the crate docs.
pub struct Mirror {
    pub(crate) world: World,
    pub(crate) rule_set: RuleSet,
    pub(crate) size: Size,
    /// Per cell (row-major), the piece standing there.
    pub(crate) pieces: Vec<Option<Entity>>,
    /// Per cell (row-major), its ground entity.
    pub(crate) ground: Vec<Option<Entity>>,
    /// Game id → piece.
    pub(crate) ids: IdMap,
    pub(crate) ghosts: Vec<Ghost>,
    /// Entities given an [`Anim`] since [`Mirror::begin_step`] (some may be gone since).
    pub(crate) animated: Vec<Entity>,
    /// Cells the current step touched, unsorted.
    pub(crate) touched: Vec<Pos>,
    pub(crate) phases: Phases,
    pub(crate) reversed: bool,
    /// Buffers reused from event to event (the event's ops, the checks' overlay).
    pub(crate) scratch: Option<Box<Scratch>>,
}

impl fmt::Debug for Mirror {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mirror")
            .field("rule_set", &self.rule_set)
            .field("size", &self.size)
            .field("entities", &self.world.len())
            .field("pieces", &self.ids.len())
            .field("ghosts", &self.ghosts.len())
            .field("phases", &self.phases.count)
            .finish()
    }
}

impl PartialEq for Mirror {
    /// Whether both mirror the same position: equal [`Mirror::snapshot`]s (animations, ghosts
    /// and entity handles are not compared).
    fn eq(&self, other: &Mirror) -> bool {
        self.rule_set == other.rule_set && self.size == other.size && self.snapshot() == other.snapshot()
    }
}

impl Eq for Mirror {}

impl Mirror {
    /// A mirror of `state`: one entity per piece (with [`Cell`], [`Look`], [`GameId`]) and per
    /// ground cell (with [`Cell`], [`Look`]), as the rule set projects them
    /// ([`tessera_core::project_state`]), no animations. Entities are spawned in batches, ground
    /// first. A piece off the board, or a piece-layer piece without an id, is left out.
    pub fn from_state(state: &AnyState) -> Mirror {
        project_state(state, Build { rule_set: state.rule_set() })
    }

    /// Starts a step: removes every [`Anim`] and [`Trail`], drops the ghosts, resets the phase
    /// counter and the touched cells. Call it before applying (or unapplying) one step's events.
    pub fn begin_step(&mut self) {
        for e in self.animated.drain(..) {
            // Entities that left the board since are gone: nothing to remove.
            let _ = self.world.remove::<(Anim, Trail)>(e);
        }
        self.ghosts.clear();
        self.touched.clear();
        self.phases = Phases::default();
        self.reversed = false;
    }

    /// Follows `event` forward. An event of another rule set, or one that does not fit the
    /// board (see [`MirrorError`]), is ignored and changes nothing; [`Mirror::try_apply`] says
    /// why.
    pub fn apply(&mut self, event: &AnyEvent) {
        let _ = self.try_apply(event);
    }

    /// Follows `event` backward (undo): call it for a step's events in reverse order. Events
    /// that do not fit are ignored, as in [`Mirror::apply`].
    pub fn unapply(&mut self, event: &AnyEvent) {
        let _ = self.try_unapply(event);
    }

    /// Follows `event` forward, or says why it does not fit, having changed nothing.
    pub fn try_apply(&mut self, event: &AnyEvent) -> Result<(), MirrorError> {
        self.follow(event, true)
    }

    /// Follows `event` backward, or says why it does not fit, having changed nothing.
    pub fn try_unapply(&mut self, event: &AnyEvent) -> Result<(), MirrorError> {
        self.follow(event, false)
    }

    /// The world, to query or read components (`world.get::<&Look>(entity)`). Its iteration
    /// order is arbitrary: use [`Mirror::pieces_by_id`], [`Mirror::cells_by_position`] or the
    /// per-cell lookups for anything that must be deterministic.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The rule set of the mirrored game.
    pub fn rule_set(&self) -> RuleSet {
        self.rule_set
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The piece on `pos` (none off the board).
    pub fn piece_at(&self, pos: Pos) -> Option<Entity> {
        self.size.contains(pos).then(|| self.pieces[self.size.index(pos)]).flatten()
    }

    /// The ground entity of `pos` (a void, terrain; none off the board).
    pub fn ground_at(&self, pos: Pos) -> Option<Entity> {
        self.size.contains(pos).then(|| self.ground[self.size.index(pos)]).flatten()
    }

    /// The piece with game id `id`, if it is on the board.
    pub fn entity_of(&self, id: Id) -> Option<Entity> {
        self.ids.get(&id).copied()
    }

    /// The pieces that left the board in the current step, in the order they left.
    pub fn ghosts(&self) -> &[Ghost] {
        &self.ghosts
    }

    /// Every piece: its id, cell and look, sorted by id.
    pub fn pieces_by_id(&self) -> Vec<(Id, Pos, Look)> {
        // The map's order is arbitrary: sorted below.
        #[allow(clippy::iter_over_hash_type)]
        let mut out: Vec<(Id, Pos, Look)> = self
            .ids
            .iter()
            .filter_map(|(&id, &e)| {
                let (cell, look) = self.cell_look(e)?;
                Some((id, cell, look))
            })
            .collect();
        out.sort_unstable_by_key(|&(id, ..)| id);
        out
    }

    /// Every entity's cell, layer and look, sorted by (row, column, layer): ground before piece.
    pub fn cells_by_position(&self) -> Vec<(Pos, Layer, Look)> {
        let mut out = Vec::new();
        for i in 0..self.size.area() {
            let pos = self.size.pos(i);
            for (layer, e) in [(Layer::Ground, self.ground[i]), (Layer::Piece, self.pieces[i])] {
                if let Some((_, look)) = e.and_then(|e| self.cell_look(e)) {
                    out.push((pos, layer, look));
                }
            }
        }
        out
    }

    /// The live entities as a [`Snapshot`], read from the world itself (not the indexes), so
    /// that comparing snapshots also compares what a view would draw.
    pub fn snapshot(&self) -> Snapshot {
        let mut entities: Vec<(Pos, Layer, Look, Option<Id>)> = self
            .world
            .query::<(&Cell, &Look, Option<&GameId>)>()
            .iter()
            .map(|(c, look, id)| {
                let layer = if id.is_some() { Layer::Piece } else { Layer::Ground };
                (c.0, layer, *look, id.map(|g| g.0))
            })
            .collect();
        entities.sort_unstable_by_key(|&(p, layer, look, id)| (p.y, p.x, layer, id, look));
        Snapshot { rule_set: self.rule_set, size: self.size, entities }
    }

    /// The cells the current step touched: the `from`, `to` and path cells of every animation
    /// (live entities' and ghosts'), and the cells of pieces whose look changed without an
    /// animation; sorted row by row (by `(y, x)`), without duplicates.
    pub fn touched(&self) -> Vec<Pos> {
        let mut out = self.touched.clone();
        out.sort_unstable_by_key(|p| (p.y, p.x));
        out.dedup();
        out
    }

    /// The number of animation phases in the current step (0 when nothing animates).
    pub fn phases(&self) -> u32 {
        self.phases.count
    }

    /// Whether the current step was unapplied (undo): animations then run from the state after
    /// the step back to the state before it, and a view plays spawns and clears backward (see
    /// the crate docs).
    pub fn reversed(&self) -> bool {
        self.reversed
    }

    /// Checks that the per-cell indexes and the id map agree with the world: every indexed
    /// entity is alive, on its cell, of its index's layer (a piece has a [`GameId`], the ground
    /// none), with its id; and the world holds no other entity. The property tests call it after every step.
    pub fn check(&self) -> Result<(), Inconsistent> {
        let bad = |pos: Option<Pos>, what: String| Err(Inconsistent { pos, what });
        let mut indexed = 0u32;
        for i in 0..self.size.area() {
            let pos = self.size.pos(i);
            for (layer, e) in [(Layer::Ground, self.ground[i]), (Layer::Piece, self.pieces[i])] {
                let Some(e) = e else { continue };
                indexed += 1;
                let Some((cell, look)) = self.cell_look(e) else {
                    return bad(Some(pos), format!("{layer:?} entity {e:?} is gone or lacks Cell/Look"));
                };
                if cell != pos {
                    return bad(Some(pos), format!("{layer:?} entity is a {look:?} at {cell}"));
                }
                let id = self.world.get::<&GameId>(e).ok().map(|g| g.0);
                match (layer, id) {
                    (Layer::Piece, Some(id)) if self.ids.get(&id) == Some(&e) => {}
                    (Layer::Ground, None) => {}
                    _ => return bad(Some(pos), format!("{layer:?} entity has id {id:?} not in the id map")),
                }
            }
        }
        if self.ids.len() != self.pieces.iter().flatten().count() {
            return bad(
                None,
                format!("{} ids for {} pieces", self.ids.len(), self.pieces.iter().flatten().count()),
            );
        }
        if self.world.len() != indexed {
            return bad(None, format!("{} entities in the world, {indexed} indexed", self.world.len()));
        }
        Ok(())
    }

    pub(crate) fn cell_look(&self, e: Entity) -> Option<(Pos, Look)> {
        let cell = self.world.get::<&Cell>(e).ok()?.0;
        let look = *self.world.get::<&Look>(e).ok()?;
        Some((cell, look))
    }

    // --- primitives the ops use; `follow` checks an event's ops before it calls them ---

    /// Fails unless `pos` is on the board.
    pub(crate) fn on_board(&self, pos: Pos) -> Result<usize, MirrorError> {
        if self.size.contains(pos) {
            Ok(self.size.index(pos))
        } else {
            Err(MirrorError::OffBoard { pos, size: self.size })
        }
    }

    /// The phase of an animating op of `stage` in the current step.
    pub(crate) fn phase(&mut self, stage: Stage) -> u32 {
        self.phases.enter(stage)
    }

    /// Takes `e` off the cell index at `from` (only if it is there).
    pub(crate) fn lift(&mut self, e: Entity, from: Pos) {
        if self.size.contains(from) {
            let i = self.size.index(from);
            if self.pieces[i] == Some(e) {
                self.pieces[i] = None;
            }
        }
    }

    /// Puts `e` on `to` (index and [`Cell`]).
    pub(crate) fn place(&mut self, e: Entity, to: Pos) {
        if self.size.contains(to) {
            self.pieces[self.size.index(to)] = Some(e);
        }
        if let Ok(mut c) = self.world.get::<&mut Cell>(e) {
            c.0 = to;
        }
    }

    /// Moves `e` from `from` to `to` with an animation.
    pub(crate) fn move_piece(&mut self, e: Entity, from: Pos, to: Pos, anim: Anim) {
        self.lift(e, from);
        self.place(e, to);
        self.animate(e, anim);
    }

    /// Records `anim` on `e` (its [`Anim`], appended to its [`Trail`]).
    pub(crate) fn animate(&mut self, e: Entity, anim: Anim) {
        self.touch(&anim);
        if let Ok(mut trail) = self.world.get::<&mut Trail>(e) {
            trail.0.push(anim.clone());
            drop(trail);
            if let Ok(mut a) = self.world.get::<&mut Anim>(e) {
                *a = anim;
            }
            return;
        }
        let trail = Trail(vec![anim.clone()]);
        if self.world.insert(e, (anim, trail)).is_ok() {
            self.animated.push(e);
        }
    }

    fn touch(&mut self, anim: &Anim) {
        self.touched.push(anim.from);
        self.touched.push(anim.to);
        if let Some(path) = &anim.path {
            self.touched.extend_from_slice(path);
        }
    }

    pub(crate) fn touch_cell(&mut self, pos: Pos) {
        self.touched.push(pos);
    }

    /// Removes the piece `e` (on `at`, id `id`) from the board, leaving a ghost that plays
    /// `anim`.
    pub(crate) fn remove_piece(&mut self, e: Entity, id: Id, at: Pos, anim: Anim) {
        self.lift(e, at);
        if self.ids.get(&id) == Some(&e) {
            self.ids.remove(&id);
        }
        let Ok(look) = self.world.get::<&Look>(e).map(|k| *k) else { return };
        let mut trail =
            self.world.get::<&mut Trail>(e).map(|mut t| std::mem::take(&mut t.0)).unwrap_or_default();
        if self.world.despawn(e).is_err() {
            return;
        }
        self.touch(&anim);
        trail.push(anim.clone());
        self.ghosts.push(Ghost { look, id: Some(id), at, anim, trail });
    }

    /// Puts a new piece on `at` with an animation.
    pub(crate) fn spawn_piece(&mut self, id: Id, at: Pos, look: Look, anim: Anim) {
        if !self.size.contains(at) {
            return;
        }
        // Spawned with its animation: one archetype placement rather than a spawn and a move.
        self.touch(&anim);
        let trail = Trail(vec![anim.clone()]);
        let e = self.world.spawn((Cell(at), look, GameId(id), anim, trail));
        self.animated.push(e);
        self.pieces[self.size.index(at)] = Some(e);
        self.ids.insert(id, e);
    }

    /// Changes the [`Look`] of `e`.
    pub(crate) fn set_look(&mut self, e: Entity, f: impl FnOnce(&mut Look)) {
        if let Ok(mut k) = self.world.get::<&mut Look>(e) {
            f(&mut k);
        }
    }

    /// The [`Look`] of `e`.
    pub(crate) fn look(&self, e: Entity) -> Option<Look> {
        self.world.get::<&Look>(e).ok().map(|k| *k)
    }
}
