//! Pattern databases of the multi-tile metric: for a group of tiles, the
//! fewest MTM moves that bring them and the blank home, from every
//! placement of them.
//!
//! A database forgets every tile but its group's, and keeps the blank's
//! cell: a jump of the blank is a jump in the forgotten board too, moving
//! the group's tiles it passes, and costs one move there as on the board.
//! So its count is at most the board's (it is admissible), and so is the
//! largest of several databases' counts. They do not add up, as the
//! single-tile metric's do: one MTM move can carry tiles of three groups.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::bfs::UNSEEN;
use crate::board::Board;
use crate::mtm::bfs::on_every_core;
use crate::rank::{placements, rank_placement, unrank_placement};
use crate::shape::{MAX_CELLS, Move, Shape};

/// One database: the count of every placement of the blank and a group's
/// tiles, by the placement's rank.
pub(crate) struct MtmPdb {
    /// The blank, then the group's tiles.
    tiles: Vec<u8>,
    counts: Vec<u8>,
}

impl MtmPdb {
    /// The database of `tiles` (not the blank) toward `goal`, by a
    /// breadth-first search from the goal's placement, on every core.
    pub(crate) fn build(goal: &Board, tiles: &[u8]) -> MtmPdb {
        let shape = goal.shape();
        let n = shape.cells();
        let items: Vec<u8> = std::iter::once(0).chain(tiles.iter().copied()).collect();
        let home: Vec<u8> = items
            .iter()
            .map(|&t| {
                goal.cells()
                    .iter()
                    .position(|&c| c == t)
                    .expect("every tile") as u8
            })
            .collect();
        let len = placements(n, items.len());
        let counts: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNSEEN)).collect();
        counts[rank_placement(&home, n) as usize].store(0, Ordering::Relaxed);
        let neighbors = shape.neighbor_table();
        for depth in 0u8.. {
            let found: u64 = on_every_core(len, |low, high| {
                let mut found = 0;
                let mut at = [0u8; MAX_CELLS];
                for entry in low..high {
                    if counts[entry as usize].load(Ordering::Relaxed) != depth {
                        continue;
                    }
                    unrank_placement(entry, n, &mut at[..items.len()]);
                    jumps(shape, &neighbors, &at[..items.len()], |next| {
                        let slot = &counts[rank_placement(next, n) as usize];
                        if slot.load(Ordering::Relaxed) == UNSEEN
                            && slot
                                .compare_exchange(
                                    UNSEEN,
                                    depth + 1,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                        {
                            found += 1;
                        }
                    });
                }
                found
            })
            .into_iter()
            .sum();
            if found == 0 {
                break;
            }
        }
        MtmPdb {
            tiles: items,
            counts: counts.into_iter().map(AtomicU8::into_inner).collect(),
        }
    }

    /// The count of the board whose tile `t` stands on cell `cell_of[t]`.
    #[inline(always)]
    pub(crate) fn count(&self, cell_of: &[u8; MAX_CELLS], n: usize) -> u32 {
        let mut at = [0u8; MAX_CELLS];
        for (slot, &tile) in at.iter_mut().zip(&self.tiles) {
            *slot = cell_of[usize::from(tile)];
        }
        u32::from(self.counts[rank_placement(&at[..self.tiles.len()], n) as usize])
    }
}

/// Hands `found` the placement (the blank's cell first) after every jump of
/// the blank from the placement `at`: the group's tiles it passes each move
/// one cell back.
fn jumps(
    shape: Shape,
    neighbors: &[[Option<u8>; 4]; MAX_CELLS],
    at: &[u8],
    mut found: impl FnMut(&[u8]),
) {
    let mut item_at = [u8::MAX; MAX_CELLS];
    for (item, &cell) in at.iter().enumerate().skip(1) {
        item_at[usize::from(cell)] = item as u8;
    }
    debug_assert!(at.len() <= shape.cells());
    for mv in Move::ALL {
        let mut next = [0u8; MAX_CELLS];
        next[..at.len()].copy_from_slice(at);
        let mut blank = usize::from(at[0]);
        while let Some(target) = neighbors[blank][usize::from(mv.code())] {
            let target = usize::from(target);
            if let Some(slot) = next.get_mut(usize::from(item_at[target])) {
                *slot = blank as u8;
            }
            next[0] = target as u8;
            blank = target;
            found(&next[..at.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtm::Jumps;
    use crate::mtm::bfs::distances;

    /// A database of every tile is the board's own count: the table's.
    #[test]
    fn a_database_of_every_tile_counts_as_the_table() {
        for (shape, blank) in [("2x3", 5), ("3x3", 8), ("3x3", 4)] {
            let shape: Shape = shape.parse().unwrap();
            let goal = Board::canonical(shape, blank);
            let jumps = Jumps::new(shape);
            let distance = distances(&jumps, &goal, |_, _| {});
            let tiles: Vec<u8> = (1..shape.cells() as u8).collect();
            let every = MtmPdb::build(&goal, &tiles);
            let some = MtmPdb::build(&goal, &tiles[..3]);
            for entry in (0..distance.len() as u64).step_by(7) {
                let (cells, _, _) = jumps.board_of(entry, &goal);
                let mut cell_of = [0u8; MAX_CELLS];
                for (cell, &tile) in cells[..shape.cells()].iter().enumerate() {
                    cell_of[usize::from(tile)] = cell as u8;
                }
                let d = u32::from(distance[entry as usize]);
                assert_eq!(every.count(&cell_of, shape.cells()), d);
                assert!(some.count(&cell_of, shape.cells()) <= d);
            }
        }
    }
}
