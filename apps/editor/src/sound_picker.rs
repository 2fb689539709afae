//! The sound picker (issue 35): PuzzleScript's editor's sound buttons, one a kind (coin, laser,
//! explosion, …). Each click makes a new seed of that kind as PuzzleScript's does
//! (`Seed::of_kind`), plays it at once and shows it, with Copy and Insert at cursor.
//!
//! [`picker_ui`] draws it wherever a host puts it (today Edit's rules panel, where PuzzleScript
//! has its buttons above the console; a workbench can host it the same way) and answers
//! [`PickerAction::Insert`] for the host's text. The sound itself is played by the app: the
//! picker leaves the seed in egui's memory ([`take_requests`]), which the app hears each frame.

use tessera_sound::{Kind, Seed};

/// What the host does for the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickerAction {
    /// Put this seed into the text at its cursor.
    Insert(String),
}

fn id() -> egui::Id {
    egui::Id::unique("tessera-sound-picker")
}

/// Seeds to play that the app has not taken yet.
fn requests_id() -> egui::Id {
    id().with("requests")
}

/// The picker's state in egui's memory: the last seed made, and a counter drawing new ones.
#[derive(Clone, Debug, Default)]
struct Picked {
    seed: Option<String>,
    draws: u64,
}

/// A number for the next seed: splitmix64 over the clock and a counter, so two clicks in one
/// frame still differ (no generator of the game's is touched).
fn draw(now: f64, n: u64) -> u32 {
    let mut z = now.to_bits() ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) % 1_000_000) as u32
}

/// Asks the app to play `seed` now (a seed clicked in a text, a new seed of the picker).
pub fn request_play(ctx: &egui::Context, seed: &str) {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<Vec<String>>(requests_id()).push(seed.to_string()));
}

/// The seeds asked to play since the last call (the app plays them).
pub fn take_requests(ctx: &egui::Context) -> Vec<String> {
    ctx.data_mut(|d| std::mem::take(d.get_temp_mut_or_default::<Vec<String>>(requests_id())))
}

/// The seed the picker made last (for tests).
pub fn last_seed(ctx: &egui::Context) -> Option<String> {
    ctx.data(|d| d.get_temp::<Picked>(id())).and_then(|p| p.seed)
}

/// The ten kind buttons, then the last seed with Copy and Insert at cursor.
pub fn picker_ui(ui: &mut egui::Ui) -> Option<PickerAction> {
    let mut p: Picked = ui.data_mut(|d| d.get_temp(id())).unwrap_or_default();
    let now = ui.input(|i| i.time);
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("New sound:");
        for kind in Kind::ALL {
            let hover = format!(
                "A new {} sound, played at once ({} seeds end in {})",
                kind.name(),
                kind.label(),
                kind.index()
            );
            if ui.button(kind.label()).on_hover_text(hover).clicked() {
                p.draws += 1;
                let seed = Seed::of_kind(kind, draw(now, p.draws)).to_string();
                request_play(ui.ctx(), &seed);
                p.seed = Some(seed);
            }
        }
    });
    if let Some(seed) = p.seed.clone() {
        ui.horizontal(|ui| {
            let kind = seed.parse::<Seed>().map(|s| s.kind().label()).unwrap_or("?");
            if ui.link(format!("{kind} {seed}")).on_hover_text("Play it again").clicked() {
                request_play(ui.ctx(), &seed);
            }
            if ui.button("Copy").on_hover_text("Copy the seed").clicked() {
                ui.ctx().copy_text(seed.clone());
            }
            if ui
                .button("Insert at cursor")
                .on_hover_text("Put the seed into the source at its cursor")
                .clicked()
            {
                action = Some(PickerAction::Insert(seed.clone()));
            }
        });
    }
    ui.data_mut(|d| d.insert_temp(id(), p));
    action
}

/// `text` with `seed` put at character `at` (or at the end), and the character after it.
pub fn insert_at(text: &str, at: Option<usize>, seed: &str) -> (String, usize) {
    let chars = text.chars().count();
    let at = at.unwrap_or(chars).min(chars);
    let byte = text.char_indices().nth(at).map_or(text.len(), |(b, _)| b);
    let mut out = String::with_capacity(text.len() + seed.len());
    out.push_str(&text[..byte]);
    out.push_str(seed);
    out.push_str(&text[byte..]);
    (out, at + seed.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_goes_in_at_the_cursor_or_at_the_end() {
        assert_eq!(insert_at("sfx1 \nx", Some(5), "1202"), ("sfx1 1202\nx".to_string(), 9));
        assert_eq!(insert_at("é", None, "7"), ("é7".to_string(), 2));
        assert_eq!(insert_at("ab", Some(99), "7"), ("ab7".to_string(), 3));
    }

    #[test]
    fn draws_differ_and_stay_below_a_million() {
        let a: Vec<u32> = (0..50).map(|n| draw(1.5, n)).collect();
        assert!(a.iter().all(|&d| d < 1_000_000));
        let mut b = a.clone();
        b.dedup();
        assert_eq!(a.len(), b.len());
    }
}
