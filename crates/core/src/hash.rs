//! The stable 64-bit state hash and the canonical encoding it is taken over.
//!
//! The canonical encoding of any state, command or event is bincode 2 (`=2.0.1`, pinned) with
//! `bincode::config::standard()` (little-endian, variable-length integers) over its serde
//! form. The hash is xxh3-64 (seed 0) of those bytes, streamed: nothing is allocated. The
//! encoder's many small writes are gathered in a stack buffer and fed to the hasher in chunks
//! (xxh3's streaming digest does not depend on how the input is cut; this is 2–3× faster than
//! feeding each write on its own).
//!
//! Canonical encoding (bincode 2 `standard()` over serde) and `state_hash` (xxh3-64, streamed, no
//! allocation): the version 1 state hash (`AnyState::hash_v1`), O(board). `keys`: the incremental
//! state hash (`AnyState::hash`, what log format 2 records): the XOR of one key per tile/unit (a
//! position half and a content half, so an event that names a tile and its cells says by itself how
//! the hash changes) and per scalar field, from the splitmix64 finalizer of packed `(kind, a, b)`
//! words (portable, no seed). Every state keeps it in a field that serde skips (deserialization
//! recomputes it); `apply`, `undo_event` and `redo_event` update it at O(event) cost;
//! `recompute_hash` is the reference, and the conformance kit checks them equal after any sequence
//! of apply, undo, redo and seek in every rule set. Static parts (a tactics terrain, match-3 voids)
//! enter once by their canonical hash (a terrain computes its own when made).

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3Default;

/// The bincode configuration every canonical encoding in tessera uses.
pub fn canonical_config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// The canonical bytes of `value`.
pub fn canonical_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Encoding into a Vec only fails for types serde cannot express in bincode (maps with
    // unknown length and the like); none of tessera's types are such.
    bincode::serde::encode_to_vec(value, canonical_config()).unwrap_or_default()
}

const CHUNK: usize = 512;

struct HashWriter<'a> {
    hasher: &'a mut Xxh3Default,
    buf: [u8; CHUNK],
    len: usize,
}

impl HashWriter<'_> {
    fn flush(&mut self) {
        self.hasher.update(&self.buf[..self.len]);
        self.len = 0;
    }
}

impl bincode::enc::write::Writer for HashWriter<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), bincode::error::EncodeError> {
        if self.len + bytes.len() > CHUNK {
            self.flush();
            if bytes.len() > CHUNK {
                self.hasher.update(bytes);
                return Ok(());
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(())
    }
}

/// xxh3-64 of the canonical encoding of `value`: the state hash logs record after every step.
pub fn state_hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut hasher = Xxh3Default::new();
    // As above, encoding cannot fail for tessera's types; a failure would hash a prefix.
    let mut writer = HashWriter { hasher: &mut hasher, buf: [0; CHUNK], len: 0 };
    let _ = bincode::serde::encode_into_writer(value, &mut writer, canonical_config());
    writer.flush();
    hasher.digest()
}

/// The incremental state hash (log format version 2 and later): a 64-bit value that is a
/// function of the state alone, kept up to date by the rules in `apply`, `undo_event` and
/// `redo_event` at a cost that follows the step, not the board.
///
/// Like a chess engine's Zobrist hash, it is the XOR of one key per part of the state: per tile
/// (or unit) a key of where it stands and a key of what it is, and one key per scalar field
/// (score, generator position, id counter, turn, moves). Changing a part XORs its old key out
/// and its new key in. Static parts that never change in a game (a tactics map's terrain, a
/// match-3 board's void cells) enter once, as one key of their canonical [`state_hash`].
///
/// Keys come from [`mix64`], the splitmix64 finalizer (Steele, Lea and Flood 2014; the
/// constants of `java.util.SplittableRandom`), applied to a word that packs a kind byte and
/// the key's fields: never a random seed, never a platform hash, so the hash is the same on
/// every machine and in every build. A tile's key is split in two, [`cell_key`]`(POS, index,
/// id) ^ cell_key(WHAT, content, id)`, so that a move changes only the position half and an
/// event that names a tile and its two cells says by itself how the hash changes.
pub mod keys {
    /// splitmix64's output function: a bijection of `u64` with full avalanche.
    #[inline]
    pub const fn mix64(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The key of `(kind, a, b)`: `mix64(kind << 56 | a << 32 | b)` with `a` cut to 24 bits
    /// (cell indexes are below 2^20; contents are small). Distinct inputs give distinct keys.
    #[inline]
    pub const fn cell_key(kind: u8, a: u32, b: u32) -> u64 {
        mix64((kind as u64) << 56 | ((a & 0x00FF_FFFF) as u64) << 32 | b as u64)
    }

    /// The key of a scalar field `kind` holding `value`: `mix64(mix64(kind << 56) ^ value)`.
    #[inline]
    pub const fn field_key(kind: u8, value: u64) -> u64 {
        mix64(mix64((kind as u64) << 56) ^ value)
    }

    /// Kind bytes. Each rule set uses its own few; sharing a byte between rule sets is harmless
    /// (a state's hash is only compared with states of the same game).
    pub mod kind {
        /// A tile, block or unit at a cell: `cell_key(POS, index, id)`.
        pub const POS: u8 = 1;
        /// What a tile is (value, colour, breed and lock): `cell_key(WHAT, content, id)`.
        pub const WHAT: u8 = 2;
        /// The score.
        pub const SCORE: u8 = 3;
        /// The generator's seed.
        pub const SEED: u8 = 4;
        /// The generator's word position.
        pub const RNG: u8 = 5;
        /// The id counter.
        pub const IDS: u8 = 6;
        /// A flag (won).
        pub const WON: u8 = 7;
        /// Moves made (match-3) or turns ended (tactics).
        pub const MOVES: u8 = 8;
        /// The board's size.
        pub const SIZE: u8 = 9;
        /// The static part of the board, by its canonical hash.
        pub const STATIC: u8 = 10;
        /// Why the game ended (match-3), or whose turn it is (tactics).
        pub const OVER: u8 = 11;
        /// A unit's movement (tactics).
        pub const LEFT: u8 = 12;
    }

    /// The key of a board of `size`.
    pub fn size_key(size: crate::Size) -> u64 {
        cell_key(kind::SIZE, u32::from(size.width), u32::from(size.height))
    }

    /// The keys of a generator: its seed and its position.
    pub fn rng_key(rng: &crate::GameRng) -> u64 {
        field_key(kind::SEED, rng.seed()) ^ field_key(kind::RNG, rng.position())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_xxh3_of_canonical_bytes() {
        let v = (1u32, "two", [3u8; 5]);
        assert_eq!(state_hash(&v), xxhash_rust::xxh3::xxh3_64(&canonical_bytes(&v)));
        assert_ne!(state_hash(&(1u32, 2u32)), state_hash(&(2u32, 1u32)));
        // Inputs longer than the chunk buffer, written in pieces small and large.
        let long = (vec![7u8; 1500], (0..300u32).collect::<Vec<_>>(), "x".repeat(600));
        assert_eq!(state_hash(&long), xxhash_rust::xxh3::xxh3_64(&canonical_bytes(&long)));
    }
}
