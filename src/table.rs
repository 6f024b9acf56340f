//! Tables of next moves: the walk that answers a board, and the proof that a
//! table's moves are right.
//!
//! A [`Table`] reads a file of [next moves](crate::file) in place from any
//! bytes, in either [metric](crate::metric::Metric): single steps of the blank, or
//! the multi-tile metric's jumps (`table::jumps`). A board is answered by
//! following its codes to the goal, at most [`Shape::diameter_bound`]
//! moves, each one checked to stay on the board; the proof that the moves
//! are right is in [`Table`]'s docs.
//!

use std::fmt;
use std::sync::OnceLock;

use crate::answer::SolveError;
pub use crate::answer::{Proof, TableError};
use crate::bfs::{self, code_at};
use crate::board::Board;
use crate::file::{FileError, HeaderError, Kind, RawFile};
use crate::mem::Huge;
use crate::metric::Metric;
use crate::mtm::{Jumps, prove_jumps};
use crate::rank::{PackedMoves, rank_delta};
use crate::shape::{Move, SMALL_CELLS, Shape};

mod derived;
mod jumps;
mod lanes;
mod packed;
mod proof;
mod sections;

use crate::table::derived::Near;
pub(crate) use crate::table::derived::derive_after;
use crate::table::jumps::JumpMoves;
pub(crate) use crate::table::lanes::GROUP;
pub use crate::table::packed::Packed;
pub(crate) use crate::table::packed::{MAX_PACKED, spell};
pub use crate::table::proof::prove;
pub(crate) use crate::table::sections::Sections;

/// Whether the board of `rank`, one move `mv` from a board, is that board's
/// child in the tree the codes make: its next move leads back, and it is
/// not the goal (whose code means nothing).
#[inline(always)]
fn leads_back(codes: &[u8], goal_rank: u64, rank: u64, mv: Move) -> bool {
    rank != goal_rank && comes_back(codes, rank / 2, mv)
}

/// Whether the next move of the board of `entry`, one move `mv` from a
/// board, leads back to that board.
#[inline(always)]
fn comes_back(codes: &[u8], entry: u64, mv: Move) -> bool {
    code_at(codes, entry) == mv.opposite().code()
}

/// Checks the sections of a table file, of next moves (`per_byte` 4, see
/// [`crate::file`]) or jumps (2): one per goal, each a canonical goal, in
/// increasing order of the blank's cell, with one entry per board, and
/// longest answers no longer than the shape's bound. The section of each
/// blank cell, and the goals.
pub(crate) fn canonical_sections<D: AsRef<[u8]>>(
    file: &RawFile<D>,
    per_byte: u64,
) -> Result<([Option<u8>; SMALL_CELLS], Vec<Board>), TableError> {
    let shape = file.shape();
    let bound = shape.diameter_bound();
    let entries = bfs::entries(shape);
    let mut section_of = [None; SMALL_CELLS];
    let mut goals: Vec<Board> = Vec::new();
    for (index, section) in file.header().sections.iter().enumerate() {
        let blank = section.goal.iter().position(|&t| t == 0).unwrap_or(0);
        let invalid = |error: HeaderError| TableError::File(FileError::Header(error));
        if section.goal != Board::canonical(shape, blank).cells() || !section.tiles.is_empty() {
            return Err(invalid(HeaderError::Goal { section: index }));
        }
        if goals.last().is_some_and(|g| g.blank() >= blank) {
            return Err(invalid(HeaderError::Order { section: index }));
        }
        if section.entries != entries || section.raw_len != entries.div_ceil(per_byte) {
            return Err(invalid(HeaderError::Entries {
                section: index,
                expected: entries,
                got: section.entries,
                len: section.raw_len,
            }));
        }
        if section.max_depth > bound {
            return Err(invalid(HeaderError::Depth {
                section: index,
                got: section.max_depth,
                shape,
                bound,
            }));
        }
        section_of[blank] = Some(index as u8);
        goals.push(Board::canonical(shape, blank));
    }
    Ok((section_of, goals))
}

/// Per cell of `goal`'s shape, the parity of its distance from the goal's
/// blank: with the goal's parity, the solvability rule of
/// [`connected`](crate::board::connected) with no division a board.
pub(crate) fn distance_parities(goal: &Board) -> [u8; SMALL_CELLS] {
    let shape = goal.shape();
    let mut parity = [0u8; SMALL_CELLS];
    for (cell, p) in parity.iter_mut().enumerate().take(shape.cells()) {
        *p = (shape.distance(cell, goal.blank()) % 2) as u8;
    }
    parity
}

/// Of a table of `shape` with a section for the blank cells of
/// `section_of`, the section that answers boards toward `goal`, once `goal`
/// and `start` are found of the table's shape.
pub(crate) fn section_toward(
    shape: Shape,
    section_of: &[Option<u8>; SMALL_CELLS],
    goal: &Board,
    start: Option<&Board>,
) -> Result<usize, SolveError> {
    for board in start.into_iter().chain([goal]) {
        if board.shape() != shape {
            return Err(SolveError::Shape {
                expected: shape,
                got: board.shape(),
            });
        }
    }
    let blank = goal.blank();
    section_of[blank]
        .map(usize::from)
        .ok_or(SolveError::NoData { shape, blank })
}

/// A table of next moves, of either [metric](Table::metric), read in place
/// from any bytes: a `Vec<u8>`, a [memory map](crate::map), or a table
/// built into the program.
///
/// [`Table::new`] checks the header cheaply; a goal's codes are checked
/// against their checksum and decompressed the first time a board is solved
/// toward it, so a query touches only the section it needs, and proven
/// right then too if the table was made with [`Table::proving`]. The tables
/// built into the program were decoded when it was built, and are read in
/// place. [`Table::verify`] checks and proves every section.
///
/// # The proof
///
/// A checksum shows that a file is what its writer wrote, not that the moves
/// are right. [`Table::verify`] (and [`Table::proving`]) show that from the codes alone: following them
/// defines a distance for every board (the moves to the goal), and the codes
/// are right exactly when
///
/// 1. every board reaches the goal by them (no loop, no move off the board);
/// 2. no neighbour of a board is more than one step closer than the board's
///    own next move: then every distance is the true shortest one, since
///    along any shortest path the distance falls by at most one a move;
/// 3. no smaller letter than the code's leads one step closer: then the
///    answers are the lexicographically smallest of the shortest.
///
/// It is one search over the tree the codes make, as fast as making them.
/// A table of the multi-tile metric is proven otherwise, as pattern
/// databases are: its codes made anew by the breadth-first search that
/// makes them, every one compared (`mtm::prove_jumps`).
/// A table of next jumps is proven alike, a move being a jump, and every
/// code checked to start the canonical answer of the multi-tile metric
/// (see [`Metric`](crate::metric::Metric)).
pub struct Table<D> {
    /// The file, its sections and their codes.
    sections: Sections<D>,
    /// The moves the codes name, and what the table keeps for them.
    moves: MoveSet,
    /// The parity of each section's goal.
    goal_parities: Vec<usize>,
    /// Per section, per cell: the parity of the cell's distance from the
    /// goal's blank, so that solvability costs no division.
    distance_parity: Vec<[u8; SMALL_CELLS]>,
}

/// The moves a table's codes name, told by the file's kind: a code a
/// board, 2 bits for a step or 4 for a jump, with what the table keeps for
/// each kind of move beside its codes.
enum MoveSet {
    /// Single steps of the blank: the single-tile metric.
    Steps(Box<Steps>),
    /// Jumps of the blank over one or more cells: the multi-tile metric.
    Jumps(Box<JumpMoves>),
}

/// What a table of next moves keeps beside its codes.
struct Steps {
    /// `neighbors[cell][move code]`: where the blank goes.
    neighbors: [[Option<u8>; 4]; SMALL_CELLS],
    /// Whether walks in groups pay (see [`Table::groups_pay`]).
    groups_pay: bool,
    /// The moves of walks that go interleaved (see [`Table::solve_packed`]).
    packed_moves: Box<PackedMoves>,
    /// Each section's answers, derived once enough boards ask (see
    /// [`Table::write_answer`]).
    answers: Vec<OnceLock<Huge<u64>>>,
    /// Each section's near answers, found once enough boards ask (see
    /// [`Table::solve_packed`]).
    near: Vec<OnceLock<Near>>,
}

/// A derived answer, packed in a word with its letters 2 bits each: a
/// `u64` of single steps ([`Packed`]), a `u128` of the multi-tile metric.
pub(crate) trait Word: Copy {
    /// Appends the letters to `out`, and a newline if `line`; the number of
    /// moves, in the table's metric.
    fn spell(self, line: bool, out: &mut Vec<u8>) -> usize;

    /// The number of moves, in the table's metric.
    fn moves(self) -> usize;

    /// The letters as a [`Packed`] answer's word, if they fit (at most 31).
    fn packed(self) -> Option<u64>;
}

impl Word for u64 {
    #[inline(always)]
    fn spell(self, line: bool, out: &mut Vec<u8>) -> usize {
        spell(self, line, out)
    }

    #[inline(always)]
    fn moves(self) -> usize {
        Packed(self).len()
    }

    #[inline(always)]
    fn packed(self) -> Option<u64> {
        Some(self)
    }
}

/// Where a run of answers goes, one a board, in order: the values of the
/// typed batch (`Solver::solve_many`, `Solver::lengths_many`).
pub(crate) trait Sink {
    /// Whether the answers' moves are kept, or only their number.
    const MOVES: bool = true;
    /// A derived answer.
    fn word<W: Word>(&mut self, answer: W);
    /// An answer's letters (`d l r u`) and its number of moves.
    fn letters(&mut self, letters: &[u8], moves: usize);
    /// No answer: the board cannot reach the goal.
    fn unsolvable(&mut self);
}

/// Answers as numbers of moves, `None` for none.
impl Sink for Vec<Option<u16>> {
    const MOVES: bool = false;

    #[inline(always)]
    fn word<W: Word>(&mut self, answer: W) {
        self.push(Some(answer.moves() as u16));
    }

    fn letters(&mut self, _: &[u8], moves: usize) {
        self.push(Some(moves as u16));
    }

    fn unsolvable(&mut self) {
        self.push(None);
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Reads a table from `data`, checking its magic, version, header
    /// checksum and layout: one section per goal, each a canonical goal, in
    /// increasing order of the blank's cell, with one entry per board. The
    /// file's kind tells the table's [metric](Table::metric): next moves
    /// of single steps, or next jumps of the multi-tile metric.
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong with the header, or
    /// [`FileError::WrongKind`] if the file holds no table.
    pub fn new(data: D) -> Result<Table<D>, TableError> {
        let file = RawFile::new(data)?;
        let sections = match file.kind() {
            Kind::NextMoves => Sections::new(file, 4, |goal, codes| {
                prove(goal, codes).map(|histogram| histogram.len() as u32 - 1)
            })?,
            Kind::NextJumps => Sections::new(file, 2, |goal, codes| {
                prove_jumps(&Jumps::new(goal.shape()), goal, codes)
            })?,
            got => {
                return Err(TableError::File(FileError::WrongKind {
                    expected: Kind::NextMoves,
                    got,
                }));
            }
        };
        let shape = sections.shape;
        let goals = &sections.goals;
        let count = goals.len();
        let moves = match sections.file.kind() {
            Kind::NextJumps => MoveSet::Jumps(Box::new(JumpMoves::new(goals))),
            _ => MoveSet::Steps(Box::new(Steps {
                neighbors: shape.neighbor_table(),
                groups_pay: bfs::entries(shape).div_ceil(4) > 1 << 20,
                packed_moves: Box::new(PackedMoves::new(shape)),
                answers: (0..count).map(|_| OnceLock::new()).collect(),
                near: (0..count).map(|_| OnceLock::new()).collect(),
            })),
        };
        Ok(Table {
            moves,
            goal_parities: goals.iter().map(Board::parity).collect(),
            distance_parity: goals.iter().map(distance_parities).collect(),
            sections,
        })
    }

    /// A table of `metric` read from `data`, as [`Table::new`] reads it.
    ///
    /// # Errors
    ///
    /// As [`Table::new`], and [`FileError::WrongKind`] if the file holds a
    /// table of the other metric.
    pub fn of_metric(data: D, metric: Metric) -> Result<Table<D>, TableError> {
        let table = Table::new(data)?;
        match table.metric() == metric {
            true => Ok(table),
            false => Err(TableError::File(FileError::WrongKind {
                expected: match metric {
                    Metric::Stm => Kind::NextMoves,
                    Metric::Mtm => Kind::NextJumps,
                },
                got: table.file().kind(),
            })),
        }
    }

    /// How the table counts moves: the single-tile metric for a table of
    /// next moves, the multi-tile one for a table of next jumps.
    pub fn metric(&self) -> Metric {
        match self.moves {
            MoveSet::Steps(_) => Metric::Stm,
            MoveSet::Jumps(_) => Metric::Mtm,
        }
    }

    /// What a table of single steps keeps, if it is one: the fast paths
    /// of its walks are for single steps.
    #[inline(always)]
    fn steps(&self) -> Option<&Steps> {
        match &self.moves {
            MoveSet::Steps(steps) => Some(steps),
            MoveSet::Jumps(_) => None,
        }
    }

    /// This table, reading its codes from `decoded`, its sections' decoded
    /// back to back, instead of decoding them: for a table built into the
    /// program, whose sections were decoded (their zstd checksums checked)
    /// when it was built. A query on a 3x3 board then starts a quarter of a
    /// millisecond sooner, most of it a decoder starting with cold caches.
    /// `decoded` of another length than the sections' is not used: each
    /// section is then checked and decoded on first use, as in a file.
    /// [`Table::verify`] checks and proves the sections either way.
    pub(crate) fn with_decoded(mut self, decoded: &'static [u8]) -> Table<D> {
        self.sections.use_decoded(decoded);
        self
    }

    /// This table, with each section proven right before its first
    /// use: for tables from files, which a checksum cannot vouch for. A
    /// section of the 3x3 board takes a few milliseconds.
    #[cfg(test)]
    pub fn proving(mut self) -> Table<D> {
        self.sections.prove = true;
        self
    }

    /// Checks the checksum of every section, decodes it and proves it
    /// right, and checks the header's longest answers.
    ///
    /// # Errors
    ///
    /// Fails with the first section damaged or wrong.
    pub fn verify(&self) -> Result<(), TableError> {
        self.sections.verify()
    }

    /// The shape of the boards the table answers.
    pub fn shape(&self) -> Shape {
        self.sections.shape
    }

    /// The raw file under the table.
    pub fn file(&self) -> &RawFile<D> {
        &self.sections.file
    }

    /// The cells of the blank of the goals the table has sections for.
    pub fn blanks(&self) -> impl Iterator<Item = usize> + '_ {
        self.sections.goals.iter().map(Board::blank)
    }

    /// Whether the table answers boards toward `goal`: any goal of its
    /// shape whose blank is in the cell of one of its sections.
    pub fn serves(&self, goal: &Board) -> bool {
        self.sections.serves(goal)
    }

    /// Solves `start` toward the usual goal, tiles in order and the blank
    /// last.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    #[cfg(test)]
    pub fn solve(&self, start: &Board) -> Result<crate::Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.sections.shape))
    }

    /// Solves `start` toward any `goal` board.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    #[cfg(test)]
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<crate::Solution, SolveError> {
        let mut moves = Vec::new();
        Ok(match self.solve_each(start, goal, |mv| moves.push(mv))? {
            Some(_) => crate::Solution::Moves(moves),
            None => crate::Solution::Unsolvable,
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
    /// Fails if a board is of another shape, the table has no section for
    /// the goal's blank, or the section is damaged or wrong; `emit` may have
    /// been handed some moves by then.
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        Ok(Some(self.walk_letters(&start, rank, index, emit)?))
    }

    /// Solves `start` toward `goal` as [`Table::solve_each`] does, appending
    /// the letters of the answer to `out`; the number of moves, or `None` if
    /// unsolvable. Many boards are answered faster by
    /// [`Solver::solve_many`](crate::solver::Solver::solve_many), on every core.
    ///
    /// Once 8,192 boards (or a 32nd of the section's, if more) have asked a
    /// section, its answers are
    /// derived, all at once, from its codes: a board's answer is its next
    /// move followed by the answer of the board it leads to, so one pass
    /// over the tree the codes make, outward from the goal, gives every
    /// answer, packed in a word (2 bits a letter). A board is then answered
    /// by one load and four letters a step, instead of a chain of loads a
    /// move. This costs a few milliseconds and is paid only by inputs large
    /// enough to pay for it: in the single-tile metric 8 bytes a board
    /// (1.45 MB for a 3x3 goal), for sections whose answers fit in 31 moves
    /// (2x2, 2x3, 3x3), on up to 4 threads, one a core; in the multi-tile
    /// metric 16 bytes a board (2.9 MB for a 3x3 goal), for sections whose
    /// answers fit in 56 letters.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`]; `out` may hold some letters by then.
    pub fn write_answer(
        &self,
        start: &Board,
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        let entry = (rank / 2) as usize;
        match &self.moves {
            MoveSet::Steps(steps) => {
                if let Some(answers) = self.answers_after(steps, index, 1)? {
                    return Ok(Some(answers[entry].spell(false, out)));
                }
            }
            MoveSet::Jumps(jumps) => {
                if let Some(answers) = self.jump_answers_after(jumps, index, 1)? {
                    return Ok(Some(answers[entry].spell(false, out)));
                }
            }
        }
        Ok(Some(self.walk_letters(&start, rank, index, |mv| {
            out.push(mv.letter() as u8)
        })?))
    }

    /// Follows the codes of section `index` from `start`, relabelled toward
    /// its goal, to the goal, handing each step of the blank to `emit`; the
    /// number of moves in the table's metric.
    fn walk_letters(
        &self,
        start: &Board,
        rank: u64,
        index: usize,
        mut emit: impl FnMut(Move),
    ) -> Result<usize, TableError> {
        match &self.moves {
            MoveSet::Steps(steps) => self.walk(start, rank, index, |codes, cells, blank, rank| {
                let mv = Move::from_code(code_at(codes, *rank / 2));
                let Some(target) = steps.neighbors[*blank][usize::from(mv.code())] else {
                    return false;
                };
                let target = usize::from(target);
                *rank = rank.wrapping_add_signed(rank_delta(cells, *blank, target));
                cells.swap(*blank, target);
                *blank = target;
                emit(mv);
                true
            }),
            MoveSet::Jumps(jumps) => self.walk(start, rank, index, |codes, cells, blank, rank| {
                jumps.step(codes, cells, blank, rank, &mut emit)
            }),
        }
    }

    /// The section that answers boards toward `goal`, once `goal` and
    /// `start` are found of the table's shape.
    fn section(&self, goal: &Board, start: Option<&Board>) -> Result<usize, SolveError> {
        self.sections.section(goal, start)
    }

    /// Follows the codes of section `index` from `start` to its goal:
    /// `step` makes the move of the code of the board (cells, blank and
    /// rank), keeping the rank up to date ([`rank_delta`]), or says it
    /// leaves the board. The number of moves.
    fn walk(
        &self,
        start: &Board,
        mut rank: u64,
        index: usize,
        mut step: impl FnMut(&[u8], &mut [u8], &mut usize, &mut u64) -> bool,
    ) -> Result<usize, TableError> {
        let codes = self.codes(index)?;
        let goal_rank = self.sections.goal_ranks[index];
        let mut cells = [0u8; SMALL_CELLS];
        let cells = &mut cells[..start.cells().len()];
        cells.copy_from_slice(start.cells());
        let mut blank = start.blank();
        let mut count = 0;
        let wrong = |problem| TableError::Wrong {
            section: index,
            blank: self.sections.goals[index].blank(),
            proof: Proof::Walk {
                board: *start,
                problem,
            },
        };
        while rank != goal_rank {
            if count == self.sections.bound {
                return Err(wrong(
                    "do not reach the goal within the longest answer of the board",
                ));
            }
            if !step(codes, cells, &mut blank, &mut rank) {
                return Err(wrong("leave the board"));
            }
            count += 1;
        }
        Ok(count as usize)
    }

    /// The packed codes of section `index`, checked, decoded (and proven,
    /// if asked) on first use.
    #[inline]
    pub(crate) fn codes(&self, index: usize) -> Result<&[u8], TableError> {
        self.sections.codes(index)
    }
}

impl<D> fmt::Debug for Table<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("shape", &self.sections.shape)
            .field("sections", &self.sections.goals.len())
            .finish_non_exhaustive()
    }
}
