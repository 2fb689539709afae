//! The tactics commands (with their script text, `FromStr`/`Display`) and events.

use super::*;

/// What happened in a tactics step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TacticsEvent {
    /// A unit walked `path` (start and end included) and spent `cost`.
    UnitMoved {
        /// The unit.
        unit: Id,
        /// Every cell from where it stood to where it stands.
        path: Vec<Pos>,
        /// Movement spent, fixed point.
        cost: Cost,
    },
    /// The team whose turn it was ended it; `next` moves now.
    TurnEnded {
        /// The team that ended its turn.
        team: u8,
        /// The team whose turn it is now.
        next: u8,
    },
    /// A unit got its movement back at the start of its team's turn.
    MovementRestored {
        /// The unit.
        unit: Id,
        /// Movement left before.
        from: Cost,
        /// Movement left now (its full movement).
        to: Cost,
    },
}

/// A tactics command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TacticsCommand {
    /// Move a unit to a cell along the cheapest path.
    Move {
        /// The unit.
        unit: Id,
        /// Where to.
        to: Pos,
    },
    /// Move a unit along the given path (start and end included), checked.
    MoveAlong {
        /// The unit.
        unit: Id,
        /// Every cell from where it stands to where it goes.
        path: Vec<Pos>,
    },
    /// End the current team's turn.
    EndTurn,
}

impl fmt::Display for TacticsCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TacticsCommand::Move { unit, to } => write!(f, "move {} {} {}", unit.0, to.x, to.y),
            TacticsCommand::MoveAlong { unit, path } => {
                write!(f, "move-along {}", unit.0)?;
                for p in path {
                    write!(f, " {} {}", p.x, p.y)?;
                }
                Ok(())
            }
            TacticsCommand::EndTurn => f.write_str("end-turn"),
        }
    }
}

fn parse_unit(word: &str) -> Result<Id, String> {
    word.trim_start_matches('#').parse().map(Id).map_err(|_| format!("'{word}' is not a unit id"))
}

fn parse_coord(word: &str) -> Result<u16, String> {
    word.parse().map_err(|_| format!("'{word}' is not a coordinate"))
}

impl FromStr for TacticsCommand {
    type Err = String;
    /// `move UNIT X Y`, `move-along UNIT X1 Y1 X2 Y2 …` or `end-turn`.
    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["end-turn"] => Ok(TacticsCommand::EndTurn),
            ["move", unit, x, y] => Ok(TacticsCommand::Move {
                unit: parse_unit(unit)?,
                to: Pos::new(parse_coord(x)?, parse_coord(y)?),
            }),
            ["move-along", unit, rest @ ..] if !rest.is_empty() && rest.len() % 2 == 0 => {
                let path = rest
                    .chunks(2)
                    .map(|c| Ok(Pos::new(parse_coord(c[0])?, parse_coord(c[1])?)))
                    .collect::<Result<Vec<Pos>, String>>()?;
                Ok(TacticsCommand::MoveAlong { unit: parse_unit(unit)?, path })
            }
            _ => Err(format!(
                "unknown tactics command '{}' (expected move UNIT X Y, move-along UNIT X Y X Y ..., or end-turn)",
                s.trim()
            )),
        }
    }
}
