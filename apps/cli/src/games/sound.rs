//! `tessera sound`: PuzzleScript's sounds, synthesised as the reference does (`tessera_sound`).
//!
//! `tessera sound SEED` prints the seed's kind and length; `--wav OUT.wav` writes the sound as
//! the reference's WAV file (8-bit mono at 5,512 Hz), atomically. `tessera sound GAME.txt` lists
//! every sound the game declares (its line, what plays it, the seed, the kind and the length)
//! and checks each seed: exit 1 when one is not a seed this synthesiser (and the reference) can
//! make, 2 when the game does not compile. `--wav-dir DIR` also writes each sound as
//! `DIR/SEED.wav`, all or none: every target is checked and every file staged before any is
//! moved into place (issue 66.9, as `convert` writes its levels). A game is read within the
//! limit of every command that reads one, 4 MiB ([`MAX_SOURCE_BYTES`], issue 66.11).
//!
//! `tessera sound SEED [--wav OUT]` and `tessera sound GAME.txt [--wav-dir DIR]` over
//! `tessera_sound` (a game's sounds through core's `Game::sound_declarations`).

use crate::error::{CliError, Input, output_error, read_input};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use tessera_core::puzzlescript::engine::{MAX_SOURCE_BYTES, compile};
use tessera_sound::{Seed, Sound, shorten};

/// `tessera sound (SEED [--wav OUT.wav] | GAME.txt [--wav-dir DIR])`.
#[derive(Args, Debug)]
pub struct SoundArgs {
    /// A sound seed (digits, as a game's SOUNDS section writes it), or a PuzzleScript game's
    /// source file to list its sounds.
    what: String,
    /// With a seed: write the sound as a WAV file here.
    #[arg(long, value_name = "OUT.wav")]
    wav: Option<PathBuf>,
    /// With a game: write each of its sounds as SEED.wav in this folder.
    #[arg(long, value_name = "DIR")]
    wav_dir: Option<PathBuf>,
}

/// Runs `tessera sound`.
pub fn run(args: &SoundArgs) -> Result<(), CliError> {
    if args.what.bytes().all(|b| b.is_ascii_digit()) && !Path::new(&args.what).exists() {
        if args.wav_dir.is_some() {
            return Err(CliError::BadInput(
                "--wav-dir goes with a game; with a seed, give --wav OUT.wav".into(),
            ));
        }
        return one_seed(&args.what, args.wav.as_deref());
    }
    if args.wav.is_some() {
        return Err(CliError::BadInput("--wav goes with a seed; with a game, give --wav-dir DIR".into()));
    }
    game(Path::new(&args.what), args.wav_dir.as_deref())
}

fn make(text: &str) -> Result<Sound, String> {
    let seed = Seed::parse(text).map_err(|e| e.to_string())?;
    Sound::new(&seed).map_err(|e| format!("seed {}: {e}", shorten(text)))
}

fn describe(sound: &Sound) -> String {
    format!(
        "{} ({}), {:.3} s, {} samples",
        sound.seed().kind().label(),
        sound.seed().kind().name(),
        sound.duration().as_secs_f64(),
        sound.samples().len()
    )
}

fn write_wav(path: &Path, sound: &Sound) -> Result<(), CliError> {
    tessera_replay::atomic_write(path, &sound.wav()).map_err(|e| CliError::file(path, e))
}

fn one_seed(text: &str, wav: Option<&Path>) -> Result<(), CliError> {
    let sound = make(text).map_err(CliError::BadInput)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}: {}", sound.seed(), describe(&sound)).map_err(output_error)?;
    if let Some(path) = wav {
        write_wav(path, &sound)?;
        writeln!(out, "wrote {}", path.display()).map_err(output_error)?;
    }
    Ok(())
}

fn game(path: &Path, wav_dir: Option<&Path>) -> Result<(), CliError> {
    // The limit and message of every command that reads a game (`play`, `solve`, `convert`).
    let input = Input::Import { name: "a PuzzleScript game", limit: MAX_SOURCE_BYTES as u64 };
    let source = read_input(path, input)?;
    let game = compile(&source).map_err(|diags| {
        let errors: Vec<String> =
            diags.iter().filter(|d| d.is_error).map(|d| format!("line {}: {}", d.line, d.message)).collect();
        CliError::file(path, format!("the game does not compile:\n{}", errors.join("\n")))
    })?;
    let mut staging = match wav_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e))?;
            Some(crate::convert::Staging::begin(dir)?)
        }
        None => None,
    };
    let mut out = std::io::stdout().lock();
    let declared = game.sound_declarations();
    let mut bad = Vec::new();
    let mut staged = std::collections::BTreeSet::new();
    for d in declared {
        let seed = shorten(&d.seed);
        match make(&d.seed) {
            Ok(sound) => {
                writeln!(out, "line {:>4}  {:<32} {:>12}  {}", d.line, d.name, seed, describe(&sound))
                    .map_err(output_error)?;
                if let Some(staging) = staging.as_mut() {
                    let name = format!("{}.wav", sound.seed());
                    // One file a distinct seed: checked and staged, moved into place at the end.
                    if staged.insert(name.clone()) {
                        staging.add(&name, &sound.wav())?;
                    }
                }
            }
            Err(e) => {
                writeln!(out, "line {:>4}  {:<32} {:>12}  BAD: {e}", d.line, d.name, seed)
                    .map_err(output_error)?;
                bad.push(format!("line {}: {e}", d.line));
            }
        }
    }
    if let Some(staging) = staging {
        staging.commit()?;
    }
    writeln!(out, "{} sounds, {} bad", declared.len(), bad.len()).map_err(output_error)?;
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!("{}: {}", path.display(), bad.join("; "))))
    }
}
