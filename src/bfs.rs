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

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::{Board, MAX_CELLS, Move, Shape};
use crate::format::{self, Frame, SectionCodes};
use crate::rank::{board_rank, factorial, rank_delta};

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
    /// A board met by the search, with its blank and rank.
    #[derive(Clone, Copy)]
    struct Node {
        cells: [u8; MAX_CELLS],
        blank: usize,
        rank: u64,
    }

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
    let targets = shape.neighbor_table();

    let mut start = Node {
        cells: [0; MAX_CELLS],
        blank: goal.blank(),
        rank: board_rank(goal),
    };
    start.cells[..n].copy_from_slice(goal.cells());
    depth[start.rank as usize] = 0;
    let mut layer = vec![start];
    let mut next_layer = Vec::new();
    let mut d = 0u8;
    while !layer.is_empty() {
        for node in &layer {
            for (mv, target) in Move::ALL.into_iter().zip(targets[node.blank]) {
                let Some(target) = target.map(usize::from) else {
                    continue;
                };
                let rank =
                    node.rank
                        .wrapping_add_signed(rank_delta(&node.cells[..n], node.blank, target));
                let r = rank as usize;
                let back = mv.opposite().code();
                if depth[r] == UNSEEN {
                    depth[r] = d + 1;
                    codes[r / 2] = back;
                    let mut next = Node {
                        blank: target,
                        rank,
                        ..*node
                    };
                    next.cells.swap(node.blank, target);
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
/// (see [`crate::format`](mod@crate::format)). The goals are searched and
/// compressed on every core; then `progress` is told about each goal, in
/// order. The bytes depend only on the shape.
///
/// # Panics
///
/// Panics if the board has more than [`MAX_SEARCH_CELLS`] cells.
pub fn generate(shape: Shape, mut progress: impl FnMut(&GoalDone)) -> Vec<u8> {
    let goals: Vec<Board> = (0..shape.cells())
        .map(|blank| Board::canonical(shape, blank))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next_goal = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<(GoalDone, Frame)>>> =
        goals.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(goals.len()) {
            scope.spawn(|| {
                loop {
                    let index = next_goal.fetch_add(1, Ordering::Relaxed);
                    let Some(goal) = goals.get(index) else { return };
                    let found = search(goal);
                    let done = GoalDone {
                        goal: *goal,
                        boards: found.histogram.iter().sum(),
                        max_depth: found.max_depth(),
                    };
                    let frame = Frame::new(&SectionCodes {
                        goal: *goal,
                        max_depth: found.max_depth(),
                        codes: found.codes,
                    });
                    *results[index].lock().expect("no thread panics") = Some((done, frame));
                }
            });
        }
    });
    let frames: Vec<Frame> = results
        .into_iter()
        .map(|slot| {
            let (done, frame) = slot
                .into_inner()
                .expect("no thread panics")
                .expect("every goal is searched");
            progress(&done);
            frame
        })
        .collect();
    format::assemble(shape, &frames)
}
