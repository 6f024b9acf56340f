//! An exact, instant sliding-puzzle solver for every rectangular board of up
//! to 16 cells, from the 8-puzzle (3x3) to the 15-puzzle (4x4).
//!
//! For boards of up to 12 cells a reverse breadth-first search ([`bfs`])
//! runs once, offline, from each goal with the tiles in order (one per
//! blank cell) and stores for every board its next move toward the goal: 2
//! bits per board, indexed by the board's Lehmer [`rank`], compressed with
//! zstd into one [file](mod@file). A [`Table`] reads that file in place and
//! answers a board by walking its next moves to the goal: the shortest
//! answer, and of the shortest the lexicographically smallest (`d < l < r <
//! u`, letters naming where the blank goes). Relabelling the tiles turns any
//! goal into one with the tiles in order, so the tables answer every start
//! toward every goal.
//!
//! Larger boards (the 15-puzzle has 10^13) are solved by IDA* ([`ida`])
//! guided by additive pattern databases ([`pdb`]), built offline into files
//! of the same format, and leaving out redundant move sequences
//! ([`prune`]). [`Solver`] puts both behind one interface, and
//! [`solver`] says which shape is answered how, from which data.
//!
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
//! // Every shape of up to 9 cells is built in.
//! let shape: Shape = "2x4".parse()?;
//! let small = Solver::builtin(shape)?;
//! let board = Board::parse(shape, b"1 2 3 4 5 6 x 7")?;
//! assert_eq!(small.solve(&board)?.to_string(), "r");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod answer;
pub mod bfs;
pub mod board;
pub mod data;
pub mod file;
pub mod ida;
pub mod map;
mod mem;
pub mod parse;
pub mod pdb;
pub mod prune;
pub mod rank;
pub mod shape;
pub mod solver;
pub mod stream;
pub mod table;
pub mod trust;

pub use crate::board::Board;
pub use crate::data::DataDir;
pub use crate::file::FileError;
pub use crate::ida::Searcher;
pub use crate::parse::{Item, Layout, ParseError, Parser};
pub use crate::pdb::{PatternDb, PdbTable};
pub use crate::shape::{Move, Shape, Symmetry};
pub use crate::solver::{DataError, Solution, SolveError, Solver};
pub use crate::table::{Table, TableError};
