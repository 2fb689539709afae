//! tessera's synthesiser against PuzzleScript's reference (`sfxr.js` under Node.js, driven by
//! `tools/puzzlescript/sfxr.js`): for 10,000 seeds drawn at random and every seed of the
//! regression suite's games, the parameters drawn from the seed are equal, and so are the bytes
//! of the WAV file. The reference's noise comes from `Math.random()`, which the driver replaces
//! by the generator `tessera_sound::seed_noise` uses, so noise sounds compare byte for byte too.
//! Skips (passing) without `../shared` or Node.js.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use tessera_core::puzzlescript::engine::{compile_lenient, suite::parse_testdata};
use tessera_sound::{Params, Seed, Sound};

/// The reference's folder: in `../shared` beside the checkout (or one level up, for a git
/// worktree under `wt/`), or under `PS_SHARED_DIR`; `None` without it or without Node.js.
fn reference_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = match std::env::var("PS_SHARED_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) if manifest.join("../../../shared").exists() => {
            manifest.join("../../../shared/benchmarks/puzzlescript")
        }
        Err(_) => manifest.join("../../../../shared/benchmarks/puzzlescript"),
    };
    let dir = shared.join("reference");
    let has_node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    (dir.join("js/sfxr.js").is_file() && has_node).then_some(dir)
}

/// splitmix64: the test's own seeds, the same on every run.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// 10,000 seeds: most as PuzzleScript's editor makes them (a kind plus 100 times an odd number
/// below a million), the rest up to 2^32, up to 2^53 and beyond (25 digits, where the seed
/// rounds as a double and `| 0` wraps), and a few with leading zeros.
fn random_seeds() -> Vec<String> {
    let mut rng = Mix(0x5f00_d5ee_d500);
    (0..10_000)
        .map(|k| match k % 10 {
            0..=5 => Seed::of_kind(
                tessera_sound::Kind::ALL[(rng.next() % 10) as usize],
                (rng.next() % 1_000_000) as u32,
            )
            .to_string(),
            6 => (rng.next() % (1 << 32)).to_string(),
            7 => (rng.next() % (1 << 53)).to_string(),
            8 => format!("{}{:06}", rng.next(), rng.next() % 1_000_000),
            _ => format!("00{}", rng.next() % 100_000_000),
        })
        .collect()
}

/// Every seed the suite's games declare, as the compiler keeps them.
fn suite_seeds(reference: &std::path::Path) -> Vec<String> {
    let text =
        std::fs::read_to_string(reference.join("tests/resources/testdata.js")).expect("the suite reads");
    let cases = parse_testdata(&text).expect("the suite parses");
    let mut seeds = std::collections::BTreeSet::new();
    for case in &cases {
        if let (Some(game), _) = compile_lenient(&case.source) {
            seeds.extend(game.sound_declarations().iter().map(|d| d.seed.clone()));
        }
    }
    seeds.into_iter().collect()
}

#[test]
fn every_seed_sounds_as_in_the_reference() {
    let Some(reference) = reference_dir() else {
        eprintln!("skipped: no ../shared reference or no node");
        return;
    };
    let suite = suite_seeds(&reference);
    assert!(suite.len() > 100, "only {} seeds in the suite's games", suite.len());
    let mut seeds = random_seeds();
    seeds.extend(suite.iter().cloned());

    let dir = std::env::temp_dir().join(format!("tessera-sfxr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("seeds.txt"), seeds.join("\n")).expect("write seeds");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/puzzlescript/sfxr.js");
    let out = Command::new("node")
        .arg(&script)
        .arg(&reference)
        .arg(dir.join("seeds.txt"))
        .arg(dir.join("wavs.bin"))
        .output()
        .expect("node runs");
    let wavs = std::fs::read(dir.join("wavs.bin")).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "the reference driver failed: {}", String::from_utf8_lossy(&out.stderr));

    let mut at = 0usize;
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut one_ulp = 0;
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).expect("utf-8").lines().collect();
    assert_eq!(lines.len(), seeds.len(), "one answer a seed");
    for (text, line) in seeds.iter().zip(lines) {
        let answer: Value = serde_json::from_str(line).expect("an answer is JSON");
        assert_eq!(answer["seed"].as_str(), Some(text.as_str()));
        let seed = Seed::parse(text).expect("the test's seeds are seeds");
        if let Some(error) = answer.get("error") {
            failures.push(format!("{text}: the reference threw {error}"));
            continue;
        }
        let len = answer["wav"].as_u64().expect("a length") as usize;
        let theirs = &wavs[at..at + len];
        at += len;
        compared += 1;
        let params = Params::from_seed(&seed);
        for (name, ours) in params.fields() {
            let want = answer["params"][name].as_str().and_then(|h| u64::from_str_radix(h, 16).ok());
            match want {
                Some(w) if w == ours.to_bits() => {}
                // `Math.pow` in Node's V8 rounds x^3 and x^5 differently from fdlibm's `pow` in
                // a few percent of cases, by one unit in the last place (it is not glibc's
                // either), which `1 - pow(..)` and `pow(..) + 0.5` carry on: counted, and
                // the WAV must still be equal.
                Some(w) if name != "wave_type" && (f64::from_bits(w) - ours).abs() <= 2f64.powi(-50) => {
                    one_ulp += 1
                }
                _ => failures.push(format!(
                    "{text}: {name} is {ours:?}, the reference's {:?}",
                    want.map(f64::from_bits)
                )),
            }
        }
        // The synthesis alone, from the reference's own parameters.
        let mut theirs_params = params.clone();
        let hex = |name: &str| {
            answer["params"][name].as_str().and_then(|h| u64::from_str_radix(h, 16).ok()).map(f64::from_bits)
        };
        theirs_params.set_fields(hex);
        let mut noise = tessera_sound::seed_noise(&seed);
        let samples =
            tessera_sound::synthesise(&theirs_params, &mut noise).expect("the reference's wave type");
        if tessera_sound::wav(tessera_sound::SAMPLE_RATE, &tessera_sound::quantise(&samples)) != theirs {
            failures.push(format!("{text}: the WAV from the reference's own parameters differs"));
        }
        let ours = Sound::new(&seed).expect("a sound").wav();
        if ours != theirs {
            let first =
                ours.iter().zip(theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
            failures.push(format!(
                "{text}: WAV differs from byte {first} (lengths {} and {})",
                ours.len(),
                theirs.len()
            ));
        }
    }
    assert_eq!(at, wavs.len(), "every WAV byte read");
    eprintln!(
        "{compared} seeds compared with the reference ({} from the suite's games); {one_ulp} parameters within 2^-50 (pow's last bit)",
        suite.len()
    );
    assert_eq!(compared, seeds.len());
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
