//! The reverse breadth-first search that makes the next-move codes.
//!
//! From a goal, the search visits every board that can reach it, layer by
//! layer. A board first met at depth `d + 1` from a board at depth `d` by the
//! blank moving `m` goes back toward the goal by `m.opposite()`; of all such
//! moves, from all its neighbours at depth `d`, the code keeps the smallest.
//! Following the smallest such move at every step gives, of all shortest
//! paths, the lexicographically smallest: any shortest path that starts with
//! a smaller letter would need a neighbour at depth `d`, which would have
//! given that letter.

use crate::board::{Board, MAX_CELLS, Move, Shape};
use crate::format::{self, SectionCodes};
use crate::rank::{board_rank, factorial};

/// The most cells a board may have for a full search: `n!` must index a
/// `Vec` of bytes in memory.
pub const MAX_SEARCH_CELLS: usize = 12;

/// What the search found for one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The codes, one byte per entry `rank / 2` (see [`crate::format`](mod@crate::format)).
    pub codes: Vec<u8>,
    /// `histogram[d]` is the number of boards at distance `d` from the goal.
    pub histogram: Vec<u64>,
}

impl Search {
    /// The longest shortest path to the goal.
    pub fn max_depth(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }
}

/// Runs the reverse search from `goal`.
///
/// # Panics
///
/// Panics if the board has more than [`MAX_SEARCH_CELLS`] cells.
pub fn search(goal: &Board) -> Search {
    let shape = goal.shape();
    let n = shape.cells();
    assert!(
        n <= MAX_SEARCH_CELLS,
        "a full search of a {shape} board does not fit in memory"
    );
    const UNSEEN: u8 = u8::MAX;
    let states = factorial(n) as usize;
    let mut depth = vec![UNSEEN; states];
    let mut codes = vec![0u8; states / 2];
    let mut histogram = vec![1u64];

    let goal_rank = board_rank(goal) as usize;
    depth[goal_rank] = 0;
    let mut layer = vec![*goal];
    let mut next_layer = Vec::new();
    let mut d = 0u8;
    while !layer.is_empty() {
        for board in &layer {
            for mv in Move::ALL {
                let Some(next) = board.moved(mv) else {
                    continue;
                };
                let r = board_rank(&next) as usize;
                let back = mv.opposite().code();
                if depth[r] == UNSEEN {
                    depth[r] = d + 1;
                    codes[r / 2] = back;
                    next_layer.push(next);
                } else if depth[r] == d + 1 && back < codes[r / 2] {
                    codes[r / 2] = back;
                }
            }
        }
        if !next_layer.is_empty() {
            histogram.push(next_layer.len() as u64);
        }
        std::mem::swap(&mut layer, &mut next_layer);
        next_layer.clear();
        d += 1;
    }
    Search { codes, histogram }
}

/// A goal finished by [`generate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalDone {
    /// The goal.
    pub goal: Board,
    /// Boards that reach it, the goal included.
    pub boards: u64,
    /// The longest shortest path to it.
    pub max_depth: u32,
}

/// Searches from every canonical goal of `shape` and writes the table file
/// (see [`crate::format`](mod@crate::format)), telling `progress` as each goal is done. The
/// bytes depend only on the shape.
///
/// # Panics
///
/// Panics if the board has more than [`MAX_SEARCH_CELLS`] cells.
pub fn generate(shape: Shape, mut progress: impl FnMut(&GoalDone)) -> Vec<u8> {
    assert!(shape.cells() <= MAX_CELLS);
    let sections: Vec<SectionCodes> = (0..shape.cells())
        .map(|blank| {
            let goal = Board::canonical(shape, blank);
            let found = search(&goal);
            progress(&GoalDone {
                goal,
                boards: found.histogram.iter().sum(),
                max_depth: found.max_depth(),
            });
            SectionCodes {
                goal,
                max_depth: found.max_depth(),
                codes: found.codes,
            }
        })
        .collect();
    format::encode(shape, &sections)
}
