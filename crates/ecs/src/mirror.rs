//! [`Mirror`]: the world, its per-cell indexes and id map, built from a state; the queries.

use crate::components::{Anim, Cell, GameId, Ghost, Kind, Layer, Trail};
use crate::error::{Inconsistent, MirrorError};
use hecs::{Entity, World};
use std::collections::BTreeMap;
use std::fmt;
use tessera_core::match3::Cell as Match3Cell;
use tessera_core::tactics::STEP;
use tessera_core::{AnyEvent, AnyState, Id, Pos, RuleSet, Size};

/// What kind of thing happens, for grouping a step's animations into phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// slide: moves and merges.
    Move,
    /// slide, match3: new pieces.
    Spawn,
    /// collapse: the tapped group goes.
    Clear,
    /// collapse, match3: gravity.
    Fall,
    /// collapse: column compaction.
    Shift,
    /// match3: the swap.
    Swap,
    /// match3: the swap going back.
    SwapBack,
    /// match3: matches and unlocks of one cascade level.
    Match,
    /// match3: the dead-board shuffle.
    Shuffle,
    /// tactics: a unit walks.
    Walk,
}

/// Counts phases: a new phase starts whenever an animating event's stage differs from the
/// previous animating event's (match stages also differ by cascade level). Works the same
/// whichever order the events come in, so unapplying a step's events in reverse numbers the
/// phases in reverse.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Phases {
    count: u32,
    stage: Option<Stage>,
    cascade: Option<u32>,
}

impl Phases {
    fn enter(&mut self, stage: Stage, cascade: Option<u32>) -> u32 {
        let same = self.stage == Some(stage)
            && (cascade.is_none() || self.cascade.is_none() || cascade == self.cascade);
        if same {
            self.cascade = self.cascade.or(cascade);
        } else {
            self.count += 1;
            self.stage = Some(stage);
            self.cascade = cascade;
        }
        self.count - 1
    }
}

/// An ordered, comparable view of a mirror's live entities: no animations, no ghosts, no
/// entity handles. Two mirrors of the same game state have equal snapshots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The rule set.
    pub rule_set: RuleSet,
    /// The board's size.
    pub size: Size,
    /// Every live entity's cell, layer, kind and game id, sorted by (row, column, layer, id).
    pub entities: Vec<(Pos, Layer, Kind, Option<Id>)>,
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
    pub(crate) ids: BTreeMap<Id, Entity>,
    pub(crate) ghosts: Vec<Ghost>,
    /// Entities given an [`Anim`] since [`Mirror::begin_step`] (some may be gone since).
    pub(crate) animated: Vec<Entity>,
    /// Cells the current step touched, unsorted.
    pub(crate) touched: Vec<Pos>,
    pub(crate) phases: Phases,
    pub(crate) reversed: bool,
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
    /// A mirror of `state`: one entity per piece (with [`Cell`], [`Kind`], [`GameId`]) and per
    /// ground cell (with [`Cell`], [`Kind`]), no animations. Entities are spawned in batches.
    pub fn from_state(state: &AnyState) -> Mirror {
        let size = match state {
            AnyState::Slide(s) => s.size(),
            AnyState::Collapse(s) => s.board().size(),
            AnyState::Match3(s) => s.size(),
            AnyState::Tactics(s) => s.size(),
        };
        let mut m = Mirror {
            world: World::new(),
            rule_set: state.rule_set(),
            size,
            pieces: vec![None; size.area()],
            ground: vec![None; size.area()],
            ids: BTreeMap::new(),
            ghosts: Vec::new(),
            animated: Vec::new(),
            touched: Vec::new(),
            phases: Phases::default(),
            reversed: false,
        };
        let pieces: Vec<(Cell, Kind, GameId)> = match state {
            AnyState::Slide(s) => {
                s.tiles().map(|(p, t)| (Cell(p), Kind::SlideTile { value: t.value }, GameId(t.id))).collect()
            }
            AnyState::Collapse(s) => s
                .board()
                .iter()
                .filter_map(|(p, t)| {
                    t.map(|t| (Cell(p), Kind::CollapseTile { colour: t.colour }, GameId(t.id)))
                })
                .collect(),
            AnyState::Match3(s) => s
                .blocks()
                .iter()
                .filter_map(|(p, b)| {
                    b.map(|b| (Cell(p), Kind::Block { breed: b.breed, locked: b.locked }, GameId(b.id)))
                })
                .collect(),
            AnyState::Tactics(s) => s
                .units()
                .iter()
                .map(|u| {
                    (
                        Cell(u.pos),
                        Kind::Unit { team: u.team, movement: u.movement, left: u.left },
                        GameId(u.id),
                    )
                })
                .collect(),
        };
        match state {
            AnyState::Match3(s) => {
                let voids: Vec<(Cell, Kind)> = s
                    .cells()
                    .iter()
                    .filter(|(_, c)| **c == Match3Cell::Void)
                    .map(|(p, _)| (Cell(p), Kind::Void))
                    .collect();
                let cells: Vec<Pos> = voids.iter().map(|(c, _)| c.0).collect();
                for (p, e) in cells.into_iter().zip(m.world.spawn_batch(voids)) {
                    m.ground[size.index(p)] = Some(e);
                }
            }
            AnyState::Tactics(s) => {
                let terrain = s.terrain();
                let kinds = terrain.cells().cells().iter().zip(terrain.multipliers()).enumerate().map(
                    |(i, (&t, &mul))| {
                        (Cell(size.pos(i)), Kind::Terrain { terrain: t, cost: STEP * u64::from(mul) })
                    },
                );
                // Every cell has ground, in row-major order: the batch's entities are the index.
                m.ground.clear();
                m.ground.extend(m.world.spawn_batch(kinds).map(Some));
            }
            AnyState::Slide(_) | AnyState::Collapse(_) => {}
        }
        let cells: Vec<(Pos, Id)> = pieces.iter().map(|(c, _, id)| (c.0, id.0)).collect();
        for ((p, id), e) in cells.into_iter().zip(m.world.spawn_batch(pieces)) {
            m.pieces[size.index(p)] = Some(e);
            m.ids.insert(id, e);
        }
        m
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

    /// The world, to query or read components (`world.get::<&Kind>(entity)`). Its iteration
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

    /// The ground entity of `pos` (match3 void, tactics terrain; none off the board).
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

    /// Every piece: its id, cell and kind, sorted by id.
    pub fn pieces_by_id(&self) -> Vec<(Id, Pos, Kind)> {
        self.ids
            .iter()
            .filter_map(|(&id, &e)| {
                let (cell, kind) = self.cell_kind(e)?;
                Some((id, cell, kind))
            })
            .collect()
    }

    /// Every entity's cell, layer and kind, sorted by (row, column, layer): ground before piece.
    pub fn cells_by_position(&self) -> Vec<(Pos, Layer, Kind)> {
        let mut out = Vec::new();
        for i in 0..self.size.area() {
            let pos = self.size.pos(i);
            for (layer, e) in [(Layer::Ground, self.ground[i]), (Layer::Piece, self.pieces[i])] {
                if let Some((_, kind)) = e.and_then(|e| self.cell_kind(e)) {
                    out.push((pos, layer, kind));
                }
            }
        }
        out
    }

    /// The live entities as a [`Snapshot`], read from the world itself (not the indexes), so
    /// that comparing snapshots also compares what a view would draw.
    pub fn snapshot(&self) -> Snapshot {
        let mut entities: Vec<(Pos, Layer, Kind, Option<Id>)> = self
            .world
            .query::<(&Cell, &Kind, Option<&GameId>)>()
            .iter()
            .map(|(c, k, id)| (c.0, k.layer(), *k, id.map(|g| g.0)))
            .collect();
        entities.sort_unstable_by_key(|&(p, layer, kind, id)| (p.y, p.x, layer, id, kind));
        Snapshot { rule_set: self.rule_set, size: self.size, entities }
    }

    /// The cells the current step touched: the `from`, `to` and path cells of every animation
    /// (live entities' and ghosts'), and the cells of recoloured blocks and of units whose
    /// movement changed; sorted row by row (by `(y, x)`), without duplicates.
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
    /// entity is alive, on its cell, of its index's layer, with its id; and the world holds no
    /// other entity. The property tests call it after every step.
    pub fn check(&self) -> Result<(), Inconsistent> {
        let bad = |pos: Option<Pos>, what: String| Err(Inconsistent { pos, what });
        let mut indexed = 0u32;
        for i in 0..self.size.area() {
            let pos = self.size.pos(i);
            for (layer, e) in [(Layer::Ground, self.ground[i]), (Layer::Piece, self.pieces[i])] {
                let Some(e) = e else { continue };
                indexed += 1;
                let Some((cell, kind)) = self.cell_kind(e) else {
                    return bad(Some(pos), format!("{layer:?} entity {e:?} is gone or lacks Cell/Kind"));
                };
                if cell != pos || kind.layer() != layer {
                    return bad(Some(pos), format!("{layer:?} entity is a {kind:?} at {cell}"));
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

    pub(crate) fn cell_kind(&self, e: Entity) -> Option<(Pos, Kind)> {
        let cell = self.world.get::<&Cell>(e).ok()?.0;
        let kind = *self.world.get::<&Kind>(e).ok()?;
        Some((cell, kind))
    }

    // --- primitives the event handlers use; each handler checks before it calls them ---

    /// Fails unless `pos` is on the board.
    pub(crate) fn on_board(&self, pos: Pos) -> Result<usize, MirrorError> {
        if self.size.contains(pos) {
            Ok(self.size.index(pos))
        } else {
            Err(MirrorError::OffBoard { pos, size: self.size })
        }
    }

    /// The piece `id`, which must stand on `at`.
    pub(crate) fn piece(&self, id: Id, at: Pos) -> Result<Entity, MirrorError> {
        let i = self.on_board(at)?;
        let e = self.entity_of(id).ok_or(MirrorError::UnknownId { id })?;
        if self.pieces[i] == Some(e) { Ok(e) } else { Err(MirrorError::NotAt { id, pos: at }) }
    }

    /// Fails unless `pos` is on the board and free, or holds one of `leaving`.
    pub(crate) fn free(&self, pos: Pos, leaving: &[Entity]) -> Result<(), MirrorError> {
        let i = self.on_board(pos)?;
        match self.pieces[i] {
            Some(e) if !leaving.contains(&e) => Err(MirrorError::Occupied { pos }),
            _ => Ok(()),
        }
    }

    /// Fails if piece `id` is on the board.
    pub(crate) fn new_id(&self, id: Id) -> Result<(), MirrorError> {
        if self.ids.contains_key(&id) { Err(MirrorError::DuplicateId { id }) } else { Ok(()) }
    }

    /// The phase of an animating event of `stage` (and cascade level) in the current step.
    pub(crate) fn phase(&mut self, stage: Stage, cascade: Option<u32>) -> u32 {
        self.phases.enter(stage, cascade)
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
        let Ok(kind) = self.world.get::<&Kind>(e).map(|k| *k) else { return };
        let mut trail =
            self.world.get::<&mut Trail>(e).map(|mut t| std::mem::take(&mut t.0)).unwrap_or_default();
        if self.world.despawn(e).is_err() {
            return;
        }
        self.touch(&anim);
        trail.push(anim.clone());
        self.ghosts.push(Ghost { kind, id: Some(id), at, anim, trail });
    }

    /// Puts a new piece on `at` with an animation.
    pub(crate) fn spawn_piece(&mut self, id: Id, at: Pos, kind: Kind, anim: Anim) {
        if !self.size.contains(at) {
            return;
        }
        // Spawned with its animation: one archetype placement rather than a spawn and a move.
        self.touch(&anim);
        let trail = Trail(vec![anim.clone()]);
        let e = self.world.spawn((Cell(at), kind, GameId(id), anim, trail));
        self.animated.push(e);
        self.pieces[self.size.index(at)] = Some(e);
        self.ids.insert(id, e);
    }

    /// Changes the [`Kind`] of `e`.
    pub(crate) fn set_kind(&mut self, e: Entity, f: impl FnOnce(&mut Kind)) {
        if let Ok(mut k) = self.world.get::<&mut Kind>(e) {
            f(&mut k);
        }
    }

    /// The [`Kind`] of `e`.
    pub(crate) fn kind(&self, e: Entity) -> Option<Kind> {
        self.world.get::<&Kind>(e).ok().map(|k| *k)
    }
}
