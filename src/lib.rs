//! An exact, instant sliding-puzzle solver for every rectangular board of up
//! to 25 cells, from the 8-puzzle (3x3) to the 15-puzzle (4x4) and the
//! 24-puzzle (5x5).
//!
//! For boards of up to 12 cells a reverse breadth-first search runs once,
//! offline, from each goal with the tiles in order (one per blank cell) and
//! stores for every board its next move toward the goal: 2 bits per board,
//! indexed by the board's Lehmer [rank](Board::rank), compressed with zstd
//! into one file. A [`Solver`] reads that file in place and answers a
//! board by walking its next moves to the goal: the shortest
//! answer, and of the shortest the lexicographically smallest (`d < l < r <
//! u`, letters naming where the blank goes). Relabelling the tiles turns any
//! goal into one with the tiles in order, so the tables answer every start
//! toward every goal.
//!
//! Larger boards (the 15-puzzle has 10^13, the 24-puzzle 7.8 * 10^24) are
//! solved by IDA* guided by additive pattern databases, built offline into
//! files of the same format. Moves are
//! counted a tile at a time, or with [`Metric::Mtm`] a run of tiles slid at
//! once a move: each metric has tables and a search of its own (one IDA*
//! driver, the metric a parameter) behind the same [`Solver`], and [`data`]
//! says which shape is answered how, from which data, and where it lives.
//! [`Solvers`] answer any goal: each goal's solver loaded on first use,
//! from the built-in data and the data folder, a failure typed
//! ([`DataError`]). [`Solver::solve_many`] is the
//! fast way to answer many boards, and [`Solver::lengths_many`] to count
//! their moves: values straight from the tables' fast paths (answers derived
//! in bulk, walks side by side), on every core. A search stops when its
//! [`Stop`] is asked for, from another thread or at a deadline
//! ([`Solver::stopping`]).
//!
//! - [`generate`] makes the data, as `eight-gen` does.
//! - [`Parser`] is the one input rule of the program, the server and Python:
//!   boards and their errors ([`Item`]) from any stream of bytes.
//! - [`progress`] tells how a search deepens, for whoever shows it.

//! # Example
//!
//! ```
//! use eight::{Board, Shape, Solution, Solver};
//!
//! let solver = Solver::builtin(Shape::EIGHT)?;
//! let board: Board = "2 3 4 1 5 x 7 6 8".parse()?;
//! // 19 moves, the lexicographically smallest of the shortest answers.
//! assert_eq!(solver.solve(&board)?.to_string(), "dlurullddrurdllurdr");
//!
//! // Any goal, as in HDU 3567 "Eight II".
//! let start: Board = "12X453786".parse()?;
//! let goal: Board = "12345678X".parse()?;
//! assert_eq!(solver.solve_to(&start, &goal)?.to_string(), "dd");
//!
//! // Half of all boards cannot reach the goal.
//! let swapped: Board = "2 1 3 4 5 6 7 8 x".parse()?;
//! assert_eq!(solver.solve(&swapped)?, Solution::Unsolvable);
//!
//! // A million boards, parsed already: on every core, the fastest way.
//! let million = vec![board; 1_000_000];
//! let answers = solver.solve_many(&million, &Board::goal(Shape::EIGHT))?;
//! assert!(answers.iter().all(|answer| answer.length() == Some(19)));
//!
//! // Every shape of up to 9 cells is built in.
//! let shape: Shape = "2x4".parse()?;
//! let small = Solver::builtin(shape)?;
//! let board = Board::parse(shape, b"1 2 3 4 5 6 x 7")?;
//! assert_eq!(small.solve(&board)?.to_string(), "r");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod answer;
mod bfs;
mod board;
pub mod data;
mod deepen;
mod file;
pub mod generate;
mod ida;
mod map;
mod mem;
mod metric;
mod mtm;
mod parse;
mod pdb;
pub mod progress;
mod prune;
#[cfg(feature = "random")]
pub mod random;
mod rank;
mod shape;
mod solver;
mod split;
mod stop;

mod table;
#[cfg(test)]
mod tests;
mod trust;

pub use crate::answer::{Analysis, Damage, Solution, SolveError, Verdict, Walk};
pub use crate::board::{Board, Layout, ParseError};
pub use crate::data::DataDir;
pub use crate::deepen::Subtrees;
pub use crate::metric::Metric;
pub use crate::parse::{Item, Parser};
pub use crate::shape::{Move, Notation, Shape};
pub use crate::solver::{Answer, DataError, Loading, Options, Proving, Solutions, Solver, Solvers};
pub use crate::stop::Stop;
