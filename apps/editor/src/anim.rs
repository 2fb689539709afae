//! Animation timing: a step's entities move in numbered phases (see `tessera_ecs::Anim`), played
//! one after another at the chosen speed; "instant" shows the end state at once.
//!
//! `Speed`, `Clock` (phases of a step played in order, capped at 2.5 s a step) and the poses of
//! animated entities and ghosts.

use serde::{Deserialize, Serialize};
use tessera_core::Pos;
use tessera_ecs::{Anim, AnimKind};

/// How fast steps animate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    /// 0.3 s a phase.
    Slow,
    /// 0.14 s a phase.
    #[default]
    Normal,
    /// 0.06 s a phase.
    Fast,
    /// No animation: the board shows the end of the step at once (long cascades).
    Instant,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Instant];

    /// The label in the speed menu.
    pub const fn label(self) -> &'static str {
        match self {
            Speed::Slow => "Slow",
            Speed::Normal => "Normal",
            Speed::Fast => "Fast",
            Speed::Instant => "Instant",
        }
    }

    /// Seconds a phase lasts.
    pub const fn phase_secs(self) -> f64 {
        match self {
            Speed::Slow => 0.30,
            Speed::Normal => 0.14,
            Speed::Fast => 0.06,
            Speed::Instant => 0.0,
        }
    }
}

/// A whole step never takes longer than this, however many phases a cascade has.
const MAX_STEP_SECS: f64 = 2.5;

/// The clock of the step being animated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    start: f64,
    phases: u32,
    phase_secs: f64,
}

impl Clock {
    /// Starts animating a step of `phases` phases at time `now` (seconds).
    pub fn start(now: f64, phases: u32, speed: Speed) -> Clock {
        let mut phase_secs = speed.phase_secs();
        if phases > 0 && phase_secs * f64::from(phases) > MAX_STEP_SECS {
            phase_secs = MAX_STEP_SECS / f64::from(phases);
        }
        Clock { start: now, phases, phase_secs }
    }

    /// No animation: everything at its end.
    pub fn done() -> Clock {
        Clock::default()
    }

    /// Where the step is at `now`, in phases (0 = the start; `phases` or more = the end).
    pub fn at(&self, now: f64) -> f32 {
        if self.phase_secs <= 0.0 {
            return f32::MAX;
        }
        ((now - self.start) / self.phase_secs).max(0.0) as f32
    }

    /// Whether the step is still animating at `now`.
    pub fn running(&self, now: f64) -> bool {
        self.phases > 0 && self.at(now) < self.phases as f32
    }
}

/// Smooth start and stop.
fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Where and how an animated entity is drawn at clock position `at`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Cell coordinates (fractional while moving).
    pub x: f32,
    /// Cell coordinates (fractional while moving).
    pub y: f32,
    /// Size relative to a resting piece (spawns grow, clears shrink).
    pub scale: f32,
    /// Opacity, 0 to 1.
    pub alpha: f32,
}

fn lerp(a: Pos, b: Pos, t: f32) -> (f32, f32) {
    let (ax, ay, bx, by) = (f32::from(a.x), f32::from(a.y), f32::from(b.x), f32::from(b.y));
    (ax + (bx - ax) * t, ay + (by - ay) * t)
}

/// The animation of `trail` (an entity's animations in the step, in phase order) that governs
/// clock position `at`: the latest that has started, else the first.
pub fn current(trail: &[Anim], at: f32) -> Option<&Anim> {
    trail.iter().rev().find(|a| a.phase as f32 <= at).or(trail.first())
}

/// The pose of a live entity with animation `anim` at clock position `at`. `None`: not shown
/// yet (a spawn, or a cleared piece coming back on undo, whose phase has not come).
pub fn pose(anim: &Anim, at: f32) -> Option<Pose> {
    let local = at - anim.phase as f32;
    let t = ease(local);
    let rest = |(x, y): (f32, f32)| Pose { x, y, scale: 1.0, alpha: 1.0 };
    Some(match anim.kind {
        // A live piece with a clear animation is one coming back (an undone clear).
        AnimKind::Spawn | AnimKind::Clear => {
            if local < 0.0 {
                return None;
            }
            let (x, y) = lerp(anim.to, anim.to, 0.0);
            Pose { x, y, scale: 0.2 + 0.8 * t, alpha: t.max(0.15) }
        }
        AnimKind::Walk => match anim.path.as_deref() {
            Some(path) if path.len() >= 2 => {
                let f = t * (path.len() - 1) as f32;
                let i = (f.floor() as usize).min(path.len() - 2);
                rest(lerp(path[i], path[i + 1], f - i as f32))
            }
            _ => rest(lerp(anim.from, anim.to, t)),
        },
        AnimKind::SwapBack => {
            // There and back within the phase: the swap that made no run.
            let tri = if local < 0.5 { ease(local * 2.0) } else { ease(2.0 - local * 2.0) };
            rest(lerp(anim.from, anim.to, tri))
        }
        AnimKind::Unlock => rest(lerp(anim.to, anim.to, 0.0)),
        AnimKind::Merge => {
            let (x, y) = lerp(anim.from, anim.to, t);
            // A short pop when the merge lands.
            let pop =
                if (1.0..1.6).contains(&local) { 1.0 + 0.15 * (1.0 - (local - 1.0) / 0.6) } else { 1.0 };
            Pose { x, y, scale: pop, alpha: 1.0 }
        }
        _ => rest(lerp(anim.from, anim.to, t)),
    })
}

/// The pose of a ghost (an entity that left the board this step) at `at`; `None` once gone.
pub fn ghost_pose(anim: &Anim, at: f32) -> Option<Pose> {
    let local = at - anim.phase as f32;
    if local >= 1.0 {
        return None;
    }
    let t = ease(local);
    match anim.kind {
        // Absorbed in a merge: slides into the survivor, then is gone.
        AnimKind::Merge | AnimKind::Glide => {
            let (x, y) = lerp(anim.from, anim.to, t);
            Some(Pose { x, y, scale: 1.0, alpha: 1.0 })
        }
        _ => {
            let (x, y) = lerp(anim.from, anim.from, 0.0);
            Some(Pose { x, y, scale: 1.0 - 0.7 * t, alpha: 1.0 - t })
        }
    }
}

/// Whether the lock of a block that unlocks this step (or locks again, when `reversed`) shows
/// at `at`: it changes halfway through its phase.
pub fn lock_shown(anim: &Anim, at: f32, reversed: bool) -> bool {
    (at - anim.phase as f32 >= 0.5) == reversed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anim(kind: AnimKind, phase: u32) -> Anim {
        Anim { kind, from: Pos::new(0, 0), to: Pos::new(2, 0), phase, path: None }
    }

    #[test]
    fn a_slide_goes_from_its_cell_to_the_next() {
        let a = anim(AnimKind::Glide, 0);
        assert_eq!(pose(&a, 0.0).map(|p| p.x), Some(0.0));
        assert_eq!(pose(&a, 1.0).map(|p| p.x), Some(2.0));
        let mid = pose(&a, 0.5).map(|p| p.x).unwrap_or_default();
        assert!(mid > 0.5 && mid < 1.5, "{mid}");
    }

    #[test]
    fn a_spawn_is_hidden_until_its_phase() {
        let a = anim(AnimKind::Spawn, 1);
        assert_eq!(pose(&a, 0.5), None);
        assert!(pose(&a, 1.2).is_some());
    }

    #[test]
    fn a_cleared_ghost_is_gone_after_its_phase() {
        let a = anim(AnimKind::Clear, 0);
        assert!(ghost_pose(&a, 0.5).is_some());
        assert_eq!(ghost_pose(&a, 1.0), None);
    }

    #[test]
    fn long_cascades_are_capped() {
        let c = Clock::start(0.0, 100, Speed::Slow);
        assert!(!c.running(MAX_STEP_SECS + 0.01));
        assert!(c.running(0.1));
        assert!(!Clock::start(0.0, 5, Speed::Instant).running(0.0));
    }
}
