//! The exported page: one self-contained HTML file that plays a game with no network. It holds
//! the WebAssembly player (gzip-compressed, base64; the page inflates it with the browser's
//! `DecompressionStream`), the game's source and the player's script (`player/player.js`).

use base64::Engine as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The one command that builds the web player (from the repository's root).
pub const BUILD_COMMAND: &str = "crates/web/build.sh";

/// The player's script.
const PLAYER_JS: &str = include_str!("../player/player.js");

/// Why a game could not be exported.
#[derive(Debug)]
pub enum ExportError {
    /// The web player has not been built.
    NoPlayer(PathBuf),
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The game does not compile, or has no level.
    Game(String),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::NoPlayer(p) => write!(
                f,
                "the web player is not built ({} is missing): build it with `{BUILD_COMMAND}` from the repository's \
                 root, or name a built one with TESSERA_WEB_WASM",
                p.display()
            ),
            ExportError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ExportError::Game(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ExportError {}

/// Where the built player is: `TESSERA_WEB_WASM` when set, else `tessera_web.wasm` beside the
/// running program, else where `crates/web/build.sh` puts it (`target/web/tessera_web.wasm` of
/// this repository). The path is returned even when no file is there (to say so).
pub fn wasm_path() -> PathBuf {
    if let Some(p) = std::env::var_os("TESSERA_WEB_WASM") {
        return PathBuf::from(p);
    }
    if let Some(beside) =
        std::env::current_exe().ok().and_then(|e| e.parent().map(|d| d.join("tessera_web.wasm")))
        && beside.is_file()
    {
        return beside;
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().and_then(Path::parent).unwrap_or(manifest).join("target/web/tessera_web.wasm")
}

/// Text safe inside a `<script>` element: no `</` (a JSON string's `\/` is the same text).
fn script_safe(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}

/// The page of the game `source`, playing on the player module `wasm`. Checks that the game
/// compiles and has a level.
pub fn page(wasm: &[u8], source: &str) -> Result<String, ExportError> {
    let player = crate::Player::new(source).map_err(ExportError::Game)?;
    let title = player.game().prelude().get("title").unwrap_or("PuzzleScript Game").to_string();
    let background = crate::art::css(player.view_colours().0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(wasm).map_err(|e| ExportError::Io(PathBuf::from("(memory)"), e))?;
    let gz = gz.finish().map_err(|e| ExportError::Io(PathBuf::from("(memory)"), e))?;
    let data = serde_json::json!({
        "source": source,
        "wasm": base64::engine::general_purpose::STANDARD.encode(gz),
    });
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"tessera export\">\n\
         <style>html,body{{margin:0;height:100%;overflow:hidden;background:{background}}}\
         canvas{{display:block;width:100vw;height:100vh;image-rendering:pixelated}}</style>\n\
         </head><body>\n<canvas id=\"screen\" tabindex=\"0\" aria-label=\"{title}\"></canvas>\n\
         <script>window.TESSERA_GAME = {data};</script>\n<script>\n{PLAYER_JS}\n</script>\n</body></html>\n",
        title = escape(&title),
        data = script_safe(&data.to_string()),
    ))
}

/// Writes the page of the game at `game` to `out` (atomically), with the player at
/// [`wasm_path`]; the page's size in bytes.
pub fn write_page(game: &Path, out: &Path) -> Result<usize, ExportError> {
    let source = std::fs::read_to_string(game).map_err(|e| ExportError::Io(game.to_path_buf(), e))?;
    write_source_page(&source, out).map_err(|e| match e {
        ExportError::Game(m) => ExportError::Game(format!("{}: {m}", game.display())),
        e => e,
    })
}

/// Writes the page of the game `source` to `out` (atomically), with the player at
/// [`wasm_path`]; the page's size in bytes. Nothing is written when it fails.
pub fn write_source_page(source: &str, out: &Path) -> Result<usize, ExportError> {
    let wasm_at = wasm_path();
    if !wasm_at.is_file() {
        return Err(ExportError::NoPlayer(wasm_at));
    }
    let wasm = std::fs::read(&wasm_at).map_err(|e| ExportError::Io(wasm_at.clone(), e))?;
    if !wasm.starts_with(b"\0asm") {
        return Err(ExportError::Io(
            wasm_at,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not a WebAssembly module"),
        ));
    }
    let html = page(&wasm, source)?;
    tessera_replay::atomic_write(out, html.as_bytes()).map_err(|e| ExportError::Io(out.to_path_buf(), e))?;
    Ok(html.len())
}
