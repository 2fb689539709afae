//! The WebAssembly interface of the player: plain `extern "C"` functions over numbers and the
//! module's memory, read by `player/player.js`.
//!
//! Strings and bytes cross in both directions through the module's memory: the page copies its
//! input into a buffer from [`tessera_alloc`] and passes its pointer and length (the function
//! takes the buffer back); a function with output leaves it in one output buffer, read through
//! [`tessera_out_ptr`] and [`tessera_out_len`] until the next call. The module has one thread and
//! one player.
//!
//! Unsafe code: only the two places that turn the page's pointer and length back into the buffer
//! [`tessera_alloc`] made for them.

use crate::{Key, Player};
use std::cell::RefCell;

thread_local! {
    static PLAYER: RefCell<Option<Player>> = const { RefCell::new(None) };
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn set_out(bytes: Vec<u8>) {
    OUT.with(|o| *o.borrow_mut() = bytes);
}

fn with_player<T>(default: T, f: impl FnOnce(&mut Player) -> T) -> T {
    PLAYER.with(|p| p.borrow_mut().as_mut().map_or(default, f))
}

/// Takes back a buffer of `len` bytes from [`tessera_alloc`].
fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: `ptr` and `len` are a buffer `tessera_alloc(len)` leaked (a Vec of capacity `len`
    // and length `len`), handed back once by the page.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// A buffer of `len` bytes for the page to write an input into.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// The output buffer's address.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// The output buffer's length.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// Loads the game whose source is the buffer: 0, or 1 with the compile errors as output.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_load(ptr: *mut u8, len: usize) -> u32 {
    let text = String::from_utf8_lossy(&take(ptr, len)).into_owned();
    match Player::new(&text) {
        Ok(p) => {
            PLAYER.with(|slot| *slot.borrow_mut() = Some(p));
            0
        }
        Err(e) => {
            set_out(e.into_bytes());
            1
        }
    }
}

/// The seed the next level starts with.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_set_seed(low: u32, high: u32) {
    with_player((), |p| p.set_next_seed(u64::from(low) | (u64::from(high) << 32)));
}

/// Takes the progress (JSON in the buffer) kept from an earlier visit.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_set_progress(ptr: *mut u8, len: usize) {
    let bytes = take(ptr, len);
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) {
        with_player((), |p| p.set_progress(&v));
    }
}

/// The progress to keep (JSON) as output.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_progress() {
    let v = with_player(serde_json::Value::Null, |p| p.progress());
    set_out(v.to_string().into_bytes());
}

/// A key pressed (see [`Key`]); 1 when the key asked for the log's download.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_key(code: u32) -> u32 {
    with_player(0, |p| {
        if code == 9 {
            p.request_report();
        } else if let Some(k) = Key::from_code(code) {
            p.key(k);
        }
        u32::from(p.take_report())
    })
}

/// A held key's repeat (see [`Player::key_repeat`]); 1 when it asked for the log's download.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_key_repeat(code: u32) -> u32 {
    with_player(0, |p| {
        if let Some(k) = Key::from_code(code) {
            p.key_repeat(k);
        }
        u32::from(p.take_report())
    })
}

/// Shows the next waiting turn (or the entry after a won level).
#[unsafe(no_mangle)]
pub extern "C" fn tessera_advance() {
    with_player((), Player::advance);
}

/// The screen (JSON) as output.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_view() {
    let v = with_player(serde_json::Value::Null, |p| p.view());
    set_out(v.to_string().into_bytes());
}

/// The sounds to play now (a JSON list of seeds) as output.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_sounds() {
    let v = with_player(Vec::new(), Player::take_sounds);
    set_out(serde_json::to_vec(&v).unwrap_or_default());
}

/// The board's picture (RGBA; its size in the view) as output.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_render() {
    let px = with_player(Vec::new(), |p| p.render().to_vec());
    set_out(px);
}

/// The samples of the sound whose seed is the buffer as output: 0, or 1 with why not.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_sound(ptr: *mut u8, len: usize) -> u32 {
    let seed = String::from_utf8_lossy(&take(ptr, len)).into_owned();
    match crate::sound_samples(&seed) {
        Ok(s) => {
            set_out(s);
            0
        }
        Err(e) => {
            set_out(e.into_bytes());
            1
        }
    }
}

/// The session log of the level played as output (empty before any level).
#[unsafe(no_mangle)]
pub extern "C" fn tessera_log() {
    let log = with_player(None, |p| p.log()).unwrap_or_default();
    set_out(log);
}

/// Runs the PuzzleScript suite (`testdata.js`'s text in the buffer): output
/// `{"passed": N, "failed": [names]}` or `{"error": why}`.
#[unsafe(no_mangle)]
pub extern "C" fn tessera_suite(ptr: *mut u8, len: usize) {
    let text = String::from_utf8_lossy(&take(ptr, len)).into_owned();
    let v = match crate::run_suite(&text) {
        Ok((passed, failed)) => serde_json::json!({ "passed": passed, "failed": failed }),
        Err(e) => serde_json::json!({ "error": e }),
    };
    set_out(v.to_string().into_bytes());
}
