//! Scenery: what of a board no rule can tell apart, read from the compiled game, so the solver
//! takes two states that differ only there for one.
//!
//! An object is *read* where a rule that does more than paint (below) tests it on its
//! left-hand side (present, absent, one of a property), where a win condition counts it, or as a
//! player. Two objects of one layer read in exactly the same places are *alike*: every test
//! holds of one where it holds of the other, so a rule matches the same cells whichever of them
//! a cell has (`FirePit = FirePit1 or FirePit2`, only ever written `FirePit`). An object read
//! nowhere on a layer where nothing ever moves is *unseen*: no rule that matters tests it, and it
//! blocks nothing (`random [ ] -> [ Sparkle ]`). Objects of a layer no rule writes and where
//! nothing moves stay as the level starts (the background): they are no scenery, and a game with
//! no other has none (nothing to merge, nothing to pay). A board's *look* keeps, per cell, one
//! object of each group of alike ones that is there and drops the unseen: two boards with the
//! same look match the same rules at the same cells.
//!
//! Writes must keep to the groups too: a rule that clears some of a group's objects but not all
//! (and sets none of them) would tell them apart, so such a group is not merged.
//!
//! **Rules that only paint** keep the look with each write, whatever the cell held as the rule
//! matched, set no movement and say no command but sounds: footprints, a repaint among alike
//! objects, a border drawn around the walls and erased each turn. What only they read is scenery
//! too, which makes more rules paint only: the scenery is found from the most there could be
//! (every rule taken to paint, so only the win conditions and the player read), then from the
//! rules that paint in it, round after round, until the two agree. The search plays the game
//! without them ([`Scenery::played`]): a turn reaches the same look, with less work (a repaint
//! such as `[ FirePit ] -> [ random FirePit ]` goes on pass after pass of its group until a pass
//! draws the same paint, up to 200 passes a turn).
//!
//! **Randomness is scenery** when every draw can only change the look's hidden part: each
//! random object picked among alike ones, and each `random` rule group whose rules all paint
//! only. Then the generator never changes what the rules do (only how the board is painted),
//! and the solver searches such a game as a game without randomness, its steps played with the
//! start's generator.
//!
//! The look is exact for what the rules match. What it hides can still tell turns apart in one
//! way: PuzzleScript plays a queued `again` turn only when the turn changed the board, scenery
//! included, so two boards with one look may differ in whether a turn that changes only the
//! scenery goes on. The solver plays every solution again from the start, as the player would,
//! before it answers, and a search that took the look for the board does not take its "no
//! solution" for a proof there ([`Scenery::exact`]).

use crate::compile::{PatternCell, Rule};
use crate::{Game, State, bits};
use std::collections::BTreeMap;

/// What of a game's boards the rules cannot tell apart.
#[derive(Clone, Debug)]
pub struct Scenery {
    /// Words per cell.
    stride: usize,
    /// Groups of two or more alike objects: the group's bits and the one kept.
    groups: Vec<(bits::Bits, usize)>,
    /// The unseen objects, dropped.
    unseen: bits::Bits,
    /// The objects of the groups but their first ones, and each object's group's first (its
    /// own number outside the groups): what [`Scenery::look`] reads.
    others: bits::Bits,
    first_of: Vec<u32>,
    /// Whether every draw from the generator is scenery.
    pub random_is_scenery: bool,
    /// Whether the look is exact: no rule queues `again` (see the module docs).
    pub exact: bool,
    /// The game without its rules that only paint (see [`Scenery::paints_only`]), for the
    /// search to play; `None` when no rule only paints.
    pub played: Option<Box<Game>>,
}

impl Scenery {
    /// The game's scenery; `None` when no two objects are alike and none is unseen (the look is
    /// the board).
    pub fn of(game: &Game, start: &State) -> Option<Scenery> {
        let stride = game.stride;
        let rules = || game.rules.iter().chain(&game.late_rules).flatten();
        // Layers where something may move: the player's, and any a rule gives a movement.
        let mut moves = vec![false; game.layer_count];
        for o in bits::ones(&game.player_mask) {
            moves[game.objects[o].layer] = true;
        }
        for rule in rules() {
            for cell in rule.rows.iter().flatten() {
                if let PatternCell::Cell(p) = cell
                    && let Some(r) = &p.replacement
                {
                    for &(l, _, set) in &r.movs {
                        moves[l] |= set != 0;
                    }
                    for &l in &r.random_dir_layers {
                        moves[l] = true;
                    }
                }
            }
        }
        // A layer every cell has an object of, which no rule writes, leaves no cell empty.
        let writes = |layer: &[u64]| {
            rules().flat_map(|r| r.rows.iter().flatten()).any(|cell| match cell {
                PatternCell::Cell(p) => p.replacement.as_ref().is_some_and(|r| {
                    bits::intersects(&r.objects_clear, layer)
                        || bits::intersects(&r.objects_set, layer)
                        || r.random_entities.iter().any(|&o| bits::get(layer, o))
                }),
                PatternCell::Ellipsis => false,
            })
        };
        let full = |layer: &[u64]| start.cells.chunks_exact(stride).all(|c| bits::intersects(c, layer));
        let never_empty = game.layer_masks.iter().any(|l| full(l) && !writes(l));
        // (a layer no rule writes and nothing moves on stays as it starts: its objects are no
        // scenery, the look need not touch them)
        let constant: Vec<bool> =
            (0..game.layer_count).map(|l| !moves[l] && !writes(&game.layer_masks[l])).collect();
        let seen = Seen { game, moves: &moves, constant: &constant, never_empty };
        // The rules that only paint read nothing that tells boards apart: what only they read
        // is scenery too (a shadow drawn under each wall and erased each turn, by rules that
        // read the walls and the shadows alone). Found from the most there could be: every rule
        // taken to paint (only the win conditions and the player read), then the rules that
        // paint in the scenery that leaves, until the two agree. Each round has fewer rules
        // reading and so less scenery, and fewer rules that paint in it.
        let mut paint = vec![true; game.rule_count];
        let mut found = None;
        for _ in 0..=game.rule_count {
            let scenery = seen.scenery(&paint)?;
            let next = scenery.painting(game, &moves);
            if next == paint {
                found = Some((scenery, next));
                break;
            }
            if next.iter().zip(&paint).any(|(&is, &was)| is && !was) {
                break;
            }
            paint = next;
        }
        // (when the rounds do not settle, the scenery the rules read, and the rules that paint
        // in it, agree too)
        let (mut scenery, painting) = match found {
            Some(found) => found,
            None => {
                let scenery = seen.scenery(&vec![false; game.rule_count])?;
                let painting = scenery.painting(game, &moves);
                (scenery, painting)
            }
        };
        let paints = |rule: &Rule| painting.get(rule.id).copied().unwrap_or(false);
        // (a rule group is random when its first rule is)
        let rules_in_groups = game.rules.iter().chain(&game.late_rules).flat_map(|g| {
            let random = g.first().is_some_and(|f| f.random);
            g.iter().map(move |rule| (rule, random))
        });
        let random_is_scenery = rules_in_groups.into_iter().all(|(rule, random_group)| {
            if random_group {
                // (a random group picks one match: whichever it writes, each keeps the look)
                return paints(rule);
            }
            // (a random object picked among unseen ones on one layer, or among alike ones)
            let picks_paint = |picks: &[usize]| {
                let layer = |o: usize| game.objects[o].layer;
                picks.is_empty()
                    || picks.iter().all(|&o| bits::get(&scenery.unseen, o) && layer(o) == layer(picks[0]))
                    || scenery.groups.iter().any(|(g, _)| picks.iter().all(|&o| bits::get(g, o)))
            };
            rule.rows.iter().flatten().all(|cell| match cell {
                PatternCell::Cell(p) => p
                    .replacement
                    .as_ref()
                    .is_none_or(|r| r.random_dir_layers.is_empty() && picks_paint(&r.random_entities)),
                PatternCell::Ellipsis => true,
            })
        });
        scenery.random_is_scenery = random_is_scenery;
        scenery.exact = !rules().any(|r| r.commands.iter().any(|(c, _)| c == "again"));
        scenery.played = scenery.without(game, &painting).map(Box::new);
        Some(scenery)
    }

    /// Which rules only paint ([`Scenery::paints_only`]), by [`Rule::id`].
    fn painting(&self, game: &Game, moves: &[bool]) -> Vec<bool> {
        let mut paint = vec![false; game.rule_count];
        for rule in game.rules.iter().chain(&game.late_rules).flatten() {
            if let Some(p) = paint.get_mut(rule.id) {
                *p = self.paints_only(game, moves, rule);
            }
        }
        paint
    }

    /// `game` without the rules that only paint (`paint`, by [`Rule::id`]), when some do: a
    /// board plays to the same look with them and without them, but they may repaint every pass
    /// of their group until a pass draws the same paint (`[ FirePit ] -> [ random FirePit ]`:
    /// up to 200 passes a turn).
    ///
    /// Dropped only where every draw paints ([`Scenery::random_is_scenery`], which a game
    /// without randomness has too): with draws that matter, the passes a painting rule adds
    /// could draw again elsewhere. A `random` group goes whole or not at all (which of its
    /// rules applies is one draw). Groups keep their places (loops name them by number).
    fn without(&self, game: &Game, paint: &[bool]) -> Option<Game> {
        if !self.random_is_scenery {
            return None;
        }
        let paints = |rule: &Rule| paint.get(rule.id).copied().unwrap_or(false);
        let mut played = game.clone();
        let mut dropped = false;
        for group in played.rules.iter_mut().chain(played.late_rules.iter_mut()) {
            let before = group.len();
            if group.first().is_some_and(|r| r.random) {
                if group.iter().all(paints) {
                    group.clear();
                }
            } else {
                group.retain(|r| !paints(r));
            }
            dropped |= group.len() != before;
        }
        dropped.then_some(played)
    }

    /// Whether applying `rule` anywhere keeps the board's look: each cell it writes keeps, on
    /// every layer, an object alike to the one it had (or none, or an unseen one, where it had
    /// none or an unseen one), for whatever the cell may hold as the rule's left side matches
    /// it and whatever it draws; each movement it writes is the one the cell must have had (none
    /// where nothing moves); and no command but sounds.
    fn paints_only(&self, game: &Game, moves: &[bool], rule: &Rule) -> bool {
        if rule.rigid || !rule.commands.iter().all(|(c, _)| c.starts_with("sfx")) {
            return false;
        }
        let layer = |o: usize| game.objects[o].layer;
        // (what the look keeps of one object on a layer: `None` for nothing there)
        let seen = |o: Option<usize>| {
            let o = o.filter(|&o| !bits::get(&self.unseen, o))?;
            Some(self.first_of[o] as usize)
        };
        rule.rows.iter().flatten().all(|cell| {
            let PatternCell::Cell(p) = cell else { return true };
            let Some(r) = &p.replacement else { return true };
            let picked = r.random_entities.first().map(|&o| layer(o));
            if !r.random_dir_layers.is_empty()
                || r.random_entities.iter().any(|&o| Some(layer(o)) != picked)
                || picked.is_some_and(|l| moves[l])
                || !r.movs.iter().all(|&(l, clear, set)| {
                    // (a layer's movement in a cell is none or one direction; it must stay what
                    // the left side lets it be)
                    let bits_of = |m: &[(usize, u8)]| m.iter().filter(|m| m.0 == l).fold(0, |a, m| a | m.1);
                    let (need, banned) = (bits_of(&p.mov_present), bits_of(&p.mov_missing));
                    let may = [0u8, 1, 2, 4, 8, 16].into_iter().filter(|&m| m == 0 || moves[l]);
                    may.filter(|&m| m & need == need && m & banned == 0).all(|m| (m & !clear) | set == m)
                })
            {
                return false;
            }
            (0..game.layer_count).all(|l| {
                let mask = &game.layer_masks[l];
                let drawn = picked == Some(l);
                if !drawn
                    && !bits::intersects(&r.objects_clear, mask)
                    && !bits::intersects(&r.objects_set, mask)
                {
                    return true;
                }
                // What the cell may hold on this layer as the left side matches.
                let needed: Vec<Option<usize>> =
                    bits::ones(&p.present).filter(|&o| layer(o) == l).map(Some).collect();
                let held = if needed.is_empty() {
                    let free = bits::ones(mask).filter(|&o| !bits::get(&p.missing, o)).map(Some);
                    let mut held: Vec<Option<usize>> = free.chain([None]).collect();
                    for any in p.any_present.iter().filter(|any| bits::subset(any, mask)) {
                        held.retain(|o| o.is_some_and(|o| bits::get(any, o)));
                    }
                    held
                } else {
                    needed
                };
                let picks: Vec<Option<usize>> =
                    if drawn { r.random_entities.iter().copied().map(Some).collect() } else { vec![None] };
                held.iter().all(|&had| {
                    picks.iter().all(|&pick| {
                        let mut after = bits::empty(game.stride);
                        if let Some(o) = had
                            && !bits::get(&r.objects_clear, o)
                            && pick.is_none()
                        {
                            bits::set(&mut after, o);
                        }
                        for o in bits::ones(&r.objects_set).filter(|&o| layer(o) == l) {
                            bits::set(&mut after, o);
                        }
                        if let Some(o) = pick {
                            bits::set(&mut after, o);
                        }
                        let mut now = bits::ones(&after);
                        match (now.next(), now.next()) {
                            (first, None) => seen(first) == seen(had),
                            _ => false,
                        }
                    })
                })
            })
        })
    }

    /// The look of `cells`: each cell's alike objects as the group's first, the unseen dropped.
    pub(crate) fn look(&self, cells: &[u64], out: &mut Vec<u64>) {
        out.clear();
        out.extend_from_slice(cells);
        for cell in out.chunks_exact_mut(self.stride) {
            for w in 0..self.stride {
                // (each object of a group but its first, as the first)
                let mut others = cell[w] & self.others[w];
                while others != 0 {
                    let bit = others.trailing_zeros() as usize;
                    others &= others - 1;
                    cell[w] &= !(1u64 << bit);
                    bits::set(cell, self.first_of[w * 64 + bit] as usize);
                }
                cell[w] &= !self.unseen[w];
            }
        }
    }

    /// The groups of alike objects and the unseen, by name (for diagnostics and tests).
    #[cfg(test)]
    pub(crate) fn describe(&self, game: &Game) -> (Vec<Vec<String>>, Vec<String>) {
        let names = |set: &[u64]| bits::ones(set).map(|o| game.objects[o].name.clone()).collect::<Vec<_>>();
        (self.groups.iter().map(|(g, _)| names(g)).collect(), names(&self.unseen))
    }
}

/// What [`Scenery::of`] reads once: the layers where something moves, those that stay as the
/// level starts, and whether some layer is never empty.
struct Seen<'g> {
    game: &'g Game,
    moves: &'g [bool],
    constant: &'g [bool],
    never_empty: bool,
}

impl Seen<'_> {
    /// The alike and unseen objects as the rules outside `paint` (by [`Rule::id`]) read them,
    /// with the win conditions and the player; `None` when there are none.
    fn scenery(&self, paint: &[bool]) -> Option<Scenery> {
        let game = self.game;
        let stride = game.stride;
        let count = game.objects.len();
        let rules = || {
            game.rules
                .iter()
                .chain(&game.late_rules)
                .flatten()
                .filter(|r| !paint.get(r.id).copied().unwrap_or(false))
        };
        let mut every = bits::empty(stride);
        for o in 0..count {
            bits::set(&mut every, o);
        }
        // Every set of objects some test reads: each object's list of the tests it is in. A
        // test of every object (`some Player` counts cells with the player on anything) tells
        // no two apart, but tells a cell with only unseen objects from an empty one.
        let mut reads: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut tests = 0u32;
        let mut reads_any = false;
        let mut read = |set: &[u64]| {
            if bits::subset(&every, set) {
                reads_any = true;
                return;
            }
            for o in bits::ones(set) {
                if let Some(r) = reads.get_mut(o) {
                    r.push(tests);
                }
            }
            tests += 1;
        };
        for rule in rules() {
            for cell in rule.rows.iter().flatten() {
                if let PatternCell::Cell(p) = cell {
                    read(&p.present);
                    read(&p.missing);
                    for any in &p.any_present {
                        read(any);
                    }
                }
            }
        }
        for wc in &game.win_conditions {
            read(&wc.mask1);
            read(&wc.mask2);
        }
        read(&game.player_mask);
        let mut unseen = bits::empty(stride);
        let mut alike: BTreeMap<(usize, &[u32]), bits::Bits> = BTreeMap::new();
        for (o, r) in reads.iter().enumerate() {
            let layer = game.objects[o].layer;
            if self.constant[layer] {
                continue;
            }
            if r.is_empty() && !self.moves[layer] && (self.never_empty || !reads_any) {
                bits::set(&mut unseen, o);
            } else {
                bits::set(alike.entry((layer, r.as_slice())).or_insert_with(|| bits::empty(stride)), o);
            }
        }
        let mut groups: Vec<(bits::Bits, usize)> = alike
            .into_values()
            .filter_map(|g| {
                let first = bits::ones(&g).next()?;
                let several = bits::ones(&g).nth(1).is_some();
                several.then_some((g, first))
            })
            .collect();
        // A write that clears part of a group (and sets none of it) tells its objects apart.
        groups.retain(|(g, _)| {
            rules().flat_map(|r| r.rows.iter().flatten()).all(|cell| match cell {
                PatternCell::Cell(p) => p.replacement.as_ref().is_none_or(|r| {
                    let cleared = bits::intersects(&r.objects_clear, g);
                    !cleared || bits::subset(g, &r.objects_clear) || bits::intersects(&r.objects_set, g)
                }),
                PatternCell::Ellipsis => true,
            })
        });
        if groups.is_empty() && bits::is_zero(&unseen) {
            return None;
        }
        let mut others = bits::empty(stride);
        let mut first_of: Vec<u32> = (0..stride as u32 * 64).collect();
        for (g, first) in &groups {
            for o in bits::ones(g).filter(|o| o != first) {
                bits::set(&mut others, o);
                first_of[o] = *first as u32;
            }
        }
        Some(Scenery {
            stride,
            groups,
            unseen,
            others,
            first_of,
            random_is_scenery: false,
            exact: false,
            played: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Scenery;
    use crate as engine;
    use crate::testkit::start_of;

    /// The scenery of a game with these objects, layers and rules (every object a colour), at
    /// its level's start.
    fn game(objects: &[&str], legend: &str, layers: &str, rules: &str) -> (engine::Game, Option<Scenery>) {
        let objects: String = objects.iter().map(|o| format!("{o}\nwhite\n\n")).collect();
        let source = format!(
            "title t\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nblue\n\nWall\ngrey\n\n{objects}LEGEND\n\n\
             . = Background\nP = Player\n# = Wall\n{legend}\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\n\
             {layers}\nPlayer, Wall\n\nRULES\n\n{rules}\n\nWINCONDITIONS\n\nsome Player\n\nLEVELS\n\n###\n#P#\n###\n"
        );
        let (rules, state) = start_of(&source, 0, 0);
        let scenery = Scenery::of(rules.game(), state.engine());
        (rules.game().clone(), scenery)
    }

    /// The groups and the unseen by name, whether randomness is scenery, whether the look is
    /// exact.
    type Described = (Vec<Vec<String>>, Vec<String>, bool, bool);

    /// What [`Described`] says of a game's scenery; `None` when there is none.
    fn describe((g, s): &(engine::Game, Option<Scenery>)) -> Option<Described> {
        let s = s.as_ref()?;
        let (groups, unseen) = s.describe(g);
        Some((groups, unseen, s.random_is_scenery, s.exact))
    }

    #[test]
    fn objects_read_alike_are_grouped_and_objects_read_nowhere_dropped() {
        // Grass is only ever read as a whole (it stops the player); the footprint is never
        // read; nothing of either layer moves.
        let g = game(
            &["Grass1", "Grass2", "Step"],
            "Grass = Grass1 or Grass2",
            "Grass1, Grass2\nStep",
            "[ > Player | Grass ] -> [ Player | Grass ]\n[ > Player ] -> [ > Player Step ]\n\
             [ Grass ] -> [ random Grass ]",
        );
        let (groups, unseen, random, exact) = describe(&g).expect("scenery");
        assert_eq!(groups, vec![vec!["grass1".to_string(), "grass2".into()]]);
        // (the background, never written, stays as it starts: the look leaves it)
        assert_eq!(unseen, vec!["step".to_string()]);
        assert!(random && exact);
        let g = game(&["Step"], "S = Step", "Step", "[ > Player ] -> [ > Player ]");
        assert!(describe(&g).is_none(), "nothing written, nothing moved: no scenery");
    }

    #[test]
    fn a_rule_that_tells_objects_apart_keeps_them_apart() {
        // Grass1 alone is cleared: the two are not alike.
        let grass =
            |rules: &str| game(&["Grass1", "Grass2"], "Grass = Grass1 or Grass2", "Grass1, Grass2", rules);
        let g = grass("[ Grass ] -> [ random Grass ]\nlate [ Grass1 ] -> [ Grass1 ] again");
        assert!(describe(&g).is_none(), "read apart");
        let g = game(
            &["Grass1", "Grass2", "Cutter"],
            "Grass = Grass1 or Grass2",
            "Grass1, Grass2\nCutter",
            "[ > Player | Grass ] -> [ Player | Grass ]\n[ Cutter Grass ] -> [ Cutter ]\n[ > Player ] -> [ > Player Cutter ]",
        );
        let (groups, ..) = describe(&g).expect("scenery");
        assert_eq!(groups, vec![vec!["grass1".to_string(), "grass2".into()]], "read alike, written alike");
        // A write that clears one of them and sets neither tells them apart.
        let g =
            grass("[ > Player | Grass ] -> [ Player | Grass ]\n[ action Player ] -> [ Player no Grass1 ]");
        assert!(describe(&g).is_none(), "{:?}", describe(&g));
        // (where nothing but rules that paint reads the grass, it is scenery, cut or not)
        let g = grass("[ Grass | Player ] -> [ Grass | Player ]\n[ action Player ] -> [ Player no Grass1 ]");
        assert_eq!(describe(&g).map(|d| d.1), Some(vec!["grass1".to_string(), "grass2".into()]));
    }

    /// A shadow drawn under each wall and erased each turn: only the two rules that draw and
    /// erase it read it, and they only paint, so it is scenery and they are not played. Once a
    /// rule that does more reads it (the shadow stops the player), it is not.
    #[test]
    fn objects_read_only_by_rules_that_paint_are_scenery() {
        let shadows = |rules: &str| {
            let rules =
                format!("[ Shadow ] -> [ ]\nlate down [ Wall | no Wall ] -> [ Wall | Shadow ]\n{rules}");
            game(&["Shadow"], "S = Shadow", "Shadow", &rules)
        };
        let g = shadows("");
        assert_eq!(describe(&g).map(|d| d.1), Some(vec!["shadow".to_string()]));
        let played = g.1.as_ref().and_then(|s| s.played.as_deref()).map(rule_lines);
        assert_eq!(played, Some(Vec::new()), "both rules only paint");
        let g = shadows("[ > Player | Shadow ] -> [ Player | Shadow ]");
        assert!(describe(&g).is_none(), "{:?}", describe(&g));
    }

    #[test]
    fn an_object_read_nowhere_on_a_layer_that_moves_is_kept_and_a_random_rule_that_moves_is_no_scenery() {
        // The shadow shares the crates' layer, which moves: it blocks them, so it stays.
        let g = game(
            &["Crate", "Shadow"],
            "C = Crate",
            "Crate, Shadow",
            "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ action Player ] -> [ Player Shadow ]",
        );
        assert!(describe(&g).is_none(), "{:?}", describe(&g));
        // (with footprints, there is scenery; the randomness is not)
        let with_steps = |rules: &str| {
            let rules = format!("[ > Player ] -> [ > Player Step ]\n{rules}");
            describe(&game(&["Spark", "Step"], "S = Spark", "Spark\nStep", &rules)).expect("footprints")
        };
        assert!(!with_steps("[ Spark ] -> [ randomdir Spark ]").2, "a random direction is no scenery");
        let cancels = "random [ Player | no Wall ] -> [ Player | Spark ]\n+ [ Player ] -> [ Player ] cancel";
        assert!(!with_steps(cancels).2, "a random group that may cancel is no scenery");
        let g = game(&["Spark"], "S = Spark", "Spark", "random [ Player | no Wall ] -> [ Player | Spark ]");
        let (_, unseen, random, _) = describe(&g).expect("scenery");
        assert_eq!(unseen, vec!["spark".to_string()]);
        assert!(random, "a random spark no rule reads is scenery");
    }

    /// The lines of the rules a game plays (each rule once, in order).
    fn rule_lines(game: &engine::Game) -> Vec<usize> {
        let mut lines: Vec<usize> =
            game.rules.iter().chain(&game.late_rules).flatten().map(|r| r.line).collect();
        lines.dedup();
        lines
    }

    /// A garden of 24 grass cells, repainted at random every pass of their rule (which goes on
    /// until a pass draws all 24 as they were: 200 passes, the engine's most), footprints, and
    /// a crate to push. The rules that only paint are left out of the game the search plays;
    /// it plays each turn to the same look for a fraction of the work.
    #[test]
    fn rules_that_only_paint_are_left_out_of_the_game_played() {
        let rules = "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Player ] -> [ > Player Step ]\n\
                     [ Grass ] -> [ random Grass ]\nlate [ Player Grass ] -> [ Player Grass2 ]";
        let objects: String =
            ["Grass1", "Grass2", "Step", "Crate"].iter().map(|o| format!("{o}\nwhite\n\n")).collect();
        let source = format!(
            "title t\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nblue\n\nWall\ngrey\n\n{objects}LEGEND\n\n\
             . = Background\nP = Player\n# = Wall\ng = Grass1\nc = Crate\nGrass = Grass1 or Grass2\n\n\
             SOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nGrass1, Grass2\nStep\nPlayer, Wall, Crate\n\n\
             RULES\n\n{rules}\n\nWINCONDITIONS\n\nsome Player\n\nLEVELS\n\n\
             ##########\n#gggggggg#\n#gggggggg#\n#.P.c...g#\n#ggggggg.#\n##########\n"
        );
        let (level_rules, start) = start_of(&source, 0, 3);
        let game = level_rules.game();
        let scenery = Scenery::of(game, start.engine()).expect("grass and footprints are scenery");
        let played = scenery.played.as_deref().expect("some rules only paint");
        // (the footprint and the grass's repaint only paint; so does the late rule, which
        // writes one grass where there is one; the push moves the crate)
        assert_eq!(rule_lines(game).len(), 4);
        assert_eq!(rule_lines(played), rule_lines(game)[..1].to_vec());
        let (mut whole, mut quiet) = (start.engine().clone(), start.engine().clone());
        let mut ws = engine::Workspace::default();
        let (mut work_whole, mut work_quiet) = (engine::Work::new(u64::MAX), engine::Work::new(u64::MAX));
        let (mut look_whole, mut look_quiet) = (Vec::new(), Vec::new());
        for input in [engine::Input::Right, engine::Input::Right, engine::Input::Up, engine::Input::Left] {
            game.quiet_turn(&mut ws, &mut whole, Some(input), &mut work_whole);
            played.quiet_turn(&mut ws, &mut quiet, Some(input), &mut work_quiet);
            scenery.look(&whole.cells, &mut look_whole);
            scenery.look(&quiet.cells, &mut look_quiet);
            assert_eq!(look_whole, look_quiet, "after {input:?}");
        }
        assert_ne!(whole.cells, quiet.cells, "the grass was repainted in the whole game only");
        assert!(
            work_quiet.spent * 10 < work_whole.spent,
            "{} units of work, where the whole game's turns took {}",
            work_quiet.spent,
            work_whole.spent
        );
    }

    /// A yard with every kind of paint: footprints, grass repainted at random (crates stop at
    /// grass, `action` cuts the grass beside the player, and grass grows under a crate on a
    /// target: these rules tell grass from none, not one grass from another), and a shadow under
    /// each crate, erased and drawn again every turn.
    fn yard() -> (crate::testkit::Rules, crate::testkit::Played) {
        let rules = "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Crate | Grass ] -> [ Crate | Grass ]\n\
                     [ action Player | Grass ] -> [ Player | ]\n[ > Player ] -> [ > Player Step ]\n\
                     [ Grass ] -> [ random Grass ]\n[ Shadow ] -> [ ]\nlate down [ Crate | no Wall ] -> [ Crate | Shadow ]\n\
                     late [ Crate Target no Grass ] -> [ Crate Target Grass1 ]";
        let objects: String = ["Grass1", "Grass2", "Step", "Shadow", "Crate", "Target"]
            .iter()
            .map(|o| format!("{o}\nwhite\n\n"))
            .collect();
        let source = format!(
            "title yard\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nblue\n\nWall\ngrey\n\n{objects}LEGEND\n\n\
             . = Background\nP = Player\n# = Wall\ng = Grass1\nh = Grass2\nc = Crate\nt = Target\n\
             Grass = Grass1 or Grass2\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nGrass1, Grass2\nStep\n\
             Shadow\nPlayer, Wall, Crate\n\nRULES\n\n{rules}\n\nWINCONDITIONS\n\nall Target on Crate\n\nLEVELS\n\n\
             #########\n#gh.....#\n#.P.ct.g#\n#hg.....#\n#..c.t.h#\n#.......#\n#########\n"
        );
        start_of(&source, 0, 5)
    }

    proptest::proptest! {
        /// The game the search plays, without the rules that only paint, reaches the same look
        /// as the whole game after every turn of any inputs, and wins when it wins.
        #[test]
        fn the_game_played_reaches_the_whole_game_s_look(inputs in proptest::collection::vec(0u8..5, 1..40)) {
            let (rules, start) = yard();
            let game = rules.game();
            let scenery = Scenery::of(game, start.engine()).expect("grass, steps and shadows are scenery");
            let played = scenery.played.as_deref().expect("some rules only paint");
            let (mut whole, mut quiet) = (start.engine().clone(), start.engine().clone());
            let mut ws = engine::Workspace::default();
            let (mut look_whole, mut look_quiet) = (Vec::new(), Vec::new());
            for (k, &i) in inputs.iter().enumerate() {
                let input = [engine::Input::Up, engine::Input::Down, engine::Input::Left, engine::Input::Right, engine::Input::Action][i as usize];
                game.quiet_turn(&mut ws, &mut whole, Some(input), &mut engine::Work::new(u64::MAX));
                played.quiet_turn(&mut ws, &mut quiet, Some(input), &mut engine::Work::new(u64::MAX));
                scenery.look(&whole.cells, &mut look_whole);
                scenery.look(&quiet.cells, &mut look_quiet);
                proptest::prop_assert_eq!(&look_whole, &look_quiet, "after {} inputs", k + 1);
                proptest::prop_assert_eq!(game.is_won(&whole), played.is_won(&quiet));
            }
        }
    }

    #[test]
    fn the_yard_s_paint_is_scenery_and_its_rules_are_left_out() {
        let (rules, start) = yard();
        let game = rules.game();
        let scenery = Scenery::of(game, start.engine()).expect("scenery");
        let (groups, unseen) = scenery.describe(game);
        assert_eq!(groups, vec![vec!["grass1".to_string(), "grass2".into()]]);
        assert_eq!(unseen, vec!["step".to_string(), "shadow".into()]);
        // (the push, the crate stopped by grass, the cut and the growth are played)
        let all = rule_lines(game);
        assert_eq!(
            rule_lines(scenery.played.as_deref().expect("played")),
            vec![all[0], all[1], all[2], all[7]]
        );
    }

    #[test]
    fn a_rule_that_writes_what_is_read_or_moves_or_commands_is_played() {
        // (the rules' lines a game with footprints and `rules` plays, and all its rules' lines)
        let played = |rules: &str| {
            let rules = format!("[ > Player ] -> [ > Player Step ]\n{rules}");
            let g = game(&["Step", "Gem"], "S = Step\nG = Gem", "Step\nGem", &rules);
            (g.1.as_ref().and_then(|s| s.played.as_deref()).map(rule_lines), rule_lines(&g.0))
        };
        assert_eq!(played("").0, Some(Vec::new()), "the footprint only paints");
        // (a movement taken away where the player moves; a command; a gem some rule reads: kept;
        // a rule that writes what it matched is left out)
        for rules in [
            "[ > Player | Wall ] -> [ Player | Wall ]",
            "[ action Player ] -> [ Player Step ] again",
            "[ Player | Wall ] -> [ Player | Wall Gem ]\n[ > Player | Gem ] -> [ Player | Gem ]",
        ] {
            let (played, all) = played(rules);
            assert_eq!(played.as_deref(), Some(&all[1..]), "{rules}");
        }
        // (randomness that is not scenery: nothing is left out, a draw could move)
        assert_eq!(played("[ Step ] -> [ randomdir Step ]").0, None);
    }
}
