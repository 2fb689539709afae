//! How many threads a command runs (`--jobs`, issue 66.6).
//!
//! `solve --jobs`, `solve --all`, `puzzlescript test --jobs` and `difficulty --jobs` accept 1 to
//! 1024, but never run more threads than help: one per core, and no more than the address space
//! left holds at [`THREAD_ADDRESS_SPACE`] a thread (under a 4 GiB `RLIMIT_AS`, 128 threads
//! aborted in the allocator where 64 ran). Past either cap the command says so on stderr and runs
//! at the cap; a thread the system still refuses to start is a typed error
//! ([`spawn_error`]), never an abort.

/// The address space one worker thread is given room for: its stack (2 MiB) and the
/// allocator's arenas it reserves (mimalloc reserves per thread; under a 4 GiB cap 64 threads
/// ran and 128 did not), with room to spare.
pub const THREAD_ADDRESS_SPACE: u64 = 64 << 20;

/// The threads to run for `asked` (`flag`'s value; `None`: one per core): at most the cores,
/// and at most what the address space left holds. Says on stderr when it runs fewer than
/// asked.
pub fn threads(asked: Option<usize>, flag: &str) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let room = crate::solve_args::memory_headroom()
        .map_or(usize::MAX, |h| usize::try_from(h / THREAD_ADDRESS_SPACE).unwrap_or(usize::MAX).max(1));
    let (n, note) = cap(asked, cores, room);
    if let Some(note) = note {
        eprintln!("tessera: {flag}: {note}");
    }
    n
}

/// [`threads`] for a machine of `cores` cores with address space for `room` threads: the
/// number, and what to say when it is fewer than asked.
fn cap(asked: Option<usize>, cores: usize, room: usize) -> (usize, Option<String>) {
    let want = asked.unwrap_or(cores).max(1);
    let most = cores.min(room).max(1);
    if want <= most {
        return (want, None);
    }
    let why = if room < cores {
        format!("the address space left holds {room} (at {} MiB a thread)", THREAD_ADDRESS_SPACE >> 20)
    } else {
        format!("one per core; more would not help ({cores} cores)")
    };
    let asked = asked.map_or_else(|| "one per core".to_string(), |n| n.to_string());
    (most, Some(format!("{asked} threads asked, running {most}: {why}")))
}

/// The error of a thread the system refused to start.
pub fn spawn_error(e: &std::io::Error) -> crate::error::CliError {
    crate::error::CliError::Failed(format!("cannot start a thread: {e}; give fewer --jobs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asked within the caps: as asked. Past the cores or the address space: the cap, and a
    /// note saying which.
    #[test]
    fn threads_stop_at_the_cores_and_the_address_space() {
        assert_eq!(cap(Some(2), 4, 100), (2, None));
        assert_eq!(cap(None, 4, 100), (4, None));
        let (n, note) = cap(Some(1000), 4, 100);
        assert_eq!(n, 4);
        assert!(note.unwrap().contains("one per core"));
        // A machine of many cores under an address-space cap: the default too is capped.
        let (n, note) = cap(None, 256, 60);
        assert_eq!(n, 60);
        assert!(note.unwrap().contains("address space"));
        assert_eq!(cap(Some(0), 1, 1), (1, None));
    }
}
