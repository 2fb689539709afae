//! editor
fn main() {}
