//! What every way of answering returns: the answer ([`Solution`]), the
//! verdict on moves someone found ([`Verdict`], after a [`Walk`]), and why a
//! board could not be answered ([`SolveError`]), with what is wrong with a
//! data file ([`Damage`]: in detail a table's [`TableError`] and the
//! [`Proof`] that found it wrong, or the databases' [`PdbError`]). They lie
//! below the tables, the databases, the searches and the solver, which all
//! return them.

use std::fmt;

use crate::board::Board;
use crate::file::FileError;
use crate::shape::{Move, Shape, moves_to_string};

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

/// What [`Solver::judge`](crate::solver::Solver::judge) says of moves someone found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Legal, reaching the goal, as short as the shortest answer (whichever
    /// shortest one it is).
    Optimal,
    /// Legal, reaching the goal, this many moves longer than the shortest.
    LongerBy(usize),
    /// Legal, ending elsewhere.
    NotAtGoal,
    /// Move `i` leaves the board or is no move letter: counted from 1 in
    /// the metric judged in (in the multi-tile metric, a run of equal
    /// letters is one move).
    IllegalMove(usize),
    /// The board cannot reach the goal.
    Unsolvable,
}

/// `optimal`, `longer by K`, `not at goal`, `illegal move I` or
/// `unsolvable`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Optimal => f.write_str("optimal"),
            Verdict::LongerBy(k) => write!(f, "longer by {k}"),
            Verdict::NotAtGoal => f.write_str("not at goal"),
            Verdict::IllegalMove(i) => write!(f, "illegal move {i}"),
            Verdict::Unsolvable => f.write_str("unsolvable"),
        }
    }
}

/// Moves someone found, followed from their start board as their letters
/// come, for [`Solver::judge_walk`](crate::solver::Solver::judge_walk). However many the moves, a walk holds
/// two boards and two counts: a line of ten million moves is judged in the
/// memory of one.
///
/// ```
/// use eight::{Board, Shape};
/// use eight::Walk;
///
/// let start = Board::parse(Shape::EIGHT, b"1 2 3 4 5 6 7 x 8").unwrap();
/// let mut walk = Walk::new(start);
/// walk.follow(b"rl");
/// walk.follow(b"r");
/// assert_eq!(walk.moves(), 3);
/// assert_eq!(*walk.board(), Board::goal(Shape::EIGHT));
/// walk.follow(b"dd");
/// assert_eq!(walk.illegal(), Some(4));
/// assert_eq!(walk.moves(), 5);
/// // In the multi-tile metric, `rlr` are three moves and `dd` the fourth.
/// assert_eq!(walk.illegal_run(), Some(4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    start: Board,
    board: Board,
    moves: usize,
    /// Runs of equal letters, and the last letter.
    runs: usize,
    last: u8,
    /// The first illegal move: its letter's number, and its run's.
    illegal: Option<(usize, usize)>,
    /// In a tile letter's run (`R2`): its blank letter, the moves made of
    /// it, and the count read so far.
    run: Option<(u8, usize, usize)>,
}

/// The longest run a tile letter's count is followed for: longer than any
/// board's row, so past it every move is illegal and only counted.
const MAX_RUN: usize = 1 << 12;

impl Walk {
    /// No moves yet, from `start`.
    pub fn new(start: Board) -> Walk {
        Walk {
            start,
            board: start,
            moves: 0,
            runs: 0,
            last: 0,
            illegal: None,
            run: None,
        }
    }

    /// Follows more moves, written in any notation the program writes:
    /// blank letters (`dlur`, where the blank goes), or tile letters
    /// (`DLRU`, where the moved tile goes), each maybe followed by its count
    /// (`R2U2`); spaces between moves are skipped, and `-` (no moves) too.
    /// Moves may come in pieces: a count cut between two calls is read
    /// whole. After the first move that leaves the board or is no move,
    /// moves are only counted.
    pub fn follow(&mut self, text: &[u8]) {
        self.follow_each(text, |_| {});
    }

    /// Follows more moves as [`Walk::follow`] does, handing `each` the walk
    /// after every legal move: the boards a solve passes through, for an
    /// analysis of it ([`Solver::analyse`](crate::Solver::analyse)).
    ///
    /// # Example
    ///
    /// ```
    /// use eight::{Board, Walk};
    ///
    /// let mut walk = Walk::new("1 2 3 4 5 6 x 7 8".parse()?);
    /// let mut boards = Vec::new();
    /// walk.follow_each(b"L2", |walk| boards.push(walk.board().to_string()));
    /// assert_eq!(boards, ["1 2 3 4 5 6 7 x 8", "1 2 3 4 5 6 7 8 x"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn follow_each(&mut self, text: &[u8], mut each: impl FnMut(&Walk)) {
        let mut each = |walk: &Walk| {
            if walk.illegal.is_none() {
                each(walk)
            }
        };
        for &byte in text {
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' | b'-' => self.run = None,
                b'0'..=b'9' if self.run.is_some() => {
                    let (letter, made, count) = self.run.as_mut().expect("in a run");
                    let (letter, made_before) = (*letter, *made);
                    *count = (*count * 10 + usize::from(byte - b'0')).min(MAX_RUN);
                    let more = count.saturating_sub(made_before);
                    *made += more;
                    for _ in 0..more {
                        self.step(letter);
                        each(self);
                    }
                }
                b'D' | b'L' | b'R' | b'U' => {
                    let letter = Move::from_letter(char::from(byte.to_ascii_lowercase()))
                        .expect("a move letter")
                        .opposite()
                        .letter() as u8;
                    self.run = Some((letter, 1, 0));
                    self.step(letter);
                    each(self);
                }
                letter => {
                    self.run = None;
                    self.step(letter);
                    each(self);
                }
            }
        }
    }

    /// Follows one blank letter, or counts it once a move was illegal.
    fn step(&mut self, letter: u8) {
        self.count(letter);
        if self.illegal.is_some() {
            return;
        }
        match Move::from_letter(char::from(letter)).and_then(|mv| self.board.moved(mv)) {
            Some(next) => self.board = next,
            None => self.illegal = Some((self.moves, self.runs)),
        }
    }

    /// Counts one more letter, and its run if it starts one.
    fn count(&mut self, letter: u8) {
        self.moves += 1;
        self.runs += usize::from(letter != self.last);
        self.last = letter;
    }

    /// The start board.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The board the moves lead to, up to the first illegal one.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves followed, illegal ones included.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// The moves followed counted in the multi-tile metric, illegal ones
    /// included: the runs of equal letters.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// The number of the first illegal move, counted from 1, if any: its
    /// letter's number.
    pub fn illegal(&self) -> Option<usize> {
        self.illegal.map(|(letter, _)| letter)
    }

    /// The number of the first illegal move counted in the multi-tile
    /// metric, from 1, if any: the number of the run of equal letters that
    /// holds it (in `rrr` from a board with two cells to the right of the
    /// blank, move 1).
    pub fn illegal_run(&self) -> Option<usize> {
        self.illegal.map(|(_, run)| run)
    }
}

/// The analysis of moves someone found ([`Solver::analyse`]).
///
/// [`Solver::analyse`]: crate::Solver::analyse
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// What the moves came to, as [`Solver::judge`](crate::Solver::judge)
    /// says.
    pub verdict: Verdict,
    /// The distance to the goal of the start and of the board after each
    /// move (after each run in the multi-tile metric); empty if a move is
    /// illegal or the board cannot reach the goal.
    pub distances: Vec<usize>,
}

impl Analysis {
    /// The moves lost: those made, and those still to make, beyond the
    /// start's distance; `None` without distances.
    pub fn lost(&self) -> Option<usize> {
        let (first, last) = (self.distances.first()?, self.distances.last()?);
        Some(self.distances.len() - 1 + last - first)
    }

    /// The numbers of the moves, from 1, that brought the goal no closer.
    pub fn worse(&self) -> impl Iterator<Item = usize> + '_ {
        self.distances
            .windows(2)
            .enumerate()
            .filter(|(_, pair)| pair[1] >= pair[0])
            .map(|(at, _)| at + 1)
    }
}

/// Why a board could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A board is not of the solver's shape.
    #[error("a {got} board, but this solver answers {expected} boards")]
    Shape {
        /// The solver's shape.
        expected: Shape,
        /// The board's shape.
        got: Shape,
    },
    /// The solver has no data for goals with the blank in this cell.
    #[error("no data for {shape} goals with the blank at cell {blank}")]
    NoData {
        /// The shape.
        shape: Shape,
        /// The goal's blank cell.
        blank: usize,
    },
    /// A data file is damaged or wrong.
    #[error(transparent)]
    Damaged(#[from] Damage),
    /// The search passed the longest answer any board of the shape has: the
    /// databases are wrong.
    #[error(
        "the search passed {bound} moves, more than any {shape} board needs: the pattern \
         databases are wrong"
    )]
    TooDeep {
        /// The shape.
        shape: Shape,
        /// The longest answer of the shape.
        bound: u32,
    },
    /// The board is farther from the goal than the databases made at start
    /// answer at once: larger ones, made offline, are needed.
    #[error(
        "this {shape} board is far from the goal: {positions} positions searched without an \
         answer over the databases made at start; make those that answer it with `{build}` \
         ({cost})"
    )]
    TooFar {
        /// The shape.
        shape: Shape,
        /// The positions searched.
        positions: u64,
        /// The command that makes the databases.
        build: String,
        /// What making them takes.
        cost: &'static str,
    },
    /// A data file was changed or cut short while it was read (see
    /// [`DataDir::guard_truncation`](crate::DataDir::guard_truncation)).
    #[error("a data file was changed or cut short while it was read")]
    Changed,
    /// The search was asked to stop, or its deadline passed ([`crate::stop::Stop`]).
    #[error("the search was stopped before it found an answer")]
    Stopped,
    /// Moves that reach the goal are fewer than the shortest answer the data
    /// gives: the data is wrong.
    #[error(
        "moves reach the goal in {moves}, fewer than the {shortest} the data gives as \
         shortest: the data is wrong"
    )]
    ShorterThanShortest {
        /// The moves judged.
        moves: usize,
        /// The data's shortest answer.
        shortest: usize,
    },
    /// A part of a search was asked of a solver that has none to give
    /// (it answers from a table), or of letters that lead to no subtree.
    #[error("{0}")]
    NoPart(String),
    /// A board of a batch cannot be answered.
    #[error("the board at index {index}: {error}")]
    At {
        /// The board's place in the batch, from 0.
        index: usize,
        /// Why.
        error: Box<SolveError>,
    },
}

impl From<TableError> for SolveError {
    fn from(error: TableError) -> SolveError {
        SolveError::Damaged(error.into())
    }
}

impl SolveError {
    /// Whether the board is good but needs data that is not here: larger
    /// databases than those made at start, or a goal the data lacks.
    pub fn wants_data(&self) -> bool {
        matches!(self, SolveError::TooFar { .. } | SolveError::NoData { .. })
            || matches!(self, SolveError::At { error, .. } if error.wants_data())
    }

    /// Whether the error is the data's, not the board's: the data cannot be
    /// trusted for any board.
    pub fn is_data_error(&self) -> bool {
        matches!(
            self,
            SolveError::Damaged(_)
                | SolveError::TooDeep { .. }
                | SolveError::Changed
                | SolveError::ShorterThanShortest { .. }
        ) || matches!(self, SolveError::At { error, .. } if error.is_data_error())
    }
}

/// Why a table was refused or could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The file itself is damaged, truncated or of another kind.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file is intact but its moves are wrong.
    #[error("the table is wrong: section {section} (the goal with the blank at {blank}): {proof}")]
    Wrong {
        /// The section.
        section: usize,
        /// Its goal's blank cell.
        blank: usize,
        /// What is wrong.
        proof: Proof,
    },
}

/// What the proof of a table (`table::prove`) found wrong with its moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Proof {
    /// Some boards never reach the goal by their codes.
    #[error(
        "{boards} boards never reach the goal by their moves (the moves loop or leave the board)"
    )]
    Unreached {
        /// How many.
        boards: u64,
    },
    /// A board whose next move is not on a shortest path.
    #[error(
        "from {board} the moves take {depth}, but a neighbour is closer: they are not the shortest"
    )]
    NotShortest {
        /// The board.
        board: Board,
        /// The moves its codes take.
        depth: u32,
    },
    /// A board whose next move is not the smallest letter of the shortest.
    #[error("from {board} the move {got} is taken where {smaller} is as short and smaller")]
    NotSmallest {
        /// The board.
        board: Board,
        /// The code's move.
        got: Move,
        /// The smaller move.
        smaller: Move,
    },
    /// A board whose next jump (multi-tile metric) does not start its
    /// canonical answer.
    #[error(
        "from {board} the blank jumps {got_len} `{got}` where {canonical_len} `{canonical}` starts the canonical answer"
    )]
    NotCanonical {
        /// The board.
        board: Board,
        /// The way of the code's jump.
        got: Move,
        /// Its cells.
        got_len: u8,
        /// The way of the jump that starts the canonical answer.
        canonical: Move,
        /// Its cells.
        canonical_len: u8,
    },
    /// A board whose code (multi-tile metric) names no jump it has.
    #[error("from {board} the code {code} names no jump of the blank")]
    NoJump {
        /// The board.
        board: Board,
        /// The code.
        code: u8,
    },
    /// Answers longer than any on the shape.
    #[error("the moves take more than {bound}, longer than any shortest answer on the board")]
    TooLong {
        /// The most moves a shortest answer on the shape takes.
        bound: u32,
    },
    /// The header's longest answer is not the codes'.
    #[error("the header says the longest answer is {header} moves, the moves make it {proven}")]
    MaxDepth {
        /// What the header says.
        header: u32,
        /// What the codes say.
        proven: u32,
    },
    /// Following a board's moves went wrong while answering it.
    #[error("the moves from {board} {problem}")]
    Walk {
        /// The board.
        board: Board,
        /// What happened.
        problem: &'static str,
    },
}

/// Why pattern databases were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PdbError {
    /// The file itself is damaged, truncated or of another kind.
    #[error(transparent)]
    File(#[from] FileError),
    /// An entry no right database has.
    #[error(
        "the databases are wrong: group {group} holds {got} for its tiles on {cells:?}, \
         which need at least {least}"
    )]
    Entry {
        /// The group.
        group: usize,
        /// Where its tiles stand.
        cells: Vec<u8>,
        /// The entry.
        got: u8,
        /// The least moves those tiles need (their Manhattan distance).
        least: u32,
    },
    /// A group at home whose entry is not zero.
    #[error("the databases are wrong: group {group} holds {got} for its tiles at home, not 0")]
    Home {
        /// The group.
        group: usize,
        /// The entry.
        got: u8,
    },
    /// An entry other than the one the group's search gives.
    #[error(
        "the databases are wrong: group {group} holds {got} for its tiles on {cells:?}, whose \
         fewest moves are {expected}"
    )]
    NotAsSearched {
        /// The group.
        group: usize,
        /// Where its tiles stand.
        cells: Vec<u8>,
        /// The entry.
        got: u32,
        /// The entry the search gives.
        expected: u8,
    },
    /// Walled cells of the blank other than the search's.
    #[error(
        "the databases are wrong: group {group} with its tiles on {cells:?} holds the blank's \
         cells {got:#x} as walled in, where the search finds {expected:#x}"
    )]
    WalledNotAsSearched {
        /// The group.
        group: usize,
        /// Where its tiles stand.
        cells: Vec<u8>,
        /// The cells held, a bit each.
        got: u32,
        /// The cells the search finds.
        expected: u32,
    },
    /// A header's largest entry other than the group's.
    #[error(
        "the databases are wrong: group {group}'s header says its largest entry is {got}, but \
         it is {expected}"
    )]
    MaxDepth {
        /// The group.
        group: usize,
        /// What the header says.
        got: u32,
        /// The largest entry the group's search gives.
        expected: u32,
    },
}

/// What is wrong with a data file: damaged, cut short, of another kind,
/// changed while it was proven, not the file its name says, or intact but
/// wrong (its proof failed). The message says which; the fix is always to
/// make the file anew.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct Damage(Box<Problem>);

impl Damage {
    /// What is wrong with a table, if the file is one.
    #[cfg(test)]
    pub(crate) fn table(&self) -> Option<&TableError> {
        match &*self.0 {
            Problem::Table(error) => Some(error),
            _ => None,
        }
    }
}

impl From<Problem> for Damage {
    fn from(problem: Problem) -> Damage {
        Damage(Box::new(problem))
    }
}

impl From<TableError> for Damage {
    fn from(error: TableError) -> Damage {
        Problem::Table(error).into()
    }
}

impl From<PdbError> for Damage {
    fn from(error: PdbError) -> Damage {
        Problem::Pdb(error).into()
    }
}

/// What is wrong with a data file, in detail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Problem {
    /// A table's.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Pattern databases'.
    #[error(transparent)]
    Pdb(#[from] PdbError),
    /// The file changed while it was proven.
    #[error("it changed while it was proven")]
    Changed,
    /// A good file, but not the one its name says.
    #[error("it holds {got}, not {expected}")]
    Mismatch {
        /// What its name says it holds.
        expected: String,
        /// What it holds.
        got: String,
    },
}
