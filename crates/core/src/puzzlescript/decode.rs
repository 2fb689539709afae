//! PuzzleScript events read by hand from the log's canonical bytes ([`Plugin::decode_event`]).
//!
//! A PuzzleScript step holds many events (a `Cell` per changed cell, a `Rule` per rule that
//! fired, with its cells), and serde's visitor for each `Vec` was 37 % of the editor's Find
//! scan over a long log. The bytes are exactly bincode 2 `standard()`'s (nothing about the
//! format changes): variant indices and integers as varints (below 251 in one byte, else a
//! marker 251, 252 or 253 and 2, 4 or 8 little-endian bytes), a sequence's length as a `u64`
//! varint then its items, a `u8` as itself, a string as its length and UTF-8 bytes, fields in
//! declaration order. Anything else (a bad tag, a cut, a string that is not UTF-8) is declined
//! (`None`), and bincode then reads it and reports the error. A proptest below compares the two.
//!
//! [`Plugin::decode_event`]: crate::Plugin::decode_event

use super::PuzzleScriptEvent;

/// Reads a PuzzleScript event (after its `AnyEvent` variant index) exactly as bincode would, or
/// `None` where bincode would refuse it.
#[inline]
pub(super) fn decode_event(bytes: &[u8]) -> Option<(PuzzleScriptEvent, usize)> {
    let mut r = crate::plugin::Reader::new(bytes);
    let e = match r.int(4)? {
        0 => PuzzleScriptEvent::Turn { index: r.u32()? },
        1 => {
            let line = r.u32()?;
            PuzzleScriptEvent::Rule { line, cells: r.vec(|r| r.pos())? }
        }
        2 => PuzzleScriptEvent::Moved { object: r.u32()?, from: r.pos()?, to: r.pos()? },
        3 => PuzzleScriptEvent::Cell { at: r.pos()?, before: r.words()?, after: r.words()? },
        4 => PuzzleScriptEvent::Aux { before: r.bytes()?.to_vec(), after: r.bytes()?.to_vec() },
        5 => PuzzleScriptEvent::Sound { seed: r.string()? },
        6 => PuzzleScriptEvent::Message { text: r.string()? },
        7 => PuzzleScriptEvent::Cancelled,
        8 => PuzzleScriptEvent::Won,
        _ => return None,
    };
    Some((e, r.read()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyEvent;
    use crate::plugin::by_hand::{int, pos};
    use crate::slide::SlideEvent;
    use proptest::prelude::*;

    fn u32s() -> impl Strategy<Value = u32> {
        int().prop_map(|v| v as u32)
    }

    /// Every PuzzleScript event, every field at every varint boundary, strings of any text.
    fn event() -> impl Strategy<Value = PuzzleScriptEvent> {
        let words = || proptest::collection::vec(int(), 0..6);
        let bytes = || proptest::collection::vec(any::<u8>(), 0..300);
        prop_oneof![
            u32s().prop_map(|index| PuzzleScriptEvent::Turn { index }),
            (u32s(), proptest::collection::vec(pos(), 0..300))
                .prop_map(|(line, cells)| PuzzleScriptEvent::Rule { line, cells }),
            (u32s(), pos(), pos()).prop_map(|(object, from, to)| PuzzleScriptEvent::Moved {
                object,
                from,
                to
            }),
            (pos(), words(), words()).prop_map(|(at, before, after)| PuzzleScriptEvent::Cell {
                at,
                before,
                after
            }),
            (bytes(), bytes()).prop_map(|(before, after)| PuzzleScriptEvent::Aux { before, after }),
            any::<String>().prop_map(|seed| PuzzleScriptEvent::Sound { seed }),
            any::<String>().prop_map(|text| PuzzleScriptEvent::Message { text }),
            Just(PuzzleScriptEvent::Cancelled),
            Just(PuzzleScriptEvent::Won),
        ]
    }

    /// PuzzleScript events, and now and then another rule set's (left to bincode).
    fn any_event() -> impl Strategy<Value = AnyEvent> {
        prop_oneof![
            8 => event().prop_map(AnyEvent::PuzzleScript),
            1 => int().prop_map(|points| AnyEvent::Slide(SlideEvent::Scored { points })),
        ]
    }

    proptest! {
        /// Events read by hand are bincode's: every PuzzleScript event at every varint boundary
        /// reads back whole, and on any bytes (encodings cut, changed or random) a read by hand,
        /// when it answers, equals bincode's read, value and length.
        #[test]
        fn events_read_by_hand_equal_bincodes(e in any_event(), d in crate::plugin::by_hand::damage()) {
            crate::plugin::by_hand::reads_as_bincode(&e, matches!(e, AnyEvent::PuzzleScript(_)), &d)?;
        }
    }
}
