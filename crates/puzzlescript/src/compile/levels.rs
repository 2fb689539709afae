//! The LEVELS section into boards (the legend's glyphs into cells, the background filled in).

use super::*;

/// The levels as boards (column-major, `stride` words a cell; `None` for a message), each cell
/// without a background object given the level's first one (or the background object).
pub(super) fn compile_levels(
    ctx: &mut Ctx,
    level_defs: &[LevelDef],
    glyphs: &BTreeMap<String, Vec<Option<usize>>>,
    background: Option<(usize, usize)>,
) -> (Vec<LevelEntry>, Vec<Option<Vec<u64>>>) {
    let mut levels = Vec::new();
    let mut boards = Vec::new();
    for def in level_defs {
        match def {
            LevelDef::Message { text, line } => {
                levels.push(LevelEntry::Message { text: text.clone(), line: *line });
                boards.push(None);
            }
            LevelDef::Rows { line, rows } => {
                let (width, height) = (rows[0].len(), rows.len());
                let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
                let (side, area) = (crate::MAX_LEVEL_SIDE, crate::MAX_LEVEL_AREA);
                if widest > side || height > side || widest.saturating_mul(height) > area {
                    // Compiled without its board: the game's other levels play (issue 66.1).
                    ctx.warning(
                        *line,
                        format!(
                            "the level at line {line} is {widest}x{height} cells, more than {area} cells (or {side} a \
                             side): it cannot be played (the game's other levels can)"
                        ),
                    );
                    levels.push(LevelEntry::Level { width: widest, height, line: *line });
                    boards.push(None);
                    continue;
                }
                let mut cells = level_cells(ctx, *line, rows, glyphs);
                if let Some(background) = background {
                    fill_background(ctx, &mut cells, background);
                }
                levels.push(LevelEntry::Level { width, height, line: *line });
                boards.push(Some(cells));
            }
        }
    }
    (levels, boards)
}

/// One level's cells from its glyphs (column by column, a short row read as its last glyph);
/// an unknown glyph is an error and leaves the rest of the level empty.
pub(super) fn level_cells(
    ctx: &mut Ctx,
    line: usize,
    rows: &[Vec<char>],
    glyphs: &BTreeMap<String, Vec<Option<usize>>>,
) -> Vec<u64> {
    let stride = ctx.stride;
    let (width, height) = (rows[0].len(), rows.len());
    let mut cells = vec![0u64; width * height * stride];
    let mut cache: BTreeMap<char, Bits> = BTreeMap::new();
    for x in 0..width {
        for (y, row) in rows.iter().enumerate() {
            let ch = row.get(x).or(row.last()).copied().unwrap_or(' ');
            let mask = if let Some(m) = cache.get(&ch) {
                m.clone()
            } else {
                let key = ch.to_string();
                let Some(g) = glyphs.get(&key) else {
                    if ctx.properties.contains_key(&key) {
                        ctx.error_word(line + y, &ch.to_string(), format!("Error, symbol \"{ch}\" is defined using OR, and therefore ambiguous - it cannot be used in a map. Did you mean to define it in terms of AND?"));
                    } else {
                        ctx.error_word(
                            line + y,
                            &ch.to_string(),
                            format!("Error, symbol \"{ch}\", used in map, not found."),
                        );
                    }
                    return cells;
                };
                let mut m = bits::empty(stride);
                for id in g.iter().flatten() {
                    bits::set(&mut m, *id);
                }
                cache.insert(ch, m.clone());
                m
            };
            let idx = (x * height + y) * stride;
            cells[idx..idx + stride].copy_from_slice(&mask);
        }
    }
    cells
}

/// Gives every cell with nothing on the background's layer the level's first background
/// object (or the background object itself).
pub(super) fn fill_background(ctx: &Ctx, cells: &mut [u64], (bid, blayer): (usize, usize)) {
    let stride = ctx.stride;
    let bmask = &ctx.layer_masks[blayer];
    let mut level_bg = None;
    for cell in cells.chunks(stride) {
        let common: Bits = cell.iter().zip(bmask).map(|(a, b)| a & b).collect();
        if !bits::is_zero(&common) {
            level_bg = Some(common);
            break;
        }
    }
    let level_bg = level_bg.unwrap_or_else(|| {
        let mut m = bits::empty(stride);
        bits::set(&mut m, bid);
        m
    });
    for cell in cells.chunks_mut(stride) {
        if !bits::intersects(bmask, cell) {
            bits::or_into(cell, &level_bg);
        }
    }
}
