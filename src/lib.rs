//! An exact, instant 8-puzzle solver.
//!
//! A reverse breadth-first search ([`bfs`]) runs once, offline, from each of
//! the nine canonical goals (tiles in order, the blank in any one cell) and
//! stores for every board its next move toward the goal: 2 bits per board,
//! indexed by the board's Lehmer [`rank`], compressed with zstd into one file
//! ([`format`](mod@format)). A [`Table`] reads that file in place from any bytes and
//! answers a board by walking its next moves to the goal: the shortest
//! answer, and of the shortest the lexicographically smallest (`d < l < r <
//! u`, letters naming where the blank goes). Relabelling the tiles turns any
//! goal board into a canonical one, so the nine sections answer every start
//! toward every goal.
//!
//! Boards too large for a table of every board (the 15-puzzle's 10^13) are
//! solved by IDA* ([`ida`]) guided by additive pattern databases ([`pdb`]),
//! built offline into a file of the same format and read in place.
//!
//! # Example
//!
//! ```
//! use eight::{Board, Solution, Table};
//!
//! let table = Table::builtin()?;
//! let board: Board = "2 3 4 1 5 x 7 6 8".parse()?;
//! let solution = table.solve(&board)?;
//! // 19 moves, the lexicographically smallest of the shortest answers.
//! assert_eq!(solution.to_string(), "dlurullddrurdllurdr");
//!
//! // Any goal, as in HDU 3567 "Eight II".
//! let start: Board = "12X453786".parse()?;
//! let goal: Board = "12345678X".parse()?;
//! assert_eq!(table.solve_to(&start, &goal)?.to_string(), "dd");
//!
//! // Half of all boards cannot reach the goal.
//! let swapped: Board = "2 1 3 4 5 6 7 8 x".parse()?;
//! assert_eq!(table.solve(&swapped)?, Solution::Unsolvable);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod bfs;
pub mod board;
pub mod format;
pub mod ida;
pub mod pdb;
pub mod rank;
pub mod table;

pub use crate::board::{Board, Item, Move, ParseError, Parser, Shape};
pub use crate::format::TableError;
pub use crate::table::{Solution, SolveError, Table};
