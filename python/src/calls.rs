//! What every front of the module does, once: a call's goal, shape, metric
//! and solvers ([`Call`]), and how it answers. The module's functions make
//! a call over the solvers kept for their data folder; an `eight.Solver`
//! over its own.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use eight::data::NoDataDir;
use eight::random::{DepthError, Draw, Near};
use eight::{Board, DataDir, Metric, Notation, Shape, SolveError, Solver, Stop};
use eight::{Options, Solvers};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::DataError;
use crate::read::Boards;

/// How often a call that may search looks for a signal to handle.
const SIGNALS_EVERY: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own while this one, the GIL released
/// between looks, handles signals every [`SIGNALS_EVERY`]: a signal (Ctrl-C)
/// asks `stop`, and its exception is raised once the work has ended (a
/// search stops within milliseconds). A `stop` whose deadline passed raises
/// `TimeoutError`. With `event` (an object with `is_set()`, asked as often
/// and once before the work starts), the work is stopped once it is set,
/// and `CancelledError` raised. For work that may search: a search looks at
/// no signal.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    stop: &Stop,
    timeout: Option<Duration>,
    event: Option<&Py<PyAny>>,
    work: impl FnOnce() -> Result<T, PyErrText> + Send,
) -> PyResult<T> {
    let is_set = |event: &Py<PyAny>| {
        event
            .bind(py)
            .call_method0("is_set")
            .and_then(|set| set.is_truthy())
    };
    let cancelled = || {
        let kind = py.import("concurrent.futures")?.getattr("CancelledError")?;
        Ok::<_, PyErr>(PyErr::from_value(
            kind.call1(("the search was stopped: its stop event is set",))?,
        ))
    };
    if let Some(event) = event
        && is_set(event)?
    {
        return Err(cancelled()?);
    }
    use std::sync::atomic::AtomicBool;
    /// Tells the watcher that the work ended, however it ended.
    struct Wake<'a>(std::thread::Thread, &'a AtomicBool);
    impl Drop for Wake<'_> {
        fn drop(&mut self) {
            self.1.store(true, Ordering::Release);
            self.0.unpark();
        }
    }
    let watcher = std::thread::current();
    let ended = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let _wake = Wake(watcher, &ended);
            work()
        });
        let mut signal = None;
        let mut set = false;
        loop {
            py.detach(|| std::thread::park_timeout(SIGNALS_EVERY));
            if ended.load(Ordering::Acquire) {
                break;
            }
            if let Err(err) = py.check_signals() {
                stop.stop();
                signal = Some(err);
            }
            // An event that cannot be asked stops the work too, and its
            // error is raised.
            match event.filter(|_| signal.is_none() && !set).map(is_set) {
                Some(Ok(true)) => set = true,
                Some(Err(err)) => signal = Some(err),
                _ => continue,
            }
            stop.stop();
        }
        let result = py
            .detach(|| worker.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if let Some(err) = signal {
            return Err(err);
        }
        if set {
            return Err(cancelled()?);
        }
        if stop.is_stopped() {
            let seconds = timeout.map_or(0.0, |t| t.as_secs_f64());
            return Err(PyTimeoutError::new_err(format!(
                "no answer within timeout={seconds} s: the search was stopped"
            )));
        }
        result.map_err(PyErrText::into_err)
    })
}

/// A `timeout=` in seconds, read: positive and finite.
pub(crate) fn read_timeout(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        None => Ok(None),
        Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
            Ok(Some(Duration::from_secs_f64(seconds)))
        }
        Some(seconds) => Err(PyValueError::new_err(format!(
            "timeout={seconds}: give a number of seconds above 0, or None"
        ))),
    }
}

/// An error made without the GIL, raised with it.
pub(crate) enum PyErrText {
    Data(String),
    /// Boards left unanswered for want of data: the message, and their
    /// indices (the first is the one the message is about).
    Unanswered(String, Vec<usize>),
    Value(String),
    Memory(String),
    Interrupted,
}

impl PyErrText {
    pub(crate) fn into_err(self) -> PyErr {
        match self {
            PyErrText::Data(text) => DataError::new_err(text),
            PyErrText::Unanswered(text, indices) => Python::attach(|py| {
                let err = DataError::new_err(text);
                let value = err.value(py);
                // The boards it is about, so that the others can be asked
                // again without them.
                let _ = value.setattr("index", indices[0]);
                let _ = value.setattr("unanswered", indices);
                err
            }),
            PyErrText::Value(text) => PyValueError::new_err(text),
            PyErrText::Memory(text) => PyMemoryError::new_err(text),
            PyErrText::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        }
    }
}

/// The message of a run that failed on its data, with the call that makes
/// missing data from Python (`eight.generate`, the same as the `eight-gen`
/// command the message names).
pub(crate) fn data_message(err: &eight::DataError) -> String {
    // A `DataError` says its causes in its own message.
    let mut text = err.to_string();
    if let eight::DataError::Missing {
        file, path, build, ..
    } = err
    {
        // The folder, where the command names one.
        let folder = path.parent().filter(|_| build.contains(" --out "));
        text += &format!("; from Python: {}", generate_call(file, folder));
    }
    text
}

/// The `eight.generate` call that makes `file` (into `folder`, if named).
fn generate_call(file: &eight::data::DataFile, folder: Option<&std::path::Path>) -> String {
    let mut call = format!("eight.generate(\"{}\"", file.shape);
    if let Some(blank) = file.blank {
        call += &format!(", blank={blank}");
    }
    if file.metric == Metric::Mtm {
        call += ", metric=\"mtm\"";
    }
    if let Some(sizes) = &file.sizes
        && *sizes != eight::data::DataFile::default_partition(file.shape, file.metric)
    {
        call += &format!(
            ", partition=\"{}\"",
            eight::data::DataFile::join_sizes(sizes)
        );
    }
    if let Some(folder) = folder {
        call += &format!(", data={:?}", folder.display().to_string());
    }
    call + ")"
}

/// Solvers kept from call to call, one set per data folder and metric: a
/// goal's data is loaded (and its answers derived) once a process, not once
/// a call (one 4x4 board took 7.4 ms a call, loading its databases each
/// time).
static KEPT: Mutex<Vec<(Kept, Solvers)>> = Mutex::new(Vec::new());

/// What kept solvers are kept under: their data folder and metric.
type Kept = (Option<PathBuf>, Metric);

/// The data folder `data`, else `$EIGHT_DATA` or the user's data folder.
fn data_dir(data: Option<PathBuf>) -> Result<DataDir, NoDataDir> {
    match data {
        Some(path) => DataDir::at(path).usable(),
        None => DataDir::locate(),
    }
}

/// Solvers reading data from `data` (see [`data_dir`]), counting in
/// `metric`.
pub(crate) fn new_solvers(data: Option<PathBuf>, metric: Metric) -> Solvers {
    Solvers::new(Options::new().with_data(data_dir(data)).with_metric(metric))
}

/// Where a call's solvers come from.
pub(crate) enum Home<'a> {
    /// Those kept from call to call for a data folder (`data=`, else the
    /// usual one) and the call's metric.
    Kept(Option<PathBuf>),
    /// An `eight.Solver`'s own, and its data folder if one was given.
    Own(&'a Mutex<Solvers>, Option<&'a std::path::Path>),
}

/// A call: toward `goal` (else each shape's usual goal), boards read as
/// `shape` (else told by their tiles), moves counted in `metric`.
pub(crate) struct Call<'a> {
    pub(crate) goal: Option<Board>,
    pub(crate) shape: Option<Shape>,
    pub(crate) metric: Metric,
    pub(crate) home: Home<'a>,
    /// How long a search may take, if it is bounded.
    pub(crate) timeout: Option<Duration>,
    /// What stops a search once set (an object with `is_set()`), if any.
    pub(crate) event: Option<Py<PyAny>>,
}

impl Call<'static> {
    /// A call of the module's functions: over the solvers kept for `data`
    /// (else the usual data folder) and `metric`.
    pub(crate) fn kept(
        goal: Option<Board>,
        shape: Option<Shape>,
        metric: Metric,
        data: Option<PathBuf>,
    ) -> Call<'static> {
        Call {
            goal,
            shape,
            metric,
            home: Home::Kept(data),
            timeout: None,
            event: None,
        }
    }
}

impl Call<'_> {
    /// The call, its searches stopped after `timeout`.
    pub(crate) fn within(self, timeout: Option<Duration>) -> Self {
        Call { timeout, ..self }
    }

    /// The call, its searches stopped once `event` is set (see
    /// [`watched`]).
    pub(crate) fn stopped_by(self, event: Option<Py<PyAny>>) -> Self {
        Call { event, ..self }
    }

    /// Whether boards of `shape` may be searched (not walked in a table):
    /// the call then watches for signals on a thread of its own.
    fn may_search(&self, shape: Shape) -> bool {
        eight::data::Method::of(shape) == eight::data::Method::Search
            || (self.metric == Metric::Mtm && !eight::data::DataFile::is_builtin(shape))
    }

    /// A stop for one call: asked on Ctrl-C, at the call's timeout and once
    /// its event is set.
    fn stop(&self) -> Stop {
        match self.timeout {
            Some(timeout) => Stop::new().after(timeout),
            None => Stop::new(),
        }
    }

    /// Runs `work` on the call's solvers, data remade since the last call
    /// read as it is now. Kept solvers are kept unless the data failed, so
    /// that data made since is looked for again.
    fn with_solvers<T>(
        &self,
        work: impl FnOnce(&mut Solvers) -> Result<T, PyErrText>,
    ) -> Result<T, PyErrText> {
        match &self.home {
            Home::Own(solvers, _) => {
                let mut solvers = solvers.lock().unwrap_or_else(|err| err.into_inner());
                solvers.refresh();
                work(&mut solvers)
            }
            Home::Kept(data) => {
                let key = (
                    data_dir(data.clone())
                        .ok()
                        .map(|dir| dir.path().to_path_buf()),
                    self.metric,
                );
                let taken = {
                    let mut kept = KEPT.lock().unwrap_or_else(|err| err.into_inner());
                    let at = kept.iter().position(|(other, _)| *other == key);
                    at.map(|at| kept.swap_remove(at).1)
                };
                let mut solvers = taken.unwrap_or_else(|| new_solvers(data.clone(), self.metric));
                solvers.refresh();
                let done = work(&mut solvers);
                if !matches!(done, Err(PyErrText::Data(_))) {
                    let mut kept = KEPT.lock().unwrap_or_else(|err| err.into_inner());
                    if !kept.iter().any(|(other, _)| *other == key) {
                        kept.push((key, solvers));
                    }
                }
                done
            }
        }
    }

    /// Answers `boards` with the GIL released, as `T` (lengths, or moves)
    /// from the library's typed batch, for each board in order. Refuses
    /// first, with its index, a board of another shape than the goal; a
    /// board whose data is missing, or too weak for it, is named in a
    /// `DataError` that lists every such board.
    fn answer<T: Typed>(&self, py: Python<'_>, boards: &Boards) -> PyResult<Vec<T>> {
        let boards = match boards {
            Boards::One(board) => std::slice::from_ref(board),
            Boards::Many(boards) => &boards[..],
        };
        if let Some(goal) = &self.goal
            && let Some(index) = boards.iter().position(|b| b.shape() != goal.shape())
        {
            return Err(PyValueError::new_err(format!(
                "board {index}: a {} board, but the goal is a {} board",
                boards[index].shape(),
                goal.shape()
            )));
        }
        let stop = self.stop();
        // The boards of each goal: a goal is a shape's (or the one given).
        let single = self.goal.is_some()
            || boards
                .first()
                .is_none_or(|first| boards.iter().all(|b| b.shape() == first.shape()));
        let work = || -> Result<Answered<T>, PyErrText> {
            self.with_solvers(|solvers| {
                let mut groups: Vec<(Board, Vec<usize>)> = Vec::new();
                if !single {
                    for (index, board) in boards.iter().enumerate() {
                        let goal = self.goal_of(board);
                        match groups.iter_mut().find(|(g, _)| *g == goal) {
                            Some((_, members)) => members.push(index),
                            None => groups.push((goal, vec![index])),
                        }
                    }
                } else if let Some(first) = boards.first() {
                    groups.push((self.goal_of(first), Vec::new()));
                }
                // Each goal's data loaded first, so that data missing or
                // refused is told with the first board that needs it.
                let mut loaded = Vec::with_capacity(groups.len());
                for (goal, members) in &groups {
                    let index = members.first().copied().unwrap_or(0);
                    let solver = solvers.get(goal).map_err(|err| {
                        PyErrText::Unanswered(
                            format!("board {index}: {}", data_message(&err)),
                            vec![index],
                        )
                    })?;
                    loaded.push(solver.stopping(stop.clone()));
                }
                let mut answers: Vec<T> = Vec::new();
                let mut unanswered = Vec::new();
                let mut first_message = None;
                for ((goal, members), solver) in groups.iter().zip(&loaded) {
                    let starts: Vec<Board>;
                    let starts = match single {
                        true => boards,
                        false => {
                            starts = members.iter().map(|&i| boards[i]).collect();
                            &starts[..]
                        }
                    };
                    let index_of = |i: usize| if single { i } else { members[i] };
                    let mut part = Vec::with_capacity(starts.len());
                    let mut refused = |i: usize, err: SolveError| {
                        let index = index_of(i);
                        if first_message
                            .as_ref()
                            .is_none_or(|(first, _)| index < *first)
                        {
                            first_message = Some((index, err.to_string()));
                        }
                        unanswered.push(index);
                    };
                    answer_run(solver, starts, goal, &stop, &mut part, &mut refused)?;
                    match single {
                        true => answers = part,
                        false => {
                            if answers.is_empty() {
                                answers.resize_with(boards.len(), T::none);
                            }
                            for (i, answer) in part.into_iter().enumerate() {
                                answers[members[i]] = answer;
                            }
                        }
                    }
                }
                unanswered.sort_unstable();
                Ok((answers, unanswered, first_message))
            })
        };
        // One shape: its first board says whether it may be searched.
        let shapes = match single {
            true => &boards[..boards.len().min(1)],
            false => boards,
        };
        let watch = self.timeout.is_some()
            || self.event.is_some()
            || boards.len() > WATCHED_FROM
            || shapes.iter().any(|b| self.may_search(b.shape()));
        let (answers, unanswered, first) = match watch {
            true => watched(py, &stop, self.timeout, self.event.as_ref(), work)?,
            false => py.detach(work).map_err(PyErrText::into_err)?,
        };
        if let Some((first, message)) = first {
            // Boards too far for the data made here: the first one's
            // message, with the call that makes larger data.
            let goal = self.goal_of(&boards[first]);
            let file = eight::data::DataFile::usual(goal.shape(), self.metric, goal.blank());
            let folder = match &self.home {
                Home::Kept(data) => data.as_deref(),
                Home::Own(_, data) => *data,
            };
            return Err(PyErrText::Unanswered(
                format!(
                    "board {first}: {message}; from Python: {}",
                    generate_call(&file, folder)
                ),
                unanswered,
            )
            .into_err());
        }
        Ok(answers)
    }

    /// The goal of `board`: the call's, else its shape's usual one.
    fn goal_of(&self, board: &Board) -> Board {
        self.goal.unwrap_or_else(|| Board::goal(board.shape()))
    }

    /// The answers of `boards`: a `str` or `None` for one board, a list of
    /// those for a batch.
    pub(crate) fn solve<'py>(
        &self,
        py: Python<'py>,
        boards: Boards,
        notation: Notation,
    ) -> PyResult<Bound<'py, PyAny>> {
        let answers: Vec<Option<Vec<u8>>> = self.answer(py, &boards)?;
        let mut spelled = Vec::new();
        let mut value = |answer: &Option<Vec<u8>>| -> Bound<'py, PyAny> {
            match answer {
                None => py.None().into_bound(py),
                Some(letters) if notation == Notation::Blank => {
                    // Move letters are ASCII.
                    PyString::new(py, std::str::from_utf8(letters).unwrap_or_default()).into_any()
                }
                Some(letters) => {
                    spelled.clear();
                    notation.spell(letters, &mut spelled);
                    PyString::new(py, std::str::from_utf8(&spelled).unwrap_or_default()).into_any()
                }
            }
        };
        match boards {
            Boards::One(_) => Ok(answers
                .first()
                .map_or_else(|| py.None().into_bound(py), &mut value)),
            Boards::Many(_) => Ok(PyList::new(py, answers.iter().map(value))?.into_any()),
        }
    }

    /// The lengths of `boards`' answers: an `int` (-1 if unsolvable) for one
    /// board, an `int16` array for a batch.
    pub(crate) fn length<'py>(
        &self,
        py: Python<'py>,
        boards: Boards,
    ) -> PyResult<Bound<'py, PyAny>> {
        let lengths: Vec<i16> = self.answer(py, &boards)?;
        match boards {
            Boards::One(_) => Ok(lengths
                .first()
                .copied()
                .unwrap_or(-1)
                .into_pyobject(py)?
                .into_any()),
            Boards::Many(_) => Ok(PyArray1::from_vec(py, lengths).into_any()),
        }
    }

    /// The verdict on `moves` from `start`.
    pub(crate) fn judge(&self, py: Python<'_>, start: Board, moves: &str) -> PyResult<String> {
        // As a judge line's moves, in any notation the program writes:
        // blank letters, tile letters with counts, spaced or not, `-` for
        // none.
        let letters = moves.trim();
        self.on_solver(py, start, |solver, goal| {
            let verdict = solver.judge(&start, goal, letters.as_bytes())?;
            Ok(verdict.to_string())
        })
    }

    /// The analysis of `moves` from `start` (the verdict, and the distance
    /// of the start and of the board after each move), as a `dict` with
    /// the keys of `eight --analyse --json`.
    pub(crate) fn analyse<'py>(
        &self,
        py: Python<'py>,
        start: Board,
        moves: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        // Read as `judge` reads them.
        let letters = moves.trim();
        let analysis = self.on_solver(py, start, |solver, goal| {
            solver.analyse(&start, goal, letters.as_bytes())
        })?;
        let dict = PyDict::new(py);
        dict.set_item("verdict", analysis.verdict.to_string())?;
        dict.set_item("distances", &analysis.distances)?;
        dict.set_item("lost", analysis.lost())?;
        dict.set_item("worse", analysis.worse().collect::<Vec<_>>())?;
        Ok(dict)
    }

    /// `work` on the solver toward `start`'s goal: where it may search, on
    /// a thread of its own, stopped on Ctrl-C, at the call's timeout or
    /// once its event is set ([`watched`]).
    pub(crate) fn on_solver<T: Send>(
        &self,
        py: Python<'_>,
        start: Board,
        work: impl FnOnce(&Solver, &Board) -> Result<T, SolveError> + Send,
    ) -> PyResult<T> {
        let goal = self.goal_of(&start);
        let stop = self.stop();
        let run = || {
            self.with_solvers(|solvers| {
                let solver = solvers
                    .get(&goal)
                    .map_err(|err| PyErrText::Data(data_message(&err)))?
                    .stopping(stop.clone());
                work(&solver, &goal).map_err(|err| match err {
                    SolveError::Stopped => PyErrText::Interrupted,
                    err if err.is_data_error() => {
                        PyErrText::Data(format!("{}: {err}", solver.describe()))
                    }
                    err => PyErrText::Value(err.to_string()),
                })
            })
        };
        match self.timeout.is_some() || self.event.is_some() || self.may_search(start.shape()) {
            true => watched(py, &stop, self.timeout, self.event.as_ref(), run),
            false => py.detach(run).map_err(PyErrText::into_err),
        }
    }

    /// `n` random boards, as `eight --random n --seed S [--depth D]` draws
    /// them, in an `(n, cells)` array.
    pub(crate) fn random<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: Option<u64>,
        near: Option<Near>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let goal = self
            .goal
            .unwrap_or_else(|| Board::goal(self.shape.unwrap_or(Shape::EIGHT)));
        let cells = goal.shape().cells();
        let seed = seed.unwrap_or_else(eight::random::Draw::seed);
        let tiles = py.detach(|| -> Result<Vec<u8>, PyErrText> {
            let draw = match near {
                None => Draw::new(goal, seed),
                Some(Near::Walk(moves)) => Draw::walk(goal, seed, moves),
                Some(Near::Depth(depth)) => {
                    let solver = self.with_solvers(|solvers| {
                        solvers
                            .get_table(&goal)
                            .map_err(|err| PyErrText::Data(data_message(&err)))
                    })?;
                    Draw::at_depth(goal, seed, depth, &solver).map_err(|err| match err {
                        DepthError::Solve(err) if err.is_data_error() => {
                            PyErrText::Data(format!("{}: {err}", solver.describe()))
                        }
                        err => PyErrText::Value(format!("depth {depth}: {err}")),
                    })?
                }
            };
            // What cannot be had is refused before anything is drawn.
            let mut tiles = Vec::new();
            n.checked_mul(cells)
                .and_then(|bytes| tiles.try_reserve_exact(bytes).ok())
                .ok_or_else(|| {
                    PyErrText::Memory(format!(
                        "cannot allocate {n} boards of {cells} cells: ask for fewer at a time \
                         (a seed of their own each)"
                    ))
                })?;
            for board in draw.take(n) {
                tiles.extend_from_slice(board.cells());
            }
            Ok(tiles)
        });
        let tiles = tiles.map_err(PyErrText::into_err)?;
        Ok(PyArray1::from_vec(py, tiles)
            .reshape([n, cells])?
            .into_any())
    }
}

/// A call's answers, the boards left unanswered for want of data, and the
/// first of them with its message.
type Answered<T> = (Vec<T>, Vec<usize>, Option<(usize, String)>);

/// Calls of more boards than this watch for signals on a thread of their
/// own (see [`watched`]): a million 3x3 boards take about 10 ms.
const WATCHED_FROM: usize = 1 << 20;

/// Boards answered between two looks at the call's stop (a search also
/// looks at it as it runs).
const RUN: usize = 1 << 20;

/// An answer as a call gives it: from the library's typed batch.
pub(crate) trait Typed: Send + Sized {
    /// The answers of `starts` toward `goal`, in order; a board the data
    /// cannot answer is told to `refused` and holds no answer.
    fn batch(
        solver: &Solver,
        starts: &[Board],
        goal: &Board,
        refused: &mut dyn FnMut(usize, SolveError),
    ) -> Result<Vec<Self>, SolveError>;
    /// The place of a board with no answer.
    fn none() -> Self;
}

/// A board's moves in blank letters, `None` if it cannot reach the goal.
impl Typed for Option<Vec<u8>> {
    fn batch(
        solver: &Solver,
        starts: &[Board],
        goal: &Board,
        refused: &mut dyn FnMut(usize, SolveError),
    ) -> Result<Vec<Self>, SolveError> {
        let mut solutions = eight::Solutions::default();
        solver.solve_many_refusing(starts, goal, &mut solutions, refused)?;
        Ok(solutions
            .iter()
            .map(|answer| answer.letters().map(String::into_bytes))
            .collect())
    }

    fn none() -> Self {
        None
    }
}

/// A board's number of moves, -1 if it cannot reach the goal: the `int16`
/// array's values as they are.
impl Typed for i16 {
    fn batch(
        solver: &Solver,
        starts: &[Board],
        goal: &Board,
        refused: &mut dyn FnMut(usize, SolveError),
    ) -> Result<Vec<i16>, SolveError> {
        let mut lengths = Vec::new();
        solver.lengths_many_refusing(starts, goal, &mut lengths, refused)?;
        Ok(lengths
            .into_iter()
            .map(|length| length.map_or(-1, |n| n as i16))
            .collect())
    }

    fn none() -> i16 {
        -1
    }
}

/// Answers `starts` toward `goal` with `solver` into `out` by the
/// library's batch, in runs of [`RUN`], looking at `stop` between them;
/// each board too far for the data handed to `refused` with its index
/// among `starts` (its place in `out` holds no answer).
fn answer_run<T: Typed>(
    solver: &Solver,
    starts: &[Board],
    goal: &Board,
    stop: &Stop,
    out: &mut Vec<T>,
    refused: &mut impl FnMut(usize, SolveError),
) -> Result<(), PyErrText> {
    let failed = |err: SolveError| match err {
        SolveError::At { error, .. } => failure(solver, *error),
        err => failure(solver, err),
    };
    for (run, boards) in starts.chunks(RUN).enumerate() {
        if stop.is_stopped() {
            return Err(PyErrText::Interrupted);
        }
        let mut told = |index: usize, err: SolveError| refused(run * RUN + index, err);
        out.extend(T::batch(solver, boards, goal, &mut told).map_err(failed)?);
    }
    Ok(())
}

/// What a board's error raises: a stop is the interrupt (or the timeout)
/// that asked it, wrong data a `DataError` naming it, anything else a
/// `ValueError`.
fn failure(solver: &Solver, err: SolveError) -> PyErrText {
    match err {
        SolveError::Stopped => PyErrText::Interrupted,
        err if err.is_data_error() => PyErrText::Data(format!("{}: {err}", solver.describe())),
        err => PyErrText::Value(err.to_string()),
    }
}
