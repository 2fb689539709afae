//! `tessera`: the command-line tool for QA and CI.
//!
//! `main` only parses arguments and maps failures to exit codes: 0 ok, 1 a check failed (a
//! divergence, a refused command under `--strict`), 2 bad input (file, argument, command line).
//! Each subcommand lives in its own module; the subcommands of one rule set (tactics' `range`,
//! `path`, `path-bench`) and the rule sets' solvers behind the generic `solve` live in their
//! modules of `games/`, the CLI's registry.
//!
//! `main.rs` parses arguments and maps `CliError` to exit codes (0 ok, 1 check failed, 2 bad
//! input); every input file is read through `error::read_input` (a size limit per `Input` kind,
//! UTF-8 errors with line and byte); each subcommand has its own module

/// mimalloc rather than the system's allocator: see the workspace manifest.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bots;
mod convert;
mod describe;
mod error;
mod estimate;
mod export;
mod games;
mod generate;
mod gif;
mod jobs;
mod level_file;
mod pack;
mod play;
mod reduce;
mod replay;
mod session_log;
mod solve;
mod solve_args;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Play, replay and check tessera's grid puzzle games.
#[derive(Parser, Debug)]
#[command(name = "tessera", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The most work one PuzzleScript step may do, in units of work (docs/limits.md): past it a
    /// step is refused, "step too long"
    #[arg(long, global = true, value_name = "UNITS", default_value_t = tessera_core::puzzlescript::MAX_STEP_WORK,
          value_parser = clap::value_parser!(u64).range(1..))]
    step_work: u64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a level: commands from a file or stdin, or interactively in the terminal.
    Play(play::PlayArgs),
    /// Convert other formats into levels.
    Convert(convert::ConvertArgs),
    /// Check and inspect recorded logs: info, verify, show, diff, export, repair, note, gif,
    /// pin, check, reduce.
    Replay(replay::ReplayArgs),
    /// The subcommands of one rule set.
    #[command(flatten)]
    Game(games::GameCommand),
    /// Let a bot play one game of a level, printing each move.
    Bot(bots::BotArgs),
    /// How hard is a level: the estimate of a puzzle level (PuzzleScript, Sokoban), or with
    /// `--bot` a bot plays it many times (or `merge` shard reports).
    Difficulty(bots::DifficultyArgs),
    /// Level packs: edit (new, add, remove, move, list), rate (or a shard), merge, report.
    Pack(pack::PackArgs),
    /// A PuzzleScript game as one web page that plays it (tessera's engine in WebAssembly).
    #[command(display_order = 101)]
    Export(export::ExportArgs),
    /// New levels for a PuzzleScript game, each proved by the solver and replayed to a win,
    /// appended to the game's source (or by a rule set's generator: Sokoban rooms, match-3
    /// stages tuned to a win rate); `merge` joins a run's shards.
    #[command(display_order = 102)]
    Generate(Box<generate::GenerateArgs>),
    /// Solve a level in a time limit with its rule set's solver, print it, optionally record it.
    // Listed after the commands of every rule set, as before the registry.
    #[command(display_order = 100)]
    Solve(solve::SolveArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tessera_core::puzzlescript::set_step_work(cli.step_work);
    let result = match cli.command {
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Game(command)) => command.run(),
        Some(Command::Bot(args)) => bots::bot(&args),
        Some(Command::Difficulty(args)) => bots::difficulty(&args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Pack(args)) => pack::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::Generate(args)) => generate::run(&args),
        // No subcommand: the main job on its built-in default, a classic 4x4 game.
        None => play::run(&play::PlayArgs::default()),
    };
    match result {
        Ok(()) | Err(error::CliError::OutputClosed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
