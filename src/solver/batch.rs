//! Many boards at once: [`Solver::solve_many`] and
//! [`Solver::lengths_many`], the engine's fast paths (groups of walks,
//! answers derived in bulk, every core) behind one call.

use std::fmt;

use crate::answer::{Solution, SolveError};
use crate::board::{Board, Layout};
use crate::mtm::Metric;
use crate::shape::Move;
use crate::solver::Solver;
use crate::stream::{self, Config, Failed, Quiet, Solvers};

/// What an unsolvable board's line holds in the engine's answers; no
/// answer of moves is spelled so (`n`, `s`, `o`, `v`, `b` and `e` are no
/// moves).
const UNSOLVABLE: &[u8] = b"unsolvable";

impl Solver {
    /// Answers every board of `starts` toward `goal`, in order: the fastest
    /// way to answer many boards. The solver chooses how (interleaved walks,
    /// answers derived in bulk for large runs, searches on every core);
    /// each answer is the one [`Solver::solve_to`] gives.
    ///
    /// # Errors
    ///
    /// Fails if the goal or a start is of another shape (the start's index
    /// said, [`SolveError::At`]), the solver has no data for the goal, or
    /// the data is wrong ([`SolveError::is_data_error`]).
    ///
    /// # Example
    ///
    /// ```
    /// use eight::{Board, Shape, Solution, Solver};
    ///
    /// let solver = Solver::builtin(Shape::EIGHT)?;
    /// let goal = Board::goal(Shape::EIGHT);
    /// let boards = ["2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x", "2 1 3 4 5 6 7 8 x"];
    /// // A million boards, parsed once.
    /// let starts: Vec<Board> = boards
    ///     .iter()
    ///     .cycle()
    ///     .take(1_000_000)
    ///     .map(|text| text.parse())
    ///     .collect::<Result<_, _>>()?;
    /// let answers = solver.solve_many(&starts, &goal)?;
    /// assert_eq!(answers.len(), 1_000_000);
    /// let first = answers.get(0).unwrap();
    /// assert_eq!(first.letters(), Some("dlurullddrurdllurdr"));
    /// assert_eq!(first.length(), Some(19));
    /// assert_eq!(answers.get(1).unwrap().letters(), Some(""));
    /// assert_eq!(answers.get(2).unwrap().to_string(), "unsolvable");
    /// assert_eq!(answers.get(2).unwrap().to_solution(), Solution::Unsolvable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve_many(&self, starts: &[Board], goal: &Board) -> Result<Solutions, SolveError> {
        let lines = self.answer_many(starts, goal, false)?;
        Ok(Solutions::new(lines, self.metric()))
    }

    /// The number of moves of each answer of [`Solver::solve_many`], in
    /// the solver's [metric](Solver::metric), or `None` for a board that
    /// cannot reach `goal`: faster than the answers themselves, as a table
    /// counts a run of boards from the answers it derives.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`].
    ///
    /// # Example
    ///
    /// ```
    /// use eight::{Board, Shape, Solver};
    ///
    /// let solver = Solver::builtin(Shape::EIGHT)?;
    /// let starts: Vec<Board> = ["2 3 4 1 5 x 7 6 8", "2 1 3 4 5 6 7 8 x"]
    ///     .iter()
    ///     .map(|text| text.parse())
    ///     .collect::<Result<_, _>>()?;
    /// let lengths = solver.lengths_many(&starts, &Board::goal(Shape::EIGHT))?;
    /// assert_eq!(lengths, [Some(19), None]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lengths_many(
        &self,
        starts: &[Board],
        goal: &Board,
    ) -> Result<Vec<Option<u16>>, SolveError> {
        let lines = self.answer_many(starts, goal, true)?;
        Ok(lines
            .split(|&b| b == b'\n')
            .take(starts.len())
            .map(|line| match line {
                UNSOLVABLE => None,
                digits => Some(
                    digits
                        .iter()
                        .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0')),
                ),
            })
            .collect())
    }

    /// The engine's lines for `starts` toward `goal`: the letters, or the
    /// lengths if `length`.
    fn answer_many(
        &self,
        starts: &[Board],
        goal: &Board,
        length: bool,
    ) -> Result<Vec<u8>, SolveError> {
        let shape = self.shape();
        if goal.shape() != shape {
            return Err(SolveError::Shape {
                expected: shape,
                got: goal.shape(),
            });
        }
        if let Some(index) = starts.iter().position(|start| start.shape() != shape) {
            return Err(SolveError::At {
                index,
                error: Box::new(SolveError::Shape {
                    expected: shape,
                    got: starts[index].shape(),
                }),
            });
        }
        if !self.serves(goal) {
            return Err(SolveError::NoData {
                shape,
                blank: goal.blank(),
            });
        }
        let mut config = Config::new(Layout::Fixed(shape));
        config.goal = Some(*goal);
        config.style.metric = self.metric();
        config.style.length = length;
        let mut solvers = Solvers::alone(self.clone());
        let answers = stream::answer_boards(starts, config, &mut solvers, &Quiet)
            .map_err(|err| self.failure(err))?;
        Ok(answers.text)
    }

    /// The [`SolveError`] behind a run of the engine that failed.
    fn failure(&self, err: stream::StreamError) -> SolveError {
        if let Some(failed) = err.downcast_ref::<Failed>() {
            return failed.error.clone();
        }
        if self.changed().is_some() {
            return SolveError::Changed;
        }
        // Nothing else ends a run without input or output of its own: a
        // worker that panicked.
        panic!("{err}")
    }
}

/// The answers of a batch of boards, in order ([`Solver::solve_many`]):
/// a byte a move in one buffer, not a vector a board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solutions {
    /// Each answer's letters, a line each (an unsolvable board's line says
    /// so).
    lines: Vec<u8>,
    /// Where each answer's line ends in `lines`.
    ends: Vec<usize>,
    metric: Metric,
}

impl Solutions {
    /// The answers of the engine's lines.
    fn new(lines: Vec<u8>, metric: Metric) -> Solutions {
        let ends = memchr::memchr_iter(b'\n', &lines).collect();
        Solutions {
            lines,
            ends,
            metric,
        }
    }

    /// The number of answers.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The answer of the board at `index`.
    pub fn get(&self, index: usize) -> Option<Answer<'_>> {
        let end = *self.ends.get(index)?;
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] + 1,
        };
        let line = &self.lines[start..end];
        Some(Answer {
            letters: (line != UNSOLVABLE).then_some(line),
            metric: self.metric,
        })
    }

    /// The answers, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Answer<'_>> + '_ {
        (0..self.len()).map(|index| self.get(index).expect("an index below the length"))
    }
}

/// One answer of a batch: the moves toward the goal, or none (unsolvable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<'a> {
    letters: Option<&'a [u8]>,
    metric: Metric,
}

impl<'a> Answer<'a> {
    /// The blank's letters (`d l r u`), one a cell it passes; `None` if the
    /// board cannot reach the goal.
    pub fn letters(&self) -> Option<&'a str> {
        // The engine writes only ASCII move letters on an answer's line.
        self.letters
            .map(|letters| std::str::from_utf8(letters).expect("move letters are ASCII"))
    }

    /// The moves, a cell of the blank each; `None` if unsolvable.
    pub fn moves(&self) -> Option<impl Iterator<Item = Move> + 'a> {
        self.letters.map(|letters| {
            letters.iter().map(|&letter| {
                Move::from_letter(char::from(letter)).expect("an answer is move letters")
            })
        })
    }

    /// The number of moves in the solver's [metric](Solver::metric); `None`
    /// if unsolvable.
    pub fn length(&self) -> Option<usize> {
        self.letters.map(|letters| self.metric.count(letters))
    }

    /// The answer as a [`Solution`], as [`Solver::solve_to`] gives it.
    pub fn to_solution(&self) -> Solution {
        match self.moves() {
            Some(moves) => Solution::Moves(moves.collect()),
            None => Solution::Unsolvable,
        }
    }
}

/// The letters, or `unsolvable`, as [`Solution`] shows itself.
impl fmt::Display for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letters().unwrap_or("unsolvable"))
    }
}
