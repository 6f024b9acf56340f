//! The shape policy, in one place: per shape, how its boards are answered,
//! its default goal, and its data files; and one [`Solver`] over tables and
//! searches, with one answer type.
//!
//! | cells | shapes | single-tile metric | multi-tile metric ([`Metric::Mtm`]) |
//! |---|---|---|---|
//! | 4 to 9 | 2x2, 2x3, 3x2, 2x4, 4x2, 3x3 | a [table](crate::table) of next moves, built into the program | a table of next jumps, built into the program |
//! | 10, 12 | 2x5, 5x2, 2x6, 3x4, 4x3, 6x2 | a table, one file per goal's blank cell in the data folder (`eight-gen --shape`) | a table in the data folder (`eight-gen --metric mtm --shape`), else IDA* over walking distances |
//! | 14 to 16 | 2x7, 7x2, 3x5, 5x3, 2x8, 4x4, 8x2 | [IDA*](crate::ida) over [pattern databases](crate::pdb): in the data folder (`eight-gen --shape`), the 4x4 ones also built in | IDA* over walking distances and databases of the metric, built in memory or in the data folder (`eight-gen --metric mtm --shape`) |
//! | 18 to 25 | 2x9 to 2x12, 3x6 to 3x8, 4x5, 4x6, 5x5 and their transposes | IDA* over pattern databases in the data folder (`eight-gen --shape`); without them, over small ones made at start, for boards near the goal | IDA* over databases of the metric in the data folder (`eight-gen --metric mtm --shape`); without them, over walking distances and small databases made at start, for boards near the goal |
//!
//! [`DataFile`](crate::data::DataFile) names each file and the command that
//! makes it; [`Solver::open`] takes the metric as one of its [`Options`].

mod batch;
mod cut;
mod error;
mod load;
mod near;
mod open;
mod options;
mod set;

use std::path::PathBuf;
use std::sync::Arc;

use crate::answer::{Analysis, Damage, Solution, SolveError, Verdict, Walk};
use crate::board::Board;
use crate::data::join_sizes;
use crate::deepen::{Deepened, Query};
use crate::ida::Searcher;
use crate::map::Watch;
use crate::metric::Metric;
use crate::mtm::MtmSearcher;
use crate::shape::{Move, Shape};
use crate::stop::Stop;
use crate::table::Table;

pub use self::batch::{Answer, Solutions};
pub use self::error::DataError;
pub(crate) use self::open::Data;
pub use self::open::Proving;
pub use self::options::{Loading, Options};
pub use self::set::Solvers;

/// Where a solver's data comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Origin {
    /// Built into the program.
    Builtin,
    /// A file, and the command that makes it anew.
    File {
        /// The file.
        path: PathBuf,
        /// The command that makes it anew.
        build: String,
    },
}

/// One interface over the two ways of answering: a table walk or a search.
///
/// A clone shares the data: cloning is cheap.
#[derive(Clone, Debug)]
pub struct Solver {
    engine: Arc<Engine>,
    origin: Origin,
    /// The data-folder file that would answer instead, while it is not
    /// there: a solver loaded once it is made reads it.
    awaited: Option<Arc<std::path::Path>>,
    /// What stops its searches (never asked for unless one was given).
    stop: Stop,
    /// Distances its searches found, for the boards beside them.
    memo: Arc<near::Memo>,
}

#[derive(Debug)]
enum Engine {
    /// A table of either metric.
    Table(Table<Data>),
    Search(Box<Searcher<Data>>),
    /// A search in the multi-tile metric.
    JumpSearch(MtmSearcher),
}

impl Solver {
    /// A solver walking `table`.
    pub(crate) fn from_table(table: Table<Data>, origin: Origin) -> Solver {
        Solver::new(Engine::Table(table), origin)
    }

    /// A solver searching with `searcher`.
    pub(crate) fn from_search(searcher: Searcher<Data>, origin: Origin) -> Solver {
        let watch = searcher.table().file().data().watch().cloned();
        Solver::new(Engine::Search(Box::new(searcher.watching(watch))), origin)
    }

    /// A solver answering with `engine`, from data of `origin`.
    fn new(engine: Engine, origin: Origin) -> Solver {
        Solver {
            engine: Arc::new(engine),
            origin,
            awaited: None,
            stop: Stop::new(),
            memo: Arc::default(),
        }
    }

    /// The watch on the file the solver reads in place, if it reads one.
    fn watch(&self) -> Option<&Watch> {
        let data = match &*self.engine {
            Engine::Table(table) => table.file().data(),
            Engine::Search(searcher) => searcher.table().file().data(),
            Engine::JumpSearch(searcher) => return searcher.watch(),
        };
        data.watch()
    }

    /// The file the solver reads in place, if its bytes may have changed
    /// since it was loaded (see `Watch`): answers made from it since
    /// cannot be trusted, and a solver loaded anew reads the file as it is
    /// now.
    pub fn changed(&self) -> Option<&std::path::Path> {
        self.watch()
            .filter(|watch| watch.changed())
            .map(Watch::path)
    }

    /// Whether a solver loaded anew would read other data: the file it
    /// reads [changed](Solver::changed), or its path names another file
    /// now (remade by `eight-gen`, or removed), or the data it fell back
    /// from for want of a file is there now.
    pub fn stale(&self) -> bool {
        self.watch()
            .is_some_and(|watch| watch.changed() || watch.replaced())
            || self.awaited.as_deref().is_some_and(std::path::Path::exists)
    }

    /// The same solver (its data shared), whose searches end with
    /// [`SolveError::Stopped`] once `stop` is asked for or its deadline
    /// passes. Table walks answer in microseconds and do not look at it.
    pub fn stopping(&self, stop: Stop) -> Solver {
        Solver {
            stop,
            ..self.clone()
        }
    }

    /// The same solver, told that `path` would answer instead once it is
    /// made.
    pub(crate) fn awaiting(mut self, path: std::path::PathBuf) -> Solver {
        self.awaited = Some(Arc::from(path));
        self
    }

    /// Checks all of the solver's data: every checksum, and for tables the
    /// proof that every move is right.
    ///
    /// # Errors
    ///
    /// Fails with what is wrong, and the command that makes the data anew.
    pub fn verify(&self) -> Result<(), DataError> {
        let damage = match (&*self.engine, &self.origin) {
            (Engine::Table(table), _) => table.verify().map_err(Damage::from),
            // The program's own databases are what `eight-gen --check`
            // proved when it was built.
            (Engine::Search(searcher), Origin::Builtin) => {
                searcher.table().verify().map_err(Damage::from)
            }
            (Engine::Search(searcher), Origin::File { .. }) => {
                searcher.table().prove(|_, _| {}).map_err(Damage::from)
            }
            // Walking distances and databases counted in memory need no
            // proof; databases read from a file are made anew.
            (Engine::JumpSearch(searcher), _) => {
                searcher.prove_databases_read().map_err(Damage::from)
            }
        };
        damage.map_err(|problem| match &self.origin {
            Origin::Builtin => DataError::Builtin {
                shape: self.shape(),
                problem,
            },
            Origin::File { path, build } => DataError::Damaged {
                path: path.clone(),
                problem,
                build: build.clone(),
            },
        })
    }

    /// The shape of the boards it answers.
    pub fn shape(&self) -> Shape {
        match &*self.engine {
            Engine::Table(table) => table.shape(),
            Engine::Search(searcher) => searcher.goal().shape(),
            Engine::JumpSearch(searcher) => searcher.shape(),
        }
    }

    /// How it counts moves.
    pub fn metric(&self) -> Metric {
        match &*self.engine {
            Engine::Table(table) => table.metric(),
            Engine::Search(_) => Metric::Stm,
            Engine::JumpSearch(_) => Metric::Mtm,
        }
    }

    /// The table it walks, if it walks one.
    #[cfg(test)]
    pub(crate) fn table(&self) -> Option<&Table<Data>> {
        match &*self.engine {
            Engine::Table(table) => Some(table),
            _ => None,
        }
    }

    /// Every board whose shortest answer toward `goal` is exactly `depth`
    /// moves in the solver's [metric](Solver::metric), in no particular
    /// order; `None` if it searches (it has no table of every board).
    pub fn at_distance(&self, goal: &Board, depth: u32) -> Option<Result<Vec<Board>, SolveError>> {
        match &*self.engine {
            Engine::Table(table) => Some(table.at_distance(goal, depth)),
            _ => None,
        }
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, if the solver walks a table.
    pub fn max_depth(&self, goal: &Board) -> Option<u32> {
        match &*self.engine {
            Engine::Table(table) => table.max_depth(goal),
            _ => None,
        }
    }

    /// Whether it searches (rather than walks a table): each answer takes
    /// milliseconds, not nanoseconds.
    pub fn searches(&self) -> bool {
        matches!(*self.engine, Engine::Search(_) | Engine::JumpSearch(_))
    }

    /// Makes the multi-tile search toward `goal` stronger for the searches
    /// that start after: where it builds pattern databases of five tiles a
    /// group, databases of six are made in memory beside them, and the
    /// search takes the largest count of both (on 4x4, 6-6-3: 115 MB more,
    /// about 15 s on 2 cores). For a process that answers many boards
    /// toward one goal, as a server answers a player's moves; a few answers
    /// are faster without. The answers are the same. Goals with the blank
    /// on the same cell share them.
    ///
    /// `Ok(false)` where there is nothing to make: the single-tile metric,
    /// a table, databases read from a file (`eight-gen --metric mtm`'s are
    /// larger), boards of more than 16 cells.
    ///
    /// # Errors
    ///
    /// Fails if `goal` is not of the solver's shape, or with
    /// [`SolveError::Stopped`] once the solver's stop is asked for.
    pub fn strengthen(&self, goal: &Board) -> Result<bool, SolveError> {
        match &*self.engine {
            Engine::JumpSearch(searcher) => searcher.strengthen(goal, &self.stop),
            _ => Ok(false),
        }
    }

    /// Where its data comes from.
    pub(crate) fn origin(&self) -> &Origin {
        &self.origin
    }

    /// How it answers, for messages: `the built-in 3x3 table` or the
    /// file.
    pub fn describe(&self) -> String {
        let what = match &*self.engine {
            Engine::Table(table) => match table.metric() {
                Metric::Stm => format!("the {} table", self.shape()),
                Metric::Mtm => format!("the {} table of the multi-tile metric", self.shape()),
            },
            Engine::JumpSearch(searcher) => match searcher.databases_read() {
                Some(groups) => format!(
                    "IDA* in the multi-tile metric over the {} pattern databases ({groups})",
                    self.shape()
                ),
                None => format!(
                    "IDA* in the multi-tile metric over walking distances and pattern databases on {}",
                    self.shape()
                ),
            },
            Engine::Search(searcher) => format!(
                "IDA* over the {} pattern databases ({}{})",
                self.shape(),
                join_sizes(
                    &searcher
                        .table()
                        .file()
                        .header()
                        .sections
                        .iter()
                        .map(|s| s.tiles.len())
                        .collect::<Vec<_>>()
                ),
                match searcher.walls() {
                    true => ", knowing the blank's cell",
                    false => "",
                }
            ),
        };
        match &self.origin {
            Origin::Builtin
                if match &*self.engine {
                    Engine::Search(s) => s.near_only(),
                    Engine::JumpSearch(s) => s.near_only(),
                    Engine::Table(_) => false,
                } =>
            {
                format!("{what} made at start, for boards near the goal")
            }
            Origin::Builtin => format!("{what} built into the program"),
            Origin::File { path, .. } => format!("{what} in {}", path.display()),
        }
    }

    /// Whether it answers boards toward `goal`.
    pub fn serves(&self, goal: &Board) -> bool {
        match &*self.engine {
            Engine::Table(table) => table.serves(goal),
            Engine::Search(searcher) => searcher.serves(goal),
            Engine::JumpSearch(searcher) => goal.shape() == searcher.shape(),
        }
    }

    /// Solves `start` toward the shape's usual goal.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn solve(&self, start: &Board) -> Result<Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.shape()))
    }

    /// Solves `start` toward `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<Solution, SolveError> {
        let mut moves = Vec::new();
        Ok(match self.solve_each(start, goal, |mv| moves.push(mv))? {
            Some(_) => Solution::Moves(moves),
            None => Solution::Unsolvable,
        })
    }

    /// Solves `start` toward `goal`, appending the letters of the answer to
    /// `out`; the number of moves, or `None` if unsolvable. The fastest way
    /// to write many answers (see `Table::write_answer`).
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub fn write_answer(
        &self,
        start: &Board,
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<Option<usize>, SolveError> {
        match &*self.engine {
            Engine::Table(table) => table.write_answer(start, goal, out),
            _ => self.solve_each(start, goal, |mv| out.push(mv.letter() as u8)),
        }
    }

    /// Judges moves someone found from `start` toward `goal`, written as
    /// blank letters (`d l r u`): legal or not, at the goal or not, and how
    /// much longer than the shortest answer.
    ///
    /// # Errors
    ///
    /// As [`Solver::judge_walk`].
    pub fn judge(
        &self,
        start: &Board,
        goal: &Board,
        letters: &[u8],
    ) -> Result<Verdict, SolveError> {
        let mut walk = Walk::new(*start);
        walk.follow(letters);
        self.judge_walk(&walk, goal)
    }

    /// Analyses moves someone found from `start` toward `goal`, written in
    /// any notation [`Walk::follow`] reads: the verdict of
    /// [`Solver::judge`], and where the moves are legal and the board can
    /// reach the goal, the distance to the goal of the start and of the
    /// board after each move (in the multi-tile metric, after each run),
    /// in the solver's [metric](Solver::metric). Only boards off the
    /// shortest answer of the board before them are solved.
    ///
    /// # Errors
    ///
    /// As [`Solver::judge_walk`].
    ///
    /// # Example
    ///
    /// ```
    /// use eight::{Board, Shape, Solver, Verdict};
    ///
    /// let solver = Solver::builtin(Shape::EIGHT)?;
    /// let start: Board = "1 2 3 4 5 6 x 7 8".parse()?;
    /// // Right, a step back, then right twice: two moves lost.
    /// let analysis = solver.analyse(&start, &Board::goal(Shape::EIGHT), b"rlrr")?;
    /// assert_eq!(analysis.verdict, Verdict::LongerBy(2));
    /// assert_eq!(analysis.distances, [2, 1, 2, 1, 0]);
    /// assert_eq!(analysis.lost(), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyse(
        &self,
        start: &Board,
        goal: &Board,
        moves: &[u8],
    ) -> Result<Analysis, SolveError> {
        let mut walk = Walk::new(*start);
        let mut boards = vec![*start];
        let metric = self.metric();
        walk.follow_each(moves, |walk| {
            // A run's boards are one: the last of it stands for it.
            let count = match metric {
                Metric::Stm => walk.moves(),
                Metric::Mtm => walk.runs(),
            };
            boards.truncate(count);
            boards.push(*walk.board());
        });
        let legal = start.shape() == goal.shape()
            && start.solvable_to(goal)
            && self.illegal(&walk).is_none();
        if !legal {
            let verdict = self.judge_walk(&walk, goal)?;
            return Ok(Analysis {
                verdict,
                distances: Vec::new(),
            });
        }
        let distances: Vec<usize> = self
            .distances(&boards, goal)?
            .into_iter()
            .map(|distance| distance.expect("a board that can reach the goal"))
            .collect();
        let verdict = self.verdict(&walk, goal, distances[0])?;
        Ok(Analysis { verdict, distances })
    }

    /// Judges moves someone found, followed from their start board (see
    /// [`Walk`]) toward `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`], and [`SolveError::ShorterThanShortest`]
    /// if the moves reach the goal in fewer moves than the data's shortest
    /// answer.
    pub fn judge_walk(&self, walk: &Walk, goal: &Board) -> Result<Verdict, SolveError> {
        let start = walk.start();
        if start.shape() != goal.shape() {
            return Err(SolveError::Shape {
                expected: goal.shape(),
                got: start.shape(),
            });
        }
        if !start.solvable_to(goal) {
            return Ok(Verdict::Unsolvable);
        }
        if let Some(move_number) = self.illegal(walk) {
            return Ok(Verdict::IllegalMove(move_number));
        }
        if walk.board() != goal {
            return Ok(Verdict::NotAtGoal);
        }
        let shortest = self.solve_each(start, goal, |_| {})?.unwrap_or(0);
        self.verdict(walk, goal, shortest)
    }

    /// The number of the first illegal move of `walk`, counted in the
    /// solver's metric.
    fn illegal(&self, walk: &Walk) -> Option<usize> {
        match self.metric() {
            Metric::Stm => walk.illegal(),
            Metric::Mtm => walk.illegal_run(),
        }
    }

    /// The verdict on the legal moves of `walk` from a board `shortest`
    /// moves from `goal`.
    fn verdict(&self, walk: &Walk, goal: &Board, shortest: usize) -> Result<Verdict, SolveError> {
        if walk.board() != goal {
            return Ok(Verdict::NotAtGoal);
        }
        let moves = match self.metric() {
            Metric::Stm => walk.moves(),
            Metric::Mtm => walk.runs(),
        };
        match moves.checked_sub(shortest) {
            Some(0) => Ok(Verdict::Optimal),
            Some(k) => Ok(Verdict::LongerBy(k)),
            None => Err(SolveError::ShorterThanShortest { moves, shortest }),
        }
    }

    /// The distance of each of `boards` to `goal`, in the solver's
    /// metric, or `None` for a board that cannot reach it: a board on the
    /// shortest answer of one before it is kept with its distance, and one
    /// beside a kept board is searched only as deep as it may be nearer
    /// ([`Solver::length_of`]).
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`], the board's index said
    /// ([`SolveError::At`]).
    fn distances(&self, boards: &[Board], goal: &Board) -> Result<Vec<Option<usize>>, SolveError> {
        (boards.iter().enumerate())
            .map(|(index, board)| {
                self.length_of(board, goal).map_err(|error| SolveError::At {
                    index,
                    error: Box::new(error),
                })
            })
            .collect()
    }

    /// What the search of `start` toward `goal` is asked for; `None` if
    /// `start` cannot reach `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`]; a solver walking a table has no search.
    pub(crate) fn search(
        &self,
        start: &Board,
        goal: &Board,
        query: Query<'_>,
    ) -> Result<Option<Deepened>, SolveError> {
        match &*self.engine {
            Engine::Search(searcher) => searcher.search(start, goal, &self.stop, query),
            Engine::JumpSearch(searcher) => searcher.search(start, goal, &self.stop, query),
            Engine::Table(_) => Err(SolveError::NoPart(format!(
                "{} boards are answered from a table: there is no search to cut",
                self.shape()
            ))),
        }
    }

    /// Solves `start` toward `goal`, handing each move of the answer to
    /// `emit`; the number of moves, or `None` if unsolvable.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the solver has no data for the
    /// goal, or the data is wrong ([`SolveError::is_data_error`]).
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        mut emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        let (solution, _) = match &*self.engine {
            Engine::Table(table) => return table.solve_each(start, goal, emit),
            Engine::Search(_) | Engine::JumpSearch(_) => {
                // A distance a search found (`Solver::length_of`) is the
                // first bound: no shorter bound holds an answer, and the
                // positions that search passed over hold none within what
                // it had left.
                let query = match self.memo_distance(start, goal) {
                    Some(distance) => Query::within(distance, u32::MAX).learning(),
                    None => Query::WHOLE,
                };
                crate::deepen::uncapped(self.search(start, goal, query).map(crate::deepen::answer))?
            }
        };
        if let Some(moves) = solution.moves() {
            self.keep_answer(start, goal, moves);
        }
        Ok(solution.moves().map(|moves| {
            moves.iter().copied().for_each(&mut emit);
            self.metric().count_moves(moves)
        }))
    }
}
