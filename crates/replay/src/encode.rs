//! The canonical encoding (bincode 2, `standard()`: little endian, variable-length integers),
//! written straight into a `Vec<u8>`: the same bytes as `bincode::serde::encode_into_std_write`,
//! several times cheaper per value.
//!
//! Recording writes a frame per step, and bincode's serde path writes every integer through an
//! `io::Write` adapter, one call per byte group, in functions it does not inline (a profile of the
//! 2048 recording bench put a third of the log's own cost in `varint_encode_*`). This serializer
//! pushes bytes onto the vector directly.
//!
//! It mirrors bincode 2.0.1's serde encoder exactly for every shape tessera's types use: integers
//! (`u8`/`i8` as one byte; wider ones as varints: below 251 in one byte, else a marker 251, 252 or
//! 253 and 2, 4 or 8 little-endian bytes; signed ones zigzagged first), `bool` as a byte, floats
//! as their little-endian bytes, strings and byte slices as a varint length and the bytes,
//! `Option` as 0 or 1 and the value, unit and unit structs as nothing, enum variants as their
//! index (a `u32` varint) and then their content, sequences and maps as a varint length and their
//! items, tuples and structs as their fields in order. Anything else (`char`, 128-bit integers,
//! sequences of unknown length) is refused, and [`encode_into`](crate::format) then falls back to
//! bincode itself, so the bytes are bincode's in every case. Tests compare both encoders on
//! random values of every shape and re-encode every payload of the golden logs.

use serde::ser::{self, Serialize};
use std::fmt;
use tessera_core::{AnyCommand, AnyEvent};

/// A step frame's payload, borrowed for encoding (same bytes as the owned form).
#[derive(Clone, Copy, serde::Serialize)]
pub(crate) struct StepRef<'a> {
    pub command: &'a AnyCommand,
    pub events: &'a [AnyEvent],
    pub hash: u64,
}

/// Appends the canonical encoding of `value` to `buf`; `Err` (with `buf` possibly holding part
/// of the value: the caller truncates) for a shape this encoder leaves to bincode.
pub(crate) fn encode_fast<T: Serialize + ?Sized>(value: &T, buf: &mut Vec<u8>) -> Result<(), Unsupported> {
    value.serialize(Fast { out: buf })
}

/// Appends the payload of a step frame: the bytes [`encode_fast`] writes for `step`.
///
/// A rule set may write its steps by hand ([`tessera_core::Plugin::encode_step`]: 2048 does, its
/// steps being the smallest and most numerous); every other step goes through [`encode_fast`].
#[inline]
pub(crate) fn encode_step(step: &StepRef, buf: &mut Vec<u8>) -> Result<(), Unsupported> {
    let StepRef { command, events, hash } = *step;
    if command.encode_step(events, hash, buf) {
        return Ok(());
    }
    encode_fast(step, buf)
}

/// A shape [`encode_fast`] leaves to bincode.
#[derive(Debug)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a shape left to bincode")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Unsupported
    }
}

/// bincode's variable-length unsigned integer.
#[inline(always)]
fn varint(out: &mut Vec<u8>, v: u64) {
    if v < 251 {
        out.push(v as u8);
    } else if v <= u64::from(u16::MAX) {
        out.push(251);
        out.extend_from_slice(&(v as u16).to_le_bytes());
    } else if v <= u64::from(u32::MAX) {
        out.push(252);
        out.extend_from_slice(&(v as u32).to_le_bytes());
    } else {
        out.push(253);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// bincode's zigzag for signed integers (`!n * 2 + 1` for negative `n`, avoiding overflow).
#[inline(always)]
fn zigzag(v: i64) -> u64 {
    if v < 0 { (!(v as u64)) * 2 + 1 } else { (v as u64) * 2 }
}

struct Fast<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> ser::Serializer for Fast<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Fast<'a>;
    type SerializeTuple = Fast<'a>;
    type SerializeTupleStruct = Fast<'a>;
    type SerializeTupleVariant = Fast<'a>;
    type SerializeMap = Fast<'a>;
    type SerializeStruct = Fast<'a>;
    type SerializeStructVariant = Fast<'a>;

    #[inline(always)]
    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out.push(u8::from(v));
        Ok(())
    }
    #[inline(always)]
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.out.push(v as u8);
        Ok(())
    }
    #[inline(always)]
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        varint(self.out, zigzag(i64::from(v)));
        Ok(())
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        varint(self.out, zigzag(i64::from(v)));
        Ok(())
    }
    #[inline(always)]
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        varint(self.out, zigzag(v));
        Ok(())
    }
    #[inline(always)]
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.out.push(v);
        Ok(())
    }
    #[inline(always)]
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        varint(self.out, u64::from(v));
        Ok(())
    }
    #[inline(always)]
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        varint(self.out, u64::from(v));
        Ok(())
    }
    #[inline(always)]
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        varint(self.out, v);
        Ok(())
    }
    #[inline(always)]
    fn serialize_i128(self, _: i128) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    #[inline(always)]
    fn serialize_u128(self, _: u128) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline(always)]
    fn serialize_char(self, _: char) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline(always)]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        varint(self.out, v.len() as u64);
        self.out.extend_from_slice(v);
        Ok(())
    }
    #[inline(always)]
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.out.push(0);
        Ok(())
    }
    #[inline(always)]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        self.out.push(1);
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_unit(self) -> Result<(), Unsupported> {
        Ok(())
    }
    #[inline(always)]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        Ok(())
    }
    #[inline(always)]
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<(), Unsupported> {
        varint(self.out, u64::from(index));
        Ok(())
    }
    #[inline(always)]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        varint(self.out, u64::from(index));
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_seq(self, len: Option<usize>) -> Result<Fast<'a>, Unsupported> {
        varint(self.out, len.ok_or(Unsupported)? as u64);
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple(self, _: usize) -> Result<Fast<'a>, Unsupported> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Fast<'a>, Unsupported> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Fast<'a>, Unsupported> {
        varint(self.out, u64::from(index));
        Ok(self)
    }
    #[inline(always)]
    fn serialize_map(self, len: Option<usize>) -> Result<Fast<'a>, Unsupported> {
        varint(self.out, len.ok_or(Unsupported)? as u64);
        Ok(self)
    }
    #[inline(always)]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fast<'a>, Unsupported> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Fast<'a>, Unsupported> {
        varint(self.out, u64::from(index));
        Ok(self)
    }
    #[inline(always)]
    fn is_human_readable(&self) -> bool {
        false
    }
}

impl Fast<'_> {
    #[inline(always)]
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(Fast { out: self.out })
    }
}

impl ser::SerializeSeq for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeTuple for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeMap for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.item(key)
    }
    #[inline(always)]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeStruct for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Fast<'_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), Unsupported> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn bincode_bytes<T: Serialize>(v: &T) -> Vec<u8> {
        bincode::serde::encode_to_vec(v, tessera_core::canonical_config()).unwrap()
    }

    fn fast_bytes<T: Serialize>(v: &T) -> Option<Vec<u8>> {
        let mut buf = Vec::new();
        encode_fast(v, &mut buf).ok().map(|()| buf)
    }

    #[derive(Serialize, Debug, Clone)]
    struct Unit;

    #[derive(Serialize, Debug, Clone)]
    struct Newtype(u32);

    #[derive(Serialize, Debug, Clone)]
    enum Shape {
        Empty,
        One(u16),
        Pair(i32, u64),
        Named { a: i64, b: Option<String>, c: Vec<u8> },
        Nested(Box<Shape>),
    }

    #[derive(Serialize, Debug, Clone)]
    struct All {
        b: bool,
        u8_: u8,
        i8_: i8,
        u16_: u16,
        i16_: i16,
        u32_: u32,
        i32_: i32,
        u64_: u64,
        i64_: i64,
        f32_: f32,
        f64_: f64,
        s: String,
        o: Option<u64>,
        v: Vec<Shape>,
        t: (u16, Unit, Newtype),
        m: BTreeMap<u32, String>,
        bytes: serde_bytes_like::Bytes,
    }

    /// A byte slice serialized with `serialize_bytes` (as `serde_bytes` would).
    mod serde_bytes_like {
        #[derive(Debug, Clone)]
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    /// Integers around every varint boundary, and anything else.
    fn int() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..300,
            (0u64..8).prop_map(
                |k| [250, 251, 252, 65_535, 65_536, 4_294_967_295, 4_294_967_296, u64::MAX][k as usize]
            ),
            any::<u64>(),
        ]
    }

    fn shape() -> impl Strategy<Value = Shape> {
        let leaf = prop_oneof![
            Just(Shape::Empty),
            int().prop_map(|v| Shape::One(v as u16)),
            (int(), int()).prop_map(|(a, b)| Shape::Pair(a as i32, b)),
            (int(), proptest::option::of(".{0,40}"), proptest::collection::vec(any::<u8>(), 0..300))
                .prop_map(|(a, b, c)| Shape::Named { a: a as i64, b, c }),
        ];
        leaf.prop_recursive(3, 8, 1, |inner| inner.prop_map(|s| Shape::Nested(Box::new(s))))
    }

    proptest! {
        /// Every shape, at every varint boundary: the same bytes as bincode.
        #[test]
        fn fast_encoding_equals_bincodes(
            ints in proptest::collection::vec(int(), 10),
            b in any::<bool>(),
            f in any::<(f32, f64)>(),
            s in ".{0,300}",
            o in proptest::option::of(int()),
            v in proptest::collection::vec(shape(), 0..5),
            m in proptest::collection::btree_map(any::<u32>(), ".{0,5}", 0..4),
            bytes in proptest::collection::vec(any::<u8>(), 0..600),
        ) {
            let all = All {
                b,
                u8_: ints[0] as u8,
                i8_: ints[1] as i8,
                u16_: ints[2] as u16,
                i16_: ints[3] as i16,
                u32_: ints[4] as u32,
                i32_: ints[5] as i32,
                u64_: ints[6],
                i64_: ints[7] as i64,
                f32_: f.0,
                f64_: f.1,
                s,
                o,
                v,
                t: (ints[8] as u16, Unit, Newtype(ints[9] as u32)),
                m,
                bytes: serde_bytes_like::Bytes(bytes),
            };
            prop_assert_eq!(fast_bytes(&all), Some(bincode_bytes(&all)));
        }
    }

    #[test]
    fn shapes_left_to_bincode_are_refused() {
        assert!(fast_bytes(&'x').is_none());
        assert!(fast_bytes(&1u128).is_none());
        assert!(fast_bytes(&-1i128).is_none());
    }
}
