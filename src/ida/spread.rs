//! Databases spread out for long searches: each entry at an index of 4
//! bits a tile's cell, which a move changes by a shift and an add.

use crate::ida::{ROW, Searcher};
use crate::pdb::{PdbTable, Values};
use crate::shape::MAX_CELLS;

/// The most bytes of spread entries.
pub(super) const SPREAD_MOST: usize = 32 << 20;

/// The nodes of one search after which it spreads the entries, by default:
/// the spreading costs about as much as 250,000 nodes save.
pub(super) const SPREAD_AFTER: u64 = 250_000;

/// Whether `table`'s groups spread: every one stored in nibbles, all in at
/// most [`SPREAD_MOST`] bytes.
pub(super) fn spreads<D: AsRef<[u8]> + Sync>(table: &PdbTable<D>, groups: &[Group]) -> bool {
    let bytes: usize = groups
        .iter()
        .map(|g| (1usize << (4 * g.len)).div_ceil(2))
        .sum();
    // A cell in 4 bits: boards of up to 16 cells.
    table.goal().shape().small()
        && bytes <= SPREAD_MOST
        && (0..table.len()).all(|g| matches!(table.values(g), Values::Nibbles(_)))
}

/// The entries of `table`'s groups at their spread indexes; `table`
/// [spreads].
pub(super) fn spread<D: AsRef<[u8]> + Sync>(table: &PdbTable<D>, groups: &[Group]) -> Vec<Vec<u8>> {
    let n = table.goal().shape().cells();
    let mut all = Vec::with_capacity(groups.len());
    for (g, group) in groups.iter().enumerate() {
        let Values::Nibbles(nibbles) = table.values(g) else {
            unreachable!("spread databases are in nibbles");
        };
        let mut out = vec![0u8; (1usize << (4 * group.len)).div_ceil(2)];
        // Placements in rank order are in the order of their cells, first
        // tile first: walk them so, keeping the spread index.
        let mut rank = 0usize;
        if group.len > 0 {
            spread_from(nibbles, &mut out, n, group.len, 0, 0, &mut rank);
        }
        all.push(out);
    }
    all
}

/// Spreads the entries of the placements whose first tiles are on `used`,
/// at spread index `index` so far, from rank `rank` on; `left` tiles are
/// still to place.
pub(super) fn spread_from(
    nibbles: &[u8],
    out: &mut [u8],
    n: usize,
    left: usize,
    used: u32,
    index: usize,
    rank: &mut usize,
) {
    if left == 1 {
        // The last tile's 16 cells are 8 bytes in a row.
        let mut word = 0u64;
        let mut free = !used & ((1 << n) - 1);
        while free != 0 {
            // Up to 15 entries in a row from the rank on, in one load.
            let mut window = [0u8; 8];
            let from = *rank / 2;
            let to = nibbles.len().min(from + 8);
            window[..to - from].copy_from_slice(&nibbles[from..to]);
            let mut entries = u64::from_le_bytes(window) >> (4 * (*rank % 2));
            for _ in 0..15 {
                if free == 0 {
                    break;
                }
                let cell = free.trailing_zeros();
                free &= free - 1;
                word |= (entries & 15) << (4 * cell);
                entries >>= 4;
                *rank += 1;
            }
        }
        out[index * 8..index * 8 + 8].copy_from_slice(&word.to_le_bytes());
        return;
    }
    for cell in (0..n).filter(|&cell| used & (1 << cell) == 0) {
        spread_from(
            nibbles,
            out,
            n,
            left - 1,
            used | 1 << cell,
            index << 4 | cell,
            rank,
        );
    }
}

impl<D: AsRef<[u8]> + Sync> Searcher<D> {
    /// The rank of `tile`'s group once the tile moves from `old` to `new`,
    /// next to each other, from its rank `rank` with `on` the tile on each
    /// cell: only the tile's digit changes, and those of the group's later
    /// tiles on the cells between the two, each by one.
    #[inline(always)]
    pub(super) fn rank_after(
        &self,
        rank: u32,
        on: &[u8; MAX_CELLS],
        tile: usize,
        old: usize,
        new: usize,
    ) -> u32 {
        let (low, high) = if old < new { (old, new) } else { (new, old) };
        // The tile's digit counts the free cells before it: it moves by the
        // cells between the two, less the group's earlier tiles there, and
        // each later tile there counts one more or one fewer.
        let changes = &self.changes[tile];
        let mut change = (high - low) as u32 * self.weight[tile];
        for &t in &on[low + 1..high] {
            change = change.wrapping_add(changes[usize::from(t) & (ROW - 1)]);
        }
        let after = match old < new {
            true => rank.wrapping_add(change),
            false => rank.wrapping_sub(change),
        };
        #[cfg(debug_assertions)]
        {
            let mut pos = [0u8; MAX_CELLS];
            for (cell, &t) in on.iter().enumerate() {
                pos[usize::from(t) % MAX_CELLS] = cell as u8;
            }
            debug_assert_eq!(
                self.rank(usize::from(self.group_of[tile]), &pos),
                rank as usize,
                "the rank kept"
            );
            pos[tile] = new as u8;
            debug_assert_eq!(
                self.rank(usize::from(self.group_of[tile]), &pos),
                after as usize,
                "the rank after"
            );
        }
        after
    }
}

/// A group's tiles and the weight of each one's digit in the rank of
/// their placement.
#[derive(Clone, Copy, Debug)]
pub(super) struct Group {
    pub(super) tiles: [u8; MAX_CELLS],
    pub(super) weights: [u32; MAX_CELLS],
    pub(super) len: usize,
}
