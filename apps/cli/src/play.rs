//! `tessera play`: run commands against a level and print every step (or, with `--every N`, every
//! N-th; with `--quiet`, only the final state and a summary).

use crate::error::{CliError, Input, read_input, read_stdin};
use crate::level_file::{game_level, is_game, load_level};
use clap::Args;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use tessera_core::{AnyCommand, AnyEvent, Game, Level, Rules};

/// Arguments of `tessera play`.
#[derive(Args, Debug, Default)]
#[command(after_help = commands_help())]
pub struct PlayArgs {
    /// The level file (JSON). Without one: the built-in classic 4x4 2048 game.
    pub level: Option<PathBuf>,
    /// The generator seed; overrides the level's own (default 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Commands, one per line (`-` for stdin). Without it, play interactively.
    #[arg(long, value_name = "FILE|-")]
    pub commands: Option<PathBuf>,
    /// Print one JSON object per step instead of boards.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 at the first command the game refuses.
    #[arg(long)]
    pub strict: bool,
    /// Record the session to this log file (see `tessera replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// With --commands: print only the final state and a summary (a script then runs as fast as
    /// the rules allow).
    #[arg(long, requires = "commands", conflicts_with = "every")]
    pub quiet: bool,
    /// With --commands: print the board every N script lines (and the final one) instead of
    /// after every line.
    #[arg(long, value_name = "N", requires = "commands", value_parser = clap::value_parser!(u64).range(1..))]
    pub every: Option<u64>,
    /// With a PuzzleScript game (`.txt`): which playable level, from 1 (as `tessera convert
    /// puzzlescript` numbers its files). Without it, a game of one level plays it, and the
    /// interactive game asks.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub number: Option<u64>,
}

/// One line of a command script.
#[derive(Debug, Clone)]
enum Line {
    Command(AnyCommand),
    Undo,
    Redo,
    /// Print a command worth trying (`AnyRules::hint`); changes nothing.
    Hint,
}

/// A game with the undo and redo stacks of `play`.
struct Session {
    game: Game,
    done: Vec<Vec<AnyEvent>>,
    undone: Vec<Vec<AnyEvent>>,
    /// Whether applied steps are kept for `undo` (not when a script has no undo line: its
    /// steps then reuse one buffer, `scratch`).
    keep: bool,
    scratch: Vec<AnyEvent>,
    step: u64,
    log: Option<crate::session_log::SessionLog>,
}

/// What one executed line did. The events of a step applied, undone or redone are not copied:
/// they are the last entry of the session's `done` stack (applied, redone) or `undone` stack.
enum Outcome {
    Applied,
    Undone,
    Redone,
    Refused { code: &'static str, message: String },
    Hint(Option<AnyCommand>),
}

impl Session {
    /// Records what `run` did, when the session is being recorded.
    fn record(&mut self, line: &Line, outcome: &Outcome) -> Result<(), CliError> {
        let (Some(log), state) = (&mut self.log, &self.game.state) else { return Ok(()) };
        let last = if self.keep { self.done.last().map_or(&[][..], Vec::as_slice) } else { &self.scratch };
        match (line, outcome) {
            (Line::Command(c), Outcome::Applied) => log.applied(c, last, state),
            (_, Outcome::Undone) => log.undone(),
            (_, Outcome::Redone) => log.redone(last, state),
            _ => Ok(()),
        }
    }

    /// The events of the step `outcome` applied, undid or redid (empty for other outcomes).
    fn events(&self, outcome: &Outcome) -> &[AnyEvent] {
        let last = match outcome {
            Outcome::Applied if !self.keep => Some(&self.scratch),
            Outcome::Applied | Outcome::Redone => self.done.last(),
            Outcome::Undone => self.undone.last(),
            Outcome::Refused { .. } | Outcome::Hint(_) => None,
        };
        last.map_or(&[][..], Vec::as_slice)
    }

    fn run(&mut self, line: &Line) -> Outcome {
        self.step += 1;
        match line {
            Line::Command(cmd) => {
                let mut events = if self.keep { Vec::new() } else { std::mem::take(&mut self.scratch) };
                events.clear();
                let result = self.game.rules.apply(&mut self.game.state, cmd, &mut events);
                if self.keep && result.is_ok() {
                    self.done.push(events);
                    self.undone.clear();
                } else if !self.keep {
                    self.scratch = events;
                }
                match result {
                    Ok(()) => Outcome::Applied,
                    Err(r) => Outcome::Refused { code: r.code, message: r.message.into_owned() },
                }
            }
            Line::Hint => Outcome::Hint(self.game.rules.hint(&self.game.state)),
            Line::Undo => match self.done.pop() {
                Some(events) => {
                    self.game.rules.undo(&mut self.game.state, &events);
                    self.undone.push(events);
                    Outcome::Undone
                }
                None => Outcome::Refused { code: "nothing_to_undo", message: "nothing to undo".into() },
            },
            Line::Redo => match self.undone.pop() {
                // The events were applied from this very state (undo just reversed them): they fit.
                Some(events) => match self.game.rules.redo(&mut self.game.state, &events) {
                    Ok(()) => {
                        self.done.push(events);
                        Outcome::Redone
                    }
                    Err(e) => {
                        self.undone.push(events);
                        Outcome::Refused { code: "redo_failed", message: e.to_string() }
                    }
                },
                None => Outcome::Refused { code: "nothing_to_redo", message: "nothing to redo".into() },
            },
        }
    }
}

fn parse_line(game: &Game, text: &str) -> Result<Option<Line>, String> {
    let text = text.split('#').next().unwrap_or_default().trim();
    match text {
        "" => Ok(None),
        "undo" => Ok(Some(Line::Undo)),
        "redo" => Ok(Some(Line::Redo)),
        "hint" => Ok(Some(Line::Hint)),
        _ => AnyCommand::parse(game.state.rule_set(), text).map(|c| Some(Line::Command(c))),
    }
}

/// The level `tessera play` plays: [`load_level`]'s, except that without `--number` the
/// interactive game asks which level of a PuzzleScript game to play.
fn play_level(args: &PlayArgs) -> Result<Level, CliError> {
    let ask = args.commands.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin());
    match args.level.as_deref() {
        Some(path) if is_game(path) => game_level(path, args.number, ask),
        path => load_level(path, args.number),
    }
}

/// Runs `tessera play`.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let level = play_level(args)?;
    let label =
        args.level.as_ref().map_or_else(|| "built-in classic level".to_string(), |p| p.display().to_string());
    let game = level.start(args.seed).map_err(|e| CliError::BadInput(format!("{label}: {e}")))?;
    let seed = args.seed.or(level.seed()).unwrap_or(tessera_core::DEFAULT_SEED);
    let mut session = Session {
        game,
        done: Vec::new(),
        undone: Vec::new(),
        keep: true,
        scratch: Vec::new(),
        step: 0,
        log: None,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    let Some(commands) = &args.commands else {
        // Interactive: the log is on disk from the start, so a crash keeps what was played.
        if let Some(path) = &args.record {
            session.log =
                Some(crate::session_log::SessionLog::create(path, &level, seed, &session.game.state)?);
        }
        return interactive(&mut session, args, &label, seed, &mut out);
    };
    // A script is read and parsed whole before anything runs, so a typo on line 90 fails
    // before 89 steps have been printed.
    let (name, text) = if commands.as_os_str() == "-" {
        ("stdin".to_string(), read_stdin(Input::Script)?)
    } else {
        (commands.display().to_string(), read_input(commands, Input::Script)?)
    };
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        match parse_line(&session.game, raw) {
            Ok(Some(line)) => lines.push((i + 1, raw.trim(), line)),
            Ok(None) => {}
            Err(e) => return Err(CliError::BadInput(format!("{name}:{}: {e}", i + 1))),
        }
    }
    // A script's log is put in place only when the whole script has run: a script that fails
    // (unreadable, a bad line, a refused step under --strict) writes nothing at the path.
    if let Some(path) = &args.record {
        session.log =
            Some(crate::session_log::SessionLog::create_pending(path, &level, seed, &session.game.state)?);
    }
    // Without an undo line, no step is ever undone: none is kept (a long script then runs in
    // constant memory, at the speed of the rules).
    session.keep = lines.iter().any(|(_, _, l)| matches!(l, Line::Undo | Line::Redo));
    // What is printed: every line, every N-th line, or (--quiet) only the final state.
    let every = if args.quiet { u64::MAX } else { args.every.unwrap_or(1) };
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    if !args.quiet {
        print_start(&session, args, &label, seed, &mut out)?;
    }
    // Whether the state after the last line run is on screen.
    let mut shown = !args.quiet;
    for &(number, text, ref line) in &lines {
        let outcome = session.run(line);
        session.record(line, &outcome)?;
        tally.count(&outcome);
        shown = session.step.is_multiple_of(every);
        if shown {
            print_step(&session, args, text, &outcome, &mut out)?;
        }
        if let (true, Outcome::Refused { message, .. }) = (args.strict, &outcome) {
            // Name the script's file and line, as a parse error does.
            return Err(CliError::Failed(format!(
                "{name}:{number}: step {}: '{text}' was refused: {message}",
                session.step
            )));
        }
    }
    if every > 1 {
        // --quiet and --every end with the final state (unless just printed) and a summary.
        if !shown {
            print_final(&session, args, &label, seed, &mut out)?;
        }
        print_summary(&session, &tally, started.elapsed(), args, &mut out)?;
    }
    session.log.take().map_or(Ok(()), crate::session_log::SessionLog::commit)
}

/// How many script lines had each outcome (the summary of `--quiet` and `--every`).
#[derive(Default)]
struct Tally {
    applied: u64,
    refused: u64,
    undone: u64,
    redone: u64,
    hints: u64,
}

impl Tally {
    fn count(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Applied => self.applied += 1,
            Outcome::Refused { .. } => self.refused += 1,
            Outcome::Undone => self.undone += 1,
            Outcome::Redone => self.redone += 1,
            Outcome::Hint(_) => self.hints += 1,
        }
    }
}

/// The state after the last line, whatever it did.
fn print_final(
    session: &Session,
    args: &PlayArgs,
    label: &str,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let g = &session.game;
    if args.json {
        let v = json!({
            "step": session.step,
            "final": true,
            "board": g.state.board_json(),
            "score": g.state.score(),
            "status": g.rules.status(&g.state).name(),
            "hash": format!("{:016x}", g.state.hash()),
        });
        writeln!(out, "{v}").map_err(io_err)
    } else {
        writeln!(out, "{label} ({}, seed {seed}) after {} lines", g.state.rule_set(), session.step)
            .map_err(io_err)?;
        write!(out, "{}", g.state.render()).map_err(io_err)?;
        print_footer(session, out)
    }
}

/// One line (or JSON object) of counts; the time goes to stderr so that stdout stays the same
/// from run to run.
fn print_summary(
    session: &Session,
    tally: &Tally,
    elapsed: std::time::Duration,
    args: &PlayArgs,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let g = &session.game;
    let hash = format!("{:016x}", g.state.hash());
    if args.json {
        let v = json!({
            "summary": {
                "lines": session.step,
                "applied": tally.applied,
                "refused": tally.refused,
                "undone": tally.undone,
                "redone": tally.redone,
                "hints": tally.hints,
                "status": g.rules.status(&g.state).name(),
                "score": g.state.score(),
                "hash": hash,
            }
        });
        writeln!(out, "{v}").map_err(io_err)?;
    } else {
        writeln!(
            out,
            "summary: {} lines: {} applied, {} refused, {} undone, {} redone, {} hints; hash {hash}",
            session.step, tally.applied, tally.refused, tally.undone, tally.redone, tally.hints
        )
        .map_err(io_err)?;
    }
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { session.step as f64 / secs } else { 0.0 };
    eprintln!("tessera: {} lines in {secs:.3} s ({rate:.0} lines/s)", session.step);
    Ok(())
}

fn interactive(
    session: &mut Session,
    args: &PlayArgs,
    label: &str,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let tty = std::io::stdin().is_terminal();
    let rule_set = session.game.state.rule_set();
    print_start(session, args, label, seed, out)?;
    if tty && !args.json {
        writeln!(
            out,
            "commands: {} | undo | redo | hint | quit  (w a s d also slide)",
            rule_set.command_help()
        )
        .map_err(io_err)?;
    }
    let stdin = std::io::stdin();
    loop {
        if tty {
            write!(out, "> ").map_err(io_err)?;
            out.flush().map_err(io_err)?;
        }
        let mut raw = String::new();
        if stdin.lock().read_line(&mut raw).map_err(|e| CliError::BadInput(format!("stdin: {e}")))? == 0 {
            return Ok(());
        }
        let text = match raw.trim() {
            "q" | "quit" | "exit" => return Ok(()),
            "w" => "up",
            "a" => "left",
            "s" => "down",
            "d" => "right",
            "z" | "u" => "undo",
            "y" => "redo",
            other => other,
        };
        match parse_line(&session.game, text) {
            Ok(None) => {}
            Ok(Some(line)) => {
                let outcome = session.run(&line);
                session.record(&line, &outcome)?;
                print_step(session, args, text, &outcome, out)?;
            }
            Err(e) if tty => writeln!(out, "{e}").map_err(io_err)?,
            Err(e) => return Err(CliError::BadInput(format!("stdin: {e}"))),
        }
    }
}

fn io_err(e: std::io::Error) -> CliError {
    crate::error::output_error(e)
}

fn print_start(
    session: &Session,
    args: &PlayArgs,
    label: &str,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let g = &session.game;
    if args.json {
        let v = json!({
            "step": 0,
            "command": null,
            "rule_set": g.state.rule_set().name(),
            "seed": seed,
            "events": [],
            "board": g.state.board_json(),
            "score": g.state.score(),
            "status": g.rules.status(&g.state).name(),
            "hash": format!("{:016x}", g.state.hash()),
        });
        writeln!(out, "{v}").map_err(io_err)
    } else {
        writeln!(out, "{} ({}, seed {seed})", label, g.state.rule_set()).map_err(io_err)?;
        write!(out, "{}", g.state.render()).map_err(io_err)?;
        print_footer(session, out)
    }
}

fn print_footer(session: &Session, out: &mut impl Write) -> Result<(), CliError> {
    let g = &session.game;
    let score = g.state.score().map(|s| format!("score {s} · ")).unwrap_or_default();
    writeln!(out, "{score}{}", g.rules.status(&g.state)).map_err(io_err)
}

fn print_step(
    session: &Session,
    args: &PlayArgs,
    text: &str,
    outcome: &Outcome,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let g = &session.game;
    if args.json {
        let mut v = json!({
            "step": session.step,
            "command": text,
            "board": g.state.board_json(),
            "score": g.state.score(),
            "status": g.rules.status(&g.state).name(),
            "hash": format!("{:016x}", g.state.hash()),
        });
        let kind = match outcome {
            Outcome::Applied => "applied",
            Outcome::Undone => "undone",
            Outcome::Redone => "redone",
            Outcome::Refused { .. } => "refused",
            Outcome::Hint(_) => "hint",
        };
        v["outcome"] = json!(kind);
        v["events"] = json!(session.events(outcome).iter().map(AnyEvent::to_json).collect::<Vec<_>>());
        if let Outcome::Refused { code, message } = outcome {
            v["rejected"] = json!({ "code": code, "message": message });
        }
        if let Outcome::Hint(hint) = outcome {
            v["hint"] = json!(hint.as_ref().map(AnyCommand::to_string));
        }
        return writeln!(out, "{v}").map_err(io_err);
    }
    match outcome {
        Outcome::Refused { message, .. } => {
            writeln!(out, "step {}: {text}: refused: {message}", session.step)
        }
        Outcome::Hint(hint) => {
            let hint = hint.as_ref().map_or_else(|| "no command to suggest".to_string(), |c| c.to_string());
            writeln!(out, "step {}: hint: {hint}", session.step)
        }
        Outcome::Applied | Outcome::Undone | Outcome::Redone => {
            let verb = match outcome {
                Outcome::Undone => " (undone)",
                Outcome::Redone => " (redone)",
                _ => "",
            };
            let list: Vec<String> =
                session.events(outcome).iter().map(|e| crate::describe::event_words(e, &g.state)).collect();
            writeln!(out, "step {}: {text}{verb}", session.step)
                .and_then(|()| writeln!(out, "  {}", list.join("\n  ")))
                .and_then(|()| write!(out, "{}", g.state.render()))
        }
    }
    .map_err(io_err)?;
    print_footer(session, out)
}

/// Every rule set's command syntax, for `tessera play --help` (issue 28.15).
pub fn commands_help() -> String {
    let mut text = String::from("Commands, by rule set (besides undo and redo):");
    for r in tessera_core::RuleSet::ALL {
        text += &format!("\n  {}: {}", r.name(), r.command_help());
    }
    text
}
