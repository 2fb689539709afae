//! `convertLevelToString` (`debug.js`): the board as the regression suite records it.
//!
//! Quirk kept on purpose: the reference walks cells in storage order (`x * height + y`) while
//! breaking lines every `width` cells, so the text is the column-major board cut into rows.

use super::{Game, State};
use std::collections::BTreeMap;

/// The board as text: each cell's object names (sorted, space-separated), numbered the first time
/// a combination appears (`names:0,`), then by number (`0,`).
pub fn level_to_string(game: &Game, state: &State) -> String {
    let mut out = String::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let n = state.width * state.height;
    for i in 0..n {
        let mut names: Vec<&str> =
            state.objects_at(i).filter_map(|o| game.objects.get(o).map(|x| x.name.as_str())).collect();
        names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        let key = names.join(" ");
        let next = seen.len();
        match seen.get(&key) {
            Some(k) => out.push_str(&format!("{k},")),
            None => {
                seen.insert(key.clone(), next);
                out.push_str(&format!("{key}:{next},"));
            }
        }
        if state.width > 0 && (i + 1) % state.width == 0 {
            out.push('\n');
        }
    }
    out
}
