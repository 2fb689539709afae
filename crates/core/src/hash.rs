//! The stable 64-bit state hash and the canonical encoding it is taken over.
//!
//! The canonical encoding of any state, command or event is bincode 2 (`=2.0.1`, pinned) with
//! `bincode::config::standard()` (little-endian, variable-length integers) over its serde
//! form. The hash is xxh3-64 (seed 0) of those bytes, streamed: nothing is allocated. The
//! encoder's many small writes are gathered in a stack buffer and fed to the hasher in chunks
//! (xxh3's streaming digest does not depend on how the input is cut; this is 2–3× faster than
//! feeding each write on its own).

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
