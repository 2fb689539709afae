//! ecs
