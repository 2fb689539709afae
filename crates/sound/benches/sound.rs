//! Sound speed: synthesising every sound of a 30-sound game (`fixtures/games/chorus.txt`: three
//! of each kind) into the reference's WAV bytes, and the reference doing the same under Node.js
//! (`tools/puzzlescript/sfxr.js --time`) in the same run, printed after criterion's figure (when
//! Node.js and `../shared` are there).
//!
//! Run: `cargo bench -p tessera-sound --bench sound`.

use criterion::{Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use tessera_core::puzzlescript::engine::compile;
use tessera_sound::{Seed, Sound};

/// The fixture game's seeds, in source order.
fn seeds() -> Vec<String> {
    let game =
        compile(include_str!("../../../fixtures/games/chorus.txt")).expect("the fixture game compiles");
    game.sound_declarations().iter().map(|d| d.seed.clone()).collect()
}

fn synthesis(c: &mut Criterion, seeds: &[String]) {
    let parsed: Vec<Seed> = seeds.iter().map(|s| Seed::parse(s).expect("a seed")).collect();
    let mut group = c.benchmark_group("sound");
    group.throughput(Throughput::Elements(parsed.len() as u64));
    group.bench_function("30-sound game to WAV", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for seed in &parsed {
                bytes += Sound::new(black_box(seed)).expect("a sound").wav().len();
            }
            bytes
        })
    });
    group.finish();
}

/// The reference's time for the same sounds: one Node.js process makes every WAV `repeats`
/// times; the figure is its time per game.
fn reference(seeds: &[String]) {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = match std::env::var("PS_SHARED_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) if manifest.join("../../../shared").exists() => {
            manifest.join("../../../shared/benchmarks/puzzlescript")
        }
        Err(_) => manifest.join("../../../../shared/benchmarks/puzzlescript"),
    };
    let reference = shared.join("reference");
    if !reference.join("js/sfxr.js").is_file() {
        println!("reference: ../shared is absent, not timed");
        return;
    }
    let file = std::env::temp_dir().join(format!("tessera-sound-bench-{}.txt", std::process::id()));
    if std::fs::write(&file, seeds.join("\n")).is_err() {
        println!("reference: cannot write {}", file.display());
        return;
    }
    let repeats = 50;
    let out = Command::new("node")
        .arg(manifest.join("../../tools/puzzlescript/sfxr.js"))
        .arg(&reference)
        .arg(&file)
        .arg("--time")
        .arg(repeats.to_string())
        .output();
    std::fs::remove_file(&file).ok();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let ms = text.split("\"ms\":").nth(1).and_then(|t| {
                t.trim_end_matches(|c: char| c == '}' || c.is_whitespace()).parse::<f64>().ok()
            });
            match ms {
                Some(ms) => println!(
                    "reference (Node.js {}): 30-sound game to WAV: {:.3} ms a game ({} games in one run)",
                    String::from_utf8_lossy(
                        &Command::new("node").arg("--version").output().map(|v| v.stdout).unwrap_or_default()
                    )
                    .trim(),
                    ms / f64::from(repeats),
                    repeats
                ),
                None => println!("reference: unreadable answer {text}"),
            }
        }
        Ok(o) => println!("reference: node failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => println!("reference: no node ({e}), not timed"),
    }
}

fn main() {
    let seeds = seeds();
    assert_eq!(seeds.len(), 30, "the fixture game has thirty sounds");
    let mut c = Criterion::default().configure_from_args();
    synthesis(&mut c, &seeds);
    reference(&seeds);
    c.final_summary();
}
