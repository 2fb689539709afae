//! tessera-ecs: a hecs `World` that mirrors a game as entities (not built yet).
//!
//! This crate will hold `Mirror`: one entity per tile, block, unit and terrain cell, with
//! components for grid position, kind, value and animation; `Mirror::from_state` builds it and
//! `Mirror::apply` / `Mirror::unapply` follow a game's events, so that after any event sequence
//! the mirror equals one built from the state (see `shared/DESIGN.md`). No issue has asked for it
//! yet, so it holds nothing: it exists so that the workspace has its final shape.
