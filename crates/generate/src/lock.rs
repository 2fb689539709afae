//! The options a run of the editor's Generate pane adds (see `keep.rs`): a template given as
//! rows ([`Options::template`]) read against the legend, and the locked cells
//! ([`Options::locked`]) checked against the template and asked of each cell. A leaf: it
//! imports only the crate's root, so the files that use it make no circle.

use crate::{GenerateError, Options};

/// The template of [`Options::template`] as a grid of the legend's glyphs (canonical spelling),
/// or why it cannot be one: it must have rows, all of one width, of glyphs of the legend.
pub(crate) fn template_grid(
    options: &Options,
    glyphs: &[char],
) -> Result<Option<Vec<Vec<char>>>, GenerateError> {
    let Some(rows) = &options.template else { return Ok(None) };
    let bad = |why: String| GenerateError::Option(format!("the template level: {why}"));
    let width = rows.first().map_or(0, |r| r.chars().count());
    if width == 0 {
        return Err(bad("it has no cells".into()));
    }
    let max = tessera_core::puzzlescript::MAX_SIDE;
    if width > max || rows.len() > max {
        return Err(bad(format!("it is {width}x{}: give 1 to {max} cells a side", rows.len())));
    }
    let mut grid = Vec::with_capacity(rows.len());
    for (y, row) in rows.iter().enumerate() {
        let mut line = Vec::with_capacity(width);
        for (x, c) in row.chars().enumerate() {
            let Some(&g) = glyphs.iter().find(|g| g.eq_ignore_ascii_case(&c)) else {
                return Err(bad(format!(
                    "row {} column {}: '{c}' is not a glyph of the game's legend",
                    y + 1,
                    x + 1
                )));
            };
            line.push(g);
        }
        if line.len() != width {
            return Err(bad(format!("row {} has {} cells, row 1 has {width}", y + 1, line.len())));
        }
        grid.push(line);
    }
    Ok(Some(grid))
}

/// Checks [`Options::locked`] against the templates: one template, its own size, every cell in it.
pub(crate) fn check_locked(options: &Options, templates: &[Vec<Vec<char>>]) -> Result<(), GenerateError> {
    if options.locked.is_empty() {
        return Ok(());
    }
    let bad = |why: &str| GenerateError::Option(format!("locked cells: {why}"));
    if options.size.is_some() {
        return Err(bad("they keep the template's cells, so not with --size"));
    }
    let [t] = templates else {
        return Err(bad("they are cells of one level: grow from one (--from N, or a template)"));
    };
    for &(x, y) in &options.locked {
        if y >= t.len() || x >= t[y].len() {
            return Err(bad(&format!(
                "({x}, {y}) is outside the template, which is {}x{}",
                t.first().map_or(0, Vec::len),
                t.len()
            )));
        }
    }
    Ok(())
}

/// Whether candidates keep cell (x, y) as the template has it.
pub(crate) fn is_locked(options: &Options, x: usize, y: usize) -> bool {
    !options.locked.is_empty() && options.locked.contains(&(x, y))
}
