//! A table of next moves over any bytes, and the walk that answers a board.

use std::fmt;
use std::sync::OnceLock;

use crate::board::{Board, MAX_CELLS, Move, Shape, connected, moves_to_string};
use crate::format::{self, Header, TableError};
use crate::rank::{board_rank, board_rank_and_parity, rank_delta};

/// The table built into this crate at compile time from
/// `generated/eight.table` (empty if that file was missing when it was built).
pub static BUILTIN_TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/eight.table"));

/// The answer for a board: the moves of the blank, or that there are none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// The shortest moves to the goal, lexicographically smallest of those;
    /// empty for a board already at the goal.
    Moves(Vec<Move>),
    /// No sequence of moves leads to the goal.
    Unsolvable,
}

impl Solution {
    /// The moves, or `None` if unsolvable.
    pub fn moves(&self) -> Option<&[Move]> {
        match self {
            Solution::Moves(moves) => Some(moves),
            Solution::Unsolvable => None,
        }
    }
}

/// Shows the move letters, or `unsolvable`.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Solution::Moves(moves) => f.write_str(&moves_to_string(moves)),
            Solution::Unsolvable => f.write_str("unsolvable"),
        }
    }
}

/// Why a board could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The board is not of the table's shape.
    #[error("a {got} board cannot be solved with a {expected} table")]
    Shape {
        /// The table's shape.
        expected: Shape,
        /// The board's shape.
        got: Shape,
    },
    /// The table is damaged or wrong.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Pattern databases lead only to goals with their blank in one cell.
    #[error("these pattern databases serve goals with the blank at cell {expected}, not {got}")]
    GoalBlank {
        /// The databases' blank cell.
        expected: usize,
        /// The goal's blank cell.
        got: usize,
    },
}

/// A table of next moves, read in place from any bytes: a `Vec<u8>`, a
/// memory map, or the [built-in table](Table::builtin).
///
/// [`Table::new`] checks the header cheaply; a goal's codes are checked and
/// decompressed the first time a board is solved toward it, so a query
/// touches only the section it needs. [`Table::verify`] checks every section.
pub struct Table<D> {
    data: D,
    header: Header,
    shape: Shape,
    body_start: usize,
    sections: Vec<OnceLock<Result<Box<[u8]>, TableError>>>,
    /// `neighbors[cell][move code]`: where the blank goes.
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    /// The goal of each section, its rank and its parity.
    goals: Vec<Board>,
    goal_ranks: Vec<u64>,
    goal_parities: Vec<usize>,
}

impl Table<&'static [u8]> {
    /// The table built into the crate.
    ///
    /// # Errors
    ///
    /// Fails if the crate was built without a valid `generated/eight.table`.
    pub fn builtin() -> Result<Table<&'static [u8]>, TableError> {
        Table::new(BUILTIN_TABLE)
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Reads a table from `data`, checking its magic, version, header
    /// checksum and layout.
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong with the header: see [`TableError`].
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let (header, body_start) = format::read_header_of(data.as_ref(), format::Kind::NextMoves)?;
        let shape = header.shape()?;
        let sections = header.sections.iter().map(|_| OnceLock::new()).collect();
        let goals: Vec<Board> = (0..shape.cells())
            .map(|blank| Board::canonical(shape, blank))
            .collect();
        let goal_ranks = goals.iter().map(board_rank).collect();
        let goal_parities = goals.iter().map(Board::parity).collect();
        Ok(Table {
            data,
            header,
            shape,
            body_start,
            sections,
            neighbors: shape.neighbor_table(),
            goals,
            goal_ranks,
            goal_parities,
        })
    }

    /// Checks the checksum of every section.
    ///
    /// # Errors
    ///
    /// Fails with the first damaged section.
    pub fn verify(&self) -> Result<(), TableError> {
        format::verify_sections(&self.header, self.body())
    }

    /// The shape of the boards the table answers.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The table's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Solves `start` toward the usual goal, tiles in order and the blank
    /// last.
    ///
    /// # Errors
    ///
    /// Fails if the board is of another shape or the table is damaged.
    pub fn solve(&self, start: &Board) -> Result<Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.shape))
    }

    /// Solves `start` toward any `goal` board.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape or the table is damaged.
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        Ok(match self.solve_each(start, goal, |mv| moves.push(mv))? {
            Some(_) => Solution::Moves(moves),
            None => Solution::Unsolvable,
        })
    }

    /// Solves `start` toward `goal`, handing each move of the answer to
    /// `emit` in turn; returns the number of moves, or `None` if `goal`
    /// cannot be reached. The fastest way to write many answers.
    ///
    /// The tiles are relabelled so that `goal` becomes the canonical goal
    /// with its blank in the same cell; the moves from the relabelled start
    /// to that canonical goal are the moves from `start` to `goal`.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape or the table is damaged; `emit`
    /// may have been handed some moves by then.
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        for board in [start, goal] {
            if board.shape() != self.shape {
                return Err(SolveError::Shape {
                    expected: self.shape,
                    got: board.shape(),
                });
            }
        }
        let blank = goal.blank();
        let canonical = &self.goals[blank];
        let start = match goal == canonical {
            true => *start,
            false => start.relabelled(goal, canonical),
        };
        let (rank, parity) = board_rank_and_parity(&start);
        if !connected(
            self.shape,
            parity ^ self.goal_parities[blank],
            start.blank(),
            blank,
        ) {
            return Ok(None);
        }
        Ok(Some(self.walk(&start, rank, blank, emit)?))
    }

    /// Follows the codes of section `index` from `start` to `goal`, keeping
    /// the rank up to date move by move ([`rank_delta`]).
    fn walk(
        &self,
        start: &Board,
        mut rank: u64,
        index: usize,
        mut emit: impl FnMut(Move),
    ) -> Result<usize, TableError> {
        let codes = self.codes(index)?;
        let max_depth = self.header.sections[index].max_depth as usize;
        let goal_rank = self.goal_ranks[index];
        let mut cells = [0u8; MAX_CELLS];
        let cells = &mut cells[..start.cells().len()];
        cells.copy_from_slice(start.cells());
        let mut blank = start.blank();
        let mut steps = 0;
        while rank != goal_rank {
            if steps == max_depth {
                return Err(TableError::Walk(format!(
                    "section {index} does not reach its goal within {max_depth} moves"
                )));
            }
            let mv = Move::from_code(format::code_at(codes, rank / 2));
            let Some(target) = self.neighbors[blank][usize::from(mv.code())] else {
                return Err(TableError::Walk(format!(
                    "section {index} moves the blank off the board"
                )));
            };
            let target = usize::from(target);
            rank = rank.wrapping_add_signed(rank_delta(cells, blank, target));
            cells.swap(blank, target);
            blank = target;
            steps += 1;
            emit(mv);
        }
        Ok(steps)
    }

    /// The packed codes of section `index`, decoded on first use.
    fn codes(&self, index: usize) -> Result<&[u8], TableError> {
        self.sections[index]
            .get_or_init(|| {
                format::decode_section(&self.header, self.body(), index).map(Vec::into_boxed_slice)
            })
            .as_deref()
            .map_err(Clone::clone)
    }

    fn body(&self) -> &[u8] {
        &self.data.as_ref()[self.body_start..]
    }
}

impl<D> fmt::Debug for Table<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("shape", &self.shape)
            .field("sections", &self.header.sections.len())
            .finish_non_exhaustive()
    }
}
