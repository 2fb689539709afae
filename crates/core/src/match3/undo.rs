//! Undo and checked redo of one match-3 event.

use super::*;

/// The block at `at`, or why there is none that fits.
fn block_at(state: &Match3State, at: Pos, id: Id) -> Result<(usize, Block), Inconsistent> {
    let size = state.size();
    if !size.contains(at) {
        return Err(Inconsistent::detailed(format!("cell {at} is off the {size} board")));
    }
    let i = size.index(at);
    match state.blocks.cells()[i] {
        Some(b) if b.id == id => Ok((i, b)),
        Some(b) => Err(Inconsistent::detailed(format!("block {id} is not at {at} (block {} is)", b.id))),
        None => Err(Inconsistent::detailed(format!("block {id} is not at {at} (it is empty)"))),
    }
}

/// The generator must be where a recorded draw starts.
fn check_rng(state: &Match3State, rng: RngSpan) -> Result<(), Inconsistent> {
    if rng.before != state.rng.position() || rng.after < rng.before {
        return Err(Inconsistent::detailed(format!(
            "the generator is at word {}, the event drew from word {} to {}",
            state.rng.position(),
            rng.before,
            rng.after
        )));
    }
    Ok(())
}

/// The empty playable cell `at`, as an index, or why it is not.
fn empty_at(state: &Match3State, at: Pos) -> Result<usize, Inconsistent> {
    let size = state.size();
    if !size.contains(at) {
        return Err(Inconsistent::detailed(format!("cell {at} is off the {size} board")));
    }
    let i = size.index(at);
    match (state.cells.cells()[i], state.blocks.cells()[i]) {
        (Cell::Playable, None) => Ok(i),
        (Cell::Void, _) => Err(Inconsistent::detailed(format!("cell {at} is void"))),
        (_, Some(b)) => {
            Err(Inconsistent::detailed(format!("cell {at} is not empty (block {} is there)", b.id)))
        }
    }
}

impl Match3Rules {
    /// [`Rules::undo_event`]: puts back what `event` changed.
    pub(super) fn undo_one(&self, state: &mut Match3State, event: &Match3Event) {
        let scalars = state.scalar_key();
        let size = state.size();
        let b = &mut state.blocks;
        let mut hash = 0;
        match event {
            Match3Event::Swapped { a, b: q, a_block, b_block } => {
                let (ia, iq) = (size.index(*a), size.index(*q));
                b.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves -= 1;
            }
            Match3Event::SwappedBack { a, b: q, a_block, b_block } => {
                let (ia, iq) = (size.index(*a), size.index(*q));
                b.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves += 1;
            }
            Match3Event::Matched { blocks, breed, .. } => {
                for mb in blocks.iter().filter(|mb| !mb.locked) {
                    let block = Block { id: mb.block, breed: *breed, locked: false };
                    b[mb.at] = Some(block);
                    hash ^= block_key(size.index(mb.at), block);
                }
            }
            Match3Event::Unlocked { at, .. } => {
                if let Some(bl) = &mut b[*at] {
                    hash ^= what_key(*bl);
                    bl.locked = true;
                    hash ^= what_key(*bl);
                }
            }
            Match3Event::Fell { block, from, to } => {
                b[*from] = b[*to].take();
                hash ^= pos_key(size.index(*from), *block) ^ pos_key(size.index(*to), *block);
            }
            Match3Event::Spawned { block, at, breed, rng } => {
                b[*at] = None;
                hash ^= block_key(size.index(*at), Block { id: *block, breed: *breed, locked: false });
                state.ids.reset(block.0);
                state.rng.set_position(rng.before);
            }
            Match3Event::Scored { points, .. } => state.score -= points,
            Match3Event::Shuffled { blocks, rng } => {
                for sb in blocks {
                    b[sb.from] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
                    hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
                }
                state.rng.set_position(rng.before);
            }
            Match3Event::Recoloured { at, from, .. } => {
                if let Some(bl) = &mut b[*at] {
                    hash ^= what_key(*bl);
                    bl.breed = *from;
                    hash ^= what_key(*bl);
                }
            }
            Match3Event::Won { .. } => state.won = false,
            Match3Event::GameOver { .. } => state.over = None,
        }
        state.hash ^= hash ^ scalars ^ state.scalar_key();
    }

    /// [`Rules::redo_event`], checked: `Inconsistent` before any change for an event that does not fit.
    pub(super) fn redo_one(&self, state: &mut Match3State, event: &Match3Event) -> Result<(), Inconsistent> {
        let scalars = state.scalar_key();
        let size = state.size();
        let mut hash = 0;
        match event {
            Match3Event::Swapped { a, b: q, a_block, b_block }
            | Match3Event::SwappedBack { a, b: q, a_block, b_block } => {
                let back = matches!(event, Match3Event::SwappedBack { .. });
                // A swap moves `a_block` from `a` to `q`; a swap back returns it to `a`.
                let (ia, ba) = block_at(state, if back { *q } else { *a }, *a_block)?;
                let (iq, bq) = block_at(state, if back { *a } else { *q }, *b_block)?;
                if ia == iq || ba.locked || bq.locked {
                    return Err(Inconsistent::detailed(format!(
                        "blocks {a_block} and {b_block} cannot swap between {a} and {q}"
                    )));
                }
                let moves = if back { state.moves.checked_sub(1) } else { state.moves.checked_add(1) };
                let Some(moves) = moves else {
                    return Err(Inconsistent::detailed(format!("the move counter is at {}", state.moves)));
                };
                state.blocks.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves = moves;
            }
            Match3Event::Matched { blocks, breed, .. } => {
                // Checked first, then removed; a block listed twice is caught on its second
                // removal, and the ones removed are put back.
                for mb in blocks {
                    let (_, bl) = block_at(state, mb.at, mb.block)?;
                    if bl.breed != *breed || bl.locked != mb.locked {
                        return Err(Inconsistent::detailed(format!(
                            "block {} at {} is of breed {}{}, the match says {breed}{}",
                            mb.block,
                            mb.at,
                            bl.breed,
                            if bl.locked { " (locked)" } else { "" },
                            if mb.locked { " (locked)" } else { "" }
                        )));
                    }
                }
                let unlocked = blocks.iter().filter(|mb| !mb.locked);
                for (k, mb) in unlocked.clone().enumerate() {
                    let i = size.index(mb.at);
                    let Some(bl) = state.blocks.cells_mut()[i].take() else {
                        for back in unlocked.take(k) {
                            let block = Block { id: back.block, breed: *breed, locked: false };
                            state.blocks[back.at] = Some(block);
                        }
                        return Err(Inconsistent::detailed(format!("block {} is listed twice", mb.block)));
                    };
                    hash ^= block_key(i, bl);
                }
            }
            Match3Event::Unlocked { block, at } => {
                let (i, bl) = block_at(state, *at, *block)?;
                if !bl.locked {
                    return Err(Inconsistent::detailed(format!("block {block} at {at} is not locked")));
                }
                let unlocked = Block { locked: false, ..bl };
                state.blocks.cells_mut()[i] = Some(unlocked);
                hash ^= what_key(bl) ^ what_key(unlocked);
            }
            Match3Event::Fell { block, from, to } => {
                let (i, bl) = block_at(state, *from, *block)?;
                let j = empty_at(state, *to)?;
                if bl.locked {
                    return Err(Inconsistent::detailed(format!("block {block} at {from} is locked")));
                }
                state.blocks.cells_mut()[j] = state.blocks.cells_mut()[i].take();
                hash ^= pos_key(i, *block) ^ pos_key(j, *block);
            }
            Match3Event::Spawned { block, at, breed, rng } => {
                let i = empty_at(state, *at)?;
                if *block != state.ids.peek() || block.0 == u32::MAX {
                    return Err(Inconsistent::detailed(format!(
                        "spawned block {block} is out of order (the next id is {})",
                        state.ids.peek()
                    )));
                }
                if *breed >= MAX_BREEDS {
                    return Err(Inconsistent::detailed(format!("breed {breed} is not below {MAX_BREEDS}")));
                }
                check_rng(state, *rng)?;
                let b = Block { id: *block, breed: *breed, locked: false };
                state.blocks.cells_mut()[i] = Some(b);
                hash ^= block_key(i, b);
                state.ids.reset(block.0 + 1);
                state.rng.set_position(rng.after);
            }
            Match3Event::Scored { points, .. } => {
                let Some(score) = state.score.checked_add(*points) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} overflows",
                        state.score
                    )));
                };
                state.score = score;
            }
            Match3Event::Shuffled { blocks, rng } => {
                check_rng(state, *rng)?;
                for sb in blocks {
                    let (_, bl) = block_at(state, sb.from, sb.block)?;
                    if bl.locked || bl.breed != sb.breed {
                        return Err(Inconsistent::detailed(format!(
                            "block {} at {} is not an unlocked block of breed {}",
                            sb.block, sb.from, sb.breed
                        )));
                    }
                }
                // The blocks must trade places among their own cells: take them all off, put
                // each on its cell (which must then be empty and playable), and check that every
                // cell left is filled again. Otherwise put everything back.
                for sb in blocks {
                    state.blocks[sb.from] = None;
                }
                let mut placed = 0;
                let mut misfit = None;
                for sb in blocks {
                    match empty_at(state, sb.to) {
                        Ok(j) => {
                            state.blocks.cells_mut()[j] =
                                Some(Block { id: sb.block, breed: sb.breed, locked: false });
                            placed += 1;
                        }
                        Err(e) => {
                            misfit = Some(e);
                            break;
                        }
                    }
                }
                if misfit.is_none()
                    && let Some(sb) = blocks.iter().find(|sb| state.blocks[sb.from].is_none())
                {
                    misfit = Some(Inconsistent::detailed(format!(
                        "the shuffle leaves {} empty: its blocks do not trade places",
                        sb.from
                    )));
                }
                if let Some(e) = misfit {
                    for sb in &blocks[..placed] {
                        state.blocks[sb.to] = None;
                    }
                    for sb in blocks {
                        state.blocks[sb.from] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
                    }
                    return Err(e);
                }
                for sb in blocks {
                    hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
                }
                state.rng.set_position(rng.after);
            }
            Match3Event::Recoloured { block, at, from, to } => {
                let (i, bl) = block_at(state, *at, *block)?;
                if bl.breed != *from || *to >= MAX_BREEDS {
                    return Err(Inconsistent::detailed(format!(
                        "block {block} at {at} is of breed {}, the recolouring is from {from} to {to}",
                        bl.breed
                    )));
                }
                let recoloured = Block { breed: *to, ..bl };
                state.blocks.cells_mut()[i] = Some(recoloured);
                hash ^= what_key(bl) ^ what_key(recoloured);
            }
            Match3Event::Won { .. } => {
                if state.won {
                    return Err(Inconsistent::new("the game was already won"));
                }
                state.won = true;
            }
            Match3Event::GameOver { reason } => {
                if state.over.is_some() {
                    return Err(Inconsistent::new("the game was already over"));
                }
                state.over = Some(*reason);
            }
        }
        state.hash ^= hash ^ scalars ^ state.scalar_key();
        Ok(())
    }
}
