//! `tessera replay reduce`: shrink a log to a smaller one for which a test still holds (delta
//! debugging, like C-Reduce's interestingness test).
//!
//! A candidate is a list of the log's commands, re-executed from the header's level and seed
//! with today's rules; a candidate with a command the rules refuse is not interesting. The test
//! is a command (`--test CMD`: exit 0 = interesting; run with the candidate log's path as its
//! last argument, or in place of `{}`; killed after `--timeout` seconds) or built in
//! (`--until-status`, `--until-event`, `--until-hash`: checked in process after every step, so a
//! candidate is cut at the first step where it holds).
//!
//! The search: first the shortest prefix (built-in tests: the first step where the test holds;
//! a command: bisection over prefix lengths), then ddmin — remove one of `n` chunks, from halves
//! down to single commands (`n` grows when no chunk can go, shrinks by one when one went).
//! Candidates of a round run `--jobs` at a time; of those that hold, the first in order wins, so
//! the result does not depend on `--jobs` when the test is deterministic. Ctrl-C, SIGTERM or
//! `--seconds` stop the search (a running test is killed when `--seconds` runs out, whatever
//! its `--timeout`) and the best log so far is written. The input is never overwritten.
//!
//! **No process left behind** (issue 29.7). Every test command runs in its own process group
//! with an environment variable naming that run (`TESSERA_REDUCE_TEST`); when the test ends
//! (exits, times out, or the search stops) its group is killed, then every process that still
//! carries the mark (background jobs, grandchildren that left the group with `setsid`) — found
//! through `/proc` on Linux — until none is left. Where the system allows it (root, or
//! CAP_SYS_ADMIN) the test also runs in a PID namespace of its own, whose processes the kernel
//! kills when the test dies: then nothing escapes, not even a grandchild that called `setsid`
//! while reduce was killed with SIGKILL (issue 66.4). Without it, a process that clears its
//! environment *and* leaves the group escapes. Every run of reduce, whatever its test, removes
//! the scratch folders of runs killed before they could.
//!
//! **Checked at the end.** A test command is run once more on the result; if it no longer holds
//! (a flaky test), the result is written but the command fails (exit 1) saying so.
//!
//! `tessera replay reduce` (ddmin over the log's commands re-executed from the level and seed;
//! built-in tests checked after every step, which also cut a candidate at the first step where the
//! test holds; a test command run through `sh -c` in its own process group, marked with
//! `TESSERA_REDUCE_TEST` in its environment, and killed — `killpg`, then every process still
//! carrying the mark, found in `/proc` — when it ends, after `--timeout` or at the `--seconds`
//! deadline; the answer tested once more; candidates `--jobs` at a time on scoped threads, the
//! first that holds in order wins, so the result does not depend on `--jobs`; Ctrl-C and
//! `--seconds` keep the best).

use crate::error::CliError;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tessera_core::{AnyCommand, AnyEvent, Game, Level, Rules, Status};
use tessera_replay::{EventCondition, Header, Log, LogWriter, StepRecord, atomic_write};

/// Arguments of `tessera replay reduce`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("interesting").required(true).args(["test", "until_status", "until_event", "until_hash"])))]
pub struct ReduceArgs {
    /// The log to shrink (never overwritten).
    log: PathBuf,
    /// The interestingness test: a shell command that exits 0 when a candidate log still shows
    /// the problem. The candidate's path is appended, or replaces `{}`.
    #[arg(long, value_name = "CMD")]
    test: Option<String>,
    /// Built-in test: the game reaches this status.
    #[arg(long, value_name = "STATUS", value_parser = ["won", "over"])]
    until_status: Option<String>,
    /// Built-in test: a step has an event of this kind (its variant name, as `replay show`
    /// prints it), optionally with a field condition: `Shuffled`, `Matched.cascade>=3`, `Walked`.
    #[arg(long, value_name = "KIND[.FIELD>=N]")]
    until_event: Option<EventCondition>,
    /// Built-in test: the state hash (16 hex digits, as `replay info` prints it) is reached.
    #[arg(long, value_name = "HASH")]
    until_hash: Option<String>,
    /// Where to write the smaller log (default: LOG's name with `.reduced.tlog`).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Stop after this many seconds and keep the best log so far.
    #[arg(long)]
    seconds: Option<f64>,
    /// Candidates tested at once (default: the number of CPUs).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: Option<u64>,
    /// Seconds a --test command may run on one candidate before it is killed (and the candidate
    /// counted as not interesting).
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
}

/// Set by Ctrl-C: stop and keep the best.
static STOP: AtomicBool = AtomicBool::new(false);

/// A test built into the reducer, checked after every step.
enum Builtin {
    Status(Status),
    Event(EventCondition),
    Hash(u64),
}

impl Builtin {
    fn holds(&self, game: &Game, events: &[AnyEvent]) -> bool {
        match self {
            Builtin::Status(s) => game.rules.status(&game.state) == *s,
            Builtin::Event(c) => events.iter().any(|e| c.matches(e)),
            Builtin::Hash(h) => game.state.hash() == *h,
        }
    }

    fn describe(&self) -> String {
        match self {
            Builtin::Status(s) => format!("--until-status {s}"),
            Builtin::Event(c) => format!("--until-event {c}"),
            Builtin::Hash(h) => format!("--until-hash {h:016x}"),
        }
    }
}

enum Test {
    Builtin(Builtin),
    Command { cmd: String, timeout: Duration, dir: TempDir },
}

/// The environment variable that marks a test command's processes.
const MARK: &str = "TESSERA_REDUCE_TEST";

/// A scratch folder for candidate logs, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Everything a candidate needs: the game's start and the test.
struct Reducer {
    level: Level,
    seed: u64,
    /// The rules version the log is replayed with (its own, when this build keeps it), which
    /// every candidate log is recorded with too.
    rules_version: u32,
    test: Test,
    deadline: Option<Instant>,
    candidates: AtomicU64,
}

/// What testing a candidate gave.
enum Verdict {
    /// Interesting: the commands to keep (a built-in test may cut the candidate short).
    Holds(Vec<AnyCommand>),
    /// Not interesting (refused, test failed, timed out): why, when a test command said so.
    No(Option<String>),
    /// The search was stopped while this candidate ran: it proves nothing.
    Stopped,
}

impl Reducer {
    fn stopped(&self) -> bool {
        STOP.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn start(&self) -> Result<Game, String> {
        self.level.start_version(Some(self.seed), self.rules_version).map_err(|e| e.to_string())
    }

    /// Runs `commands` from the start; with a built-in test, stops at the first step where it
    /// holds and returns how many commands that took. `Err` names a refused command.
    fn replay(
        &self,
        commands: &[AnyCommand],
        builtin: Option<&Builtin>,
    ) -> Result<(Game, Option<usize>), String> {
        let mut game = self.start()?;
        let mut events = Vec::new();
        if let Some(b) = builtin
            && b.holds(&game, &events)
        {
            return Ok((game, Some(0)));
        }
        for (i, c) in commands.iter().enumerate() {
            events.clear();
            game.rules
                .apply(&mut game.state, c, &mut events)
                .map_err(|r| format!("step {}: '{c}' is refused: {}", i + 1, r.message))?;
            if let Some(b) = builtin
                && b.holds(&game, &events)
            {
                return Ok((game, Some(i + 1)));
            }
        }
        Ok((game, None))
    }

    /// The log of `commands`, recorded with the log's rules version, with `note` at its end.
    fn log_bytes(&self, commands: &[AnyCommand], note: Option<&str>) -> Result<Vec<u8>, String> {
        let mut game = self.start()?;
        let mut header = Header::new(&self.level, self.seed, tessera_replay::DEFAULT_KEYFRAME_INTERVAL)
            .map_err(|e| e.to_string())?;
        header.rules_version = self.rules_version;
        let mut w = LogWriter::new(Vec::new(), &header, &game.state).map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        for c in commands {
            events.clear();
            game.rules.apply(&mut game.state, c, &mut events).map_err(|r| r.message.into_owned())?;
            w.record(c, &events, &game.state).map_err(|e| e.to_string())?;
        }
        if let Some(n) = note {
            w.note(n).map_err(|e| e.to_string())?;
        }
        Ok(w.into_inner())
    }

    /// Tests one candidate; `slot` names its file for a test command.
    fn test(&self, commands: Vec<AnyCommand>, slot: usize) -> Verdict {
        self.candidates.fetch_add(1, Ordering::Relaxed);
        if self.stopped() {
            return Verdict::Stopped;
        }
        match &self.test {
            Test::Builtin(b) => match self.replay(&commands, Some(b)) {
                Ok((_, Some(k))) => {
                    let mut commands = commands;
                    commands.truncate(k);
                    Verdict::Holds(commands)
                }
                Ok((_, None)) | Err(_) => Verdict::No(None),
            },
            Test::Command { cmd, timeout, dir } => {
                let Ok(bytes) = self.log_bytes(&commands, None) else { return Verdict::No(None) };
                let path = dir.0.join(format!("candidate-{slot}.tlog"));
                if let Err(e) = std::fs::write(&path, bytes) {
                    return Verdict::No(Some(format!("its candidate could not be written: {e}")));
                }
                match run_test(cmd, &path, *timeout, self.deadline) {
                    TestRun::Passed => Verdict::Holds(commands),
                    TestRun::Failed(why) => Verdict::No(Some(why)),
                    TestRun::Stopped => Verdict::Stopped,
                }
            }
        }
    }

    /// Tests `candidates` (in order) `jobs` at a time; the first that holds, by index.
    fn first_holding(
        &self,
        candidates: Vec<Vec<AnyCommand>>,
        jobs: usize,
    ) -> Result<Option<Vec<AnyCommand>>, Stop> {
        let mut candidates = candidates.into_iter().enumerate().peekable();
        while candidates.peek().is_some() {
            let batch: Vec<(usize, Vec<AnyCommand>)> = candidates.by_ref().take(jobs).collect();
            let verdicts: Vec<Verdict> = if batch.len() == 1 {
                batch.into_iter().map(|(i, c)| self.test(c, i)).collect()
            } else {
                std::thread::scope(|s| {
                    let handles: Vec<_> =
                        batch.into_iter().map(|(i, c)| s.spawn(move || self.test(c, i))).collect();
                    handles.into_iter().map(|h| h.join().unwrap_or(Verdict::No(None))).collect()
                })
            };
            for v in verdicts {
                match v {
                    Verdict::Holds(c) => return Ok(Some(c)),
                    Verdict::Stopped => return Err(Stop),
                    Verdict::No(_) => {}
                }
            }
            if self.stopped() {
                return Err(Stop);
            }
        }
        Ok(None)
    }
}

/// The search was stopped (Ctrl-C, `--seconds`).
struct Stop;

/// How a test command ended.
enum TestRun {
    Passed,
    /// Not interesting: how it ended ("exited with 1", "was killed after the 10 s timeout").
    Failed(String),
    Stopped,
}

/// Runs the test command on `path` in its own process group, marked with [`MARK`], killing it
/// and everything it started after `timeout`, at `deadline`, or when the search stops; and,
/// when it ends by itself, whatever it left running.
fn run_test(cmd: &str, path: &Path, timeout: Duration, deadline: Option<Instant>) -> TestRun {
    static RUN: AtomicU64 = AtomicU64::new(0);
    let mark = format!("{}-{}", std::process::id(), RUN.fetch_add(1, Ordering::Relaxed));
    let quoted = format!("'{}'", path.display().to_string().replace('\'', r"'\''"));
    let script = if cmd.contains("{}") { cmd.replace("{}", &quoted) } else { format!("{cmd} {quoted}") };
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(&script)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .env(MARK, &mark);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    #[cfg(target_os = "linux")]
    guard_group(&mut command);
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return TestRun::Failed(format!("could not be started: {e}")),
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                // Reaped: its id may be reused, so only the marked processes are killed.
                kill_marked_all(&mark);
                return if status.success() { TestRun::Passed } else { TestRun::Failed(ended(status)) };
            }
            Ok(None) => {}
            Err(e) => {
                kill_group(&mut child, &mark);
                return TestRun::Failed(format!("could not be waited for: {e}"));
            }
        }
        let stop = STOP.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
        if stop || started.elapsed() >= timeout {
            kill_group(&mut child, &mark);
            return if stop {
                TestRun::Stopped
            } else {
                TestRun::Failed(format!("was killed after the {} s timeout", timeout.as_secs_f64()))
            };
        }
        std::thread::sleep(Duration::from_millis(if started.elapsed() < Duration::from_millis(50) {
            1
        } else {
            10
        }));
    }
}

/// The prefix of a run's scratch folder in the temporary folder: `tessera-reduce-PID-N`.
const SCRATCH_PREFIX: &str = "tessera-reduce-";

/// Removes the scratch folders that runs of reduce killed before they could clean up left in
/// `temp` (issue 37.9): `tessera-reduce-PID-N` of a process that no longer runs (`/proc/PID`
/// is gone; where there is no `/proc`, none is removed).
fn remove_dead_runs(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX)?.split_once('-'))
            .and_then(|(pid, n)| n.parse::<u64>().ok().and(pid.parse::<u32>().ok()))
        else {
            continue;
        };
        let gone = pid != std::process::id()
            && Path::new("/proc/self").exists()
            && !Path::new("/proc").join(pid.to_string()).exists();
        if gone && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Makes the test's process group die with reduce, even when reduce is killed with SIGKILL and
/// cleans nothing up (issue 37.9). The spawned process forks once more before its `exec`: the
/// new process runs the test, and the first one stays as the group's guard. The guard waits for
/// the test and ends as it ends (with its exit code, or by its signal); its parent-death signal
/// (SIGUSR1, sent by the kernel when reduce's spawning thread ends, however it ends) kills its
/// whole process group: itself, the test and everything the test started in the group. A
/// parent-death signal on the test alone would reach only its shell, not what the shell started.
///
/// The guard closes every file but 0 to 2, so that it keeps no end of the pipe through which
/// `spawn` learns that the test's `exec` succeeded.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // fork and prctl before exec: std has no safe way to make a guard process
fn guard_group(command: &mut std::process::Command) {
    use nix::libc;
    extern "C" fn kill_own_group(_: libc::c_int) {
        // SAFETY: kill is async-signal-safe.
        unsafe {
            libc::kill(0, libc::SIGKILL);
        }
    }
    let reducer = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before `exec` and calls only
    // async-signal-safe system calls (fork, close_range, signal, prctl, getppid, waitpid, kill,
    // _exit); it allocates nothing and takes no lock.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, move || {
            // The test in a PID namespace of its own where the system allows it (root, or
            // CAP_SYS_ADMIN): it is the namespace's first process, and when it dies (killed
            // with the guard's group) the kernel kills every process of the namespace, those
            // that left the group and the session with `setsid` too (issue 66.4). Elsewhere
            // the call fails and nothing changes: the group and the mark are what is killed.
            libc::unshare(libc::CLONE_NEWPID);
            let test = libc::fork();
            if test < 0 {
                return Err(std::io::Error::last_os_error());
            }
            if test == 0 {
                return Ok(());
            }
            libc::syscall(libc::SYS_close_range, 3 as libc::c_uint, libc::c_uint::MAX, 0 as libc::c_uint);
            libc::signal(libc::SIGUSR1, kill_own_group as extern "C" fn(libc::c_int) as libc::sighandler_t);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGUSR1 as libc::c_ulong);
            if libc::getppid() != reducer {
                // Reduce died before the signal was set.
                kill_own_group(0);
            }
            let mut status: libc::c_int = 0;
            loop {
                let waited = libc::waitpid(test, &mut status, 0);
                if waited == test {
                    break;
                }
                if waited < 0 && *libc::__errno_location() != libc::EINTR {
                    libc::_exit(1);
                }
            }
            if libc::WIFSIGNALED(status) {
                let signal = libc::WTERMSIG(status);
                libc::signal(signal, libc::SIG_DFL);
                libc::kill(libc::getpid(), signal);
                libc::_exit(128 + signal);
            }
            libc::_exit(if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 1 });
        });
    }
}

/// How a test command that did not hold ended, for messages.
fn ended(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("was killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("exited with {code}"),
        None => "ended without an exit code".into(),
    }
}

/// Kills the test command (not yet reaped) and everything it started: its process group, then
/// every process still marked with `mark` (which left the group); reaps the command.
fn kill_group(child: &mut std::process::Child, mark: &str) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
    kill_marked_all(mark);
}

/// [`kill_marked`] until none is left (a fork loop could keep adding: a bounded number of
/// sweeps).
fn kill_marked_all(mark: &str) {
    for _ in 0..100 {
        if kill_marked(mark) == 0 {
            break;
        }
    }
}

/// Sends SIGKILL to every process whose environment holds `MARK=mark`; how many there were.
/// Linux only (`/proc/PID/environ`); elsewhere the process group is all that is killed.
///
/// A process in the middle of `execve` shows an empty environment for a moment: such a process
/// (neither a kernel thread nor a zombie) is read again, 1 ms apart, for up to 50 ms, so a test's
/// `sleep &` caught mid-exec is not missed.
fn kill_marked(mark: &str) -> usize {
    #[cfg(target_os = "linux")]
    {
        let needle = format!("{MARK}={mark}");
        let me = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
        let mut killed = 0;
        let mut unsure = Vec::new();
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            if pid == me {
                continue;
            }
            match marked(pid, &needle) {
                Marked::Yes => killed += kill_pid(pid),
                Marked::Unsure => unsure.push(pid),
                Marked::No => {}
            }
        }
        for _ in 0..50 {
            if unsure.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
            unsure.retain(|&pid| match marked(pid, &needle) {
                Marked::Yes => {
                    killed += kill_pid(pid);
                    false
                }
                Marked::Unsure => true,
                Marked::No => false,
            });
        }
        killed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = mark;
        0
    }
}

/// Whether a process carries the mark, as far as `/proc` tells now.
#[cfg(target_os = "linux")]
enum Marked {
    Yes,
    No,
    /// Its environment reads empty but it is a live user process: perhaps mid-`execve`.
    Unsure,
}

#[cfg(target_os = "linux")]
fn marked(pid: u32, needle: &str) -> Marked {
    let dir = Path::new("/proc").join(pid.to_string());
    let Ok(environ) = std::fs::read(dir.join("environ")) else { return Marked::No };
    if environ.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
        return Marked::Yes;
    }
    if !environ.is_empty() {
        return Marked::No;
    }
    // Empty: a kernel thread (flag PF_KTHREAD) or a zombie has none for good.
    const PF_KTHREAD: u64 = 0x0020_0000;
    let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else { return Marked::No };
    let Some((_, rest)) = stat.rsplit_once(") ") else { return Marked::No };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let zombie = fields.first().is_some_and(|s| *s == "Z" || *s == "X");
    let kthread = fields.get(6).and_then(|f| f.parse::<u64>().ok()).is_some_and(|f| f & PF_KTHREAD != 0);
    if zombie || kthread { Marked::No } else { Marked::Unsure }
}

#[cfg(target_os = "linux")]
fn kill_pid(pid: u32) -> usize {
    let Ok(raw) = i32::try_from(pid) else { return 0 };
    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), nix::sys::signal::Signal::SIGKILL);
    1
}

fn parse_hash(text: &str) -> Result<u64, CliError> {
    let t = text.trim().trim_start_matches("0x");
    if t.is_empty() || t.len() > 16 {
        return Err(CliError::BadInput(format!("--until-hash '{text}': expected up to 16 hex digits")));
    }
    u64::from_str_radix(t, 16)
        .map_err(|_| CliError::BadInput(format!("--until-hash '{text}': expected up to 16 hex digits")))
}

/// The default output: `DIR/STEM.reduced.tlog`.
fn default_out(log: &Path) -> PathBuf {
    let stem = log.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "log".into());
    log.with_file_name(format!("{stem}.reduced.tlog"))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Runs `tessera replay reduce`.
pub fn run(args: &ReduceArgs, out: &mut impl Write) -> Result<(), CliError> {
    let io_err = crate::error::output_error;
    let path = &args.log;
    let out_path = args.out.clone().unwrap_or_else(|| default_out(path));
    if same_file(path, &out_path) {
        return Err(CliError::BadInput(format!(
            "{}: --out is the input log; reduce never overwrites its input",
            out_path.display()
        )));
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(CliError::BadInput(format!(
            "--timeout {}: expected a positive number of seconds",
            args.timeout
        )));
    }
    if let Some(s) = args.seconds
        && !(s > 0.0 && s.is_finite())
    {
        return Err(CliError::BadInput(format!("--seconds {s}: expected a positive number of seconds")));
    }
    // Any run clears dead runs' scratch folders, whatever its test (issue 66.4: a run of a
    // built-in test left them).
    remove_dead_runs(&std::env::temp_dir());
    let log = Log::open(path).map_err(|e| CliError::file(path, e))?;
    if log.dropped_bytes() > 0 {
        eprintln!("tessera: {}: the last frame is cut short; reducing its whole steps", path.display());
    }
    let mut commands = Vec::with_capacity(log.steps() as usize);
    let mut rec = StepRecord::default();
    // The event kinds the log has, to name them when an `--until-event` never holds (a typo).
    let mut kinds = std::collections::BTreeSet::new();
    for s in 1..=log.steps() {
        log.read_step(s, &mut rec).map_err(|e| CliError::file(path, e))?;
        kinds.extend(rec.events.iter().map(tessera_replay::event_kind));
        let Some(c) = rec.command.take() else {
            return Err(CliError::file(path, format!("step {s} has no command")));
        };
        commands.push(c);
    }
    let h = log.header();
    let test = if let Some(cmd) = &args.test {
        static RUN: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "{SCRATCH_PREFIX}{}-{}",
            std::process::id(),
            RUN.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| CliError::file(&dir, e))?;
        Test::Command { cmd: cmd.clone(), timeout: Duration::from_secs_f64(args.timeout), dir: TempDir(dir) }
    } else if let Some(s) = &args.until_status {
        Test::Builtin(Builtin::Status(if s == "won" { Status::Won } else { Status::Over }))
    } else if let Some(c) = &args.until_event {
        Test::Builtin(Builtin::Event(c.clone()))
    } else if let Some(hash) = &args.until_hash {
        Test::Builtin(Builtin::Hash(parse_hash(hash)?))
    } else {
        return Err(CliError::BadInput(
            "give --test CMD or one of --until-status/--until-event/--until-hash".into(),
        ));
    };
    let started = Instant::now();
    let reducer = Reducer {
        level: h.level.clone(),
        seed: h.seed,
        rules_version: log.rules_version(),
        test,
        deadline: args.seconds.map(|s| started + Duration::from_secs_f64(s)),
        candidates: AtomicU64::new(0),
    };
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |j| j as usize);
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let original = commands.len();

    // The input itself must be interesting, else there is nothing to keep.
    if let Err(e) = reducer.replay(&commands, None) {
        return Err(CliError::Failed(format!("{}: today's rules do not replay it: {e}", path.display())));
    }
    let mut best = match &reducer.test {
        Test::Builtin(b) => match reducer.replay(&commands, Some(b)) {
            Ok((_, Some(k))) => {
                commands.truncate(k);
                commands
            }
            _ => {
                let known = match b {
                    Builtin::Event(c) if !kinds.contains(c.kind.as_str()) => format!(
                        " (no event of kind {} in it; its kinds: {})",
                        c.kind,
                        kinds.iter().copied().collect::<Vec<_>>().join(", ")
                    ),
                    _ => String::new(),
                };
                return Err(CliError::Failed(format!(
                    "{}: the test ({}) never holds on the log itself{known}: nothing to reduce",
                    path.display(),
                    b.describe()
                )));
            }
        },
        Test::Command { .. } => match reducer.test(commands.clone(), 0) {
            Verdict::Holds(c) => c,
            Verdict::No(why) => {
                return Err(CliError::Failed(format!(
                    "{}: the test command does not hold on the log itself (it {}; exit 0 means it holds): nothing to reduce",
                    path.display(),
                    why.unwrap_or_else(|| "did not run".into())
                )));
            }
            Verdict::Stopped => {
                return Err(CliError::Interrupted("interrupted before anything was reduced".into()));
            }
        },
    };
    // One line that updates on a terminal; the last state once at the end either way.
    let line = |best: &[AnyCommand]| {
        format!(
            "reduce: {} steps (from {original}) after {} candidates, {:.1} s",
            best.len(),
            reducer.candidates.load(Ordering::Relaxed),
            started.elapsed().as_secs_f64()
        )
    };
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let progress = |best: &[AnyCommand], what: &str| {
        if let Some(b) = &bar {
            b.set_message(format!("{}{what}", line(best)));
        }
    };
    progress(&best, " (shortest prefix where the test holds)");
    let stopped = search(&reducer, &mut best, jobs, &progress).is_err();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    eprintln!("{}", line(&best));
    // A test command is run once more on the answer: a flaky one may not hold there.
    let flaky = match &reducer.test {
        Test::Command { .. } if !stopped && best.len() < original => match reducer.test(best.clone(), 0) {
            Verdict::No(why) => Some(why.unwrap_or_else(|| "did not run".into())),
            Verdict::Holds(_) | Verdict::Stopped => None,
        },
        _ => None,
    };

    let test_text = match &reducer.test {
        Test::Builtin(b) => b.describe(),
        Test::Command { cmd, .. } => format!("--test {cmd}"),
    };
    let note = format!(
        "reduced from {original} steps of {} by tessera replay reduce {test_text}",
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    );
    let bytes = reducer.log_bytes(&best, Some(&note)).map_err(CliError::Failed)?;
    atomic_write(&out_path, &bytes).map_err(|e| CliError::file(&out_path, e))?;
    writeln!(
        out,
        "{}: {original} -> {} steps in {:.2} s ({} candidates){}; wrote {}",
        path.display(),
        best.len(),
        started.elapsed().as_secs_f64(),
        reducer.candidates.load(Ordering::Relaxed),
        if stopped { ", stopped early: the best so far" } else { "" },
        out_path.display()
    )
    .map_err(io_err)?;
    if let Some(why) = flaky {
        return Err(CliError::Failed(format!(
            "{}: the test no longer holds on the result when run again (it {why}): it may be flaky, and the result proves nothing",
            out_path.display()
        )));
    }
    if stopped && STOP.load(Ordering::Relaxed) {
        return Err(CliError::Interrupted(format!(
            "interrupted; kept the best so far in {}",
            out_path.display()
        )));
    }
    Ok(())
}

/// The search after the first prefix: for a test command, the shortest prefix by bisection;
/// then ddmin. `Err` when stopped (`best` is still the best so far).
fn search(
    reducer: &Reducer,
    best: &mut Vec<AnyCommand>,
    jobs: usize,
    progress: &dyn Fn(&[AnyCommand], &str),
) -> Result<(), Stop> {
    if matches!(reducer.test, Test::Command { .. }) {
        // Bisection over prefix lengths: `hi` holds; find a shorter one if the test allows.
        let (mut lo, mut hi) = (0, best.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if let Some(c) = reducer.first_holding(vec![best[..mid].to_vec()], 1)? {
                *best = c;
                hi = best.len();
                progress(best, " (prefix)");
            } else {
                lo = mid + 1;
            }
        }
    }
    let mut n = 2usize;
    while !best.is_empty() {
        let len = best.len();
        let n_now = n.min(len);
        let chunk = len.div_ceil(n_now);
        let candidates: Vec<Vec<AnyCommand>> = (0..len)
            .step_by(chunk)
            .map(|a| {
                let b = (a + chunk).min(len);
                best[..a].iter().chain(&best[b..]).cloned().collect()
            })
            .collect();
        match reducer.first_holding(candidates, jobs)? {
            Some(c) => {
                *best = c;
                n = (n_now - 1).max(2);
                progress(best, "");
            }
            None if chunk == 1 => return Ok(()),
            None => n = (n_now * 2).min(len),
        }
    }
    Ok(())
}
