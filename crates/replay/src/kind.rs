//! Event kinds, asked of any rule set's events without naming one: an event's kind is its
//! variant name (`Shuffled`, `Matched`, `Walked`), and a condition may read one of its fields
//! (`Matched.cascade>=3`: a number's value; a list's length, as in `Shuffled.blocks>=10`).
//!
//! Both are read through the event's `serde::Serialize` (externally tagged variants) by a
//! serializer that keeps only what it looks for: no JSON, no allocation.
//!
//! `event_kind` (an event's variant name) and `event_field` (a number's value or a list's length),
//! read through the event's `Serialize` by a serializer that stops at what it looks for (no JSON,
//! no allocation), and `EventCondition` (`KIND[.FIELD<op>N]`): how `replay reduce --until-event`
//! and the editor's filter ask any rule set's events about their kind without naming one.

use serde::ser::{self, Impossible, Serialize};
use std::fmt;
use tessera_core::AnyEvent;

/// The kind of `event`: its variant name in its rule set (`"Shuffled"`).
pub fn event_kind(event: &AnyEvent) -> &'static str {
    match event.serialize(Probe { field: None }) {
        Err(Found::Kind(k)) | Ok(Found::Kind(k)) => k,
        _ => "",
    }
}

/// The value of `event`'s field `field`: an integer's value, a boolean as 0 or 1, a list's
/// length; `None` when the event has no such field, or it is of another type.
pub fn event_field(event: &AnyEvent, field: &str) -> Option<i128> {
    match event.serialize(Probe { field: Some(field) }) {
        Err(Found::Value(v)) | Ok(Found::Value(v)) => Some(v),
        _ => None,
    }
}

/// Every event kind of `rule_set`: its event enum's variant names, in declaration order, read
/// from the type (serde's list of variants) without an event at hand. How a search names an
/// unknown kind at once instead of scanning a log for it.
pub fn event_kinds(rule_set: tessera_core::RuleSet) -> Vec<&'static str> {
    use serde::Deserialize;
    let Some(index) = tessera_core::RuleSet::ALL.iter().position(|r| *r == rule_set) else {
        return Vec::new();
    };
    match AnyEvent::deserialize(Kinds { outer: Some(index as u32) }) {
        Err(KindsFound(Some(v))) => v.to_vec(),
        _ => Vec::new(),
    }
}

/// What [`Kinds`] found: the inner enum's variants, carried out through `Err`.
#[derive(Debug)]
struct KindsFound(Option<&'static [&'static str]>);

impl fmt::Display for KindsFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for KindsFound {}

impl serde::de::Error for KindsFound {
    fn custom<T: fmt::Display>(_: T) -> Self {
        KindsFound(None)
    }
}

/// A deserializer that picks the outer enum's variant `outer` (the rule set), then reports the
/// inner enum's variant names.
struct Kinds {
    outer: Option<u32>,
}

impl<'de> serde::de::Deserializer<'de> for Kinds {
    type Error = KindsFound;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, KindsFound> {
        Err(KindsFound(None))
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, KindsFound> {
        match self.outer {
            Some(i) => visitor.visit_enum(KindsEnum(i)),
            None => Err(KindsFound(Some(variants))),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

struct KindsEnum(u32);

impl<'de> serde::de::EnumAccess<'de> for KindsEnum {
    type Error = KindsFound;
    type Variant = KindsEnum;

    fn variant_seed<S: serde::de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, KindsEnum), KindsFound> {
        use serde::de::IntoDeserializer;
        let v = seed.deserialize(self.0.into_deserializer())?;
        Ok((v, self))
    }
}

impl<'de> serde::de::VariantAccess<'de> for KindsEnum {
    type Error = KindsFound;

    fn unit_variant(self) -> Result<(), KindsFound> {
        Err(KindsFound(None))
    }

    fn newtype_variant_seed<S: serde::de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, KindsFound> {
        seed.deserialize(Kinds { outer: None })
    }

    fn tuple_variant<V: serde::de::Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, KindsFound> {
        Err(KindsFound(None))
    }

    fn struct_variant<V: serde::de::Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, KindsFound> {
        Err(KindsFound(None))
    }
}

/// A comparison in an [`EventCondition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `>=`
    AtLeast,
    /// `<=`
    AtMost,
    /// `>`
    Above,
    /// `<`
    Below,
    /// `=`
    Equal,
}

impl Compare {
    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Compare::AtLeast => a >= b,
            Compare::AtMost => a <= b,
            Compare::Above => a > b,
            Compare::Below => a < b,
            Compare::Equal => a == b,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Compare::AtLeast => ">=",
            Compare::AtMost => "<=",
            Compare::Above => ">",
            Compare::Below => "<",
            Compare::Equal => "=",
        }
    }
}

/// Which events a condition takes: `KIND` or `KIND.FIELD<op>N` (op one of `>=`, `<=`, `>`,
/// `<`, `=`). Parsed by `str::parse`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventCondition {
    /// The variant name (case-sensitive, as the rule set spells it).
    pub kind: String,
    /// A field condition.
    pub field: Option<(String, Compare, i128)>,
}

impl EventCondition {
    /// Whether `event` is of this kind and meets the field condition.
    pub fn matches(&self, event: &AnyEvent) -> bool {
        if event_kind(event) != self.kind {
            return false;
        }
        match &self.field {
            None => true,
            Some((name, cmp, n)) => event_field(event, name).is_some_and(|v| cmp.holds(v, *n)),
        }
    }
}

impl fmt::Display for EventCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        if let Some((name, cmp, n)) = &self.field {
            write!(f, ".{name}{}{n}", cmp.text())?;
        }
        Ok(())
    }
}

/// Why a condition does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}': {why} (expected KIND or KIND.FIELD>=N, such as Shuffled or Matched.cascade>=3)")]
pub struct ConditionError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub why: &'static str,
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl std::str::FromStr for EventCondition {
    type Err = ConditionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |why| ConditionError { text: text.to_string(), why };
        let t = text.trim();
        let Some((kind, rest)) = t.split_once('.') else {
            return if is_name(t) {
                Ok(EventCondition { kind: t.to_string(), field: None })
            } else {
                Err(err("not a kind name"))
            };
        };
        if !is_name(kind) {
            return Err(err("not a kind name"));
        }
        let at = rest.find(['>', '<', '=']).ok_or_else(|| err("no comparison after the field"))?;
        let (name, cond) = rest.split_at(at);
        if !is_name(name) {
            return Err(err("not a field name"));
        }
        let (cmp, number) = [">=", "<=", ">", "<", "="]
            .iter()
            .zip([Compare::AtLeast, Compare::AtMost, Compare::Above, Compare::Below, Compare::Equal])
            .find_map(|(op, c)| cond.strip_prefix(op).map(|n| (c, n)))
            .ok_or_else(|| err("no comparison after the field"))?;
        let n: i128 = number.trim().parse().map_err(|_| err("not a whole number after the comparison"))?;
        Ok(EventCondition { kind: kind.to_string(), field: Some((name.to_string(), cmp, n)) })
    }
}

/// What the probe found; carried out through `Err` to stop serialization early.
#[derive(Debug)]
enum Found {
    Kind(&'static str),
    Value(i128),
    Nothing,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Found::Nothing
    }
}

/// Walks an `AnyEvent`: the outer enum (the rule set) is passed through, the inner variant
/// is the kind; with a field asked for, the struct variant's fields are searched for it.
#[derive(Clone, Copy)]
struct Probe<'a> {
    field: Option<&'a str>,
}

/// Reads one field value: a number, a bool, a sequence's length.
struct Value;

macro_rules! nothing {
    ($($f:ident: $t:ty),*) => {
        $(fn $f(self, _v: $t) -> Result<Found, Found> { Err(Found::Nothing) })*
    };
}

macro_rules! number {
    ($($f:ident: $t:ty),*) => {
        $(fn $f(self, v: $t) -> Result<Found, Found> { Err(Found::Value(v as i128)) })*
    };
}

impl ser::Serializer for Value {
    type Ok = Found;
    type Error = Found;
    type SerializeSeq = Impossible<Found, Found>;
    type SerializeTuple = Impossible<Found, Found>;
    type SerializeTupleStruct = Impossible<Found, Found>;
    type SerializeTupleVariant = Impossible<Found, Found>;
    type SerializeMap = Impossible<Found, Found>;
    type SerializeStruct = Impossible<Found, Found>;
    type SerializeStructVariant = Impossible<Found, Found>;
    number!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);
    nothing!(serialize_f32: f32, serialize_f64: f64, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8]);
    fn serialize_bool(self, v: bool) -> Result<Found, Found> {
        Err(Found::Value(i128::from(v)))
    }
    fn serialize_none(self) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Found, Found> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Result<Found, Found> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, Found> {
        Err(len.map_or(Found::Nothing, |n| Found::Value(n as i128)))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Found> {
        Err(Found::Nothing)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Found> {
        Err(Found::Nothing)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Found> {
        Err(Found::Nothing)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, Found> {
        Err(len.map_or(Found::Nothing, |n| Found::Value(n as i128)))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Found> {
        Err(Found::Nothing)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Found> {
        Err(Found::Nothing)
    }
}

/// The fields of a struct variant, searched for one name.
struct Fields<'a> {
    field: &'a str,
}

impl ser::SerializeStructVariant for Fields<'_> {
    type Ok = Found;
    type Error = Found;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), Found> {
        if key == self.field { Err(value.serialize(Value).err().unwrap_or(Found::Nothing)) } else { Ok(()) }
    }
    fn end(self) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
}

impl<'a> ser::Serializer for Probe<'a> {
    type Ok = Found;
    type Error = Found;
    type SerializeSeq = Impossible<Found, Found>;
    type SerializeTuple = Impossible<Found, Found>;
    type SerializeTupleStruct = Impossible<Found, Found>;
    type SerializeTupleVariant = Impossible<Found, Found>;
    type SerializeMap = Impossible<Found, Found>;
    type SerializeStruct = Impossible<Found, Found>;
    type SerializeStructVariant = Fields<'a>;
    nothing!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);
    nothing!(serialize_f32: f32, serialize_f64: f64, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8], serialize_bool: bool);
    fn serialize_none(self) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_unit(self) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Found, Found> {
        Err(Found::Nothing)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Found, Found> {
        Err(if self.field.is_some() { Found::Nothing } else { Found::Kind(variant) })
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Result<Found, Found> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Found, Found> {
        // The outer enum names the rule set: look inside.
        if name == "AnyEvent" {
            return value.serialize(self);
        }
        match self.field {
            None => Err(Found::Kind(variant)),
            // A newtype variant's one field has no name.
            Some(_) => Err(Found::Nothing),
        }
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Found> {
        Err(Found::Nothing)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Found> {
        Err(Found::Nothing)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Found> {
        Err(Found::Nothing)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Found> {
        Err(if self.field.is_some() { Found::Nothing } else { Found::Kind(variant) })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Found> {
        Err(Found::Nothing)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Found> {
        Err(Found::Nothing)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Found> {
        match self.field {
            None => Err(Found::Kind(variant)),
            Some(field) => Ok(Fields { field }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(level: &tessera_core::Level, seed: u64, commands: usize) -> Vec<AnyEvent> {
        use tessera_core::Rules;
        let mut game = level.start(Some(seed)).unwrap();
        let mut all = Vec::new();
        for _ in 0..commands {
            let Some(c) = game.rules.legal_commands(&game.state).first().cloned() else { break };
            game.rules.apply(&mut game.state, &c, &mut all).unwrap();
        }
        all
    }

    #[test]
    fn every_rule_sets_kinds_are_listed_without_an_event() {
        for r in tessera_core::RuleSet::ALL {
            assert!(!event_kinds(*r).is_empty(), "{r}");
        }
        let level = tessera_core::Level::classic();
        for e in events(&level, 3, 30) {
            assert!(event_kinds(tessera_core::RuleSet::Slide).contains(&event_kind(&e)), "{e:?}");
        }
        assert!(event_kinds(tessera_core::RuleSet::Match3).contains(&"Shuffled"));
        assert!(!event_kinds(tessera_core::RuleSet::Slide).contains(&"Shuffled"));
    }

    #[test]
    fn kinds_are_the_variant_names_of_the_json_form() {
        let level = tessera_core::Level::classic();
        let all = events(&level, 3, 30);
        assert!(!all.is_empty());
        for e in &all {
            let json = e.to_json();
            let name = match &json {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Object(m) => m.keys().next().unwrap().clone(),
                other => panic!("{other}"),
            };
            assert_eq!(event_kind(e), name);
            // Every numeric field reads as in the JSON form; every list as its length.
            if let Some(serde_json::Value::Object(fields)) = json.as_object().and_then(|m| m.values().next())
            {
                for (k, v) in fields {
                    let want = match v {
                        serde_json::Value::Number(n) => n.as_i64().map(i128::from),
                        serde_json::Value::Array(a) => Some(a.len() as i128),
                        serde_json::Value::Bool(b) => Some(i128::from(*b)),
                        _ => continue,
                    };
                    assert_eq!(event_field(e, k), want, "{json} {k}");
                }
            }
            assert_eq!(event_field(e, "no_such_field"), None);
        }
    }

    proptest::proptest! {
        /// Any condition prints as text that parses back to it.
        #[test]
        fn conditions_round_trip(kind in "[A-Za-z_][A-Za-z0-9_]{0,12}", field in proptest::option::of("[a-z_][a-z0-9_]{0,8}"), op in 0usize..5, n in proptest::num::i64::ANY) {
            let cmp = [Compare::AtLeast, Compare::AtMost, Compare::Above, Compare::Below, Compare::Equal][op];
            let c = EventCondition { kind, field: field.map(|f| (f, cmp, i128::from(n))) };
            proptest::prop_assert_eq!(c.to_string().parse::<EventCondition>(), Ok(c));
        }
    }

    #[test]
    fn conditions_parse_and_print_back() {
        for text in ["Shuffled", "Matched.cascade>=3", "Walked.path<2", "Merged.value=8", "A.b>-1"] {
            let c: EventCondition = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
        for bad in ["", "a b", "Matched.", "Matched.cascade", "Matched.cascade>=x", ".x>=1", "M.c=>3"] {
            assert!(bad.parse::<EventCondition>().is_err(), "{bad}");
        }
    }
}
