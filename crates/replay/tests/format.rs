//! The log format: round trips, corruption, truncation, arbitrary bytes.

use crate::common::{level, open, record, reencode};
use proptest::prelude::*;
use tessera_replay::{
    FRAME_HEADER_LEN, FrameKind, Log, LogError, MAX_PAYLOAD, PREAMBLE_LEN, StepRecord, TailPolicy, verify,
};

fn picks() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..4, 0..60)
}

/// A valid log to corrupt: small, with keyframes and notes.
fn sample() -> Vec<u8> {
    record(&level(4), 3, 4, &[0, 2, 1, 3, 0, 0, 2, 1, 1, 3, 2, 0], &[2, 7]).bytes
}

/// Whatever a reader makes of `bytes`, it does not panic; when it opens, so do the checks.
fn survive(bytes: Vec<u8>) {
    for tail in [TailPolicy::Strict, TailPolicy::Lenient] {
        if let Ok(log) = Log::from_bytes(bytes.clone(), tail) {
            let _ = verify(&log);
            let _ = tessera_replay::export_json(&log, &mut std::io::sink());
            let mut rec = StepRecord::default();
            for s in 0..=log.steps() {
                let _ = log.state_at(s);
                let _ = log.read_step(s, &mut rec);
            }
            let _ = tessera_replay::History::from_log(&log);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn decode_of_encode_is_the_identity(seed in any::<u64>(), side in 2usize..6, k in 0u32..6,
                                        p in picks(), notes in prop::collection::vec(0usize..60, 0..4)) {
        let r = record(&level(side), seed, k, &p, &notes);
        let log = open(&r.bytes);
        prop_assert_eq!(log.steps() as usize, r.commands.len());
        prop_assert_eq!(log.dropped_bytes(), 0);
        prop_assert_eq!(log.header().seed, seed);
        let mut rec = StepRecord::default();
        for (i, cmd) in r.commands.iter().enumerate() {
            log.read_step(i as u64 + 1, &mut rec).unwrap();
            prop_assert_eq!(rec.command.as_ref(), Some(cmd));
            prop_assert_eq!(rec.hash, r.states[i + 1].hash());
            prop_assert_eq!(&log.read_command(i as u64 + 1).unwrap(), cmd);
        }
        prop_assert!(log.read_command(0).is_err() && log.read_command(log.steps() + 1).is_err());
        for s in log.keyframe_steps().collect::<Vec<_>>() {
            prop_assert_eq!(log.keyframe(s).unwrap().unwrap(), r.states[s as usize].clone());
            prop_assert!(s == 0 || (k > 0 && s % u64::from(k) == 0));
        }
        for (n, state) in r.states.iter().enumerate() {
            prop_assert_eq!(&log.state_at(n as u64).unwrap(), state);
        }
        prop_assert_eq!(log.notes().len(), notes.iter().filter(|&&n| n < p.len()).collect::<std::collections::BTreeSet<_>>().len());
        prop_assert_eq!(reencode(&log), r.bytes.clone());
        prop_assert!(verify(&log).unwrap().ok());
    }

    #[test]
    fn any_changed_byte_is_an_error_never_a_panic(i in any::<prop::sample::Index>(), x in 1u8..=255) {
        let mut bytes = sample();
        let i = i.index(bytes.len());
        bytes[i] ^= x;
        // Strictly opened, every single-byte change is caught (magic, version, a length that no
        // longer fits, or a crc).
        let strict = Log::from_bytes(bytes.clone(), TailPolicy::Strict);
        prop_assert!(strict.is_err(), "byte {} ^ {:#x} went unnoticed", i, x);
        // Leniently too: a changed length that runs past the end is not taken for a cut tail
        // (issue 12), whether frames follow it or it is the last frame's.
        let lenient = Log::from_bytes(bytes.clone(), TailPolicy::Lenient);
        prop_assert!(lenient.is_err(), "byte {} ^ {:#x} opens leniently", i, x);
        survive(bytes);
    }

    #[test]
    fn a_cut_log_opens_with_every_whole_frame(cut in any::<prop::sample::Index>()) {
        let full = sample();
        let whole = open(&full);
        let cut = cut.index(full.len());
        let bytes = full[..cut].to_vec();
        let ends: Vec<usize> = whole.frames().iter().map(|f| f.offset as usize).skip(1).chain([full.len()]).collect();
        match Log::from_bytes(bytes.clone(), TailPolicy::Lenient) {
            Ok(log) => {
                let last_end = *ends.iter().filter(|&&e| e <= cut).max().unwrap();
                prop_assert_eq!(log.dropped_bytes() as usize, cut - last_end);
                prop_assert_eq!(log.whole_bytes(), &full[..last_end]);
                prop_assert_eq!(log.frames(), &whole.frames()[..log.frames().len()]);
                // Repair: the whole frames open strictly.
                prop_assert!(Log::from_bytes(log.whole_bytes().to_vec(), TailPolicy::Strict).is_ok());
            }
            Err(e) => prop_assert!(cut < ends[0], "cut at {} after the header: {}", cut, e),
        }
        let strict = Log::from_bytes(bytes.clone(), TailPolicy::Strict);
        prop_assert_eq!(strict.is_ok(), ends.contains(&cut));
        survive(bytes);
    }

    #[test]
    fn arbitrary_bytes_give_errors_not_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        survive(bytes.clone());
        // The same after a valid preamble and header.
        let mut log = sample();
        let header_end = open(&log).frames()[1].offset as usize;
        log.truncate(header_end);
        log.extend_from_slice(&bytes);
        survive(log);
    }

    #[test]
    fn frames_with_valid_crcs_and_random_payloads_do_not_panic(
        frames in prop::collection::vec((0u8..6, prop::collection::vec(any::<u8>(), 0..80)), 1..6),
    ) {
        let mut log = sample();
        for (kind, payload) in frames {
            let mut h = crc32fast::Hasher::new();
            h.update(&[kind]);
            h.update(&payload);
            log.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            log.extend_from_slice(&h.finalize().to_le_bytes());
            log.push(kind);
            log.extend_from_slice(&payload);
        }
        survive(log);
    }
}

#[test]
fn a_huge_length_is_refused_before_anything_is_read() {
    let mut bytes = sample();
    let log = open(&bytes);
    let f = log.frames()[3];
    bytes[f.offset as usize..f.offset as usize + 4].copy_from_slice(&(MAX_PAYLOAD + 1).to_le_bytes());
    let e = Log::from_bytes(bytes, TailPolicy::Lenient).unwrap_err();
    assert_eq!(
        e,
        LogError::Oversized { offset: f.offset, frame: 3, length: MAX_PAYLOAD + 1, limit: MAX_PAYLOAD }
    );
}

#[test]
fn frames_follow_the_documented_layout() {
    let bytes = sample();
    assert_eq!(&bytes[..8], b"TESSLOG\0");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2, "format version 2");
    let log = open(&bytes);
    let mut pos = PREAMBLE_LEN;
    for f in log.frames() {
        assert_eq!(f.offset as usize, pos);
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let crc = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().unwrap());
        let kind = bytes[pos + 8];
        assert_eq!(FrameKind::from_byte(kind), Some(f.kind));
        let payload = &bytes[pos + FRAME_HEADER_LEN..pos + FRAME_HEADER_LEN + len];
        let mut h = crc32fast::Hasher::new();
        h.update(&[kind]);
        h.update(payload);
        assert_eq!(crc, h.finalize());
        pos += FRAME_HEADER_LEN + len;
    }
    assert_eq!(pos, bytes.len());
    assert_eq!(log.frames()[1].kind, FrameKind::Keyframe, "the start keyframe follows the header");
    // A step payload is the canonical encoding of (command, events, hash).
    let mut rec = StepRecord::default();
    log.read_step(1, &mut rec).unwrap();
    let f = log.step_frame(1).unwrap().offset as usize;
    let len = u32::from_le_bytes(bytes[f..f + 4].try_into().unwrap()) as usize;
    let expected =
        tessera_core::canonical_bytes(&(rec.command.clone().unwrap(), rec.events.clone(), rec.hash));
    assert_eq!(&bytes[f + FRAME_HEADER_LEN..f + FRAME_HEADER_LEN + len], &expected[..]);
}

#[test]
fn lengths_inside_payloads_are_capped_before_allocating() {
    // A note claiming a 1 TiB string and a step claiming 2^40 events, in frames with valid crcs:
    // refused as undecodable, with nothing of that size allocated.
    let base = sample();
    let steps = open(&base).steps();
    let mut huge = vec![253u8];
    huge.extend_from_slice(&(1u64 << 40).to_le_bytes());
    let note = [&[253u8][..], &steps.to_le_bytes(), &huge].concat();
    let step = [&tessera_core::canonical_bytes(&crate::common::slide(0))[..], &huge].concat();
    for (kind, payload) in [(3u8, note), (1u8, step)] {
        let mut bytes = base.clone();
        let mut h = crc32fast::Hasher::new();
        h.update(&[kind]);
        h.update(&payload);
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&h.finalize().to_le_bytes());
        bytes.push(kind);
        bytes.extend_from_slice(&payload);
        let e = match Log::from_bytes(bytes, TailPolicy::Strict) {
            Err(e) => e,
            Ok(log) => verify(&log).unwrap_err(),
        };
        assert_eq!((e.kind(), e.offset()), ("undecodable", Some(base.len() as u64)), "{e}");
    }
}

/// The golden log of issue 12's example.
fn classic_seed7() -> Vec<u8> {
    std::fs::read(crate::common::fixtures().join("logs/v1/classic_seed7.tlog")).unwrap()
}

/// Issue 12: bit 5 of byte 211 of `classic_seed7.tlog` (the second byte of the step-0
/// keyframe's length) made the keyframe run past the end; the reader took every frame after it
/// for a cut tail and verify said ok for 0 of 107 steps.
#[test]
fn a_flipped_length_bit_is_damage_not_a_cut_tail() {
    let mut bytes = classic_seed7();
    bytes[211] ^= 1 << 5;
    for tail in [TailPolicy::Lenient, TailPolicy::Strict] {
        let e = Log::from_bytes(bytes.clone(), tail).unwrap_err();
        assert_eq!((e.kind(), e.offset(), e.frame()), ("corrupt_tail", Some(210), Some(1)), "{e}");
        // The keyframe is 42 bytes: the next frame starts at 210 + 9 + 42.
        assert!(e.to_string().contains("starts at byte 261"), "{e}");
    }
}

/// A damaged length of the last frame: no frame follows, but its bytes are a whole frame.
#[test]
fn a_damaged_last_length_is_damage_not_a_cut_tail() {
    let mut bytes = sample();
    let last = open(&bytes).frames().last().unwrap().offset as usize;
    bytes[last] ^= 1 << 3;
    if u32::from_le_bytes(bytes[last..last + 4].try_into().unwrap()) as usize > bytes.len() - last - 9 {
        let e = Log::from_bytes(bytes, TailPolicy::Lenient).unwrap_err();
        assert_eq!((e.kind(), e.offset()), ("corrupt_tail", Some(last as u64)), "{e}");
    } else {
        // The last frame was short enough that the bit lowered its length: a crc mismatch.
        assert!(Log::from_bytes(bytes, TailPolicy::Lenient).is_err());
    }
}

/// A tail of nine bytes or more whose kind byte the recorder never writes is not a cut frame.
#[test]
fn a_tail_with_an_unknown_kind_is_damage() {
    let mut bytes = sample();
    bytes.extend_from_slice(&100u32.to_le_bytes());
    bytes.extend_from_slice(&[0, 0, 0, 0, 9, 1, 2]);
    let e = Log::from_bytes(bytes.clone(), TailPolicy::Lenient).unwrap_err();
    assert_eq!(e.kind(), "corrupt_tail", "{e}");
    // The same with kind 1 (a step) is an ordinary cut tail.
    let n = bytes.len();
    bytes[n - 3] = 1;
    let log = Log::from_bytes(bytes, TailPolicy::Lenient).unwrap();
    assert_eq!(log.dropped_bytes(), 11);
    assert!(!verify(&log).unwrap().ok(), "a log with dropped bytes is not ok");
    assert!(verify(&log).unwrap().divergence.is_none());
}

/// Every whole frame of the original, in order, then nothing: what a log read to a cut tail
/// may keep.
fn whole_prefix_of(read: &[u8], original: &[u8]) -> bool {
    original.starts_with(read)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Issue 12: over single-bit flips of a golden log (also cut at a random point, as a crash
    /// leaves it), verify never says ok unless what it read to the end is the original, and
    /// without a cut, every flip is refused on open.
    #[test]
    fn a_flipped_bit_never_verifies_ok(bit in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(), cut_it in any::<bool>()) {
        let original = classic_seed7();
        let mut bytes = original.clone();
        if cut_it {
            bytes.truncate(PREAMBLE_LEN + cut.index(original.len() - PREAMBLE_LEN));
        }
        let bit = bit.index(bytes.len() * 8);
        bytes[bit / 8] ^= 1 << (bit % 8);
        let opened = Log::from_bytes(bytes.clone(), TailPolicy::Lenient);
        if !cut_it {
            prop_assert!(opened.is_err(), "bit {} of byte {} opens", bit % 8, bit / 8);
        }
        if let Ok(log) = opened {
            let report = verify(&log);
            if let Ok(r) = &report {
                if r.ok() {
                    prop_assert_eq!(log.whole_bytes(), &bytes[..]);
                    prop_assert_eq!(log.whole_bytes(), &original[..]);
                }
                if r.divergence.is_none() {
                    // Allowing a cut tail: the frames read are the original's.
                    prop_assert!(whole_prefix_of(log.whole_bytes(), &original),
                        "bit {} of byte {} replays without divergence from other bytes", bit % 8, bit / 8);
                }
            }
        }
    }
}

/// Every single-bit flip of the golden log, exhaustively: none opens (the proptest above also
/// covers cut logs).
#[test]
fn no_single_bit_flip_of_a_golden_log_opens() {
    let original = classic_seed7();
    let mut opened = Vec::new();
    for bit in 0..original.len() * 8 {
        let mut bytes = original.clone();
        bytes[bit / 8] ^= 1 << (bit % 8);
        if let Ok(log) = Log::from_bytes(bytes, TailPolicy::Lenient) {
            opened.push((bit / 8, bit % 8, log.steps(), log.dropped_bytes()));
        }
    }
    assert!(opened.is_empty(), "(byte, bit, steps, dropped) that open: {opened:?}");
}

/// A log of more than 4 MiB (read from a file into a huge-page mapping, not a vector) opens the
/// same from the file as from its bytes, and the frame reported for damage is the first damaged
/// one, a bad crc before anything else wrong later.
#[test]
fn a_large_log_opens_the_same_and_reports_its_first_bad_frame() {
    let picks: Vec<usize> = (0..3000).map(|i| [1, 2, 3, 0][i % 4]).collect();
    // Long notes (one after each pick) make the log large.
    let mut game = level(6).start(Some(11)).unwrap();
    let header = tessera_replay::Header::new(&level(6), 11, 16).unwrap();
    let mut w = tessera_replay::LogWriter::new(Vec::new(), &header, &game.state).unwrap();
    let mut events = Vec::new();
    let text = "x".repeat(2000);
    for &p in &picks {
        events.clear();
        let cmd = crate::common::slide(p);
        if tessera_core::Rules::apply(&game.rules, &mut game.state, &cmd, &mut events).is_ok() {
            w.record(&cmd, &events, &game.state).unwrap();
        }
        w.note(&text).unwrap();
    }
    let whole = w.into_inner();
    assert!(whole.len() > 5 << 20, "{} bytes", whole.len());

    let path = std::env::temp_dir().join(format!("tessera-large-{}.tlog", std::process::id()));
    std::fs::write(&path, &whole).unwrap();
    let from_file = Log::open(&path).unwrap();
    let from_bytes = open(&whole);
    assert_eq!(from_file.frames(), from_bytes.frames());
    assert_eq!(from_file.whole_bytes(), &whole[..]);
    assert_eq!(from_file.steps(), from_bytes.steps());

    // Damage the payload of a frame three quarters in, then also one a quarter in.
    let frames = from_bytes.frames();
    let payload_byte = |i: usize| frames[i].offset as usize + FRAME_HEADER_LEN;
    let (early, late) = (frames.len() / 4, frames.len() * 3 / 4);
    let mut bytes = whole.clone();
    bytes[payload_byte(late)] ^= 0x40;
    let late_err = Log::from_bytes(bytes.clone(), TailPolicy::Lenient).unwrap_err();
    assert!(
        matches!(late_err, LogError::CrcMismatch { frame, .. } if frame == late as u64),
        "{late_err} (late {late} of {})",
        frames.len()
    );
    bytes[payload_byte(early)] ^= 0x40;
    let err = Log::from_bytes(bytes.clone(), TailPolicy::Lenient).unwrap_err();
    assert!(matches!(err, LogError::CrcMismatch { frame, .. } if frame == early as u64), "{err}");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Log::open(&path).unwrap_err(), err);
    // A bad crc comes before what is wrong later in the file (here: an unknown kind byte).
    let mut bytes = whole.clone();
    bytes[frames[late].offset as usize + 8] = 9;
    bytes[payload_byte(early)] ^= 0x40;
    let err = Log::from_bytes(bytes, TailPolicy::Lenient).unwrap_err();
    assert!(matches!(err, LogError::CrcMismatch { frame, .. } if frame == early as u64), "{err}");
    std::fs::remove_file(&path).ok();
}
