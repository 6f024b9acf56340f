//! The proof that a table's codes are right, and the boards layer by layer
//! from the goal that it walks.

use crate::answer::Proof;
use crate::answer::SolveError;
use crate::bfs::{self, AHEAD, Node, UNSEEN, code_at, expand, neighbors, unpack};
use crate::board::Board;
use crate::mem::prefetch;
use crate::rank::{PackedMoves, cells_rank, pack, with_passes};
use crate::shape::{Move, Shape};
use crate::table::{MoveSet, Table, comes_back, leads_back};
use std::sync::atomic::{AtomicU8, Ordering};

/// Follows the codes one layer further from `layer`, the boards at depth
/// `d`: returns the boards at `d + 1` (those whose code leads back into the
/// layer) and, per part of the layer, the first thing found wrong. `P` is
/// [`PackedMoves::passes`].
pub(super) fn prove_layer<const P: usize>(
    moves: &PackedMoves,
    shape: Shape,
    layer: &[Node],
    d: u32,
    dist: &[AtomicU8],
    codes: &[u8],
    fetch_ahead: bool,
) -> (Vec<Node>, Vec<Option<Proof>>) {
    let n = shape.cells();
    expand(layer, |part, next, _| {
        for (i, &node) in part.iter().enumerate() {
            // What a board further on reads, fetched ahead (see
            // `bfs::search`).
            if let Some(&ahead) = part.get(i + AHEAD).filter(|_| fetch_ahead) {
                for (_, rank) in neighbors::<P>(moves, n, ahead).into_iter().flatten() {
                    let entry = (rank / 2) as usize;
                    prefetch(dist, entry);
                    prefetch(codes, entry / 4);
                }
            }
            let code = code_at(codes, node.1 / 2);
            for (mv, found) in Move::ALL.into_iter().zip(neighbors::<P>(moves, n, node)) {
                let Some((board, rank)) = found else {
                    continue;
                };
                let entry = rank / 2;
                let seen = dist[entry as usize].load(Ordering::Relaxed);
                if d > 0 && seen != UNSEEN {
                    let board = || Board::from_permutation(shape, &unpack(node.0, n).0[..n]);
                    if u32::from(seen) + 1 < d {
                        return Some(Proof::NotShortest {
                            board: board(),
                            depth: d,
                        });
                    }
                    // Moves come in letter order: the first such is the
                    // smallest.
                    if u32::from(seen) + 1 == d && mv.code() < code {
                        return Some(Proof::NotSmallest {
                            board: board(),
                            got: Move::from_code(code),
                            smaller: mv,
                        });
                    }
                }
                // The neighbour whose next move leads here is one step
                // further; only this board can be its parent. (The goal is
                // seen from the start.)
                if seen == UNSEEN && comes_back(codes, entry, mv) {
                    dist[entry as usize].store(d as u8 + 1, Ordering::Relaxed);
                    next.push((board, rank));
                }
            }
        }
        None
    })
}

/// Proves the packed 2-bit `codes` of a table toward `goal` right, as the
/// [`Table`](crate::table::Table) docs say; returns the number of boards at each distance.
///
/// # Errors
///
/// Fails with the first thing found wrong.
///
/// # Panics
///
/// Panics if `codes` are not `ceil(n! / 8)` bytes, one code per entry.
pub fn prove(goal: &Board, codes: &[u8]) -> Result<Vec<u64>, Proof> {
    let shape = goal.shape();
    let total = bfs::entries(shape);
    assert_eq!(codes.len() as u64, total.div_ceil(4), "one code per entry");
    let bound = shape.diameter_bound();
    let dist: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNSEEN)).collect();
    dist[(cells_rank(goal.cells()) / 2) as usize].store(0, Ordering::Relaxed);
    let mut layer = vec![(pack(goal.cells()), cells_rank(goal.cells()))];
    let mut histogram = vec![1u64];
    let fetch_ahead = bfs::fetch_pays(total);
    let moves = PackedMoves::new(shape);
    let mut d = 0u32;
    while !layer.is_empty() {
        if d > bound {
            return Err(Proof::TooLong { bound });
        }
        let (next, found) = with_passes!(moves.passes(), P => {
            prove_layer::<P>(&moves, shape, &layer, d, &dist, codes, fetch_ahead)
        });
        if let Some(proof) = found.into_iter().flatten().next() {
            return Err(proof);
        }
        if !next.is_empty() {
            histogram.push(next.len() as u64);
        }
        layer = next;
        d += 1;
    }
    let reached: u64 = histogram.iter().sum();
    match reached == total {
        true => Ok(histogram),
        false => Err(Proof::Unreached {
            boards: total - reached,
        }),
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Every board exactly `depth` moves from `goal`, in the table's
    /// [metric](Table::metric), found by following the codes backwards
    /// from the goal, layer by layer: a board is one move further than its
    /// neighbour when its next move leads there. The
    /// boards come in no particular order. Costs a search of the boards up
    /// to that depth: milliseconds on 3x3, up to a minute and gigabytes of
    /// memory on 12 cells.
    ///
    /// # Errors
    ///
    /// Fails as [`Table::solve_each`] does for the goal.
    pub fn at_distance(&self, goal: &Board, depth: u32) -> Result<Vec<Board>, SolveError> {
        /// The boards one move further from the goal than `layer`'s.
        fn next_layer<const P: usize>(
            moves: &PackedMoves,
            n: usize,
            codes: &[u8],
            goal_rank: u64,
            layer: &[Node],
        ) -> Vec<Node> {
            let (next, _) = expand(layer, |part, next, _| {
                for &node in part {
                    for (mv, found) in Move::ALL.into_iter().zip(neighbors::<P>(moves, n, node)) {
                        if let Some((board, rank)) = found
                            && leads_back(codes, goal_rank, rank, mv)
                        {
                            next.push((board, rank));
                        }
                    }
                }
            });
            next
        }
        let index = self.section(goal, None)?;
        let canonical = &self.sections.goals[index];
        let relabel = |board: Board| match goal == canonical {
            true => board,
            false => board.relabelled(canonical, goal),
        };
        let steps = match &self.moves {
            MoveSet::Steps(steps) => steps,
            MoveSet::Jumps(jumps) => {
                let found = self.jumps_at_distance(jumps, index, depth)?;
                return Ok(found.into_iter().map(relabel).collect());
            }
        };
        let codes = self.codes(index)?;
        let goal_rank = self.sections.goal_ranks[index];
        let n = self.sections.shape.cells();
        let moves = &*steps.packed_moves;
        let mut layer = vec![(pack(canonical.cells()), goal_rank)];
        for _ in 0..depth.min(self.sections.bound + 1) {
            layer = with_passes!(moves.passes(), P => {
                next_layer::<P>(moves, n, codes, goal_rank, &layer)
            });
        }
        if depth > self.sections.bound {
            layer.clear();
        }
        Ok(layer
            .into_iter()
            .map(|(packed, _)| {
                relabel(Board::from_permutation(
                    self.sections.shape,
                    &unpack(packed, n).0[..n],
                ))
            })
            .collect())
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, as the header says.
    pub fn max_depth(&self, goal: &Board) -> Option<u32> {
        self.sections.max_depth(goal)
    }
}
