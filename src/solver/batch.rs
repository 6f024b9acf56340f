//! Many boards at once: [`Solver::solve_many`] and
//! [`Solver::lengths_many`], the tables' fast paths (answers derived in
//! bulk, interleaved walks, groups of walks) on every core, each answer a
//! value from the path that finds it: no text in between.

use std::fmt;

use crate::answer::{Solution, SolveError};
use crate::board::Board;
use crate::metric::Metric;
use crate::shape::Move;
use crate::solver::{Engine, Solver};
use crate::table::{GROUP, Sink, Table, Word};

/// Boards a thread answers at least, in a batch split among threads.
const PART: usize = 1 << 15;

/// Boards walked side by side at once ([`Table::solve_packed`]).
const LANES_RUN: usize = 1 << 12;

/// What a batch's answers are gathered in: a [`Sink`] whose parts, answered
/// on threads of their own, are appended in order.
trait Batch: Sink + Default + Send {
    fn append(&mut self, part: Self);
}

impl Batch for Vec<Option<u16>> {
    fn append(&mut self, mut part: Self) {
        Vec::append(self, &mut part);
    }
}

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
        let mut solutions: Solutions = self.answer_many(starts, goal)?;
        solutions.metric = self.metric();
        Ok(solutions)
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
        self.answer_many(starts, goal)
    }

    /// The answers of `starts` toward `goal` gathered in a `B`: boards
    /// walked in a table split among every core in parts of at least
    /// [`PART`], searched boards one after another (each search runs on
    /// every core).
    fn answer_many<B: Batch>(&self, starts: &[Board], goal: &Board) -> Result<B, SolveError> {
        // Databases serve their shape's transpose too: the goal's shape is
        // the boards'.
        if !self.serves(goal) {
            return Err(match goal.shape() == self.shape() {
                true => SolveError::NoData {
                    shape: goal.shape(),
                    blank: goal.blank(),
                },
                false => SolveError::Shape {
                    expected: self.shape(),
                    got: goal.shape(),
                },
            });
        }
        let shape = goal.shape();
        if let Some(index) = starts.iter().position(|start| start.shape() != shape) {
            return Err(SolveError::At {
                index,
                error: Box::new(SolveError::Shape {
                    expected: shape,
                    got: starts[index].shape(),
                }),
            });
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let parts = (starts.len() / PART).clamp(1, threads);
        if parts == 1 || self.searches() {
            let mut batch = B::default();
            self.answer_into(starts, goal, &mut batch)?;
            return Ok(batch);
        }
        let size = starts.len().div_ceil(parts);
        let answered: Vec<Result<B, SolveError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = starts
                .chunks(size)
                .map(|part| {
                    scope.spawn(move || {
                        let mut batch = B::default();
                        self.answer_into(part, goal, &mut batch).map(|()| batch)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p))
                })
                .collect()
        });
        let mut batch = B::default();
        for (at, part) in answered.into_iter().enumerate() {
            match part {
                Ok(part) => batch.append(part),
                Err(SolveError::At { index, error }) => {
                    return Err(SolveError::At {
                        index: at * size + index,
                        error,
                    });
                }
                Err(err) => return Err(err),
            }
        }
        Ok(batch)
    }

    /// Answers `starts` (of the solver's shape) toward `goal` (which it
    /// serves) into `sink`, in order, the fastest way the data allows:
    /// answers derived in bulk, else interleaved walks, else groups of
    /// walks, else one walk or one search a board.
    fn answer_into<S: Sink>(
        &self,
        starts: &[Board],
        goal: &Board,
        sink: &mut S,
    ) -> Result<(), SolveError> {
        let at = |index: usize| {
            move |error: SolveError| SolveError::At {
                index,
                error: Box::new(error),
            }
        };
        let table = match &*self.engine {
            Engine::Table(table) => table,
            _ => {
                // One search a board, the boards shared among the cores
                // (a long search also splits its bounds among them).
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                let answers = crate::split::each(starts.len(), threads, |index| {
                    let mut letters = Vec::new();
                    self.solve_each(&starts[index], goal, |mv| letters.push(mv.letter() as u8))
                        .map(|found| (letters, found))
                });
                for (index, answer) in answers.into_iter().enumerate() {
                    let (letters, found) = answer.map_err(at(index))?;
                    put(sink, &letters, found);
                }
                return Ok(());
            }
        };
        if starts.len() >= 8 && table.write_answers(starts, goal, sink)? {
            return Ok(());
        }
        let goals = vec![*goal; LANES_RUN.min(starts.len())];
        let mut packed = Vec::new();
        let mut letters = vec![Vec::new(); GROUP];
        for (run, chunk) in starts.chunks(LANES_RUN).enumerate() {
            if table.solve_packed(chunk, &goals[..chunk.len()], &mut packed)? {
                for answer in &packed {
                    match answer {
                        Some(answer) => sink.word(answer.word()),
                        None => sink.unsolvable(),
                    }
                }
                continue;
            }
            if table.groups_pay() {
                for group in chunk.chunks(GROUP) {
                    let mut found = [None; GROUP];
                    table.solve_group(group, goal, &mut letters, &mut found)?;
                    for (letters, found) in letters.iter().zip(&found).take(group.len()) {
                        put(sink, letters, *found);
                    }
                }
                continue;
            }
            for (index, start) in chunk.iter().enumerate() {
                let letters = &mut letters[0];
                letters.clear();
                let found =
                    walk(table, start, goal, letters).map_err(at(run * LANES_RUN + index))?;
                put(sink, letters, found);
            }
        }
        Ok(())
    }
}

/// Walks `start` to `goal` in `table`, its letters into `letters`.
fn walk<D: AsRef<[u8]>>(
    table: &Table<D>,
    start: &Board,
    goal: &Board,
    letters: &mut Vec<u8>,
) -> Result<Option<usize>, SolveError> {
    table.solve_each(start, goal, |mv| letters.push(mv.letter() as u8))
}

/// Hands `sink` an answer found (its letters and moves), or none.
fn put<S: Sink>(sink: &mut S, letters: &[u8], found: Option<usize>) {
    match found {
        Some(moves) => sink.letters(letters, moves),
        None => sink.unsolvable(),
    }
}

/// The answers of a batch of boards, in order ([`Solver::solve_many`]):
/// a byte a move in one buffer, not a vector a board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solutions {
    /// Every answer's letters, one after another.
    letters: Vec<u8>,
    /// Where each answer ends in `letters`, [`UNSOLVABLE`] set for a board
    /// that cannot reach the goal.
    ends: Vec<usize>,
    metric: Metric,
}

/// The bit of an end in [`Solutions`] that says the board has no answer.
const UNSOLVABLE: usize = 1 << (usize::BITS - 1);

impl Sink for Solutions {
    #[inline(always)]
    fn word<W: Word>(&mut self, answer: W) {
        answer.spell(false, &mut self.letters);
        self.ends.push(self.letters.len());
    }

    fn letters(&mut self, letters: &[u8], _: usize) {
        self.letters.extend_from_slice(letters);
        self.ends.push(self.letters.len());
    }

    fn unsolvable(&mut self) {
        self.ends.push(self.letters.len() | UNSOLVABLE);
    }
}

impl Batch for Solutions {
    fn append(&mut self, part: Self) {
        let offset = self.letters.len();
        self.letters.extend_from_slice(&part.letters);
        self.ends.extend(part.ends.iter().map(|end| end + offset));
    }
}

impl Solutions {
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
            _ => self.ends[index - 1] & !UNSOLVABLE,
        };
        Some(Answer {
            letters: (end & UNSOLVABLE == 0).then(|| &self.letters[start..end]),
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
        // Answers are move letters, ASCII.
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
