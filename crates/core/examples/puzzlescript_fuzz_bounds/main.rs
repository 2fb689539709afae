//! The `puzzlescript_bounds` fuzz target (issue 37) on stable Rust: runs its body
//! (`body.rs`, shared with `fuzz/fuzz_targets/puzzlescript_bounds.rs`) over a corpus
//! and over mutations of it, in child processes held to a memory limit (`ulimit -v`, as
//! libFuzzer's `-rss_limit_mb`) and a time limit per input (as `-timeout`). A child that aborts
//! (a failed allocation), is killed, panics or passes the time limit is a finding: its input is
//! kept in `OUT/finding-N`.
//!
//! ```sh
//! cargo run --release -p tessera-core --example puzzlescript_fuzz_bounds -- --generate fuzz/corpus/puzzlescript_bounds
//! cargo run --release -p tessera-core --example puzzlescript_fuzz_bounds -- fuzz/corpus/puzzlescript_bounds \
//!     [--mb 1024] [--seconds 10] [--mutations 2000] [--out DIR]
//! ```
//!
//! `--generate DIR` writes the issue's inputs, made small where the issue's were large (10,000
//! objects in as many layers; a legend key of 10,000 `and`-ed objects; 10,000 levels; a
//! 2000×2000 level; an `again` chain on a 256×256 level; a rule that matches every cell), and
//! the fixture games.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "body.rs"]
mod body;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--one") => {
            // A child: run the inputs listed, one file each, under the parent's limits.
            for path in &args[1..] {
                let data = std::fs::read(path).expect("read input");
                body::run(&data);
            }
        }
        Some("--generate") => generate(Path::new(args.get(1).expect("--generate DIR"))),
        Some(_) => run_corpus(&args),
        None => {
            eprintln!(
                "usage: puzzlescript_fuzz_bounds CORPUS [--mb N] [--seconds S] [--mutations M] [--out DIR] | --generate DIR"
            );
            std::process::exit(2);
        }
    }
}

/// The value after `flag`, parsed, or `default`.
fn flag<T: std::str::FromStr>(args: &[String], flag: &str, default: T) -> T {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run_corpus(args: &[String]) {
    let corpus = PathBuf::from(&args[0]);
    let mb: u64 = flag(args, "--mb", 1024);
    let seconds: f64 = flag(args, "--seconds", 10.0);
    let mutations: usize = flag(args, "--mutations", 0);
    let out = PathBuf::from(flag(args, "--out", "target/fuzz-bounds".to_string()));
    std::fs::create_dir_all(&out).expect("out folder");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).expect("read")).collect();
    let mut inputs: Vec<(String, Vec<u8>)> =
        files.iter().zip(&seeds).map(|(p, d)| (p.display().to_string(), d.clone())).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for m in 0..mutations {
        let a = &seeds[rand() as usize % seeds.len()];
        let b = &seeds[rand() as usize % seeds.len()];
        inputs.push((format!("mutation {m}"), mutate(a, b, &mut rand)));
    }
    let began = Instant::now();
    let (mut findings, mut slowest) = (0usize, (0.0f64, String::new()));
    for (name, data) in &inputs {
        let input = out.join("input");
        std::fs::write(&input, data).expect("write input");
        let t = Instant::now();
        let verdict = run_child(&input, mb, Duration::from_secs_f64(seconds));
        let took = t.elapsed().as_secs_f64();
        if took > slowest.0 {
            slowest = (took, name.clone());
        }
        if let Err(why) = verdict {
            let keep = out.join(format!("finding-{findings}"));
            std::fs::write(&keep, data).expect("keep finding");
            println!("FINDING {name}: {why} ({} bytes; kept as {})", data.len(), keep.display());
            findings += 1;
        }
    }
    println!(
        "{} executions ({} corpus files, {mutations} mutations) in {:.1} s under {mb} MiB and {seconds} s each: \
         {findings} findings; slowest {:.2} s ({})",
        inputs.len(),
        files.len(),
        began.elapsed().as_secs_f64(),
        slowest.0,
        slowest.1
    );
    if findings > 0 {
        std::process::exit(1);
    }
}

/// Runs the body on `input` in a child under `ulimit -v` of `mb` MiB, killed after `limit`.
fn run_child(input: &Path, mb: u64, limit: Duration) -> Result<(), String> {
    let me = std::env::current_exe().expect("current exe");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" --one \"$1\"", mb * 1024))
        .arg(&me)
        .arg(input)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start: {e}"))?;
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if status.success() {
                return Ok(());
            }
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
            return Err(format!("{status}: {last}"));
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("over the time limit of {} s", limit.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A mutation of `a`: bytes flipped, a run repeated, a piece of `b` spliced in.
fn mutate(a: &[u8], b: &[u8], rand: &mut impl FnMut() -> u64) -> Vec<u8> {
    let mut out = a.to_vec();
    for _ in 0..1 + rand() % 4 {
        let at = if out.is_empty() { 0 } else { rand() as usize % out.len() };
        match rand() % 4 {
            0 if !out.is_empty() => out[at] = rand() as u8,
            1 if !out.is_empty() => {
                let len = (1 + rand() as usize % 64).min(out.len() - at);
                let piece = out[at..at + len].to_vec();
                for _ in 0..1 + rand() % 64 {
                    out.splice(at..at, piece.iter().copied());
                }
            }
            2 if !b.is_empty() => {
                let from = rand() as usize % b.len();
                let len = (1 + rand() as usize % 256).min(b.len() - from);
                out.splice(at..at, b[from..from + len].iter().copied());
            }
            _ if !out.is_empty() => {
                let len = (1 + rand() as usize % 16).min(out.len() - at);
                out.drain(at..at + len);
            }
            _ => out.push(rand() as u8),
        }
    }
    out
}

/// A game's prelude, objects `names` (each a 1-colour sprite), and the rest.
fn game(objects: &str, legend: &str, sounds_layers: &str, rules: &str, levels: &str) -> String {
    format!(
        "title generated\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\n{objects}\nLEGEND\n\n. = Background\nP = Player\n{legend}\n\
         SOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nPlayer\n{sounds_layers}\nRULES\n\n{rules}\nWINCONDITIONS\n\nLEVELS\n\n{levels}\n"
    )
}

/// The issue's inputs, small where the issue's were large, and the fixture games.
fn generate(dir: &Path) {
    std::fs::create_dir_all(dir).expect("corpus folder");
    let write = |name: &str, text: &str| {
        let mut f = std::fs::File::create(dir.join(name)).expect("create");
        f.write_all(text.as_bytes()).expect("write");
    };
    let n = 10_000;
    let objects: String = (0..n).map(|i| format!("O{i}\nred\n\n")).collect();
    let layers: String = (0..n).map(|i| format!("O{i}\n")).collect();
    write("many-objects.txt", &game(&objects, "", &layers, "", "P.\n"));
    let key: String = (0..n).map(|i| format!("O{i}")).collect::<Vec<_>>().join(" and ");
    write("legend-and.txt", &game(&objects, &format!("X = {key}\n"), &layers, "", "PX\n"));
    let levels: String = (0..n).map(|_| "P.\n\n").collect();
    write("many-levels.txt", &game("", "", "", "", &levels));
    let big: String = (0..2000)
        .map(|y| if y == 0 { format!("P{}\n", ".".repeat(1999)) } else { format!("{}\n", ".".repeat(2000)) })
        .collect();
    write("level-2000.txt", &game("", "", "", "", &big));
    let side: String = (0..256)
        .map(|y| if y == 0 { format!("P{}\n", ".".repeat(255)) } else { format!("{}\n", ".".repeat(256)) })
        .collect();
    write(
        "again-chain.txt",
        &game(
            "Mark\nblue\n\n",
            "",
            "Mark\n",
            "[ Background no Mark ] -> [ Background Mark ] again\n[ Mark ] -> [ ] again\n",
            &side,
        ),
    );
    write(
        "every-cell.txt",
        &game(
            "Mark\nblue\n\n",
            "",
            "Mark\n",
            "[ Background | Background ] -> [ Background | Background Mark ]\n",
            &side,
        ),
    );
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games");
    if let Ok(entries) = std::fs::read_dir(&fixtures) {
        for e in entries.flatten() {
            if let (Some(name), Ok(text)) =
                (e.file_name().to_str().map(String::from), std::fs::read_to_string(e.path()))
            {
                write(&format!("fixture-{name}"), &text);
            }
        }
    }
}
