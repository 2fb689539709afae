//! End-to-end tests of the `tessera` binary, run as a user would run it.

mod bots;
mod bounds;
mod collapse;
mod convert;
mod estimate;
mod export;
mod generate;
mod generate_match3;
mod generate_shard;
mod gif;
mod hostile;
mod limits;
mod match3;
mod pack;
mod play;
mod puzzlescript;
mod puzzlescript_solve;
mod qa;
mod replay;
mod sokoban;
mod sound;
mod tactics;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `tessera` with `args`, feeding `stdin`.
pub fn tessera(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(workspace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tessera runs");
    // The command may finish (say, on a bad level) before reading its input: ignore a closed pipe.
    let _ = child.stdin.take().expect("stdin").write_all(stdin.as_bytes());
    child.wait_with_output().expect("tessera finishes")
}

/// The workspace root (where `fixtures/` lives).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// stdout as JSON lines.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
