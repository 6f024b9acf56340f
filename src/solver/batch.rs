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
use crate::table::{GROUP, MAX_PACKED, Packed, Sink, Table, Word, spell};

/// Boards a thread answers at least, in a batch split among threads.
const PART: usize = 1 << 15;

/// Boards walked side by side at once ([`Table::solve_packed`]): their
/// goals and answers stay small enough (27 KB) for the allocator to hand
/// back memory it holds, so that a caller asking run after run (the
/// stream) maps no fresh pages each time.
const LANES_RUN: usize = 1 << 10;

/// What a batch's answers are gathered in: a [`Sink`] whose parts, answered
/// on threads of their own, are appended in order.
trait Batch: Sink + Default + Send {
    fn append(&mut self, part: Self);
    fn clear(&mut self);
}

impl Batch for Vec<Option<u16>> {
    fn append(&mut self, mut part: Self) {
        Vec::append(self, &mut part);
    }

    fn clear(&mut self) {
        Vec::clear(self);
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
    /// assert_eq!(first.letters().as_deref(), Some("dlurullddrurdllurdr"));
    /// assert_eq!(first.length(), Some(19));
    /// assert_eq!(answers.get(1).unwrap().letters().as_deref(), Some(""));
    /// assert_eq!(answers.get(2).unwrap().to_string(), "unsolvable");
    /// assert_eq!(answers.get(2).unwrap().to_solution(), Solution::Unsolvable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve_many(&self, starts: &[Board], goal: &Board) -> Result<Solutions, SolveError> {
        let mut answers = Solutions::default();
        self.solve_many_into(starts, goal, &mut answers)?;
        Ok(answers)
    }

    /// As [`Solver::solve_many`], into `answers`: its answers replaced, its
    /// memory used again (a caller answering run after run allocates
    /// nothing). On an error it holds no answer.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`].
    pub fn solve_many_into(
        &self,
        starts: &[Board],
        goal: &Board,
        answers: &mut Solutions,
    ) -> Result<(), SolveError> {
        answers.metric = self.metric();
        self.answer_many(starts, Goals::One(goal), answers, None)
    }

    /// As [`Solver::solve_many_into`], except that a board the solver's
    /// data cannot answer ([`SolveError::wants_data`]: one too far from the
    /// goal for the databases made at start) does not end the batch: it
    /// holds no answer, as a board that cannot reach the goal does, and
    /// `refused` hears its index and why. The Python package answers
    /// searched boards this way.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`], for any other error.
    pub fn solve_many_refusing(
        &self,
        starts: &[Board],
        goal: &Board,
        answers: &mut Solutions,
        refused: &mut dyn FnMut(usize, SolveError),
    ) -> Result<(), SolveError> {
        answers.metric = self.metric();
        self.answer_many(starts, Goals::One(goal), answers, Some(refused))
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
        let mut lengths = Vec::new();
        self.lengths_many_into(starts, goal, &mut lengths)?;
        Ok(lengths)
    }

    /// As [`Solver::lengths_many`], into `lengths`: its numbers replaced,
    /// its memory used again. On an error it holds none.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`].
    pub fn lengths_many_into(
        &self,
        starts: &[Board],
        goal: &Board,
        lengths: &mut Vec<Option<u16>>,
    ) -> Result<(), SolveError> {
        self.answer_many(starts, Goals::One(goal), lengths, None)
    }

    /// As [`Solver::lengths_many_into`], a board the data cannot answer
    /// `None` and told to `refused`, as [`Solver::solve_many_refusing`]
    /// says.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`], for any other error.
    pub fn lengths_many_refusing(
        &self,
        starts: &[Board],
        goal: &Board,
        lengths: &mut Vec<Option<u16>>,
        refused: &mut dyn FnMut(usize, SolveError),
    ) -> Result<(), SolveError> {
        self.answer_many(starts, Goals::One(goal), lengths, Some(refused))
    }

    /// Answers every board of `starts` toward the goal beside it in
    /// `goals` (the cases of HDU 3567 "Eight II", each a start and a
    /// target), in order: walks side by side in a table, as
    /// [`Solver::solve_many`] does toward one goal.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_many`]; a goal this solver does not serve is
    /// an error at its index ([`SolveError::At`]).
    ///
    /// # Panics
    ///
    /// Panics if `goals` and `starts` differ in length.
    ///
    /// # Example
    ///
    /// ```
    /// use eight::{Board, Shape, Solver};
    ///
    /// let solver = Solver::builtin(Shape::EIGHT)?;
    /// let starts: Vec<Board> = vec!["12X453786".parse()?, "12345678X".parse()?];
    /// let goals: Vec<Board> = vec!["12345678X".parse()?, "12345678X".parse()?];
    /// let answers = solver.solve_pairs(&starts, &goals)?;
    /// assert_eq!(answers.get(0).unwrap().letters().as_deref(), Some("dd"));
    /// assert_eq!(answers.get(1).unwrap().letters().as_deref(), Some(""));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve_pairs(&self, starts: &[Board], goals: &[Board]) -> Result<Solutions, SolveError> {
        let mut answers = Solutions::default();
        self.solve_pairs_into(starts, goals, &mut answers)?;
        Ok(answers)
    }

    /// As [`Solver::solve_pairs`], into `answers`: its answers replaced,
    /// its memory used again. On an error it holds no answer.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_pairs`].
    ///
    /// # Panics
    ///
    /// Panics if `goals` and `starts` differ in length.
    pub fn solve_pairs_into(
        &self,
        starts: &[Board],
        goals: &[Board],
        answers: &mut Solutions,
    ) -> Result<(), SolveError> {
        assert_eq!(starts.len(), goals.len(), "a goal beside every start");
        answers.metric = self.metric();
        self.answer_many(starts, Goals::Each(goals), answers, None)
    }

    /// Why this solver cannot answer a board toward `goal`, if it cannot.
    fn refuses(&self, goal: &Board) -> Option<SolveError> {
        // Databases serve their shape's transpose too: the goal's shape is
        // the boards'.
        if self.serves(goal) {
            return None;
        }
        Some(match goal.shape() == self.shape() {
            true => SolveError::NoData {
                shape: goal.shape(),
                blank: goal.blank(),
            },
            false => SolveError::Shape {
                expected: self.shape(),
                got: goal.shape(),
            },
        })
    }

    /// The answers of `starts` toward `goals` gathered in `batch`, emptied
    /// first (and again on an error): boards walked in a table split among
    /// every core in parts of at least [`PART`], searched boards one after
    /// another (each search runs on every core). With `refused`, a board
    /// the data cannot answer is told there and holds no answer.
    fn answer_many<B: Batch>(
        &self,
        starts: &[Board],
        goals: Goals<'_>,
        batch: &mut B,
        refused: Option<Refused<'_>>,
    ) -> Result<(), SolveError> {
        batch.clear();
        let answered = self.answer_parts(starts, goals, batch, refused);
        if answered.is_err() {
            batch.clear();
        }
        answered
    }

    /// The work of [`Solver::answer_many`], into an empty `batch`.
    fn answer_parts<B: Batch>(
        &self,
        starts: &[Board],
        goals: Goals<'_>,
        batch: &mut B,
        refused: Option<Refused<'_>>,
    ) -> Result<(), SolveError> {
        let at = |index: usize, error: SolveError| SolveError::At {
            index,
            error: Box::new(error),
        };
        match goals {
            Goals::One(goal) => {
                if let Some(error) = self.refuses(goal) {
                    return Err(error);
                }
                // Every shape looked at with no branch a board, the common
                // case; the first wrong one found only if there is one.
                let shape = goal.shape();
                let wrong = starts
                    .iter()
                    .fold(false, |wrong, s| wrong | (s.shape() != shape));
                if let Some(index) = wrong
                    .then(|| starts.iter().position(|s| s.shape() != shape))
                    .flatten()
                {
                    let error = SolveError::Shape {
                        expected: goal.shape(),
                        got: starts[index].shape(),
                    };
                    return Err(at(index, error));
                }
            }
            Goals::Each(goals) => {
                for (index, (start, goal)) in starts.iter().zip(goals).enumerate() {
                    if let Some(error) = self.refuses(goal) {
                        return Err(at(index, error));
                    }
                    if start.shape() != goal.shape() {
                        let error = SolveError::Shape {
                            expected: goal.shape(),
                            got: start.shape(),
                        };
                        return Err(at(index, error));
                    }
                }
            }
        }
        // A run too short to split asks nothing of the system (the number
        // of cores is read from files on Linux).
        let parts = match starts.len() < 2 * PART || self.searches() {
            true => 1,
            false => (starts.len() / PART).clamp(1, crate::split::threads()),
        };
        if parts == 1 {
            return self.answer_into(starts, goals, batch, refused);
        }
        let size = starts.len().div_ceil(parts);
        let answered: Vec<Result<B, SolveError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..starts.len())
                .step_by(size)
                .map(|from| {
                    let to = (from + size).min(starts.len());
                    scope.spawn(move || {
                        let mut batch = B::default();
                        // Tables alone are split: they refuse no board.
                        self.answer_into(&starts[from..to], goals.part(from, to), &mut batch, None)
                            .map(|()| batch)
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
        for (part, answers) in answered.into_iter().enumerate() {
            match answers {
                Ok(answers) => batch.append(answers),
                Err(SolveError::At { index, error }) => {
                    return Err(SolveError::At {
                        index: part * size + index,
                        error,
                    });
                }
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    /// Answers `starts` (of the solver's shape) toward `goals` (which it
    /// serves) into `sink`, in order, the fastest way the data allows:
    /// answers derived in bulk, else interleaved walks, else groups of
    /// walks, else one walk or one search a board.
    fn answer_into<S: Sink>(
        &self,
        starts: &[Board],
        goals: Goals<'_>,
        sink: &mut S,
        mut refused: Option<Refused<'_>>,
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
                let threads = crate::split::threads();
                let answers = crate::split::each(starts.len(), threads, |index| {
                    let mut letters = Vec::new();
                    let (start, goal) = (&starts[index], goals.get(index));
                    // Numbers alone may come from the distances kept.
                    let found = match S::MOVES {
                        true => self.solve_each(start, goal, |mv| letters.push(mv.letter() as u8)),
                        false => self.length_of(start, goal),
                    };
                    found.map(|found| (letters, found))
                });
                for (index, answer) in answers.into_iter().enumerate() {
                    let (letters, found) = match (answer, refused.as_mut()) {
                        (Err(error), Some(refused)) if error.wants_data() => {
                            refused(index, error);
                            (Vec::new(), None)
                        }
                        (answer, _) => answer.map_err(at(index))?,
                    };
                    put(sink, &letters, found);
                }
                return Ok(());
            }
        };
        if let Goals::One(goal) = goals
            && starts.len() >= 8
            && table.write_answers(starts, goal, sink)?
        {
            return Ok(());
        }
        let one = match goals {
            Goals::One(goal) => vec![*goal; LANES_RUN.min(starts.len())],
            Goals::Each(_) => Vec::new(),
        };
        let mut packed = Vec::new();
        let mut letters: Vec<Vec<u8>> = Vec::new();
        for (run, chunk) in starts.chunks(LANES_RUN).enumerate() {
            let from = run * LANES_RUN;
            let chunk_goals = match goals {
                Goals::One(_) => &one[..chunk.len()],
                Goals::Each(goals) => &goals[from..from + chunk.len()],
            };
            if table.solve_packed(chunk, chunk_goals, &mut packed)? {
                for answer in &packed {
                    match answer {
                        Some(answer) => sink.word(answer.word()),
                        None => sink.unsolvable(),
                    }
                }
                continue;
            }
            if let Goals::One(goal) = goals
                && table.groups_pay()
            {
                letters.resize_with(GROUP, Vec::new);
                for group in chunk.chunks(GROUP) {
                    let mut found = [None; GROUP];
                    table.solve_group(group, goal, &mut letters, &mut found)?;
                    for (letters, found) in letters.iter().zip(&found).take(group.len()) {
                        put(sink, letters, *found);
                    }
                }
                continue;
            }
            letters.resize_with(1, Vec::new);
            for (index, (start, goal)) in chunk.iter().zip(chunk_goals).enumerate() {
                let letters = &mut letters[0];
                letters.clear();
                let found = walk(table, start, goal, letters).map_err(at(from + index))?;
                put(sink, letters, found);
            }
        }
        Ok(())
    }
}

/// The goal of each start of a batch: one for all, or one beside each.
#[derive(Clone, Copy)]
enum Goals<'a> {
    One(&'a Board),
    Each(&'a [Board]),
}

impl<'a> Goals<'a> {
    /// The goal of the start at `index`.
    fn get(self, index: usize) -> &'a Board {
        match self {
            Goals::One(goal) => goal,
            Goals::Each(goals) => &goals[index],
        }
    }

    /// The goals of the starts from `from` to `to`.
    fn part(self, from: usize, to: usize) -> Goals<'a> {
        match self {
            Goals::One(goal) => Goals::One(goal),
            Goals::Each(goals) => Goals::Each(&goals[from..to]),
        }
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

/// Who hears of the boards a batch's data cannot answer, with their index.
type Refused<'a> = &'a mut dyn FnMut(usize, SolveError);

/// Hands `sink` an answer found (its letters and moves), or none.
fn put<S: Sink>(sink: &mut S, letters: &[u8], found: Option<usize>) {
    match found {
        Some(moves) => sink.letters(letters, moves),
        None => sink.unsolvable(),
    }
}

/// The answers of a batch of boards, in order ([`Solver::solve_many`]):
/// a word a board, the moves packed 2 bits each, not a vector a board.
#[derive(Clone, Debug, Default)]
pub struct Solutions {
    /// One word an answer: a packed answer (2 bits a letter over a marker
    /// bit, at most [`MAX_PACKED`] letters), [`NONE`] for a board that
    /// cannot reach the goal, or with [`SPILLED`] set, where a longer
    /// answer's letters lie in `letters`: their start in the low
    /// [`START_BITS`] bits, their count above.
    words: Vec<u64>,
    /// The letters of the answers too long to pack, one after another.
    letters: Vec<u8>,
    metric: Metric,
}

/// The word of a board with no answer (no packed answer is 0: it has its
/// marker bit).
const NONE: u64 = 0;

/// The bit of a word that says its answer's letters are in `letters`.
const SPILLED: u64 = 1 << 63;

/// The bits of a spilled word that hold where its letters start.
const START_BITS: u32 = 40;

impl Solutions {
    /// Keeps `letters` as the next answer: packed if they fit, else
    /// spilled.
    fn keep(&mut self, letters: &[u8]) {
        if letters.len() > MAX_PACKED as usize {
            let start = self.letters.len();
            self.letters.extend_from_slice(letters);
            return self.spilled(start);
        }
        let word = letters.iter().rev().fold(1, |word, &letter| {
            let mv = Move::from_letter(char::from(letter)).expect("an answer is move letters");
            word << 2 | u64::from(mv.code())
        });
        self.words.push(word);
    }

    /// Keeps the letters from `start` to the end of `letters` as the next
    /// answer.
    fn spilled(&mut self, start: usize) {
        let len = (self.letters.len() - start) as u64;
        self.words.push(SPILLED | len << START_BITS | start as u64);
    }

    /// The answer a word stands for.
    #[inline(always)]
    fn answer(&self, word: u64) -> Answer<'_> {
        let form = match word {
            NONE => Form::None,
            word if word & SPILLED == 0 => Form::Packed(word),
            word => {
                let start = (word & ((1 << START_BITS) - 1)) as usize;
                let len = ((word & !SPILLED) >> START_BITS) as usize;
                Form::Letters(&self.letters[start..start + len])
            }
        };
        Answer {
            form,
            metric: self.metric,
        }
    }
}

impl Sink for Solutions {
    #[inline(always)]
    fn word<W: Word>(&mut self, answer: W) {
        match answer.packed() {
            Some(word) => self.words.push(word),
            None => {
                let start = self.letters.len();
                answer.spell(false, &mut self.letters);
                self.spilled(start);
            }
        }
    }

    fn letters(&mut self, letters: &[u8], _: usize) {
        self.keep(letters);
    }

    fn unsolvable(&mut self) {
        self.words.push(NONE);
    }
}

impl Batch for Solutions {
    fn append(&mut self, part: Self) {
        let offset = self.letters.len() as u64;
        self.letters.extend_from_slice(&part.letters);
        self.words
            .extend(part.words.iter().map(|&word| match word & SPILLED {
                0 => word,
                _ => word + offset,
            }));
    }

    fn clear(&mut self) {
        self.words.clear();
        self.letters.clear();
    }
}

/// Answers equal one by one, whatever their packing.
impl PartialEq for Solutions {
    fn eq(&self, other: &Solutions) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Solutions {}

impl Solutions {
    /// The number of answers.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The answer of the board at `index`.
    pub fn get(&self, index: usize) -> Option<Answer<'_>> {
        Some(self.answer(*self.words.get(index)?))
    }

    /// The answers, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Answer<'_>> + '_ {
        self.words.iter().map(|&word| self.answer(word))
    }

    /// Appends every answer's letters to `out`, each followed by `end`,
    /// and `none` in place of each board that cannot reach the goal: the
    /// whole batch in one pass, a packed answer spelled four letters a
    /// step (as [`Answer::write_letters`] does one answer).
    pub fn write_each(&self, out: &mut Vec<u8>, end: u8, none: &[u8]) {
        out.reserve(self.words.len() * (MAX_PACKED as usize + 1));
        for answer in self.iter() {
            match answer.write_letters(out) {
                true => out.push(end),
                false => out.extend_from_slice(none),
            }
        }
    }
}

/// One answer of a batch: the moves toward the goal, or none (unsolvable).
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    form: Form<'a>,
    metric: Metric,
}

/// How an answer is kept.
#[derive(Clone, Copy, Debug)]
enum Form<'a> {
    /// The board cannot reach the goal.
    None,
    /// Up to [`MAX_PACKED`] letters, 2 bits each over a marker bit.
    Packed(u64),
    /// The letters.
    Letters(&'a [u8]),
}

impl<'a> Answer<'a> {
    /// The blank's letters (`d l r u`), one a cell it passes; `None` if the
    /// board cannot reach the goal.
    pub fn letters(&self) -> Option<String> {
        let mut letters = Vec::new();
        self.write_letters(&mut letters).then(|| {
            // Answers are move letters, ASCII.
            String::from_utf8(letters).expect("move letters are ASCII")
        })
    }

    /// Appends the letters to `out`, for a caller that writes many
    /// answers out (a packed answer is spelled four letters a step);
    /// `false`, nothing appended, if the board cannot reach the goal.
    #[inline(always)]
    pub fn write_letters(&self, out: &mut Vec<u8>) -> bool {
        match self.form {
            Form::None => return false,
            Form::Packed(word) => {
                spell(word, false, out);
            }
            Form::Letters(letters) => out.extend_from_slice(letters),
        }
        true
    }

    /// The moves, a cell of the blank each; `None` if unsolvable.
    pub fn moves(&self) -> Option<impl Iterator<Item = Move> + 'a> {
        let (packed, letters) = match self.form {
            Form::None => return None,
            Form::Packed(word) => (Some(word), &[][..]),
            Form::Letters(letters) => (None, letters),
        };
        let unpacked = packed.into_iter().flat_map(|word| Packed(word).moves());
        let read = letters.iter().map(|&letter| {
            Move::from_letter(char::from(letter)).expect("an answer is move letters")
        });
        Some(unpacked.chain(read))
    }

    /// The number of moves in the solver's [metric](Solver::metric); `None`
    /// if unsolvable.
    pub fn length(&self) -> Option<usize> {
        match (self.form, self.metric) {
            (Form::None, _) => None,
            (Form::Packed(word), Metric::Stm) => Some(Packed(word).len()),
            (Form::Letters(letters), metric) => Some(metric.count(letters)),
            (Form::Packed(_), metric) => {
                let mut letters = Vec::with_capacity(40);
                self.write_letters(&mut letters);
                Some(metric.count(&letters))
            }
        }
    }

    /// The answer as a [`Solution`], as [`Solver::solve_to`] gives it.
    pub fn to_solution(&self) -> Solution {
        match self.moves() {
            Some(moves) => Solution::Moves(moves.collect()),
            None => Solution::Unsolvable,
        }
    }
}

/// Answers equal move for move, whatever their packing.
impl PartialEq for Answer<'_> {
    fn eq(&self, other: &Answer<'_>) -> bool {
        self.metric == other.metric && self.letters() == other.letters()
    }
}

impl Eq for Answer<'_> {}

/// The letters, or `unsolvable`, as [`Solution`] shows itself.
impl fmt::Display for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letters().as_deref().unwrap_or("unsolvable"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers of every length, packed (up to 31 letters) or spilled,
    /// come back letter for letter, move for move, counted in either
    /// metric, after parts are appended in order.
    #[test]
    fn answers_packed_or_spilled_come_back_as_kept() {
        let letters = |n: usize, seed: usize| -> Vec<u8> {
            (0..n).map(|i| b"dlru"[(i * 7 + seed) % 5 % 4]).collect()
        };
        for metric in [Metric::Stm, Metric::Mtm] {
            let mut kept: Vec<Option<Vec<u8>>> = Vec::new();
            let mut all = Solutions {
                metric,
                ..Solutions::default()
            };
            for part in 0..3 {
                let mut answers = Solutions {
                    metric,
                    ..Solutions::default()
                };
                for (k, n) in [0, 1, 5, 30, 31, 32, 33, 60, 80].into_iter().enumerate() {
                    let moves = letters(n, part * 10 + k);
                    answers.letters(&moves, 0);
                    kept.push(Some(moves));
                    if k % 3 == 0 {
                        answers.unsolvable();
                        kept.push(None);
                    }
                }
                // A derived word, as the kernels hand it.
                answers.word(Packed(0b1_11_10_01_00).word());
                kept.push(Some(b"dlru".to_vec()));
                all.append(answers);
            }
            assert_eq!(all.len(), kept.len());
            for (answer, kept) in all.iter().zip(&kept) {
                let kept_text = kept.as_ref().map(|k| String::from_utf8(k.clone()).unwrap());
                assert_eq!(answer.letters(), kept_text);
                let moves: Option<Vec<u8>> = answer
                    .moves()
                    .map(|m| m.map(|mv| mv.letter() as u8).collect());
                assert_eq!(moves.as_ref(), kept.as_ref());
                assert_eq!(answer.length(), kept.as_ref().map(|k| metric.count(k)));
            }
            assert_eq!(all, all.clone());
            // The batch written out in one pass, as one answer at a time.
            let mut each = Vec::new();
            all.write_each(&mut each, b'\n', b"none\n");
            let mut one = Vec::new();
            for answer in all.iter() {
                match answer.write_letters(&mut one) {
                    true => one.push(b'\n'),
                    false => one.extend_from_slice(b"none\n"),
                }
            }
            assert_eq!(each, one);
            assert_eq!(each.iter().filter(|&&b| b == b'\n').count(), kept.len());
        }
    }
}
