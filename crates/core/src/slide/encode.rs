//! 2048 steps written by hand in the log's canonical bytes ([`Plugin::encode_step`]).
//!
//! 2048 steps are the smallest and most numerous steps there are (a long game or a bot records
//! millions), and serde's call per field, with a push and its capacity check per byte, was a
//! third of what recording one cost. Room for the whole step is made at the end of the buffer at
//! once, written, and cut to length. The bytes are exactly bincode 2 `standard()`'s for
//! `(AnyCommand::Slide(SlideCommand::Slide(dir)), Vec<AnyEvent>, u64)`: variant indices and
//! integers as varints (below 251 in one byte, else a marker 251, 252 or 253 and 2, 4 or 8
//! little-endian bytes), fields in declaration order. A proptest below compares them with
//! bincode, every event at every varint boundary.
//!
//! [`Plugin::encode_step`]: crate::Plugin::encode_step

use super::{Combine, SlideCommand, SlideEvent};
use crate::{EventOf, Pos};

/// Writes the step `(command, events, hash)` with `command` and every event of variant `tag`;
/// `false` (nothing written) when an event is of another rule set.
#[inline]
pub(super) fn encode_step<E: EventOf<SlideEvent>>(
    tag: u32,
    command: &SlideCommand,
    events: &[E],
    hash: u64,
    buf: &mut Vec<u8>,
) -> bool {
    let SlideCommand::Slide(dir) = command;
    if !events.iter().all(|e| e.event_of().is_some()) {
        return false;
    }
    let tag = u64::from(tag);
    let start = buf.len();
    buf.resize(start + STEP_ROOM + EVENT_ROOM * events.len(), 0);
    let mut b = Small { b: &mut buf[start..], n: 0 };
    // `AnyCommand::Slide(SlideCommand::Slide(dir))`: three variant indices.
    b.varint(tag);
    b.varint(0);
    b.varint(*dir as u64);
    b.varint(events.len() as u64);
    for e in events {
        if let Some(e) = e.event_of() {
            b.slide_event(tag, e);
        }
    }
    b.varint(hash);
    let end = start + b.n;
    buf.truncate(end);
    true
}

/// Reads a slide event (after its `AnyEvent` variant index) exactly as bincode would, or `None`
/// where bincode would refuse it or a case is left to bincode.
#[inline]
pub(super) fn decode_event(bytes: &[u8]) -> Option<(SlideEvent, usize)> {
    let mut r = crate::plugin::Reader::new(bytes);
    let e = match r.int(4)? {
        0 => SlideEvent::Moved { tile: r.id()?, from: r.pos()?, to: r.pos()? },
        1 => SlideEvent::Merged {
            tile: r.id()?,
            from: r.pos()?,
            absorbed: r.id()?,
            absorbed_from: r.pos()?,
            to: r.pos()?,
            value: r.u32()?,
            combine: match r.int(4)? {
                0 => Combine::Single,
                1 => Combine::Double,
                _ => return None,
            },
        },
        2 => SlideEvent::Scored { points: r.int(8)? },
        3 => SlideEvent::Spawned {
            tile: r.id()?,
            at: r.pos()?,
            value: r.u32()?,
            rng: crate::RngSpan { before: r.int(8)?, after: r.int(8)? },
        },
        4 => SlideEvent::Won { value: r.u32()? },
        5 => SlideEvent::GameOver,
        _ => return None,
    };
    Some((e, r.read()))
}

/// Room for a slide step's command (3 bytes), event count and hash (9 bytes each), and for the
/// last varint's eight-byte store.
const STEP_ROOM: usize = 32;

/// Room for the largest slide event (`Merged`: 2 variant bytes, 5 varints of up to 5 bytes and
/// 6 of up to 3, and the combine byte: 46 bytes).
const EVENT_ROOM: usize = 48;

/// Bytes written into room made for them: `n` of them so far.
struct Small<'a> {
    b: &'a mut [u8],
    n: usize,
}

impl Small<'_> {
    /// bincode's varint, as [`varint`].
    #[inline(always)]
    fn varint(&mut self, v: u64) {
        if v < 251 {
            self.b[self.n] = v as u8;
            self.n += 1;
        } else {
            self.wide(v);
        }
    }

    /// A varint of 251 or more: its marker, then eight bytes (one store), of which 2, 4 or 8
    /// count.
    #[inline(always)]
    fn wide(&mut self, v: u64) {
        let (marker, len) = if v <= u64::from(u16::MAX) {
            (251, 2)
        } else if v <= u64::from(u32::MAX) {
            (252, 4)
        } else {
            (253, 8)
        };
        self.b[self.n] = marker;
        let at = self.n + 1;
        self.b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        self.n = at + len;
    }

    #[inline(always)]
    fn pos(&mut self, p: Pos) {
        self.varint(u64::from(p.x));
        self.varint(u64::from(p.y));
    }

    /// The bytes of `AnyEvent::Slide(e)` (`tag` is its variant index): the variant indices, then the fields in declaration
    /// order (`Id` as its `u32`, `Pos` as `x` then `y`, `Combine` and unit variants as their
    /// index).
    #[inline]
    fn slide_event(&mut self, tag: u64, e: &SlideEvent) {
        self.varint(tag);
        match *e {
            SlideEvent::Moved { tile, from, to } => {
                self.varint(0);
                self.varint(u64::from(tile.0));
                self.pos(from);
                self.pos(to);
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, combine } => {
                self.varint(1);
                self.varint(u64::from(tile.0));
                self.pos(from);
                self.varint(u64::from(absorbed.0));
                self.pos(absorbed_from);
                self.pos(to);
                self.varint(u64::from(value));
                self.varint(match combine {
                    Combine::Single => 0,
                    Combine::Double => 1,
                });
            }
            SlideEvent::Scored { points } => {
                self.varint(2);
                self.varint(points);
            }
            SlideEvent::Spawned { tile, at, value, rng } => {
                self.varint(3);
                self.varint(u64::from(tile.0));
                self.pos(at);
                self.varint(u64::from(value));
                self.varint(rng.before);
                self.varint(rng.after);
            }
            SlideEvent::Won { value } => {
                self.varint(4);
                self.varint(u64::from(value));
            }
            SlideEvent::GameOver => self.varint(5),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collapse::CollapseEvent;
    use crate::plugin::by_hand::{int, pos};
    use crate::{AnyCommand, AnyEvent, Dir, Id, RngSpan};
    use proptest::prelude::*;

    fn id() -> impl Strategy<Value = Id> {
        int().prop_map(|v| Id(v as u32))
    }

    /// Every slide event, every field at every varint boundary.
    fn slide_event() -> impl Strategy<Value = SlideEvent> {
        prop_oneof![
            (id(), pos(), pos()).prop_map(|(tile, from, to)| SlideEvent::Moved { tile, from, to }),
            (id(), pos(), id(), pos(), pos(), int(), any::<bool>()).prop_map(
                |(tile, from, absorbed, absorbed_from, to, value, double)| SlideEvent::Merged {
                    tile,
                    from,
                    absorbed,
                    absorbed_from,
                    to,
                    value: value as u32,
                    combine: if double { Combine::Double } else { Combine::Single },
                }
            ),
            int().prop_map(|points| SlideEvent::Scored { points }),
            (id(), pos(), int(), int(), int()).prop_map(|(tile, at, value, before, after)| {
                SlideEvent::Spawned { tile, at, value: value as u32, rng: RngSpan { before, after } }
            }),
            int().prop_map(|value| SlideEvent::Won { value: value as u32 }),
            Just(SlideEvent::GameOver),
        ]
    }

    /// Slide events, and now and then another rule set's (the step is then declined).
    fn any_event() -> impl Strategy<Value = AnyEvent> {
        prop_oneof![
            8 => slide_event().prop_map(AnyEvent::Slide),
            1 => (int(), int()).prop_map(|(points, bonus)| AnyEvent::Collapse(CollapseEvent::Scored { points, bonus })),
        ]
    }

    fn bincode_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
        bincode::serde::encode_to_vec(value, bincode::config::standard()).unwrap()
    }

    proptest! {
        /// Events read by hand are bincode's: every slide event at every varint boundary reads
        /// back whole, and on any bytes (encodings cut, changed or random) a read by hand, when
        /// it answers, equals bincode's read, value and length.
        #[test]
        fn events_read_by_hand_equal_bincodes(e in any_event(), d in crate::plugin::by_hand::damage()) {
            crate::plugin::by_hand::reads_as_bincode(&e, matches!(e, AnyEvent::Slide(_)), &d)?;
        }

        /// A step written by hand has the bytes of `(command, events, hash)` through bincode;
        /// a step with another rule set's event is declined, writing nothing.
        #[test]
        fn steps_by_hand_equal_bincodes(
            dir in prop::sample::select(Dir::ALL.to_vec()),
            events in proptest::collection::vec(any_event(), 0..12),
            hash in int(),
        ) {
            let command = AnyCommand::Slide(SlideCommand::Slide(dir));
            let mut buf = vec![7u8; 3]; // appends after what is there
            let written = command.encode_step(&events, hash, &mut buf);
            prop_assert_eq!(&buf[..3], &[7u8; 3][..]);
            if events.iter().all(|e| matches!(e, AnyEvent::Slide(_))) {
                prop_assert!(written);
                prop_assert_eq!(&buf[3..], &bincode_bytes(&(&command, &events, hash))[..]);
            } else {
                prop_assert!(!written);
                prop_assert_eq!(buf.len(), 3);
            }
        }
    }
}
