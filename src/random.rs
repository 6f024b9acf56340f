//! Random boards, drawn uniformly from those that can reach a goal (or from
//! those exactly a number of moves from it), from a seed that draws the
//! same boards on every machine: ChaCha8 has a fixed, documented output for
//! a seed. `eight --random N --seed S` writes these boards.
//!
//! # Example
//!
//! ```
//! use eight::random::Draw;
//! use eight::{Board, Shape, Solver};
//!
//! let goal = Board::goal(Shape::EIGHT);
//! let boards: Vec<Board> = Draw::new(goal, 7).take(3).collect();
//! assert!(boards.iter().all(|board| board.solvable_to(&goal)));
//! // The same seed, the same boards.
//! assert_eq!(boards, Draw::new(goal, 7).take(3).collect::<Vec<_>>());
//!
//! // Boards exactly 20 moves away, from the shape's table.
//! let solver = Solver::builtin(Shape::EIGHT)?;
//! let far = Draw::at_depth(goal, 7, 20, &solver)?.next().expect("a board");
//! assert_eq!(solver.solve(&far)?.moves().map(<[_]>::len), Some(20));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::answer::SolveError;
use crate::board::Board;
use crate::shape::{Move, Shape};
use crate::solver::Solver;

/// Why boards of an exact depth cannot be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DepthError {
    /// The shape is searched: no table of every board to draw from.
    #[error(
        "{0} boards are searched, not answered from a table of every board, so the boards of an \
         exact depth cannot be drawn uniformly; it works for shapes of up to 12 cells (a walk \
         draws boards near the goal on any shape)"
    )]
    Searched(Shape),
    /// No board is that far.
    #[error("no {shape} board is {depth} moves from the goal; the farthest are {farthest}")]
    TooFar {
        /// The shape.
        shape: Shape,
        /// The depth asked.
        depth: u32,
        /// The farthest any board is.
        farthest: u32,
    },
    /// The table could not be read.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// How near the goal boards are drawn, if not from all that reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Near {
    /// Exactly this many moves away ([`Draw::at_depth`], `--depth`).
    Depth(u32),
    /// At the end of a walk of this many moves ([`Draw::walk`], `--walk`).
    Walk(u32),
}

/// Boards drawn one after another ([`Iterator`]), endlessly.
#[derive(Clone, Debug)]
pub struct Draw {
    rng: ChaCha8Rng,
    goal: Board,
    /// With a depth, every board at that depth, to draw from.
    pool: Option<Vec<Board>>,
    /// With a walk, its moves.
    walk: Option<u32>,
}

impl Draw {
    /// A seed drawn from the system, for a draw that need not be repeated.
    pub fn seed() -> u64 {
        rand::rng().random()
    }

    /// Boards drawn uniformly from all that can reach `goal`.
    pub fn new(goal: Board, seed: u64) -> Draw {
        Draw {
            rng: ChaCha8Rng::seed_from_u64(seed),
            goal,
            pool: None,
            walk: None,
        }
    }

    /// Boards drawn uniformly from those whose shortest answer toward
    /// `goal` is exactly `depth` moves, as the table of `solver` says.
    ///
    /// # Errors
    ///
    /// Fails if `solver` searches (it has no table of every board), if no
    /// board is that far, or if its table cannot be read.
    pub fn at_depth(
        goal: Board,
        seed: u64,
        depth: u32,
        solver: &Solver,
    ) -> Result<Draw, DepthError> {
        let shape = goal.shape();
        let pool = solver
            .at_distance(&goal, depth)
            .ok_or(DepthError::Searched(shape))??;
        if pool.is_empty() {
            let farthest = solver.max_depth(&goal).unwrap_or(0);
            return Err(DepthError::TooFar {
                shape,
                depth,
                farthest,
            });
        }
        Ok(Draw {
            pool: Some(pool),
            ..Draw::new(goal, seed)
        })
    }
}

impl Draw {
    /// Boards at most `moves` moves from `goal`, for shapes with no table
    /// of every board to draw an exact depth from: each the end of a walk
    /// of `moves` moves of the blank from the goal, each move drawn
    /// uniformly from those that do not undo the last one.
    pub fn walk(goal: Board, seed: u64, moves: u32) -> Draw {
        Draw {
            walk: Some(moves),
            ..Draw::new(goal, seed)
        }
    }
}

impl Iterator for Draw {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        Some(match (&self.pool, self.walk) {
            (Some(pool), _) => pool[self.rng.random_range(0..pool.len())],
            (None, Some(moves)) => walked(self.goal, moves, &mut self.rng),
            (None, None) => solvable(&self.goal, &mut self.rng),
        })
    }
}

/// The end of a walk of `moves` moves from `goal` that never undoes a move.
fn walked(goal: Board, moves: u32, rng: &mut ChaCha8Rng) -> Board {
    let mut board = goal;
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let choices: Vec<(Move, Board)> = Move::ALL
            .into_iter()
            .filter(|mv| last != Some(mv.opposite()))
            .filter_map(|mv| board.moved(mv).map(|next| (mv, next)))
            .collect();
        let (mv, next) = choices[rng.random_range(0..choices.len())];
        board = next;
        last = Some(mv);
    }
    board
}

/// A board drawn uniformly from those that can reach `goal`: the cells
/// shuffled, and if the board cannot reach the goal, the tiles of its first
/// two cells without the blank swapped. The swap pairs each board that
/// cannot with one that can, one to one, so every board that can is drawn
/// as often.
fn solvable(goal: &Board, rng: &mut ChaCha8Rng) -> Board {
    let shape = goal.shape();
    let mut cells: Vec<u8> = (0..shape.cells() as u8).collect();
    cells.shuffle(rng);
    let board = Board::from_cells(shape, &cells).expect("a shuffle holds every tile once");
    if board.solvable_to(goal) {
        return board;
    }
    let tiles: Vec<usize> = (0..cells.len())
        .filter(|&c| cells[c] != 0)
        .take(2)
        .collect();
    cells.swap(tiles[0], tiles[1]);
    Board::from_cells(shape, &cells).expect("a swap holds every tile once")
}
