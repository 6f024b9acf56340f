//! Solvers for any goal: one per goal met, loaded on first use.

use std::path::PathBuf;
use std::sync::Arc;

use crate::board::Board;
use crate::data::{self, DataDir, NoDataDir};
use crate::metric::Metric;
use crate::solver::{DataError, Proving, Solver};

/// What [`Solvers`] tell as they load data: a program shows it, a library
/// caller may ignore it (the default does nothing).
pub trait Loading: Sync {
    /// Data is being proven before its first use.
    fn proving(&self, proving: &Proving<'_>) {
        let _ = proving;
    }

    /// A goal's data was loaded: `message` says which data answers it.
    fn loaded(&self, message: &str) {
        let _ = message;
    }
}

/// Tells nothing.
struct Silent;

impl Loading for Silent {}

/// The solvers loaded so far, and how to load more: each goal's data is
/// loaded (and proven, for data-folder files not proven before) the first
/// time a board needs it.
pub struct Solvers {
    dir: Result<DataDir, NoDataDir>,
    sizes: Option<Vec<usize>>,
    verify: bool,
    /// The table given, which alone answers.
    table: Option<PathBuf>,
    list: Vec<Arc<Solver>>,
    /// A goal whose solver could not be loaded, and why: asked again, it
    /// fails again without a second try.
    failed: Option<(Board, Arc<DataError>)>,
    host: &'static dyn Loading,
    metric: Metric,
    /// What stops the searches of every solver here, if anything does.
    stop: Option<crate::stop::Stop>,
}

impl std::fmt::Debug for Solvers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solvers")
            .field("dir", &self.dir)
            .field("sizes", &self.sizes)
            .field("verify", &self.verify)
            .field("table", &self.table)
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

impl Default for Solvers {
    fn default() -> Solvers {
        Solvers::new()
    }
}

impl Solvers {
    /// Solvers from the built-in data and the data folder
    /// ([`DataDir::locate`]), in the single-tile metric.
    pub fn new() -> Solvers {
        Solvers {
            dir: DataDir::locate(),
            sizes: None,
            verify: false,
            table: None,
            list: Vec::new(),
            failed: None,
            host: &Silent,
            metric: Metric::Stm,
            stop: None,
        }
    }

    /// Tells `host` of data proven and loaded.
    pub fn telling(mut self, host: &'static dyn Loading) -> Solvers {
        self.host = host;
        self
    }

    /// Reads data from `dir` instead.
    pub fn with_data(mut self, dir: Result<DataDir, NoDataDir>) -> Solvers {
        self.dir = dir;
        self
    }

    /// Counts moves in `metric` (the single-tile metric unless told).
    pub fn with_metric(mut self, metric: Metric) -> Solvers {
        self.metric = metric;
        self
    }

    /// How moves are counted.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Searches with pattern databases of these group sizes.
    pub fn with_partition(mut self, sizes: Vec<usize>) -> Solvers {
        self.sizes = Some(sizes);
        self
    }

    /// Checks all the data used in full before its first answer: every
    /// checksum, and the proof of every data-folder file again.
    pub fn verifying(mut self, verify: bool) -> Solvers {
        self.verify = verify;
        self
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
            dir: self.dir.clone(),
            sizes: self.sizes.clone(),
            verify: self.verify,
            table: self.table.clone(),
            list: self
                .list
                .iter()
                .map(|solver| Arc::new(solver.stopping(stop.clone())))
                .collect(),
            failed: self.failed.clone(),
            host: self.host,
            metric: self.metric,
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

    /// The group sizes asked for, if any.
    pub fn partition(&self) -> Option<&[usize]> {
        self.sizes.as_deref()
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
            .dir
            .as_ref()
            .map_err(|err| Arc::new(DataError::from(err.clone())))?;
        let file = data::DataFile::table(shape, self.metric, Some(blank));
        let missing = DataError::Missing {
            what: format!(
                "boards drawn at an exact depth need the {shape} table{} for goals with the \
                 blank at cell {blank}",
                match self.metric {
                    Metric::Stm => "",
                    Metric::Mtm => " of the multi-tile metric",
                }
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
        let dir = match &self.dir {
            Ok(dir) => dir,
            // Without a data folder, what is built in still answers.
            Err(err) => {
                let solver = Solver::builtin_for(goal.shape(), goal.blank(), self.metric)
                    .ok_or_else(|| err.clone())??;
                return Ok(self.keep(solver));
            }
        };
        let host = self.host;
        let mut proven = false;
        let progress = |proving: &Proving<'_>| {
            proven = true;
            host.proving(proving);
        };
        let solver = Solver::load(
            goal.shape(),
            goal.blank(),
            self.metric,
            dir,
            self.sizes.as_deref(),
            progress,
        )?;
        // Data proven as it loaded is not proven twice.
        if self.verify && !proven {
            solver.verify()?;
        }
        let mut line = format!("{} boards: {}", solver.shape(), solver.describe());
        if self.sizes.is_none()
            && let Some(faster) = solver.faster(goal, dir)
        {
            line += &format!(" ({faster})");
        }
        host.loaded(&line);
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
