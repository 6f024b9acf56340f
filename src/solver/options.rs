//! How solvers are opened: the metric, where data is read from, the pattern
//! databases' groups, whether data is checked in full, and who hears of it.

use crate::data::{DataDir, NoDataDir};
use crate::metric::Metric;
use crate::solver::Proving;

/// What is told as data loads: a program shows it, a library caller may
/// ignore it (the default does nothing).
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

impl std::fmt::Debug for dyn Loading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Loading")
    }
}

/// Tells nothing.
struct Silent;

impl Loading for Silent {}

/// How [`Solver::open`](crate::Solver::open) and [`Solvers`](crate::Solvers)
/// open a goal's data: in the single-tile metric, from what is built in and
/// the data folder ([`DataDir::locate`]), over the strongest pattern
/// databases made, checked cheaply, telling nothing, unless told otherwise.
///
/// ```
/// use eight::{Board, Metric, Options, Shape, Solver};
///
/// let options = Options::new().with_metric(Metric::Mtm);
/// let solver = Solver::open(&Board::goal(Shape::EIGHT), &options)?;
/// assert_eq!(solver.metric(), Metric::Mtm);
/// # Ok::<(), eight::DataError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    pub(super) data: Result<DataDir, NoDataDir>,
    pub(super) metric: Metric,
    pub(super) partition: Option<Vec<usize>>,
    pub(super) verify: bool,
    pub(super) host: &'static dyn Loading,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// The defaults: the single-tile metric, the data folder
    /// [`DataDir::locate`] finds.
    pub fn new() -> Options {
        Options {
            data: DataDir::locate(),
            metric: Metric::Stm,
            partition: None,
            verify: false,
            host: &Silent,
        }
    }

    /// Reads data from `dir` instead; with no data folder (an error), what
    /// is built in still answers.
    pub fn with_data(mut self, dir: Result<DataDir, NoDataDir>) -> Options {
        self.data = dir;
        self
    }

    /// Counts moves in `metric`.
    pub fn with_metric(mut self, metric: Metric) -> Options {
        self.metric = metric;
        self
    }

    /// Searches with the data folder's pattern databases of these group
    /// sizes (the single-tile metric), not the strongest made.
    pub fn with_partition(mut self, sizes: Vec<usize>) -> Options {
        self.partition = Some(sizes);
        self
    }

    /// Checks all the data used in full before its first answer: every
    /// checksum, and the proof of every data-folder file again.
    pub fn verifying(mut self, verify: bool) -> Options {
        self.verify = verify;
        self
    }

    /// Tells `host` of data proven and loaded.
    pub fn telling(mut self, host: &'static dyn Loading) -> Options {
        self.host = host;
        self
    }

    /// How moves are counted.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The group sizes asked for, if any.
    pub fn partition(&self) -> Option<&[usize]> {
        self.partition.as_deref()
    }
}
