//! `eight` for Python: exact sliding-puzzle answers, numpy-first, over the
//! typed batch of the library the `eight` program answers with, at its
//! speed.
//!
//! A board is a string in any layout the program reads, a sequence of ints
//! (0 the blank), or a row of a 2-D numpy array `(n, cells)` of small ints;
//! a 3-D array `(n, rows, cols)` tells the shape. Work runs with the GIL
//! released, on every core.

mod calls;
mod read;

use std::path::PathBuf;
use std::sync::Mutex;

use eight::Solvers;
use eight::data::{self, DataFile};
use eight::{Board, DataDir, Metric, Shape, Stop};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::calls::{Call, Home, new_solvers};
use crate::read::{
    Bad, read_board, read_boards, read_goal, read_metric, read_notation, read_shape,
};
use eight::random::Near;

create_exception!(
    eight,
    DataError,
    PyOSError,
    "The data a shape needs is missing or wrong. The message names the \
     `eight-gen` command that makes it."
);

/// The shortest moves of the blank to the goal, the lexicographically
/// smallest of them (`d < l < r < u`, where the blank goes).
///
/// One board gives a ``str`` (``""`` at the goal) or ``None`` when it
/// cannot reach the goal; a batch gives a ``list`` of those, in order.
///
/// >>> import eight
/// >>> eight.solve("2 3 4 1 5 x 7 6 8")
/// 'dlurullddrurdllurdr'
/// >>> eight.solve(["12345678x", "21345678x"])
/// ['', None]
/// >>> eight.solve("2 3 4 1 5 x 7 6 8", notation="tile-runs")
/// 'URDLDR2U2LDLUR2DLUL'
///
/// With ``metric="mtm"``, a run of tiles slid at once is one move: the
/// fewest such moves, still one letter per cell the blank passes.
///
/// >>> eight.solve("2 3 4 1 5 x 7 6 8", metric="mtm", notation="tile-runs")
/// 'RULD2R2U2LDLUR2DL2U'
#[pyfunction]
#[pyo3(signature = (boards, *, goal=None, shape=None, data=None, notation="blank", metric="stm"))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    notation: &str,
    metric: &str,
) -> PyResult<Bound<'py, PyAny>> {
    // The boards first, so that a bad board is told before a bad option.
    let shape = read_shape(shape)?;
    let boards = read_boards(boards, shape)?;
    let goal = read_goal(goal, shape)?;
    let notation = read_notation(notation)?;
    Call::kept(goal, shape, read_metric(metric)?, data).solve(py, boards, notation)
}

/// The number of moves of the shortest answer: an ``int`` for one board
/// (``-1`` when it cannot reach the goal), a numpy ``int16`` array for a
/// batch.
///
/// >>> import eight, numpy as np
/// >>> eight.length("2 3 4 1 5 x 7 6 8")
/// 19
/// >>> eight.length(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]]))
/// array([ 0, -1], dtype=int16)
/// >>> eight.length("2 3 4 1 5 x 7 6 8", metric="mtm")
/// 14
#[pyfunction]
#[pyo3(signature = (boards, *, goal=None, shape=None, data=None, metric="stm"))]
fn length<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = read_shape(shape)?;
    let boards = read_boards(boards, shape)?;
    let goal = read_goal(goal, shape)?;
    Call::kept(goal, shape, read_metric(metric)?, data).length(py, boards)
}

/// Judges moves someone found (blank letters, ``""`` or ``"-"`` for none),
/// as ``eight --judge`` does: ``"optimal"``, ``"longer by K"``, ``"not at
/// goal"``, ``"illegal move I"`` or ``"unsolvable"``.
///
/// >>> import eight
/// >>> eight.judge("1 2 3 4 5 6 7 x 8", "r")
/// 'optimal'
/// >>> eight.judge("1 2 3 4 5 6 7 x 8", "rlr")
/// 'longer by 2'
/// >>> eight.judge("1 2 3 4 5 6 x 7 8", "rr", metric="mtm")
/// 'optimal'
#[pyfunction]
#[pyo3(signature = (board, moves, *, goal=None, shape=None, data=None, metric="stm"))]
fn judge(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    moves: &str,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<String> {
    let (call, start) = one_board(board, goal, shape, data, metric)?;
    call.judge(py, start, moves)
}

/// Analyses moves someone found, read as ``judge`` reads them, as ``eight
/// --analyse --json`` does: a ``dict`` of the ``verdict``, the
/// ``distances`` to the goal of the board and of the board after each move
/// (each run, with ``metric="mtm"``), the moves ``lost`` (made and still to
/// make beyond the board's distance) and the numbers of the moves that
/// brought the goal no closer (``worse``, from 1). Where a move is illegal
/// or the board cannot reach the goal, ``distances`` and ``worse`` are
/// empty and ``lost`` is ``None``.
///
/// >>> import eight
/// >>> eight.analyse("1 2 3 4 5 6 x 7 8", "rlrr")
/// {'verdict': 'longer by 2', 'distances': [2, 1, 2, 1, 0], 'lost': 2, 'worse': [2]}
/// >>> eight.analyse("1 2 3 4 5 6 7 x 8", "dd")["verdict"]
/// 'illegal move 1'
#[pyfunction]
#[pyo3(signature = (board, moves, *, goal=None, shape=None, data=None, metric="stm"))]
fn analyse<'py>(
    py: Python<'py>,
    board: &Bound<'_, PyAny>,
    moves: &str,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let (call, start) = one_board(board, goal, shape, data, metric)?;
    call.analyse(py, start, moves)
}

/// The board of a call on one board, and the call, from the arguments of
/// the module's function.
fn one_board(
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<(Call<'static>, Board)> {
    let metric = read_metric(metric)?;
    let shape = read_shape(shape)?;
    let start = read_board(board, shape).map_err(Bad::into_err)?;
    let goal = read_goal(goal, shape)?;
    Ok((Call::kept(goal, shape, metric, data), start))
}

/// ``n`` random boards as a numpy ``uint8`` array of shape ``(n, cells)``,
/// 0 the blank: drawn uniformly from the boards that can reach the goal, or
/// with ``depth`` from those exactly that many moves away (shapes of up to
/// 12 cells), or with ``walk`` at the end of a random walk of that many
/// moves that never undoes one (any shape). The same seed draws the same
/// boards as ``eight --random n --seed S`` (with ``--depth`` or ``--walk``).
///
/// >>> import eight
/// >>> boards = eight.random(3, seed=7)
/// >>> boards.shape, boards.dtype
/// ((3, 9), dtype('uint8'))
/// >>> eight.length(eight.random(4, seed=1, depth=20)).tolist()
/// [20, 20, 20, 20]
/// >>> eight.length(eight.random(2, seed=1, depth=20, metric="mtm"), metric="mtm").tolist()
/// [20, 20]
#[pyfunction]
#[pyo3(signature = (n, *, shape=None, seed=None, depth=None, walk=None, goal=None, data=None, metric="stm"))]
#[allow(clippy::too_many_arguments)]
fn random<'py>(
    py: Python<'py>,
    n: usize,
    shape: Option<&str>,
    seed: Option<u64>,
    depth: Option<u32>,
    walk: Option<u32>,
    goal: Option<&Bound<'py, PyAny>>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let metric = read_metric(metric)?;
    let shape = read_shape(shape)?;
    let goal = read_goal(goal, shape)?;
    let near = read_near(depth, walk)?;
    Call::kept(goal, shape, metric, data).random(py, n, seed, near)
}

/// How near the goal `random` draws: `depth=` or `walk=`, not both.
fn read_near(depth: Option<u32>, walk: Option<u32>) -> PyResult<Option<Near>> {
    match (depth, walk) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give depth= or walk=, not both")),
        (Some(depth), None) => Ok(Some(Near::Depth(depth))),
        (None, Some(walk)) => Ok(Some(Near::Walk(walk))),
        (None, None) => Ok(None),
    }
}

/// Makes the data ``shape`` needs, as ``eight-gen`` makes it (the same
/// bytes), into the data folder: ``data=``, else ``$EIGHT_DATA`` or the
/// user's data folder. A table for shapes of 10 and 12 cells, pattern
/// databases for larger ones (of groups of ``partition=``, such as
/// ``"7-8"``, in the single-tile metric), toward goals with the blank at
/// ``blank`` (else the last cell); the file is written whole and its proof
/// recorded, so the next call answers from it at once. ``progress``, if
/// given, is called with what is being made, the steps done and their
/// number. Returns the file's path.
///
/// >>> import eight, tempfile
/// >>> folder = tempfile.mkdtemp()
/// >>> eight.generate("2x5", data=folder).endswith("2x5-blank9.table")
/// True
/// >>> eight.solve("1 2 3 4 5 6 7 8 x 9", shape="2x5", data=folder)
/// 'r'
#[pyfunction]
#[pyo3(signature = (shape, *, blank=None, metric="stm", partition=None, data=None, progress=None))]
fn generate(
    py: Python<'_>,
    shape: &str,
    blank: Option<&Bound<'_, PyAny>>,
    metric: &str,
    partition: Option<&str>,
    data: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let blank = blank.map(read_cell).transpose()?;
    let shape = read_shape(Some(shape))?.expect("a shape was given");
    let metric = read_metric(metric)?;
    if data::DataFile::is_builtin(shape) {
        return Err(PyValueError::new_err(format!(
            "the {shape} data is built into the package: there is nothing to make"
        )));
    }
    let cells = shape.cells();
    let blank = blank.unwrap_or(cells - 1);
    if blank >= cells {
        return Err(PyValueError::new_err(format!(
            "blank={blank}: a {shape} board has cells 0 to {}",
            cells - 1
        )));
    }
    let file = match partition {
        None => DataFile::usual(shape, metric, blank),
        Some(text) => {
            if metric != Metric::Stm || data::Method::of(shape) != data::Method::Search {
                return Err(PyValueError::new_err(format!(
                    "partition={text:?}: only the single-tile metric's pattern databases \
                     (shapes of 14 cells or more) have groups to choose"
                )));
            }
            let sizes = eight::data::DataFile::parse_sizes(text)
                .map_err(|err| PyValueError::new_err(format!("partition={text:?}: {err}")))?;
            DataFile::databases(shape, metric, &sizes, blank)
        }
    };
    let dir = match data {
        Some(path) => DataDir::at(path)
            .usable()
            .map_err(|err| PyOSError::new_err(err.to_string().replace("--data", "data=")))?,
        None => DataDir::locate().map_err(|err| DataError::new_err(err.to_string()))?,
    };
    let path = dir.path().join(file.name());
    // The making runs on a thread of its own, this one handling signals:
    // a Ctrl-C, or an exception from the callback (called at most once a
    // percent of each part, with the GIL), asks its stop, and every builder
    // looks at it every few thousand boards: nothing is written.
    let stop = Stop::new();
    let failed: Mutex<Option<PyErr>> = Mutex::new(None);
    let made = calls::watched(py, &stop, None, None, || {
        let mut shown = (String::new(), u64::MAX);
        let made = eight::generate::make(&file, &stop, |step| {
            let Some(progress) = &progress else {
                return;
            };
            let percent = step.done * 100 / step.total.max(1);
            if stop.is_stopped() || (shown.0 == step.part && shown.1 == percent) {
                return;
            }
            shown = (step.part.to_string(), percent);
            Python::attach(|py| {
                if let Err(err) = progress.call1(py, (step.part, step.done, step.total)) {
                    *failed.lock().unwrap_or_else(|err| err.into_inner()) = Some(err);
                    stop.stop();
                }
            });
        });
        made.map_err(|err| calls::PyErrText::Value(format!("partition: {err}")))
    });
    if let Some(err) = failed.lock().unwrap_or_else(|err| err.into_inner()).take() {
        return Err(err);
    }
    let bytes = made?.ok_or_else(|| PyKeyboardInterrupt::new_err("interrupted"))?;
    py.detach(|| {
        eight::generate::publish(&path, &bytes)
            .map_err(|err| PyOSError::new_err(err.to_string()))?;
        // Read back equal under one stamp: proven, so that it is trusted at
        // once. A record that cannot be made only means a proof at first use.
        let _ = eight::generate::record_proof(&path, &bytes);
        Ok(path.display().to_string())
    })
}

/// The cell `blank=` names: an int (`True` is no cell).
fn read_cell(blank: &Bound<'_, PyAny>) -> PyResult<usize> {
    let repr = || blank.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    if blank.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "blank={}: give the blank's cell, an int",
            repr()
        )));
    }
    blank
        .extract::<usize>()
        .map_err(|_| PyValueError::new_err(format!("blank={}: a cell is an int from 0", repr())))
}

/// A solver toward one goal (else each shape's usual goal), counting in one
/// metric, from one data folder: its data loaded once, when it is made if
/// its goal or shape is given (so that missing data is told there), else
/// at the first board of each shape. The module's functions do the same
/// with solvers kept for each data folder and metric.
///
/// >>> import eight
/// >>> solver = eight.Solver(goal="x12345678")
/// >>> solver.solve("12345678x")
/// 'lurulldrrulddluurrdllu'
/// >>> solver.length(["x12345678", "12345678x"]).tolist()
/// [0, 22]
/// >>> solver.judge("1x2345678", "l")
/// 'optimal'
/// >>> eight.Solver(shape="2x4", metric="mtm")
/// eight.Solver(goal='1 2 3 4/5 6 7 x', shape='2x4', metric='mtm')
#[pyclass(name = "Solver", module = "eight", frozen)]
struct Solver {
    goal: Option<Board>,
    shape: Option<Shape>,
    metric: Metric,
    solvers: Mutex<Solvers>,
    /// The data folder given, for messages.
    data: Option<PathBuf>,
}

impl Solver {
    /// A call of the solver's.
    fn call(&self) -> Call<'_> {
        Call {
            goal: self.goal,
            shape: self.shape,
            metric: self.metric,
            home: Home::Own(&self.solvers, self.data.as_deref()),
            timeout: None,
            event: None,
        }
    }

    /// The board of a call on one board, and the call, within `timeout`
    /// and stopped by `stop`.
    fn one_board(
        &self,
        board: &Bound<'_, PyAny>,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<(Call<'_>, Board)> {
        let start = read_board(board, self.shape).map_err(Bad::into_err)?;
        let timeout = calls::read_timeout(timeout)?;
        Ok((self.call().within(timeout).stopped_by(stop), start))
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (*, goal=None, shape=None, metric="stm", data=None))]
    fn new(
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        shape: Option<&str>,
        metric: &str,
        data: Option<PathBuf>,
    ) -> PyResult<Solver> {
        let shape = read_shape(shape)?;
        let goal = read_goal(goal, shape)?.or(shape.map(Board::goal));
        let metric = read_metric(metric)?;
        let mut solvers = new_solvers(data.clone(), metric);
        if let Some(goal) = goal {
            py.detach(|| solvers.get(&goal).map(drop))
                .map_err(|err| DataError::new_err(calls::data_message(&err)))?;
        }
        Ok(Solver {
            goal,
            shape: shape.or(goal.map(|goal| goal.shape())),
            metric,
            solvers: Mutex::new(solvers),
            data,
        })
    }

    /// As ``eight.solve``, toward the solver's goal in its metric. With
    /// ``timeout`` (seconds), a search still running then is stopped and
    /// ``TimeoutError`` raised. With ``stop``, an object with ``is_set()``
    /// (a ``threading.Event``, a Dask ``distributed.Event``), asked when
    /// the call starts and every 50 ms while it answers: once it is set,
    /// the call stops and ``concurrent.futures.CancelledError`` is raised.
    #[pyo3(signature = (boards, *, notation="blank", timeout=None, stop=None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
        notation: &str,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let boards = read_boards(boards, self.shape)?;
        let timeout = calls::read_timeout(timeout)?;
        self.call()
            .within(timeout)
            .stopped_by(stop)
            .solve(py, boards, read_notation(notation)?)
    }

    /// As ``eight.length``, toward the solver's goal in its metric; with
    /// ``timeout`` and ``stop`` as in ``solve``.
    #[pyo3(signature = (boards, *, timeout=None, stop=None))]
    fn length<'py>(
        &self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let boards = read_boards(boards, self.shape)?;
        let timeout = calls::read_timeout(timeout)?;
        self.call()
            .within(timeout)
            .stopped_by(stop)
            .length(py, boards)
    }

    /// As ``eight.judge``, toward the solver's goal in its metric; with
    /// ``timeout`` and ``stop`` as in ``solve``.
    #[pyo3(signature = (board, moves, *, timeout=None, stop=None))]
    fn judge(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        moves: &str,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        let (call, start) = self.one_board(board, timeout, stop)?;
        call.judge(py, start, moves)
    }

    /// As ``eight.analyse``, toward the solver's goal in its metric; with
    /// ``timeout`` and ``stop`` as in ``solve``.
    #[pyo3(signature = (board, moves, *, timeout=None, stop=None))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'_, PyAny>,
        moves: &str,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (call, start) = self.one_board(board, timeout, stop)?;
        call.analyse(py, start, moves)
    }

    /// As ``eight.random``, toward the solver's goal in its metric.
    #[pyo3(signature = (n, *, seed=None, depth=None, walk=None))]
    fn random<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: Option<u64>,
        depth: Option<u32>,
        walk: Option<u32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call().random(py, n, seed, read_near(depth, walk)?)
    }

    /// One bound of the search of ``board`` cut into subtrees, for other
    /// processes or machines to search with ``search_subtree``: ``(tasks,
    /// inside, over)``, each task ``(moves, before)``: the blank's letters
    /// from the board to the subtree, and the nodes the search in one
    /// piece expands before it; ``None`` if the board cannot reach the
    /// goal. ``nodes`` is what the search counted before this bound.
    /// Searched in order, the first subtree with an answer gives the
    /// answer and the nodes of the search in one process; with none, the
    /// bound's nodes are ``inside`` and every subtree's, and the next
    /// bound is the smallest ``over``. ``python/examples/dask_search.py``
    /// spreads a search so over a Dask cluster.
    #[pyo3(signature = (board, bound, *, nodes=0, at_least=64))]
    fn cut(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        bound: u32,
        nodes: u64,
        at_least: usize,
    ) -> PyResult<Option<Cut>> {
        let start = read_board(board, self.shape).map_err(Bad::into_err)?;
        let cut = self.call().on_solver(py, start, |solver, goal| {
            solver.cut(&start, goal, bound, nodes, at_least)
        })?;
        Ok(cut.map(|cut| {
            let tasks = cut.tasks.iter();
            let tasks = tasks.map(|(path, before)| (letters(path), *before));
            (tasks.collect(), cut.inside, cut.over)
        }))
    }

    /// The subtree of bound ``bound`` below the blank's letters ``moves``
    /// (a task of ``cut``) searched as the search in one piece searches
    /// it: ``(answer, over, nodes)``, the answer's letters from the board
    /// if the subtree holds one (else ``None``), the smallest bound that
    /// lets one more path in, and the nodes searched. With ``timeout`` as
    /// in ``solve``, and ``stop`` too: a task no longer needed stops and
    /// frees its worker.
    #[pyo3(signature = (board, moves, bound, *, nodes=0, timeout=None, stop=None))]
    #[allow(clippy::too_many_arguments)]
    fn search_subtree(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        moves: &str,
        bound: u32,
        nodes: u64,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<(Option<String>, u32, u64)> {
        let start = read_board(board, self.shape).map_err(Bad::into_err)?;
        let path = moves
            .chars()
            .map(|letter| {
                eight::Move::from_letter(letter).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "moves={moves:?}: {letter:?} is not u, d, l or r"
                    ))
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let timeout = calls::read_timeout(timeout)?;
        let (found, over, count) =
            self.call()
                .within(timeout)
                .stopped_by(stop)
                .on_solver(py, start, |solver, goal| {
                    solver.search_subtree(&start, goal, &path, bound, nodes)
                })?;
        Ok((found.map(|moves| letters(&moves)), over, count))
    }

    /// Makes the solver's multi-tile searches stronger for the calls
    /// after it: pattern databases of six tiles a group made in memory
    /// (on 4x4 115 MB, about 15 s on 2 cores) beside the five-tile ones
    /// its searches build, each search taking the largest count of both.
    /// Worth it before many multi-tile boards of 10 to 16 cells (a few are
    /// answered faster without); the answers are the same. ``False`` where
    /// there is nothing to make: the single-tile metric, a table,
    /// databases read from the data folder (``eight-gen --metric mtm``'s
    /// are larger), boards of more than 16 cells. With ``timeout`` and
    /// ``stop`` as in ``solve``.
    #[pyo3(signature = (*, timeout=None, stop=None))]
    fn strengthen(
        &self,
        py: Python<'_>,
        timeout: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<bool> {
        let goal = self.goal.ok_or_else(|| {
            PyValueError::new_err(
                "strengthen: a solver with no goal or shape has no search to make stronger",
            )
        })?;
        let timeout = calls::read_timeout(timeout)?;
        self.call()
            .within(timeout)
            .stopped_by(stop)
            .on_solver(py, goal, |solver, goal| solver.strengthen(goal))
    }

    /// The goal, if one was given (or told by ``shape``).
    #[getter]
    fn goal(&self) -> Option<String> {
        self.goal.map(|goal| goal.to_string())
    }

    /// The shape boards are read in, if one was given (or told by ``goal``).
    #[getter]
    fn shape(&self) -> Option<String> {
        self.shape.map(|shape| shape.to_string())
    }

    /// How moves are counted: ``"stm"`` or ``"mtm"``.
    #[getter]
    fn metric(&self) -> &'static str {
        self.metric.name()
    }

    fn __repr__(&self) -> String {
        let text = |value: Option<String>| {
            value.map_or("None".into(), |value| {
                format!("{value:?}").replace('"', "'")
            })
        };
        format!(
            "eight.Solver(goal={}, shape={}, metric='{}')",
            text(self.goal()),
            text(self.shape()),
            self.metric()
        )
    }
}

/// A bound cut into subtrees, for Python: each subtree's letters and the
/// nodes before it, the nodes of the cut, and the smallest bound over it.
type Cut = (Vec<(String, u64)>, u64, u32);

/// The blank's letters of `moves`.
fn letters(moves: &[eight::Move]) -> String {
    moves.iter().map(|mv| mv.letter()).collect()
}

/// Exact, instant sliding-puzzle answers: the shortest moves, and of those
/// the lexicographically smallest, for every rectangular board of up to 25
/// cells. Boards of up to 9 cells and the 15-puzzle are answered out of the
/// box, boards of more than 16 cells near their goal; other shapes from data
/// made by ``eight-gen`` (see the ``DataError`` message).
#[pymodule(name = "eight")]
fn eight_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(length, m)?)?;
    m.add_function(wrap_pyfunction!(judge, m)?)?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add_function(wrap_pyfunction!(random, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_class::<Solver>()?;
    m.add("DataError", m.py().get_type::<DataError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // numpy's C API fetched now, at import: fetched at a call's first
    // array instead, a Ctrl-C that lands while numpy loads fails that
    // fetch, and the call with a panic that `except KeyboardInterrupt`
    // does not catch.
    numpy::PyArray1::<i16>::zeros(m.py(), 0, false);
    // Maps of data files guarded as the program's are: a file cut short
    // while a call reads it ends the call with a `DataError` that names
    // it, not the interpreter with SIGBUS.
    eight::DataDir::guard_truncation();
    Ok(())
}
