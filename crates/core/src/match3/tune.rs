//! Match-3's generator (`Plugin::GENERATORS`, issue 64.5): a stage's move limit and target
//! score chosen so that a playtest bot wins it in a wanted share of games, as studios tune
//! stages with bots. The bot is the caller's ([`crate::GenerateRequest::playtest`]: bots live
//! outside the rules; `tessera generate --rules match3` plays `match3-greedy`).
//!
//! One candidate, from the stage and the candidate's seeded generator:
//!
//! 1. a move limit `M` drawn in `min_steps ..= max_steps` (default 6 to 30);
//! 2. **measure**: `games` games of the stage with that limit and no target, each seeded from
//!    the generator; the score each reached by its last move;
//! 3. the target `T`: of the scores reached, the one whose share of games reaching it is
//!    inside the wanted range and nearest its middle (none: no level);
//! 4. **check**: `games` other games, game `i` with the seed `S + i` for a seed `S` drawn after
//!    the first games' (so `tessera difficulty LEVEL --bot match3-greedy --games G --seed S`
//!    plays the very same games), now with the limit and the target: kept only when the share
//!    the bot wins is in the range. That share is the level's
//!    measure ([`crate::Generated::measured`]), and a game it won is its listed solution: the
//!    level's seed is that game's, so the level started with its own seed replays it to a win.

use super::Match3Level;
use crate::{GameRng, GenerateRequest, Generated, Level, NoLevel, Takes};

/// The `match3` rule set's generator.
pub const GENERATOR: crate::Generator = crate::Generator {
    name: "match3",
    help: "a stage (--stage) with its move limit and target score chosen so that the match-3 bot wins a wanted share of games (--win-rate)",
    takes: Takes::Stage,
    figure: "move_limit",
    generate,
};

/// The move limit's bound when the request has none.
const DEFAULT_MAX_MOVES: u32 = 30;

fn seed(rng: &mut GameRng) -> u64 {
    (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())
}

/// The stage with `limit` moves and target `target`, without a seed of its own.
fn with_limits(stage: &Match3Level, limit: u32, target: Option<u64>) -> Level {
    let mut l = stage.clone();
    l.config.move_limit = Some(limit);
    l.config.target_score = target;
    l.seed = None;
    Level::Match3(l)
}

/// Whether `wins` of `games` lies in `range` (thousandths, inclusive).
fn in_range(wins: u32, games: u32, range: (u32, u32)) -> bool {
    let share = u64::from(wins) * 1000;
    share >= u64::from(range.0) * u64::from(games) && share <= u64::from(range.1) * u64::from(games)
}

/// The target score (see the module docs): among the scores reached, the one whose count of
/// games reaching it is in range and nearest the range's middle (the highest such score on a
/// tie), with that count.
pub fn choose_target(scores: &[u64], range: (u32, u32)) -> Option<(u64, u32)> {
    let games = scores.len() as u32;
    let mut sorted = scores.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    // Twice the middle, in games × thousandths, to stay in integers.
    let middle2 = u64::from(range.0 + range.1) * u64::from(games);
    sorted
        .into_iter()
        .filter(|&t| t > 0)
        .map(|t| (t, scores.iter().filter(|&&s| s >= t).count() as u32))
        .filter(|&(_, wins)| in_range(wins, games, range))
        .min_by_key(|&(t, wins)| ((u64::from(wins) * 2000).abs_diff(middle2), std::cmp::Reverse(t)))
}

fn generate(req: &GenerateRequest<'_>, rng: &mut GameRng) -> Result<Generated, NoLevel> {
    let (Some(Level::Match3(stage)), Some(range), Some(play)) = (req.stage, req.win_rate, req.playtest)
    else {
        return Err(NoLevel { states: 0 });
    };
    let games = req.games.max(1);
    let low = (req.min_steps as u32).max(1);
    let high = req.max_steps.map_or(DEFAULT_MAX_MOVES.max(low), |m| m as u32).max(low);
    let limit = low + rng.below(high - low + 1);
    let mut states = 0u64;
    // Measure: the score each game reaches within the limit, no target.
    let open = with_limits(stage, limit, None);
    let mut scores = Vec::with_capacity(games as usize);
    for _ in 0..games {
        let Some(g) = play(&open, seed(rng), limit) else { return Err(NoLevel { states }) };
        states += g.commands.len() as u64;
        scores.push(g.scores.last().copied().unwrap_or(0));
    }
    let Some((target, _)) = choose_target(&scores, range) else { return Err(NoLevel { states }) };
    // Check on other games, with the limit and the target.
    let tuned = with_limits(stage, limit, Some(target));
    let (mut wins, mut won) = (0u32, None);
    let check = seed(rng);
    for i in 0..games {
        let s = check.wrapping_add(u64::from(i));
        let Some(g) = play(&tuned, s, limit) else { return Err(NoLevel { states }) };
        states += g.commands.len() as u64;
        if g.won {
            wins += 1;
            if won.is_none() {
                won = Some((s, g.commands));
            }
        }
    }
    let Some((won_seed, solution)) = won else { return Err(NoLevel { states }) };
    if !in_range(wins, games, range) {
        return Err(NoLevel { states });
    }
    let Level::Match3(mut level) = tuned else { unreachable!("made above") };
    level.seed = Some(won_seed);
    let mut rows = level
        .board
        .clone()
        .unwrap_or_else(|| vec![format!("{}x{}", level.width.unwrap_or(9), level.height.unwrap_or(9))]);
    rows.push(format!("move_limit {limit}, target_score {target}"));
    Ok(Generated {
        steps: solution.len() as u64,
        level: Level::Match3(level),
        rows,
        solution,
        figure: "move_limit",
        optimal: u64::from(limit),
        states,
        measured: Some(crate::Measured { wins, games, seed: check }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_the_score_reached_by_the_share_nearest_the_middle() {
        // Ten games: scores 10..100. 40 %..60 % reached: 70 (4), 60 (5), 50 (6); 5 is the middle.
        let scores: Vec<u64> = (1..=10).map(|k| k * 10).collect();
        assert_eq!(choose_target(&scores, (400, 600)), Some((60, 5)));
        assert_eq!(choose_target(&scores, (0, 100)), Some((100, 1)));
        // Ties: equal scores reach together; no score gives 40 % to 60 %.
        assert_eq!(choose_target(&[5, 5, 5, 5, 0], (400, 600)), None);
        assert_eq!(choose_target(&[0, 0], (0, 1000)), None);
    }
}
