//! Shared helpers: run a command, follow its events, compare with a fresh mirror.

use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Level, Rules};
use tessera_ecs::{Anim, Cell, Mirror, Trail};

/// A level from JSON text.
pub fn level(json: &str) -> Level {
    Level::from_json(json).unwrap()
}

/// Checks `m` against a mirror built fresh from `state`, and its indexes against its world.
pub fn assert_mirrors(m: &Mirror, state: &AnyState) {
    m.check().unwrap();
    assert_eq!(m.snapshot(), Mirror::from_state(state).snapshot());
    assert!(*m == Mirror::from_state(state));
}

/// Starts a step and follows `events` forward (in order) or backward (in reverse order); every
/// event must fit.
pub fn follow(m: &mut Mirror, events: &[AnyEvent], forward: bool) {
    m.begin_step();
    if forward {
        for e in events {
            m.try_apply(e).unwrap_or_else(|err| panic!("{e:?} does not fit: {err}"));
        }
    } else {
        for e in events.iter().rev() {
            m.try_unapply(e).unwrap_or_else(|err| panic!("{e:?} does not fit backward: {err}"));
        }
    }
    assert_animations_continuous(m);
}

/// Every animated entity's trail is continuous (each animation starts where the one before
/// ended), in phase order, ends with its `Anim`, and ends on its cell; ghosts' trails likewise,
/// ending where they left; every phase is below `phases()`; touched cells are on the board.
pub fn assert_animations_continuous(m: &Mirror) {
    let check = |trail: &[Anim], what: &str| {
        assert!(!trail.is_empty(), "{what}: empty trail");
        for w in trail.windows(2) {
            assert_eq!(w[0].to, w[1].from, "{what}: trail jumps: {trail:?}");
            assert!(w[0].phase <= w[1].phase, "{what}: phases out of order: {trail:?}");
        }
        assert!(trail.iter().all(|a| a.phase < m.phases()), "{what}: phase beyond {}: {trail:?}", m.phases());
    };
    for (cell, anim, trail) in m.world().query::<(&Cell, &Anim, &Trail)>().iter() {
        check(&trail.0, "entity");
        assert_eq!(trail.0.last(), Some(anim));
        assert_eq!(anim.to, cell.0, "an entity's animation ends on its cell");
    }
    for g in m.ghosts() {
        check(&g.trail, "ghost");
        assert_eq!(g.trail.last(), Some(&g.anim));
        assert_eq!(g.anim.from, g.at, "a ghost leaves from its last cell");
    }
    assert!(m.touched().iter().all(|&p| m.size().contains(p)));
}

/// Runs `cmd` on `state` and follows its events with a mirror of the state before; checks the
/// mirror after. Returns the mirror (holding the step's animations) and the events.
pub fn step(rules: &AnyRules, state: &mut AnyState, cmd: &AnyCommand) -> (Mirror, Vec<AnyEvent>) {
    let mut m = Mirror::from_state(state);
    let mut events = Vec::new();
    rules.apply(state, cmd, &mut events).unwrap();
    follow(&mut m, &events, true);
    assert_mirrors(&m, state);
    (m, events)
}

/// Undoes the step whose `events` `m` followed: the rules undo `state`, the mirror unapplies;
/// checks the mirror after.
pub fn undo(rules: &AnyRules, state: &mut AnyState, m: &mut Mirror, events: &[AnyEvent]) {
    rules.undo(state, events);
    follow(m, events, false);
    assert_mirrors(m, state);
    assert!(m.reversed());
}

/// The animation and trail of the piece with game id `id`.
pub fn anim_of(m: &Mirror, id: tessera_core::Id) -> Option<(Anim, Vec<Anim>)> {
    let e = m.entity_of(id)?;
    let a = (*m.world().get::<&Anim>(e).ok()?).clone();
    let t = m.world().get::<&Trail>(e).ok()?.0.clone();
    Some((a, t))
}
