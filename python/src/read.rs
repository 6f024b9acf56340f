//! Boards, goals and options read from Python: every tile checked, a bad
//! one named with its board's index and what is wrong.

use eight::{Board, Layout, Metric, Notation, Shape};
use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyString, PyTuple};

/// Boards read from Python: one board, or a batch.
pub(crate) enum Boards {
    One(Board),
    Many(Vec<Board>),
}

/// The shape named by `shape=`, if any.
pub(crate) fn read_shape(shape: Option<&str>) -> PyResult<Option<Shape>> {
    shape
        .map(|text| {
            text.parse::<Shape>()
                .map_err(|err| PyValueError::new_err(format!("shape {text:?}: {err}")))
        })
        .transpose()
}

/// The shape of boards of `cells` cells: `shape` if given, else 3x3 for 9
/// cells, 4x4 for 16 and 5x5 for 25.
fn shape_of(cells: usize, shape: Option<Shape>) -> Result<Shape, String> {
    match (shape, cells) {
        (Some(shape), _) => Ok(shape),
        (None, 9) => Ok(Shape::EIGHT),
        (None, 16) => Ok(Shape::FIFTEEN),
        (None, 25) => Ok(Shape::TWENTY_FOUR),
        (None, cells) => Err(format!(
            "{cells} cells: give shape= (without it, 9 cells are 3x3, 16 are 4x4 and 25 are 5x5)"
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

/// Why an object is not a board: of a kind that is none (`TypeError`),
/// or one whose values are wrong (`ValueError`).
pub(crate) enum Bad {
    Type(String),
    Value(String),
}

impl Bad {
    /// The same, told of board `index` of a batch.
    fn at(self, index: usize) -> Bad {
        match self {
            Bad::Type(text) => Bad::Type(format!("board {index}: {text}")),
            Bad::Value(text) => Bad::Value(format!("board {index}: {text}")),
        }
    }

    /// The same, told of the goal.
    fn of_goal(self) -> Bad {
        match self {
            Bad::Type(text) => Bad::Type(format!("goal: {text}")),
            Bad::Value(text) => Bad::Value(format!("goal: {text}")),
        }
    }

    pub(crate) fn into_err(self) -> PyErr {
        match self {
            Bad::Type(text) => PyTypeError::new_err(text),
            Bad::Value(text) => PyValueError::new_err(text),
        }
    }
}

impl From<String> for Bad {
    fn from(text: String) -> Bad {
        Bad::Value(text)
    }
}

/// An object as it is read: a string, an array (numpy's, or what numpy
/// reads as one: a DataFrame, a Series), or a list or tuple of items.
enum Form<'py> {
    Text(Bound<'py, PyString>),
    Array(Bound<'py, PyUntypedArray>),
    Items(Vec<Bound<'py, PyAny>>),
}

impl<'py> Form<'py> {
    /// How `item` is read. Only strings, arrays, lists, tuples and other
    /// sequences are read as they are; an object numpy reads as an array
    /// (`__array__`, as pandas' and xarray's have) is read by its values,
    /// as `numpy.asarray` gives them; anything else (a dict, a set, a
    /// generator) is refused, never iterated by chance: a DataFrame
    /// iterated gives its column labels, not its boards.
    fn of(item: &Bound<'py, PyAny>) -> Result<Form<'py>, Bad> {
        let py = item.py();
        if let Ok(text) = item.cast::<PyString>() {
            return Ok(Form::Text(text.clone()));
        }
        if let Ok(array) = item.cast::<PyUntypedArray>() {
            return Ok(Form::Array(array.clone()));
        }
        let python = |err: PyErr| Bad::Value(err.to_string());
        if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
            let items = item.try_iter().map_err(python)?;
            return items
                .collect::<PyResult<_>>()
                .map(Form::Items)
                .map_err(python);
        }
        if item.hasattr("__array__").unwrap_or(false) {
            let numpy = py.import("numpy").map_err(python)?;
            let array = numpy.call_method1("asarray", (item,)).map_err(python)?;
            let array = array
                .cast_into::<PyUntypedArray>()
                .map_err(|err| python(err.into()))?;
            // Strings, or objects (a Series of board strings): each item
            // is a board of its own.
            let kind = array.dtype().kind();
            if array.ndim() == 1 && matches!(kind, b'O' | b'U' | b'S') {
                let items = array.call_method0("tolist").map_err(python)?;
                let items = items.try_iter().map_err(python)?;
                return items
                    .collect::<PyResult<_>>()
                    .map(Form::Items)
                    .map_err(python);
            }
            return Ok(Form::Array(array));
        }
        let sequence = py
            .import("collections.abc")
            .and_then(|abc| abc.getattr("Sequence"))
            .and_then(|sequence| item.is_instance(&sequence))
            .unwrap_or(false);
        let bytes = item.is_instance_of::<PyBytes>() || item.is_instance_of::<PyByteArray>();
        if sequence && !bytes {
            let items = item.try_iter().map_err(python)?;
            return items
                .collect::<PyResult<_>>()
                .map(Form::Items)
                .map_err(python);
        }
        Err(Bad::Type(format!(
            "expected a board or boards (a string, a list or tuple of ints with 0 the blank, \
             or an array: numpy's, or a DataFrame or Series), found {}{}",
            type_name(item),
            match (bytes, item.hasattr("__next__").unwrap_or(false)) {
                (true, _) => " (decode it to a string)",
                (false, true) => " (make it a list first)",
                (false, false) => "",
            }
        )))
    }
}

/// One board: a string in any layout the program reads, a sequence of
/// tiles, or a 1-D array (or what numpy reads as one).
pub(crate) fn read_board(item: &Bound<'_, PyAny>, shape: Option<Shape>) -> Result<Board, Bad> {
    match Form::of(item)? {
        Form::Text(text) => {
            let text = text.to_cow().map_err(|err| err.to_string())?;
            let layout = shape.map_or(Layout::Auto, Layout::Fixed);
            Ok(Board::parse_in(layout, text.as_bytes())
                .map_err(|err| in_python(&err.to_string()))?)
        }
        Form::Array(array) => {
            if array.ndim() != 1 {
                return Err(Bad::Value(format!(
                    "expected one board, found an array of {} dimensions",
                    array.ndim()
                )));
            }
            let (tiles, shape) = array_tiles(&array, shape).map_err(|err| err.text)?;
            Ok(Board::from_cells(shape, &tiles).map_err(|err| err.to_string())?)
        }
        Form::Items(items) => Ok(board_of_tiles(items.iter().map(Tile::of).collect(), shape)?),
    }
}

/// Whether `item` may be a tile: anything but a string or what can be
/// iterated, which are boards (a wrong value, such as `1.5` or `None`, is
/// a tile that is wrong, told as such).
fn is_tile(item: &Bound<'_, PyAny>) -> bool {
    !(item.is_instance_of::<PyString>() || item.try_iter().is_ok())
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
/// holds several, and what; or the exception of a signal (Ctrl-C) handled
/// while it was read, raised as it is.
struct ArrayError {
    board: Option<usize>,
    text: String,
    raised: Option<PyErr>,
}

impl ArrayError {
    fn whole(text: impl Into<String>) -> ArrayError {
        ArrayError::at(None, text)
    }

    fn at(board: Option<usize>, text: impl Into<String>) -> ArrayError {
        ArrayError {
            board,
            text: text.into(),
            raised: None,
        }
    }

    fn raised(err: PyErr) -> ArrayError {
        ArrayError {
            board: None,
            text: String::new(),
            raised: Some(err),
        }
    }

    fn into_err(self) -> PyErr {
        if let Some(err) = self.raised {
            return err;
        }
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
            return Err(ArrayError::at(
                several.then_some(at / cells),
                "a masked value is no tile",
            ));
        }
        array = ma.call_method1("getdata", (&array,)).map_err(python)?;
    }
    let array = array
        .cast_into::<PyUntypedArray>()
        .map_err(|e| python(e.into()))?;
    let dtype = array.dtype();
    let at = |index: usize| several.then_some(index / cells);
    let check = |index: usize, tile: Tile| {
        tile.on(shape)
            .map_err(|text| ArrayError::at(at(index), text))
    };
    // A row read whole: its tiles make a board (no tile twice), so that
    // the first row wrong is the one told, whatever is wrong with it.
    let row = |last: usize, tiles: &[u8]| {
        Board::from_cells(shape, tiles)
            .map(drop)
            .map_err(|err| ArrayError::at(at(last), err.to_string()))
    };
    // The array in C order as `dtype` (no copy if it is so already).
    let contiguous = |dtype: &str| {
        numpy
            .call_method1("ascontiguousarray", (&array, dtype))
            .map_err(python)
    };
    let tiles = match (dtype.kind(), dtype.itemsize()) {
        (b'u', 1) => checked::<u8>(
            &contiguous("uint8")?,
            shape,
            u64::from,
            |index, value| check(index, Tile::Int(value.into())),
            row,
        )?,
        (b'u', _) => checked::<u64>(
            &contiguous("uint64")?,
            shape,
            |v| v,
            |index, value| check(index, Tile::Int(value.into())),
            row,
        )?,
        // A negative value is far off the board as a u64.
        (b'i', _) => checked::<i64>(
            &contiguous("int64")?,
            shape,
            |v| v as u64,
            |index, value| check(index, Tile::Int(value.into())),
            row,
        )?,
        (b'f', ..=8) => checked::<f64>(
            &contiguous("float64")?,
            shape,
            |_| u64::MAX,
            |index, value| check(index, Tile::Float(value)),
            row,
        )?,
        (b'O', _) => {
            let flat = array.call_method1("ravel", ("C",)).map_err(python)?;
            let items = flat.try_iter().map_err(python)?;
            let mut tiles = Vec::new();
            for (index, item) in items.enumerate() {
                if index > 0 && index % (SIGNAL_ROWS * cells) == 0 {
                    py.check_signals().map_err(ArrayError::raised)?;
                }
                let tile = check(index, Tile::of(&item.map_err(python)?))?;
                push_tile(&mut tiles, cells, index, tile, &row)?;
            }
            tiles
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

/// The tiles of a C-ordered array of `T`s for boards of `shape`, a block
/// of [`SIGNAL_ROWS`] rows at a time, a signal (Ctrl-C) looked for between
/// blocks: a block at once if every value's `whole` number is a tile of the
/// shape, else each value read by `check`, which says what is wrong and
/// where, and each row read whole by `row`, told the index of its last
/// value (the rows of the blocks before it too, so that the first row
/// wrong is the one told).
fn checked<T: numpy::Element + Copy>(
    array: &Bound<'_, PyAny>,
    shape: Shape,
    whole: fn(T) -> u64,
    mut check: impl FnMut(usize, T) -> Result<u8, ArrayError>,
    row: impl Fn(usize, &[u8]) -> Result<(), ArrayError>,
) -> Result<Vec<u8>, ArrayError> {
    let py = array.py();
    let array = array
        .extract::<PyReadonlyArrayDyn<'_, T>>()
        .map_err(|err| ArrayError::whole(err.to_string()))?;
    let values = array
        .as_slice()
        .map_err(|err| ArrayError::whole(err.to_string()))?;
    let cells = shape.cells();
    let block = SIGNAL_ROWS * cells;
    let mut tiles = Vec::with_capacity(values.len());
    // The tiles whose rows are read whole.
    let mut whole_rows = 0;
    for (at, part) in values.chunks(block).enumerate() {
        if at > 0 {
            py.check_signals().map_err(ArrayError::raised)?;
        }
        // The common case in two passes the compiler vectorises: a third
        // of the time a value at a time took (a million 3x3 boards).
        if part.iter().all(|&value| whole(value) < cells as u64) {
            tiles.extend(part.iter().map(|&value| whole(value) as u8));
            continue;
        }
        for (end, row_tiles) in (whole_rows + cells..)
            .step_by(cells)
            .zip(tiles[whole_rows..].chunks_exact(cells))
        {
            row(end - 1, row_tiles)?;
        }
        for (index, &value) in (at * block..).zip(part) {
            push_tile(&mut tiles, cells, index, check(index, value)?, &row)?;
        }
        whole_rows = tiles.len();
    }
    Ok(tiles)
}

/// Adds the checked tile of the value at `index` to `tiles`, the row it
/// ends (if it ends one) read whole by `row`.
fn push_tile(
    tiles: &mut Vec<u8>,
    cells: usize,
    index: usize,
    tile: u8,
    row: &impl Fn(usize, &[u8]) -> Result<(), ArrayError>,
) -> Result<(), ArrayError> {
    tiles.push(tile);
    if tiles.len().is_multiple_of(cells) {
        row(index, &tiles[tiles.len() - cells..])?;
    }
    Ok(())
}

/// The boards of a 2-D `(n, cells)` or 3-D `(n, rows, cols)` array, each
/// checked.
fn read_array(array: &Bound<'_, PyUntypedArray>, shape: Option<Shape>) -> PyResult<Boards> {
    let (tiles, shape) = array_tiles(array, shape).map_err(ArrayError::into_err)?;
    let cells = shape.cells();
    let count = tiles.len() / cells;
    // Every board read into its place, many rows on every core, as the
    // engine answers them; the boards' memory filled a block at a time.
    let mut boards = Vec::with_capacity(count);
    let rows = |first: usize, tiles: &[u8], boards: &mut [Board]| {
        for ((row, board), index) in tiles.chunks_exact(cells).zip(boards).zip(first..) {
            *board =
                Board::from_cells(shape, row).map_err(|err| format!("board {index}: {err}"))?;
        }
        Ok::<_, String>(())
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A block of rows at a time, on every core, a Ctrl-C looked for
    // between blocks: 20M rows are read in about 0.7 s, a block in 0.1 s.
    for (block, tiles) in tiles.chunks(SIGNAL_ROWS * cells).enumerate() {
        let first = block * SIGNAL_ROWS;
        let count = tiles.len() / cells;
        boards.resize(first + count, Board::goal(shape));
        let boards = &mut boards[first..];
        let parts = match count >= PARALLEL_ROWS {
            true => cores,
            false => 1,
        };
        let per_part = count.div_ceil(parts).max(1);
        std::thread::scope(|scope| {
            let parts: Vec<_> = tiles
                .chunks(per_part * cells)
                .zip(boards.chunks_mut(per_part))
                .enumerate()
                .map(|(part, (tiles, boards))| {
                    scope.spawn(move || rows(first + part * per_part, tiles, boards))
                })
                .collect();
            // The first bad board is told: the parts are taken in order.
            parts
                .into_iter()
                .try_for_each(|part| part.join().expect("reading rows does not panic"))
        })
        .map_err(PyValueError::new_err)?;
        array.py().check_signals()?;
    }
    Ok(Boards::Many(boards))
}

/// The rows read between two looks for a signal to handle.
const SIGNAL_ROWS: usize = 1 << 22;

/// The fewest rows read on more than one core.
const PARALLEL_ROWS: usize = 1 << 16;

/// One board or many, from any form a board takes.
pub(crate) fn read_boards(boards: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Boards> {
    let one = |board: &Bound<'_, PyAny>| {
        read_board(board, shape)
            .map(Boards::One)
            .map_err(Bad::into_err)
    };
    let items = match Form::of(boards).map_err(Bad::into_err)? {
        Form::Text(_) => return one(boards),
        Form::Array(array) => {
            return match array.ndim() {
                1 => one(array.as_any()),
                2 | 3 => read_array(&array, shape),
                dims => Err(PyValueError::new_err(format!(
                    "expected an array of 1 to 3 dimensions, found {dims}"
                ))),
            };
        }
        Form::Items(items) => items,
    };
    // A sequence of tiles is one board; a sequence of boards (strings,
    // sequences, arrays) a batch.
    if items.first().is_some_and(is_tile) {
        return one(boards);
    }
    let mut many = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        many.push(read_board(item, shape).map_err(|err| err.at(index).into_err())?);
    }
    Ok(Boards::Many(many))
}

/// The goal given with `goal=`, if any.
pub(crate) fn read_goal(
    goal: Option<&Bound<'_, PyAny>>,
    shape: Option<Shape>,
) -> PyResult<Option<Board>> {
    goal.map(|goal| read_board(goal, shape).map_err(|err| err.of_goal().into_err()))
        .transpose()
}

/// The metric named by `metric=`.
pub(crate) fn read_metric(metric: &str) -> PyResult<Metric> {
    metric
        .parse()
        .map_err(|err: String| PyValueError::new_err(format!("metric {metric:?}: {err}")))
}

/// The notation named by `notation=`.
pub(crate) fn read_notation(notation: &str) -> PyResult<Notation> {
    notation
        .parse()
        .map_err(|err: String| PyValueError::new_err(format!("notation {notation:?}: {err}")))
}
