//! `tessera play`: run commands against a level and print every step.

use crate::error::{CliError, Input, read_input, read_stdin};
use clap::Args;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use tessera_core::{AnyCommand, AnyEvent, Game, Level, Rules};

/// Arguments of `tessera play`.
#[derive(Args, Debug, Default)]
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
    step: u64,
    log: Option<crate::replay::SessionLog>,
}

/// What one executed line did.
enum Outcome {
    Applied(Vec<AnyEvent>),
    Undone(Vec<AnyEvent>),
    Redone(Vec<AnyEvent>),
    Refused { code: &'static str, message: String },
    Hint(Option<AnyCommand>),
}

impl Session {
    /// Records what `run` did, when the session is being recorded.
    fn record(&mut self, line: &Line, outcome: &Outcome) -> Result<(), CliError> {
        let (Some(log), state) = (&mut self.log, &self.game.state) else { return Ok(()) };
        match (line, outcome) {
            (Line::Command(c), Outcome::Applied(events)) => log.applied(c, events, state),
            (_, Outcome::Undone(_)) => log.undone(),
            (_, Outcome::Redone(events)) => log.redone(events, state),
            _ => Ok(()),
        }
    }

    fn run(&mut self, line: &Line) -> Outcome {
        self.step += 1;
        match line {
            Line::Command(cmd) => {
                let mut events = Vec::new();
                match self.game.rules.apply(&mut self.game.state, cmd, &mut events) {
                    Ok(()) => {
                        self.done.push(events.clone());
                        self.undone.clear();
                        Outcome::Applied(events)
                    }
                    Err(r) => Outcome::Refused { code: r.code, message: r.message.into_owned() },
                }
            }
            Line::Hint => Outcome::Hint(self.game.rules.hint(&self.game.state)),
            Line::Undo => match self.done.pop() {
                Some(events) => {
                    self.game.rules.undo(&mut self.game.state, &events);
                    self.undone.push(events.clone());
                    Outcome::Undone(events)
                }
                None => Outcome::Refused { code: "nothing_to_undo", message: "nothing to undo".into() },
            },
            Line::Redo => match self.undone.pop() {
                // The events were applied from this very state (undo just reversed them): they fit.
                Some(events) => match self.game.rules.redo(&mut self.game.state, &events) {
                    Ok(()) => {
                        self.done.push(events.clone());
                        Outcome::Redone(events)
                    }
                    Err(e) => Outcome::Refused { code: "redo_failed", message: e.to_string() },
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

/// Loads `path` as a level, or the classic game when there is none.
pub fn load_level(path: Option<&Path>) -> Result<Level, CliError> {
    let Some(p) = path else { return Ok(Level::classic()) };
    // Files of an importer's extension (Moving AI `.map` files) open through it.
    if let Some(level) = crate::convert::level_by_extension(p) {
        return level;
    }
    Level::from_json(&read_input(p, Input::Level)?).map_err(|e| CliError::file(p, e))
}

/// Runs `tessera play`.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let level = load_level(args.level.as_deref())?;
    let label =
        args.level.as_ref().map_or_else(|| "built-in classic level".to_string(), |p| p.display().to_string());
    let game = level.start(args.seed).map_err(|e| CliError::BadInput(format!("{label}: {e}")))?;
    let seed = args.seed.or(level.seed()).unwrap_or(tessera_core::DEFAULT_SEED);
    let log = match &args.record {
        Some(path) => Some(crate::replay::SessionLog::create(path, &level, seed, &game.state)?),
        None => None,
    };
    let mut session = Session { game, done: Vec::new(), undone: Vec::new(), step: 0, log };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    let Some(commands) = &args.commands else {
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
            Ok(Some(line)) => lines.push((i + 1, raw.trim().to_string(), line)),
            Ok(None) => {}
            Err(e) => return Err(CliError::BadInput(format!("{name}:{}: {e}", i + 1))),
        }
    }
    print_start(&session, args, &label, seed, &mut out)?;
    for (number, text, line) in &lines {
        let outcome = session.run(line);
        session.record(line, &outcome)?;
        print_step(&session, args, text, &outcome, &mut out)?;
        if let (true, Outcome::Refused { message, .. }) = (args.strict, &outcome) {
            // Name the script's file and line, as a parse error does.
            return Err(CliError::Failed(format!(
                "{name}:{number}: step {}: '{text}' was refused: {message}",
                session.step
            )));
        }
    }
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
        let (kind, events) = match outcome {
            Outcome::Applied(e) => ("applied", Some(e)),
            Outcome::Undone(e) => ("undone", Some(e)),
            Outcome::Redone(e) => ("redone", Some(e)),
            Outcome::Refused { .. } => ("refused", None),
            Outcome::Hint(_) => ("hint", None),
        };
        v["outcome"] = json!(kind);
        v["events"] = json!(events.map_or_else(Vec::new, |e| e.iter().map(AnyEvent::to_json).collect()));
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
        Outcome::Applied(events) | Outcome::Undone(events) | Outcome::Redone(events) => {
            let verb = match outcome {
                Outcome::Undone(_) => " (undone)",
                Outcome::Redone(_) => " (redone)",
                _ => "",
            };
            let list: Vec<String> = events.iter().map(|e| e.to_json().to_string()).collect();
            writeln!(out, "step {}: {text}{verb}", session.step)
                .and_then(|()| writeln!(out, "  {}", list.join("\n  ")))
                .and_then(|()| write!(out, "{}", g.state.render()))
        }
    }
    .map_err(io_err)?;
    print_footer(session, out)
}
