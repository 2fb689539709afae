//! The incremental hash's keys. That the kept hash equals the recomputed one after any apply,
//! undo, redo and seek, in every rule set, is the conformance kit's `history` property
//! (`crates/conformance`).

use tessera_core::Level;

/// Distinct states hash apart, and the keys are the documented splitmix64 finalizer.
#[test]
fn keys_are_splitmix64() {
    use tessera_core::keys::{cell_key, mix64};
    // The first output of splitmix64 seeded with 0 (the reference implementation's value).
    assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
    assert_ne!(cell_key(1, 2, 3), cell_key(1, 3, 2));
    assert_ne!(cell_key(1, 2, 3), cell_key(2, 2, 3));
    let a = Level::classic().start(Some(1)).unwrap().state;
    let b = Level::classic().start(Some(2)).unwrap().state;
    assert_ne!(a.hash(), b.hash());
}
