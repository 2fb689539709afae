//! What the fuzz targets share.

use tessera_replay::{FRAME_HEADER_LEN, PREAMBLE_LEN};

/// `data` with every whole frame's crc set to match its bytes, so that mutations reach what
/// lies behind the crc check (payload decoders, header checks, redo) instead of stopping there.
pub fn with_fixed_crcs(data: &[u8]) -> Vec<u8> {
    let mut bytes = data.to_vec();
    let mut pos = PREAMBLE_LEN;
    while pos + FRAME_HEADER_LEN <= bytes.len() {
        let len = u32::from_le_bytes([bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]]) as usize;
        let end = pos + FRAME_HEADER_LEN + len;
        if end > bytes.len() {
            break;
        }
        let mut h = crc32fast::Hasher::new();
        h.update(&bytes[pos + 8..end]);
        bytes[pos + 4..pos + 8].copy_from_slice(&h.finalize().to_le_bytes());
        pos = end;
    }
    bytes
}
