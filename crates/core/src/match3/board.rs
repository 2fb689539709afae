//! Run and swap tests on a board seen as "the breed in cell `i`" (row-major), shared by the rules,
//! the level generator and the shuffler.
//!
//! A cell reads as [`NONE`] when it holds no block (Void, empty or not yet assigned); `NONE`
//! never equals a breed, so it ends every run.

/// The breed of a cell that holds no block.
pub(crate) const NONE: u8 = u8::MAX;

/// Whether cell `i`, if it held breed `c`, would lie on a horizontal or vertical run of at least
/// three. Cell `stop` (a swap partner) reads as [`NONE`]; pass `usize::MAX` for none.
#[inline]
pub(crate) fn run_through(
    w: usize,
    h: usize,
    breed: &impl Fn(usize) -> u8,
    i: usize,
    c: u8,
    stop: usize,
) -> bool {
    let at = |q: usize| if q == stop { NONE } else { breed(q) };
    let (x, y) = (i % w, i / w);
    let mut n = 1;
    let mut k = x;
    while k > 0 && at(i - (x - k) - 1) == c {
        k -= 1;
        n += 1;
    }
    let mut k = x + 1;
    while k < w && at(i + (k - x)) == c {
        k += 1;
        n += 1;
    }
    if n >= 3 {
        return true;
    }
    let mut n = 1;
    let mut k = y;
    while k > 0 && at(i - (y - k + 1) * w) == c {
        k -= 1;
        n += 1;
    }
    let mut k = y + 1;
    while k < h && at(i + (k - y) * w) == c {
        k += 1;
        n += 1;
    }
    n >= 3
}

/// Whether swapping the blocks of neighbouring cells `i` and `j` makes a run through either.
#[inline]
pub(crate) fn swap_makes_run(w: usize, h: usize, breed: &impl Fn(usize) -> u8, i: usize, j: usize) -> bool {
    let (bi, bj) = (breed(i), breed(j));
    // Equal breeds change nothing; on a board without runs such a swap never makes one. (On a
    // board that has runs it would "make" the runs already there, which is not a swap's doing.)
    bi != bj && (run_through(w, h, breed, i, bj, j) || run_through(w, h, breed, j, bi, i))
}

/// The first swap (in row-major order of its first cell, the right neighbour before the lower
/// one) of two movable cells that makes a run, found by trying every such swap.
pub(crate) fn find_valid_swap(
    w: usize,
    h: usize,
    breed: &impl Fn(usize) -> u8,
    movable: &impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !movable(i) {
                continue;
            }
            if x + 1 < w && movable(i + 1) && swap_makes_run(w, h, breed, i, i + 1) {
                return Some((i, i + 1));
            }
            if y + 1 < h && movable(i + w) && swap_makes_run(w, h, breed, i, i + w) {
                return Some((i, i + w));
            }
        }
    }
    None
}

/// The first cell (row-major) of a run of at least three, if the board has one.
pub(crate) fn find_run(w: usize, h: usize, breed: &impl Fn(usize) -> u8) -> Option<usize> {
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let c = breed(y * w + x);
            let mut e = x + 1;
            while e < w && breed(y * w + e) == c {
                e += 1;
            }
            if c != NONE && e - x >= 3 {
                return Some(y * w + x);
            }
            x = e;
        }
    }
    let mut first: Option<usize> = None;
    for x in 0..w {
        let mut y = 0;
        while y < h {
            let c = breed(y * w + x);
            let mut e = y + 1;
            while e < h && breed(e * w + x) == c {
                e += 1;
            }
            if c != NONE && e - y >= 3 {
                let i = y * w + x;
                first = Some(first.map_or(i, |f| f.min(i)));
                break;
            }
            y = e;
        }
    }
    first
}

/// Whether some swap of two neighbouring movable cells could make a run for *some* choice of
/// breeds: a run through `i` after the swap lies on a line of three playable cells through `i`
/// that avoids `j` (a run through both would have been there before the swap). When no pair
/// qualifies, no arrangement of blocks can ever offer a valid swap.
pub(crate) fn swap_structurally_possible(
    w: usize,
    h: usize,
    playable: &impl Fn(usize) -> bool,
    movable: &impl Fn(usize) -> bool,
) -> bool {
    let line3 = |i: usize, j: usize| -> bool {
        let (x, y) = ((i % w) as isize, (i / w) as isize);
        let ok = |dx: isize, dy: isize| -> bool {
            let (xx, yy) = (x + dx, y + dy);
            if xx < 0 || yy < 0 || xx >= w as isize || yy >= h as isize {
                return false;
            }
            let q = yy as usize * w + xx as usize;
            q != j && playable(q)
        };
        // Three-cell windows containing i, horizontal then vertical.
        (ok(-2, 0) && ok(-1, 0))
            || (ok(-1, 0) && ok(1, 0))
            || (ok(1, 0) && ok(2, 0))
            || (ok(0, -2) && ok(0, -1))
            || (ok(0, -1) && ok(0, 1))
            || (ok(0, 1) && ok(0, 2))
    };
    for i in 0..w * h {
        if !movable(i) {
            continue;
        }
        let x = i % w;
        for j in [(x + 1 < w).then_some(i + 1), (i + w < w * h).then_some(i + w)].into_iter().flatten() {
            if movable(j) && (line3(i, j) || line3(j, i)) {
                return true;
            }
        }
    }
    false
}
