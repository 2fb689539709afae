//! What the editor benches share.

/// Rows of a `side`×`side` tactics map: plain ground with walls (`#`, one cell in 11) and forest
/// (`f`, two in 11) scattered by a fixed hash of the position, so every run draws the same map.
pub fn maze_rows(side: u32) -> Vec<String> {
    (0..side)
        .map(|y| {
            (0..side)
                .map(|x| match (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 11 {
                    0 => '#',
                    1 | 2 => 'f',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}
