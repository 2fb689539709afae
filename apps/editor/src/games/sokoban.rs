//! `sokoban` in the editor.
//!
//! - Look: the ground is one picture (walls dark, floor light, goals gold); boxes are squares,
//!   the player a disc, and a piece at rest on a goal is framed in the goal's colour (a box on
//!   its goal reads as done) through [`EditorGame::framed_ground`].
//! - Play: arrow keys and WASD step (and push); a click on a cell walks there (`walk X Y`), a
//!   click on a box next to the player pushes it; hovering a reachable cell shows the walk's path
//!   and its length (an unreachable cell, a wall or a box too far says so). Hint runs core's
//!   solver in a thread, so the window keeps drawing ("Searching for a hint…"), for at most
//!   [`HINT_SECONDS`] of that thread's CPU time ([`HINT_WALL_SECONDS`] by the clock) and
//!   [`HINT_MAX_NODES`] positions: the first move of a solution with the fewest pushes, in words
//!   and framed in [`HINT`] (not the goals' gold), or "no solution from here" with Undo when the
//!   search proves the position lost, or "no hint within the time"; then "Show the solution"
//!   plays that solution. Nothing is random: no seed is asked for or written.
//! - Edit: cells are [`Ink::Glyph`]s of the XSB characters (`#` wall, ` ` floor, `.` goal, `$`
//!   box, `*` box on goal, `@` player, `+` player on goal); the eraser leaves floor. The level's
//!   own checks (one player, boxes = goals ≥ 1, the player enclosed) show live. Randomize makes a
//!   walled room and scatters boxes by pulling them off their goals from the solved position (so
//!   every randomized level can be solved).
//! - Files: `.xsb`/`.sok` collections and Boxoban `.txt` files through core's `sokoban` importer;
//!   a file of more than one level asks which level to open.

use super::search::{self, HintBudget, Job, hint_budget, searches};
use super::{EditorGame, GroundMap, Import, PlayAction};
use crate::model::{BoardInput, Brush, Ink, InkLook, Overlay, PaletteInk, PlayInput, Problem, Sketch};
use egui::Color32;
use tessera_core::sokoban::{
    Cell, SokobanCommand, SokobanLevel, SokobanState, SolveLimits, SolveOutcome, board_problems,
    ground_index, solve, walk_path,
};
use tessera_core::{AnyCommand, AnyRules, AnyState, Dir, GameRng, Level, Pos, RuleSet, Size};

/// The editor entry of `sokoban`.
pub struct Game;

/// The cells of the palette: the XSB character and its name.
const CELLS: [(char, &str); 7] = [
    ('#', "Wall"),
    (' ', "Floor"),
    ('.', "Goal"),
    ('$', "Box"),
    ('*', "Box on goal"),
    ('@', "Player"),
    ('+', "Player on goal"),
];

/// A wall.
const WALL: Color32 = Color32::from_rgb(0x4a, 0x42, 0x3c);
/// A floor cell.
const FLOOR: Color32 = Color32::from_rgb(0xd9, 0xd2, 0xc1);
/// A goal.
const GOAL: Color32 = Color32::from_rgb(0xf2, 0xb8, 0x2e);
/// A box (the mirror's box is a square of hue 1).
const BOX: Color32 = Color32::from_rgb(0x2a, 0x9d, 0x8f);
/// A box on a goal.
const BOX_ON_GOAL: Color32 = Color32::from_rgb(0x6c, 0xb8, 0x2a);
/// The player (the mirror's player is a unit of team 0).
const PLAYER: Color32 = Color32::from_rgb(0xe6, 0x39, 0x46);
/// The player on a goal.
const PLAYER_ON_GOAL: Color32 = Color32::from_rgb(0xf0, 0x6a, 0x3a);

/// The hint's frames: not the goals' gold, which they sit on.
pub const HINT: Color32 = Color32::from_rgb(0x3d, 0xd6, 0xff);

/// How long Hint searches (the search thread's CPU time) before it says it found nothing in
/// time.
const HINT_SECONDS: f64 = 1.0;
/// How long Hint searches by the clock at most (a machine too busy to give it its CPU time).
const HINT_WALL_SECONDS: f64 = 10.0;
/// The most positions Hint expands (bounds its memory, whatever the clock says).
const HINT_MAX_NODES: u64 = 1_000_000;
/// The most memory Hint's search may take (its tables and positions): 256 MiB.
const HINT_MAX_BYTES: u64 = 256 << 20;

/// Hint's budget unless the window sets another ([`super::set_hint_budget`]).
const BUDGET: HintBudget = HintBudget { cpu_seconds: HINT_SECONDS, wall_seconds: HINT_WALL_SECONDS };

/// What Hint found about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A solution with the fewest pushes, from here (never empty): Hint names its first
    /// command (and the push after a walk); "Show the solution" plays it.
    Move(Vec<SokobanCommand>),
    /// The search proved that no solution exists from here.
    Lost,
    /// The search stopped (time or node budget) after this many positions.
    OutOfTime(u64),
}

/// Hint's search from `s`: the solver within `limits`, ended early when `stop` says so.
pub fn verdict(s: &SokobanState, limits: SolveLimits, stop: &mut dyn FnMut() -> bool) -> Verdict {
    let report = solve(s, limits, stop);
    match report.outcome {
        SolveOutcome::Solved(sol) if !sol.commands.is_empty() => Verdict::Move(sol.commands),
        // Solved already: nothing to hint (the panel does not offer Hint then).
        SolveOutcome::Solved(_) => Verdict::OutOfTime(report.nodes),
        SolveOutcome::Unsolvable => Verdict::Lost,
        // A budget ran out (time, positions or memory): no verdict either way.
        SolveOutcome::Stopped | SolveOutcome::OutOfMemory => Verdict::OutOfTime(report.nodes),
    }
}

/// A command in words, from position `s`: "walk to (5, 2)", "push the box up", "step left".
pub fn words(s: &SokobanState, c: SokobanCommand) -> String {
    match c {
        SokobanCommand::Walk(p) => format!("walk to {p}"),
        SokobanCommand::Step(d) => {
            let ahead = s.player().step(d, s.size());
            if ahead.is_some_and(|a| s.box_at(a).is_some()) {
                format!("push the box {d}")
            } else {
                format!("step {d}")
            }
        }
    }
}

/// What the status bar says for a verdict from `s`.
pub fn verdict_message(s: &SokobanState, v: &Verdict) -> String {
    match v {
        Verdict::Move(solution) => {
            let Some(&first) = solution.first() else { return "Hint: solved already".into() };
            let mut text = format!("Hint: {}", words(s, first));
            // After a walk, the push it leads to (from where the walk ends).
            if let (SokobanCommand::Walk(to), Some(SokobanCommand::Step(d))) = (first, solution.get(1)) {
                let ahead = to.step(*d, s.size());
                let push = ahead.is_some_and(|a| s.box_at(a).is_some());
                text.push_str(&format!(", then {} {d}", if push { "push the box" } else { "step" }));
            }
            text
        }
        Verdict::Lost => {
            "Hint: no solution from here (a box can no longer reach a goal); Undo goes back".into()
        }
        Verdict::OutOfTime(nodes) => format!(
            "Hint: no hint within the time ({nodes} positions searched); the command tessera solve can search longer"
        ),
    }
}

/// The ground index of floor outside the walls (drawn as the background, as Sokoban boards are).
const OUTSIDE: u8 = 3;

/// Marks as [`OUTSIDE`] the open cells of `cells` (ground indices) that reach the board's edge
/// without crossing a wall (breadth-first from every open edge cell).
fn mark_outside(size: Size, cells: &mut [u8]) {
    let wall = ground_index(Cell::Wall);
    let mut queue: Vec<usize> = (0..cells.len())
        .filter(|&i| {
            let p = size.pos(i);
            cells[i] != wall && (p.x == 0 || p.y == 0 || p.x + 1 == size.width || p.y + 1 == size.height)
        })
        .collect();
    for &i in &queue {
        cells[i] = OUTSIDE;
    }
    while let Some(i) = queue.pop() {
        for d in Dir::ALL {
            if let Some(q) = size.pos(i).step(d, size) {
                let j = size.index(q);
                if cells[j] != wall && cells[j] != OUTSIDE {
                    cells[j] = OUTSIDE;
                    queue.push(j);
                }
            }
        }
    }
}

/// The file formats: core's `sokoban` importer (its extensions), and Boxoban's `.txt`.
static IMPORTS: [Import; 3] = [
    Import { ext: "xsb", what: "a Sokoban collection", read: read_collection },
    Import { ext: "sok", what: "a Sokoban collection", read: read_collection },
    Import { ext: "txt", what: "a Boxoban file", read: read_collection },
];

/// Every level of a Sokoban collection, by core's importer (all or none), each with the number
/// its converted file has (`STEM-NNN.json`: a Boxoban file's own `; N`, else the position).
fn read_collection(text: &str, name: Option<String>) -> Result<Vec<(u64, Level)>, String> {
    let importer = tessera_core::importer("sokoban").ok_or("no sokoban importer is registered")?;
    let file = name.map(|n| format!("{n}.xsb"));
    let levels = importer.import_all(text, file.as_deref()).map_err(|e| e.to_string())?;
    Ok(levels
        .into_iter()
        .enumerate()
        .map(|(k, i)| {
            let n = i.file.as_deref().and_then(|f| f.strip_suffix(".json")?.rsplit('-').next()?.parse().ok());
            (n.unwrap_or(k as u64 + 1), i.level)
        })
        .collect())
}

/// The direction from `a` to its neighbour `b`, if `b` is one.
fn dir_to(a: Pos, b: Pos) -> Option<Dir> {
    Dir::ALL.into_iter().find(|&d| {
        let (dx, dy) = d.delta();
        i32::from(a.x) + dx == i32::from(b.x) && i32::from(a.y) + dy == i32::from(b.y)
    })
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::Sokoban
    }

    fn owns(&self, level: &Level) -> bool {
        matches!(level, Level::Sokoban(_))
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::Sokoban(l) = level { l.name.clone() } else { None }
    }

    fn ground<'a>(&self, state: &'a AnyState) -> Option<GroundMap<'a>> {
        let AnyState::Sokoban(s) = state else { return None };
        let mut cells: Vec<u8> = s.cells().cells().iter().map(|&c| ground_index(c)).collect();
        mark_outside(s.size(), &mut cells);
        Some(GroundMap {
            size: s.size(),
            // By `ground_index`: 0 wall, 1 floor, 2 goal; then [`OUTSIDE`].
            legend: vec![WALL, FLOOR, GOAL, crate::palette::BACKGROUND],
            cells: std::borrow::Cow::Owned(cells),
        })
    }

    fn framed_ground(&self) -> &'static [u8] {
        const GOAL_INDEX: u8 = ground_index(Cell::Goal);
        &[GOAL_INDEX]
    }

    fn imports(&self) -> &'static [Import] {
        &IMPORTS
    }

    fn default_settings(&self) -> Level {
        Level::Sokoban(SokobanLevel::default())
    }

    fn blank(&self, _settings: &Level) -> Ink {
        Ink::Glyph(' ')
    }

    fn first_ink(&self) -> Ink {
        Ink::Glyph('#')
    }

    fn accepts(&self, _settings: &Level, ink: Ink) -> bool {
        matches!(ink, Ink::Glyph(c) if CELLS.iter().any(|&(g, _)| g == c))
    }

    /// The play colours (see [`EditorGame::ground`]), the character over the cell.
    fn look(&self, _settings: &Level, ink: Ink) -> InkLook {
        let Ink::Glyph(c) = ink else { return InkLook::new(Color32::BLACK, Some(ink.text())) };
        let fill = match c {
            '#' => WALL,
            '.' => GOAL,
            '$' => BOX,
            '*' => BOX_ON_GOAL,
            '@' => PLAYER,
            '+' => PLAYER_ON_GOAL,
            _ => FLOOR,
        };
        InkLook::new(fill, (c != ' ').then(|| c.to_string()))
    }

    fn palette(&self, settings: &Level, _brush: &Brush) -> Vec<PaletteInk> {
        CELLS
            .iter()
            .map(|&(g, name)| PaletteInk {
                ink: Ink::Glyph(g),
                label: name.to_string(),
                colour: self.look(settings, Ink::Glyph(g)).fill,
                hover: Some(format!("'{g}' in XSB")),
            })
            .collect()
    }

    fn palette_fields_ui(&self, ui: &mut egui::Ui, _sketch: &Sketch, _brush: &mut Brush) -> bool {
        ui.label("One player; as many goals as boxes; walls around the player's room.");
        false
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::Sokoban(l) = level else { return Err("not a sokoban level".into()) };
        let (w, h) = super::rows_size(&l.board)?;
        let size = Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"))?;
        let mut cells = Vec::with_capacity(w * h);
        for (y, row) in l.board.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let glyph = match ch {
                    '-' | '_' => ' ',
                    c if CELLS.iter().any(|&(g, _)| g == c) => c,
                    c => {
                        return Err(format!(
                            "board cell ({x}, {y}): '{c}' is not a Sokoban character (# wall, space floor, \
                             . goal, $ box, * box on goal, @ player, + player on goal)"
                        ));
                    }
                };
                cells.push(Ink::Glyph(glyph));
            }
        }
        let mut d = Sketch::new(Level::Sokoban(SokobanLevel::default()), size, Ink::Glyph(' '));
        d.cells = cells;
        d.name = l.name.clone();
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        Level::Sokoban(SokobanLevel {
            name: sketch.name.clone(),
            // Nothing in Sokoban is random: no seed is written.
            seed: None,
            board: sketch.rows(&|c| match c {
                Ink::Glyph(g) => g,
                Ink::Number(_) => ' ',
            }),
        })
    }

    /// Every check the board fails, from core's own list ([`board_problems`]).
    fn problems(&self, sketch: &Sketch) -> Vec<Problem> {
        let Level::Sokoban(l) = self.level(sketch) else { return Vec::new() };
        board_problems(&l.board).into_iter().map(|e| Problem { cell: e.cell, message: e.message }).collect()
    }

    fn uses_seed(&self) -> bool {
        false
    }

    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        random_room(sketch.size, seed)
    }

    fn settings_ui(&self, ui: &mut egui::Ui, _settings: &mut Level) -> Option<super::InkMap> {
        ui.label("Sokoban has no settings: every level follows the same rules.");
        None
    }

    fn key_command(&self, input: &egui::InputState) -> Option<AnyCommand> {
        super::pressed_dir(input).map(|d| AnyCommand::Sokoban(SokobanCommand::Step(d)))
    }

    fn board_command(
        &self,
        play: &mut PlayInput,
        _rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        let AnyState::Sokoban(s) = state else { return None };
        let p = input.clicked?;
        play.hint = None;
        if p == s.player() {
            return None;
        }
        // A box next to the player: push it. Any other cell: walk there (the rules say why not).
        if s.box_at(p).is_some()
            && let Some(d) = dir_to(s.player(), p)
        {
            return Some(AnyCommand::Sokoban(SokobanCommand::Step(d)));
        }
        Some(AnyCommand::Sokoban(SokobanCommand::Walk(p)))
    }

    fn overlay(
        &self,
        play: &PlayInput,
        _rules: &AnyRules,
        state: &AnyState,
        hovered: Option<Pos>,
        out: &mut Overlay,
    ) {
        if play.hint.is_some() {
            out.highlight_colour = Some(HINT);
        }
        let (AnyState::Sokoban(s), Some(h)) = (state, hovered) else { return };
        if s.is_solved() || h == s.player() {
            return;
        }
        out.tooltip = Some(hover_text(s, h));
        if s.box_at(h).is_none()
            && let Some(path) = walk_path(s, h)
        {
            out.path = path;
        }
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        rules: &AnyRules,
        state: &AnyState,
        play: &mut PlayInput,
    ) -> Option<PlayAction> {
        let AnyState::Sokoban(s) = state else { return None };
        ui.label(
            "Arrow keys or WASD step and push; click a cell to walk there, a box beside you to push it.",
        );
        ui.label(counts(s));
        // The same rows whatever happens, so nothing under them moves (issue 36.6).
        super::fixed_line(ui, |ui| {
            if s.is_solved() {
                ui.label("Solved: every box is on a goal.");
            }
        });
        let slot = searches::<Verdict, Vec<SokobanCommand>>(ui.ctx(), "sokoban-hint");
        let mut searches = slot.lock().unwrap_or_else(|e| e.into_inner());
        searches.follow(s.hash());
        let mut action = None;
        if let Some(j) = searches.job.as_ref() {
            match j.take_answer() {
                Some(v) => {
                    searches.job = None;
                    let text = verdict_message(s, &v);
                    action = Some(match v {
                        Verdict::Move(solution) => {
                            let to = match solution.first() {
                                Some(&SokobanCommand::Step(d)) => s.player().step(d, s.size()),
                                Some(&SokobanCommand::Walk(p)) => Some(p),
                                None => None,
                            };
                            play.hint = to.map(|to| (s.player(), to));
                            searches.found = Some((s.hash(), solution));
                            PlayAction::Notice(text)
                        }
                        Verdict::Lost => PlayAction::Lost(text),
                        Verdict::OutOfTime(_) => PlayAction::Notice(text),
                    });
                }
                None => ui.ctx().request_repaint_after(std::time::Duration::from_millis(50)),
            }
        }
        let help = "Mark the first move of a solution with the fewest pushes";
        let found = searches.found.as_ref().map(|(_, solution)| solution.len());
        let row = search::hint_row(ui, help, searches.job.is_some(), s.is_solved(), found);
        if row.hint {
            let limits = SolveLimits { max_nodes: HINT_MAX_NODES, max_bytes: HINT_MAX_BYTES };
            let budget = hint_budget(ui.ctx(), BUDGET);
            let st = s.clone();
            searches.job =
                Some(Job::spawn(ui.ctx(), s.hash(), budget, move |stop| verdict(&st, limits, stop)));
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
        }
        // Once Hint found a solution from this very position, it can be played.
        if let Some((_, solution)) = searches.found.as_ref() {
            let steps = || solution.iter().map(|&c| AnyCommand::Sokoban(c)).collect();
            if row.show {
                return Some(PlayAction::Walk(steps()));
            }
            if row.gif {
                return Some(PlayAction::SaveGif(steps()));
            }
        }
        let _ = rules;
        action
    }

    /// Its score is the move count, which the objectives line already shows.
    fn shows_score(&self) -> bool {
        false
    }

    fn objectives(&self, _rules: &AnyRules, state: &AnyState, out: &mut Vec<String>) {
        if let AnyState::Sokoban(s) = state {
            out.push(counts(s));
        }
    }

    fn inspector_ui(&self, ui: &mut egui::Ui, state: &AnyState) {
        let AnyState::Sokoban(s) = state else { return };
        ui.label(counts(s));
        ui.label(format!("player at {}", s.player()));
    }
}

/// What hovering cell `h` (not the player's) says: a push, a walk and its length, or why
/// neither.
fn hover_text(s: &SokobanState, h: Pos) -> String {
    if s.box_at(h).is_some() {
        return match dir_to(s.player(), h) {
            Some(d) => {
                let beyond = h.step(d, s.size());
                if beyond.is_some_and(|b| s.is_free(b)) {
                    format!("push {d}")
                } else {
                    "cannot push: something is behind the box".into()
                }
            }
            None => "a box: stand beside it to push it".into(),
        };
    }
    match s.cell(h) {
        Some(Cell::Wall) => "a wall".into(),
        _ => match walk_path(s, h) {
            Some(path) => {
                let n = path.len().saturating_sub(1);
                format!("walk: {n} move{}", if n == 1 { "" } else { "s" })
            }
            None => "cannot walk there: no path (walls or boxes in the way)".into(),
        },
    }
}

/// "Boxes on goals 1 of 6 · moves 12 · pushes 3".
fn counts(s: &SokobanState) -> String {
    format!(
        "Boxes on goals {} of {} · moves {} · pushes {}",
        s.boxes_on_goals(),
        s.box_count(),
        s.moves(),
        s.pushes()
    )
}

/// A walled room of `size` with a few inner walls, boxes pulled off their goals from the solved
/// position by a random walk of the player (so the level can be solved by pushing them back).
/// Deterministic in `seed`.
fn random_room(size: Size, seed: u64) -> Result<Vec<Ink>, String> {
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    if w < 3 || h < 3 || (w - 2) * (h - 2) < 2 {
        return Err(format!(
            "a {w}×{h} board has no room for a player and a box inside walls: make it at least 4×3"
        ));
    }
    let mut rng = GameRng::new(seed);
    let idx = |p: Pos| usize::from(p.y) * w + usize::from(p.x);
    let inner = |p: Pos| p.x > 0 && p.y > 0 && usize::from(p.x) + 1 < w && usize::from(p.y) + 1 < h;
    let mut wall: Vec<bool> = (0..w * h).map(|i| !inner(size.pos(i))).collect();
    // A few inner walls (about one cell in ten), never so many that fewer than two cells are left.
    let area = (w - 2) * (h - 2);
    for cell in wall.iter_mut() {
        if !*cell && area > 8 && rng.chance(1, 10) {
            *cell = true;
        }
    }
    let mut open: Vec<usize> = (0..w * h).filter(|&i| !wall[i]).collect();
    if open.len() < 2 {
        // Too small for inner walls: the plain room.
        wall = (0..w * h).map(|i| !inner(size.pos(i))).collect();
        open = (0..w * h).filter(|&i| !wall[i]).collect();
    }
    rng.shuffle(&mut open);
    let n_boxes = (open.len() / 12).clamp(1, 4);
    let goals: Vec<usize> = open[..n_boxes].to_vec();
    let mut boxes = goals.clone();
    let mut player = size.pos(open[n_boxes]);
    // The player walks at random; a step away from a box beside it pulls the box along.
    for _ in 0..area * 8 {
        let d = Dir::ALL[rng.below(4) as usize];
        let Some(to) = player.step(d, size) else { continue };
        if wall[idx(to)] || boxes.contains(&idx(to)) {
            continue;
        }
        let behind = player.step(d.opposite(), size).map(idx);
        let from = idx(player);
        if let Some(b) = behind
            && rng.chance(1, 2)
            && let Some(k) = boxes.iter().position(|&x| x == b)
        {
            boxes[k] = from;
        }
        player = to;
    }
    Ok((0..w * h)
        .map(|i| {
            let (goal, boxed) = (goals.contains(&i), boxes.contains(&i));
            Ink::Glyph(match (wall[i], goal, boxed, i == idx(player)) {
                (true, ..) => '#',
                (_, true, true, _) => '*',
                (_, false, true, _) => '$',
                (_, true, _, true) => '+',
                (_, false, _, true) => '@',
                (_, true, ..) => '.',
                _ => ' ',
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Level {
        Level::Sokoban(SokobanLevel::from_rows(rows.iter().map(|r| r.to_string()).collect()))
    }

    #[test]
    fn a_level_round_trips_through_a_draft() {
        let level = board(&["#####", "#@$.#", "#_*+#", "#####"]);
        // `+` and `*`/`.` balance: 2 boxes, 3 goals is not playable, but a draft holds anything.
        let d = Game.sketch(&level).expect("a draft");
        assert_eq!(d.cells[2 * 5 + 2], Ink::Glyph('*'));
        assert_eq!(d.cells[2 * 5 + 1], Ink::Glyph(' '), "`_` is floor");
        let Level::Sokoban(back) = Game.level(&d) else { panic!("sokoban") };
        assert_eq!(back.board, ["#####", "#@$.#", "# *+#", "#####"]);
        let e = Game.sketch(&board(&["#x#"])).expect_err("x is no cell");
        assert!(e.contains("(1, 0)") && e.contains("'x'"), "{e}");
    }

    #[test]
    fn randomized_rooms_play_and_are_solvable() {
        for seed in 0..20 {
            for (w, h) in [(4, 3), (7, 6), (12, 9)] {
                let size = Size::new(w, h, 256).expect("size");
                let cells = random_room(size, seed).expect("room");
                let d = Sketch {
                    cells: cells.clone(),
                    ..Sketch::new(Game.default_settings(), size, Ink::Glyph(' '))
                };
                assert_eq!(random_room(size, seed).expect("room"), cells, "deterministic");
                let game = Game.level(&d).start(None).unwrap_or_else(|e| panic!("{w}×{h} seed {seed}: {e}"));
                let (AnyRules::Sokoban(_), AnyState::Sokoban(s)) = (&game.rules, &game.state) else {
                    panic!("sokoban")
                };
                let limits = tessera_core::sokoban::SolveLimits::nodes(200_000);
                let report = tessera_core::sokoban::solve(s, limits, &mut || false);
                assert!(
                    matches!(report.outcome, tessera_core::sokoban::SolveOutcome::Solved(_)),
                    "{w}×{h} seed {seed}: {:?}",
                    report.outcome
                );
            }
        }
        assert!(random_room(Size::new(3, 3, 256).expect("size"), 0).is_err(), "one inner cell");
    }

    #[test]
    fn a_click_walks_or_pushes_and_hovering_shows_the_path() {
        let game = board(&["######", "#@ $.#", "#    #", "######"]).start(None).expect("plays");
        let mut play = PlayInput::default();
        let click = |p| BoardInput { clicked: Some(p), ..BoardInput::default() };
        assert_eq!(
            Game.board_command(&mut play, &game.rules, &game.state, &click(Pos::new(4, 2))),
            Some(AnyCommand::Sokoban(SokobanCommand::Walk(Pos::new(4, 2))))
        );
        assert_eq!(Game.board_command(&mut play, &game.rules, &game.state, &click(Pos::new(1, 1))), None);
        let mut o = Overlay::default();
        Game.overlay(&play, &game.rules, &game.state, Some(Pos::new(2, 2)), &mut o);
        assert_eq!(o.path, [Pos::new(1, 1), Pos::new(1, 2), Pos::new(2, 2)]);
        assert_eq!(o.tooltip.as_deref(), Some("walk: 2 moves"));
        // Next to the box: a click on it pushes.
        let next = board(&["######", "# @$.#", "#    #", "######"]).start(None).expect("plays");
        assert_eq!(
            Game.board_command(&mut play, &next.rules, &next.state, &click(Pos::new(3, 1))),
            Some(AnyCommand::Sokoban(SokobanCommand::Step(Dir::Right)))
        );
    }

    #[test]
    fn hint_says_lost_or_out_of_time_never_a_move_from_a_lost_position() {
        let state = |rows: &[&str]| match board(rows).start(None).expect("plays").state {
            AnyState::Sokoban(s) => s,
            _ => panic!("sokoban"),
        };
        let all = SolveLimits::nodes(100_000);
        // The box against the left wall can never reach the goal on the right.
        let lost = state(&["######", "#    #", "#$ @.#", "#    #", "######"]);
        assert_eq!(verdict(&lost, all, &mut || false), Verdict::Lost);
        assert!(verdict_message(&lost, &Verdict::Lost).contains("no solution from here"));
        // Out of budget (nodes or the clock): said so, no move.
        let open = state(&["########", "#      #", "# $  $ #", "#  @   #", "# .  . #", "########"]);
        let v = verdict(&open, SolveLimits::nodes(1), &mut || false);
        assert!(matches!(v, Verdict::OutOfTime(_)), "{v:?}");
        assert!(verdict_message(&open, &v).contains("no hint within the time"));
        // Issue 36.9: said in words, no backticks on the screen.
        assert!(!verdict_message(&open, &v).contains('`'));
        assert!(matches!(verdict(&open, all, &mut || false), Verdict::Move(..)));
    }

    #[test]
    fn hovering_says_what_a_click_would_do_or_why_not() {
        let s = match board(&["#######", "#@ $ .#", "###$###", "#  .  #", "#######"])
            .start(None)
            .expect("plays")
            .state
        {
            AnyState::Sokoban(s) => s,
            _ => panic!("sokoban"),
        };
        assert_eq!(hover_text(&s, Pos::new(0, 0)), "a wall");
        assert_eq!(hover_text(&s, Pos::new(2, 1)), "walk: 1 move");
        assert_eq!(hover_text(&s, Pos::new(3, 1)), "a box: stand beside it to push it");
        assert!(hover_text(&s, Pos::new(1, 3)).starts_with("cannot walk there"), "behind the wall");
        let mut o = Overlay::default();
        Game.overlay(
            &PlayInput::default(),
            &board(&["#####", "#@$.#", "#####"]).start(None).expect("plays").rules,
            &AnyState::Sokoban(s.clone()),
            Some(Pos::new(1, 3)),
            &mut o,
        );
        assert!(o.path.is_empty(), "no path to draw");
        assert!(o.tooltip.is_some_and(|t| t.starts_with("cannot walk there")));
    }
}
