//! `eight` for Python: exact sliding-puzzle answers, numpy-first, over the
//! same engine as the `eight` program (`eight::stream`), at its speed.
//!
//! A board is a string in any layout the program reads, a sequence of ints
//! (0 the blank), or a row of a 2-D numpy array `(n, cells)` of small ints;
//! a 3-D array `(n, rows, cols)` tells the shape. Work runs with the GIL
//! released, on every core.

use std::path::PathBuf;
use std::sync::Mutex;

use eight::random::{DepthError, Draw};
use eight::stream::{self, Answers, Config, Host, Quiet, Solvers, StreamError, Style};
use eight::{Board, DataDir, Layout, Metric, Notation, Shape};
use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString};

create_exception!(
    eight,
    DataError,
    PyOSError,
    "The data a shape needs is missing or wrong. The message names the \
     `eight-gen` command that makes it."
);

/// The engine's host in Python: a run stops when Python has a signal to
/// handle (Ctrl-C), looked at whenever the engine waits.
struct Interruptible;

/// The number the engine's stop is told by: SIGINT's.
const INTERRUPTED: i32 = 2;

impl Host for Interruptible {
    fn stopped(&self) -> Option<i32> {
        Python::attach(|py| py.check_signals().is_err()).then_some(INTERRUPTED)
    }
}

/// The Python error for a run of the engine that failed: a stop is the
/// interrupt that asked it, anything else is about the data.
fn run_error(err: StreamError) -> PyErr {
    match err.stopped() {
        Some(_) => PyKeyboardInterrupt::new_err("interrupted"),
        None => DataError::new_err(err.to_string()),
    }
}

/// Boards read from Python: one board, or a batch.
enum Boards {
    One(Board),
    Many(Vec<Board>),
}

/// The shape named by `shape=`, if any.
fn read_shape(shape: Option<&str>) -> PyResult<Option<Shape>> {
    shape
        .map(|text| {
            text.parse::<Shape>()
                .map_err(|err| PyValueError::new_err(format!("shape {text:?}: {err}")))
        })
        .transpose()
}

/// The shape of boards of `cells` cells: `shape` if given, else 3x3 for 9
/// cells and 4x4 for 16.
fn shape_of(cells: usize, shape: Option<Shape>) -> Result<Shape, String> {
    match (shape, cells) {
        (Some(shape), _) => Ok(shape),
        (None, 9) => Ok(Shape::EIGHT),
        (None, 16) => Ok(Shape::FIFTEEN),
        (None, cells) => Err(format!(
            "{cells} cells: give shape= (without it, 9 cells are 3x3 and 16 are 4x4)"
        )),
    }
}

/// A tile as Python gave it, before it is checked against its board.
enum Tile {
    /// A whole number.
    Int(i128),
    /// A float, whole or not.
    Float(f64),
    /// Anything else, as `repr` writes it.
    Other(String),
}

impl Tile {
    /// The tile of a board of `shape`.
    ///
    /// # Errors
    ///
    /// Fails unless the value is a whole number from 0 (the blank) to the
    /// board's largest tile.
    fn on(self, shape: Shape) -> Result<u8, String> {
        let whole = match self {
            Tile::Int(value) => value,
            Tile::Float(value) if value.fract() == 0.0 && value.abs() < 1e30 => value as i128,
            Tile::Float(value) => return Err(format!("{value} is not a whole number")),
            Tile::Other(text) => {
                return Err(format!(
                    "{text} is not a tile (tiles are ints, 0 the blank)"
                ));
            }
        };
        match u8::try_from(whole) {
            Ok(tile) if usize::from(tile) < shape.cells() => Ok(tile),
            _ => Err(format!("tile {whole} is not on a {shape} board")),
        }
    }

    /// A Python object read as a tile: an int (Python's or numpy's), a
    /// float, or anything else; `True` and `False` are no tiles.
    fn of(item: &Bound<'_, PyAny>) -> Tile {
        let repr = || item.repr().map_or_else(|_| "?".into(), |r| r.to_string());
        if item.is_instance_of::<PyBool>() || item.get_type().name().is_ok_and(|n| n == "bool") {
            return Tile::Other(repr());
        }
        if let Ok(value) = item.extract::<i128>() {
            return Tile::Int(value);
        }
        if item.is_instance_of::<PyInt>() {
            // Too large for 128 bits: still a whole number, off the board.
            return Tile::Int(i128::MAX);
        }
        match item.is_instance_of::<PyString>() {
            true => Tile::Other(repr()),
            false => item
                .extract::<f64>()
                .map_or_else(|_| Tile::Other(repr()), Tile::Float),
        }
    }
}

/// The board of `tiles`, read from Python (0 the blank), of `shape` or
/// told by their count.
fn board_of_tiles(tiles: Vec<Tile>, shape: Option<Shape>) -> Result<Board, String> {
    let shape = shape_of(tiles.len(), shape)?;
    let cells = tiles
        .into_iter()
        .map(|tile| tile.on(shape))
        .collect::<Result<Vec<u8>, String>>()?;
    Board::from_cells(shape, &cells).map_err(|err| err.to_string())
}

/// One board: a string in any layout the program reads, a sequence of
/// tiles, or a 1-D array.
fn read_board(item: &Bound<'_, PyAny>, shape: Option<Shape>) -> Result<Board, String> {
    if let Ok(text) = item.cast::<PyString>() {
        let text = text.to_cow().map_err(|err| err.to_string())?;
        let layout = shape.map_or(Layout::Auto, Layout::Fixed);
        return Board::parse_in(layout, text.as_bytes()).map_err(|err| in_python(&err.to_string()));
    }
    if let Ok(array) = item.cast::<PyUntypedArray>() {
        if array.ndim() != 1 {
            return Err(format!(
                "expected one board, found an array of {} dimensions",
                array.ndim()
            ));
        }
        let (tiles, shape) = array_tiles(array, shape).map_err(|err| err.text)?;
        return Board::from_cells(shape, &tiles).map_err(|err| err.to_string());
    }
    let items = item
        .try_iter()
        .and_then(|items| items.collect::<PyResult<Vec<_>>>())
        .map_err(|_| {
            format!(
                "expected a board (a string, or a sequence of ints with 0 the blank), found {}",
                type_name(item)
            )
        })?;
    board_of_tiles(items.iter().map(Tile::of).collect(), shape)
}

/// A message of the program's in Python's words: its options are
/// arguments here (`shape=3x4`, not `--shape 3x4`).
fn in_python(message: &str) -> String {
    message
        .replace("--shape ", "shape=")
        .replace("--shape", "shape=")
        .replace("--goal", "goal=")
}

/// The name of `item`'s type, for messages.
fn type_name(item: &Bound<'_, PyAny>) -> String {
    item.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |name| name.to_string())
}

/// What is wrong with an array of boards: the board it is in, if the array
/// holds several, and what.
struct ArrayError {
    board: Option<usize>,
    text: String,
}

impl ArrayError {
    fn whole(text: impl Into<String>) -> ArrayError {
        ArrayError {
            board: None,
            text: text.into(),
        }
    }

    fn into_err(self) -> PyErr {
        PyValueError::new_err(match self.board {
            Some(board) => format!("board {board}: {}", self.text),
            None => self.text,
        })
    }
}

/// The tiles of an array of boards, a board a row (the last one or two
/// dimensions: a 3-D array's tell the shape), in the array's logical order
/// whatever its memory order, each checked to be a whole number on the
/// board; and the boards' shape.
fn array_tiles(
    array: &Bound<'_, PyUntypedArray>,
    shape: Option<Shape>,
) -> Result<(Vec<u8>, Shape), ArrayError> {
    let py = array.py();
    let dims = array.shape().to_vec();
    let shape = match (dims.len(), shape) {
        (3, given) => {
            let told = Shape::new(dims[1], dims[2])
                .ok_or_else(|| ArrayError::whole(format!("no {}x{} boards", dims[1], dims[2])))?;
            if given.is_some_and(|given| given != told) {
                return Err(ArrayError::whole(format!(
                    "the array holds {told} boards, not {}",
                    given.unwrap_or(told)
                )));
            }
            Some(told)
        }
        (_, given) => given,
    };
    let cells = match dims.len() {
        3 => dims[1] * dims[2],
        _ => dims.last().copied().unwrap_or(0),
    };
    let shape = shape_of(cells, shape).map_err(ArrayError::whole)?;
    if cells != shape.cells() {
        return Err(ArrayError::whole(format!(
            "rows of {cells} cells, but a {shape} board has {}",
            shape.cells()
        )));
    }
    let several = dims.len() > 1;
    let numpy = py
        .import("numpy")
        .map_err(|e| ArrayError::whole(e.to_string()))?;
    let python = |err: PyErr| ArrayError::whole(err.to_string());
    let mut array = array.as_any().clone();
    // A masked array: its hidden values are no tiles; with none hidden, its
    // data.
    let ma = numpy.getattr("ma").map_err(python)?;
    if array
        .is_instance(&ma.getattr("MaskedArray").map_err(python)?)
        .map_err(python)?
    {
        let mask = ma.call_method1("getmaskarray", (&array,)).map_err(python)?;
        let hidden = numpy.call_method1("flatnonzero", (mask,)).map_err(python)?;
        if let Ok(first) = hidden.get_item(0) {
            let at: usize = first.extract().map_err(python)?;
            return Err(ArrayError {
                board: several.then_some(at / cells),
                text: "a masked value is no tile".into(),
            });
        }
        array = ma.call_method1("getdata", (&array,)).map_err(python)?;
    }
    let array = array
        .cast_into::<PyUntypedArray>()
        .map_err(|e| python(e.into()))?;
    let dtype = array.dtype();
    let at = |index: usize| several.then_some(index / cells);
    let check = |index: usize, tile: Tile| {
        tile.on(shape).map_err(|text| ArrayError {
            board: at(index),
            text,
        })
    };
    // The array in C order as `dtype` (no copy if it is so already).
    let contiguous = |dtype: &str| {
        numpy
            .call_method1("ascontiguousarray", (&array, dtype))
            .map_err(python)
    };
    let tiles = match (dtype.kind(), dtype.itemsize()) {
        (b'u', 1) => checked::<u8>(&contiguous("uint8")?, shape, u64::from, |index, value| {
            check(index, Tile::Int(value.into()))
        })?,
        (b'u', _) => checked::<u64>(
            &contiguous("uint64")?,
            shape,
            |v| v,
            |index, value| check(index, Tile::Int(value.into())),
        )?,
        // A negative value is far off the board as a u64.
        (b'i', _) => checked::<i64>(
            &contiguous("int64")?,
            shape,
            |v| v as u64,
            |index, value| check(index, Tile::Int(value.into())),
        )?,
        (b'f', ..=8) => checked::<f64>(
            &contiguous("float64")?,
            shape,
            |_| u64::MAX,
            |index, value| check(index, Tile::Float(value)),
        )?,
        (b'O', _) => {
            let flat = array.call_method1("ravel", ("C",)).map_err(python)?;
            let items = flat.try_iter().map_err(python)?;
            items
                .enumerate()
                .map(|(index, item)| check(index, Tile::of(&item.map_err(python)?)))
                .collect::<Result<_, _>>()?
        }
        _ => {
            return Err(ArrayError::whole(format!(
                "expected an array of ints (0 the blank), found {}",
                dtype
                    .str()
                    .map_or_else(|_| "another kind".into(), |s| s.to_string())
            )));
        }
    };
    Ok((tiles, shape))
}

/// The tiles of a C-ordered array of `T`s for boards of `shape`: at once
/// if every value's `whole` number is a tile of the shape, else each read
/// by `check`, which says what is wrong and where.
fn checked<T: numpy::Element + Copy>(
    array: &Bound<'_, PyAny>,
    shape: Shape,
    whole: fn(T) -> u64,
    mut check: impl FnMut(usize, T) -> Result<u8, ArrayError>,
) -> Result<Vec<u8>, ArrayError> {
    let array = array
        .extract::<PyReadonlyArrayDyn<'_, T>>()
        .map_err(|err| ArrayError::whole(err.to_string()))?;
    let values = array
        .as_slice()
        .map_err(|err| ArrayError::whole(err.to_string()))?;
    // The common case in two passes the compiler vectorises: a third of the
    // time a value at a time took (a million 3x3 boards).
    let cells = shape.cells() as u64;
    if values.iter().all(|&value| whole(value) < cells) {
        return Ok(values.iter().map(|&value| whole(value) as u8).collect());
    }
    values
        .iter()
        .enumerate()
        .map(|(index, &value)| check(index, value))
        .collect()
}

/// The boards of a 2-D `(n, cells)` or 3-D `(n, rows, cols)` array, each
/// checked.
fn read_array(array: &Bound<'_, PyUntypedArray>, shape: Option<Shape>) -> PyResult<Boards> {
    let (tiles, shape) = array_tiles(array, shape).map_err(ArrayError::into_err)?;
    let rows = |first: usize, tiles: &[u8]| {
        tiles
            .chunks_exact(shape.cells())
            .zip(first..)
            .map(|(row, index)| {
                Board::from_cells(shape, row).map_err(|err| format!("board {index}: {err}"))
            })
            .collect::<Result<Vec<Board>, String>>()
    };
    // Many rows are read on every core, as the engine answers them.
    let count = tiles.len() / shape.cells();
    let parts = match count >= PARALLEL_ROWS {
        true => std::thread::available_parallelism().map_or(1, |n| n.get()),
        false => 1,
    };
    let per_part = count.div_ceil(parts).max(1) * shape.cells();
    let boards = std::thread::scope(|scope| {
        let parts: Vec<_> = tiles
            .chunks(per_part)
            .enumerate()
            .map(|(part, tiles)| {
                let first = part * per_part / shape.cells();
                scope.spawn(move || rows(first, tiles))
            })
            .collect();
        let mut boards = Vec::with_capacity(count);
        for part in parts {
            // The first bad board is told: the parts are taken in order.
            boards.extend(part.join().expect("reading rows does not panic")?);
        }
        Ok::<_, String>(boards)
    })
    .map_err(PyValueError::new_err)?;
    Ok(Boards::Many(boards))
}

/// The fewest rows read on more than one core.
const PARALLEL_ROWS: usize = 1 << 16;

/// One board or many, from any form a board takes.
fn read_boards(boards: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Boards> {
    let one = |board: &Bound<'_, PyAny>| {
        read_board(board, shape)
            .map(Boards::One)
            .map_err(PyValueError::new_err)
    };
    if boards.is_instance_of::<PyString>() {
        return one(boards);
    }
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        return match array.ndim() {
            1 => one(boards),
            2 | 3 => read_array(array, shape),
            dims => Err(PyValueError::new_err(format!(
                "expected an array of 1 to 3 dimensions, found {dims}"
            ))),
        };
    }
    let items: Vec<Bound<'_, PyAny>> = boards.try_iter()?.collect::<PyResult<_>>()?;
    // A sequence of tiles is one board; a sequence of boards (strings,
    // sequences, arrays) a batch.
    let is_board =
        |item: &Bound<'_, PyAny>| item.is_instance_of::<PyString>() || item.try_iter().is_ok();
    if items.first().is_some_and(|item| !is_board(item)) {
        return one(boards);
    }
    let mut many = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        many.push(
            read_board(item, shape)
                .map_err(|err| PyValueError::new_err(format!("board {index}: {err}")))?,
        );
    }
    Ok(Boards::Many(many))
}

/// The goal given with `goal=`, if any.
fn read_goal(goal: Option<&Bound<'_, PyAny>>, shape: Option<Shape>) -> PyResult<Option<Board>> {
    goal.map(|goal| {
        read_board(goal, shape).map_err(|err| PyValueError::new_err(format!("goal: {err}")))
    })
    .transpose()
}

/// Solvers kept from call to call, one set per data folder: a goal's data
/// is loaded (and its answers derived) once a process, not once a call
/// (one 4x4 board took 7.4 ms a call, loading its databases each time).
static KEPT: Mutex<Vec<(Kept, Solvers)>> = Mutex::new(Vec::new());

/// What kept solvers are kept under: their data folder and metric.
type Kept = (Option<PathBuf>, Metric);

/// The solvers reading data from `data=`, else `$EIGHT_DATA` or the user's
/// data folder, counting in `metric`, as kept from an earlier call if one
/// was; with what to [`keep`] them under.
fn solvers(data: Option<PathBuf>, metric: Metric) -> (Kept, Solvers) {
    let dir = match data {
        Some(path) => DataDir::at(path).usable(),
        None => DataDir::locate(),
    };
    let key = (
        dir.as_ref().ok().map(|dir| dir.path().to_path_buf()),
        metric,
    );
    let mut kept = KEPT.lock().unwrap_or_else(|err| err.into_inner());
    let mut solvers = match kept.iter().position(|(other, _)| *other == key) {
        Some(at) => kept.swap_remove(at).1,
        None => Solvers::new(&Quiet).with_data(dir).with_metric(metric),
    };
    // Data remade since the last call is read as it is now.
    solvers.refresh();
    (key, solvers)
}

/// Keeps `solvers` for later calls, after a call that succeeded (one that
/// failed to load data is not kept, so that data made since is looked for
/// again).
fn keep((key, solvers): (Kept, Solvers)) {
    let mut kept = KEPT.lock().unwrap_or_else(|err| err.into_inner());
    if !kept.iter().any(|(other, _)| *other == key) {
        kept.push((key, solvers));
    }
}

/// The metric named by `metric=`.
fn read_metric(metric: &str) -> PyResult<Metric> {
    metric
        .parse()
        .map_err(|err: String| PyValueError::new_err(format!("metric {metric:?}: {err}")))
}

/// Answers `boards` in `style` with the GIL released. Refuses first, with
/// its index, a board of another shape than the goal.
fn answer(
    py: Python<'_>,
    boards: Boards,
    goal: Option<Board>,
    data: Option<PathBuf>,
    style: Style,
) -> PyResult<Answers> {
    let other_shape = |index: usize, shape: Shape, goal: &Board| {
        PyValueError::new_err(format!(
            "board {index}: a {shape} board, but the goal is a {} board",
            goal.shape()
        ))
    };
    if let Some(goal) = &goal {
        match &boards {
            Boards::One(board) if board.shape() != goal.shape() => {
                return Err(other_shape(0, board.shape(), goal));
            }
            Boards::Many(boards) => {
                if let Some(index) = boards.iter().position(|b| b.shape() != goal.shape()) {
                    return Err(other_shape(index, boards[index].shape(), goal));
                }
            }
            _ => {}
        }
    }
    let mut config = Config::new(Layout::Auto);
    config.goal = goal;
    config.style = style;
    let (folder, mut solvers) = solvers(data, style.metric);
    let answers = py
        .detach(|| {
            let solvers = &mut solvers;
            match boards {
                Boards::One(board) => {
                    stream::answer_boards(&[board], config, solvers, &Interruptible)
                }
                Boards::Many(boards) => {
                    stream::answer_boards(&boards, config, solvers, &Interruptible)
                }
            }
        })
        .map_err(run_error)?;
    keep((folder, solvers));
    if answers.invalid {
        // Every board is checked before, and so is its shape against the
        // goal's: the engine has nothing left to refuse.
        let message = String::from_utf8_lossy(&answers.messages);
        return Err(PyValueError::new_err(format!(
            "a board was refused: {}",
            message.lines().next().unwrap_or("invalid")
        )));
    }
    Ok(answers)
}

/// Reads a call's boards, `goal=` and `shape=`, then its `style` (so that
/// bad boards are told first), and answers the boards; whether one board
/// was given (not a batch), and the answers.
fn answer_call(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<&str>,
    data: Option<PathBuf>,
    style: impl FnOnce() -> PyResult<Style>,
) -> PyResult<(bool, Answers)> {
    let shape = read_shape(shape)?;
    let boards = read_boards(boards, shape)?;
    let goal = read_goal(goal, shape)?;
    let one = matches!(boards, Boards::One(_));
    Ok((one, answer(py, boards, goal, data, style()?)?))
}

/// The notation named by `notation=`.
fn read_notation(notation: &str) -> PyResult<Notation> {
    notation
        .parse()
        .map_err(|err: String| PyValueError::new_err(format!("notation {notation:?}: {err}")))
}

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
    let style = || {
        Ok(Style {
            notation: read_notation(notation)?,
            metric: read_metric(metric)?,
            ..Style::default()
        })
    };
    let (one, answers) = answer_call(py, boards, goal, shape, data, style)?;
    let value = |line: &[u8]| -> Bound<'py, PyAny> {
        match line {
            b"unsolvable" => py.None().into_bound(py),
            moves => PyString::new(py, &String::from_utf8_lossy(moves)).into_any(),
        }
    };
    let mut lines = answers.lines();
    match one {
        true => Ok(value(lines.next().unwrap_or(b"unsolvable"))),
        false => Ok(PyList::new(py, lines.map(value))?.into_any()),
    }
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
    // The plain answers, the engine's fastest form, counted here: a line's
    // letters, or its runs of letters, are its moves.
    let metric = read_metric(metric)?;
    let style = || {
        Ok(Style {
            metric,
            ..Style::default()
        })
    };
    let (one, answers) = answer_call(py, boards, goal, shape, data, style)?;
    let mut lengths: Vec<i16> = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', &answers.text) {
        lengths.push(match &answers.text[start..end] {
            b"unsolvable" => -1,
            moves => i16::try_from(metric.count(moves)).unwrap_or(i16::MAX),
        });
        start = end + 1;
    }
    match one {
        true => Ok(lengths
            .first()
            .copied()
            .unwrap_or(-1)
            .into_pyobject(py)?
            .into_any()),
        false => Ok(PyArray1::from_vec(py, lengths).into_any()),
    }
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
    let metric = read_metric(metric)?;
    let shape = read_shape(shape)?;
    let start = read_board(board, shape).map_err(PyValueError::new_err)?;
    let goal = read_goal(goal, shape)?.unwrap_or_else(|| Board::goal(start.shape()));
    // As a judge line's moves: one word of letters, or `-` for none.
    let letters = match moves.trim() {
        "-" => "",
        moves if moves.contains(char::is_whitespace) => {
            return Err(PyValueError::new_err(format!(
                "moves {moves:?}: one word of letters d l r u (where the blank goes), or - for none"
            )));
        }
        moves => moves,
    };
    let (folder, mut solvers) = solvers(data, metric);
    let verdict = py
        .detach(|| {
            let solver = solvers
                .get(&goal)
                .map_err(|err| PyErrText::Data(err.to_string()))?;
            solver
                .judge(&start, &goal, letters.as_bytes())
                .map(|verdict| verdict.to_string())
                .map_err(|err| match err.is_data_error() {
                    true => PyErrText::Data(format!("{}: {err}", solver.describe())),
                    false => PyErrText::Value(err.to_string()),
                })
        })
        .map_err(PyErrText::into_err);
    if !matches!(&verdict, Err(err) if err.is_instance_of::<DataError>(py)) {
        keep((folder, solvers));
    }
    verdict
}

/// ``n`` random boards as a numpy ``uint8`` array of shape ``(n, cells)``,
/// 0 the blank: drawn uniformly from the boards that can reach the goal, or
/// with ``depth`` from those exactly that many moves away. The same seed
/// draws the same boards as ``eight --random n --seed S``.
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
#[pyo3(signature = (n, *, shape=None, seed=None, depth=None, goal=None, data=None, metric="stm"))]
#[allow(clippy::too_many_arguments)]
fn random<'py>(
    py: Python<'py>,
    n: usize,
    shape: Option<&str>,
    seed: Option<u64>,
    depth: Option<u32>,
    goal: Option<&Bound<'py, PyAny>>,
    data: Option<PathBuf>,
    metric: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let metric = read_metric(metric)?;
    let shape = read_shape(shape)?;
    let goal =
        read_goal(goal, shape)?.unwrap_or_else(|| Board::goal(shape.unwrap_or(Shape::EIGHT)));
    let cells = goal.shape().cells();
    let seed = seed.unwrap_or_else(eight::random::seed);
    let tiles = py.detach(|| -> Result<Vec<u8>, PyErrText> {
        let draw = match depth {
            None => Draw::new(goal, seed),
            Some(depth) => {
                let (folder, mut solvers) = solvers(data, metric);
                let solver = solvers
                    .get_table(&goal)
                    .map_err(|err| PyErrText::Data(err.to_string()))?;
                keep((folder, solvers));
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

/// An error made without the GIL, raised with it.
enum PyErrText {
    Data(String),
    Value(String),
    Memory(String),
}

impl PyErrText {
    fn into_err(self) -> PyErr {
        match self {
            PyErrText::Data(text) => DataError::new_err(text),
            PyErrText::Value(text) => PyValueError::new_err(text),
            PyErrText::Memory(text) => PyMemoryError::new_err(text),
        }
    }
}

/// Exact, instant sliding-puzzle answers: the shortest moves, and of those
/// the lexicographically smallest, for every rectangular board of up to 16
/// cells. Boards of up to 9 cells and the 15-puzzle are answered out of the
/// box; other shapes from data made by ``eight-gen`` (see the ``DataError``
/// message).
#[pymodule(name = "eight")]
fn eight_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(length, m)?)?;
    m.add_function(wrap_pyfunction!(judge, m)?)?;
    m.add_function(wrap_pyfunction!(random, m)?)?;
    m.add("DataError", m.py().get_type::<DataError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
