//! Solvers for any goal: one per goal met, loaded on first use.

use std::path::PathBuf;
use std::sync::Arc;

use crate::board::Board;
use crate::data;
use crate::solver::{DataError, Options, Solver};

/// The solvers loaded so far, and how to load more: each goal's data is
/// loaded (and proven, for data-folder files not proven before) the first
/// time a board needs it.
#[derive(Debug)]
pub struct Solvers {
    options: Options,
    /// The table given, which alone answers.
    table: Option<PathBuf>,
    list: Vec<Arc<Solver>>,
    /// A goal whose solver could not be loaded, and why: asked again, it
    /// fails again without a second try.
    failed: Option<(Board, Arc<DataError>)>,
    /// What stops the searches of every solver here, if anything does.
    stop: Option<crate::stop::Stop>,
}

impl Default for Solvers {
    fn default() -> Solvers {
        Solvers::new(Options::new())
    }
}

impl Solvers {
    /// Solvers opened with `options`, none loaded yet.
    pub fn new(options: Options) -> Solvers {
        Solvers {
            options,
            table: None,
            list: Vec::new(),
            failed: None,
            stop: None,
        }
    }

    /// How these solvers are opened.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Answers only from `solver`, a table read from `path`: a goal it has
    /// no section for is an error.
    pub fn only(mut self, path: PathBuf, solver: Solver) -> Solvers {
        self.table = Some(path);
        self.list = vec![Arc::new(solver)];
        self
    }

    /// The same solvers (their data shared), whose searches end with
    /// [`SolveError::Stopped`](crate::answer::SolveError::Stopped) once `stop` is
    /// asked for or its deadline passes; solvers loaded later by the copy
    /// too. What the copy loads is its own.
    pub fn stopping(&self, stop: &crate::stop::Stop) -> Solvers {
        Solvers {
            options: self.options.clone(),
            table: self.table.clone(),
            list: self
                .list
                .iter()
                .map(|solver| Arc::new(solver.stopping(stop.clone())))
                .collect(),
            failed: self.failed.clone(),
            stop: Some(stop.clone()),
        }
    }

    /// What stops these solvers' searches, if anything does.
    pub fn stop(&self) -> Option<&crate::stop::Stop> {
        self.stop.as_ref()
    }

    /// Drops the solvers whose files changed or were replaced since they
    /// were loaded (see [`Solver::stale`]), and the memory of a goal that
    /// failed to load, so that the next board toward their goals reads the
    /// data as it is now: a process that lives on (a notebook, a server, a
    /// worker) goes on working while `eight-gen` remakes its data. Every
    /// run of the program's stream starts with it; a solver given with
    /// [`Solvers::only`] is kept.
    pub fn refresh(&mut self) {
        self.failed = None;
        if self.table.is_none() {
            self.list.retain(|solver| !solver.stale());
        }
    }

    /// The solver that answers toward `goal`, loading it if need be.
    ///
    /// # Errors
    ///
    /// Fails if its data is missing or wrong; asked again for the same goal,
    /// fails again without a second try.
    pub fn get(&mut self, goal: &Board) -> Result<Arc<Solver>, Arc<DataError>> {
        let index = self.find(goal)?;
        Ok(Arc::clone(&self.list[index]))
    }

    /// The solver that answers toward `goal` from a table of every board,
    /// loading it if need be: what drawing boards at an exact depth needs.
    ///
    /// # Errors
    ///
    /// As [`Solvers::get`]; and where the shape's boards could be answered
    /// from a table (up to 12 cells) but a search answers them, names the
    /// table and the command that makes it.
    pub fn get_table(&mut self, goal: &Board) -> Result<Arc<Solver>, Arc<DataError>> {
        let solver = self.get(goal)?;
        let (shape, blank) = (goal.shape(), goal.blank());
        if !solver.searches() || data::Method::of(shape) != data::Method::Table {
            return Ok(solver);
        }
        let dir = self
            .options
            .data
            .as_ref()
            .map_err(|err| Arc::new(DataError::from(err.clone())))?;
        let metric = self.options.metric;
        let file = data::DataFile::table(shape, metric, Some(blank));
        let missing = DataError::Missing {
            what: format!(
                "boards drawn at an exact depth need the {shape} table{} for goals with the \
                 blank at cell {blank}",
                metric.of_data()
            ),
            path: dir.path().join(file.name()),
            build: file.command(dir),
            cost: file.cost(),
            file: Box::new(file),
        };
        Err(Arc::new(missing))
    }

    /// The solvers loaded so far, in the order they were loaded.
    pub fn loaded(&self) -> &[Arc<Solver>] {
        &self.list
    }

    /// The index of the solver that answers toward `goal`, loading it if
    /// need be.
    fn find(&mut self, goal: &Board) -> Result<usize, Arc<DataError>> {
        if let Some(index) = self.list.iter().position(|s| s.serves(goal)) {
            return Ok(index);
        }
        if let Some((failed, why)) = &self.failed
            && failed == goal
        {
            return Err(Arc::clone(why));
        }
        self.load(goal).map_err(|err| {
            let err = Arc::new(err);
            self.failed = Some((*goal, Arc::clone(&err)));
            err
        })
    }

    /// Loads the solver for `goal`; its index.
    fn load(&mut self, goal: &Board) -> Result<usize, DataError> {
        if let Some(path) = &self.table {
            return Err(DataError::NoSection {
                path: path.clone(),
                blank: goal.blank(),
            });
        }
        let solver = Solver::open(goal, &self.options)?;
        Ok(self.keep(solver))
    }

    /// Keeps `solver`, with the stop of these solvers; its index.
    fn keep(&mut self, solver: Solver) -> usize {
        let solver = match &self.stop {
            Some(stop) => solver.stopping(stop.clone()),
            None => solver,
        };
        self.list.push(Arc::new(solver));
        self.list.len() - 1
    }
}
