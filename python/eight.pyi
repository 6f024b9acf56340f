"""Exact, instant sliding-puzzle answers: the shortest moves, and of those the
lexicographically smallest (d < l < r < u, where the blank goes), for every
rectangular board of up to 25 cells."""

from os import PathLike
from typing import Any, Callable, List, Literal, Optional, Protocol, Sequence, TypedDict, Union, overload

import numpy as np
import numpy.typing as npt

# A tile: a whole number (an int, a numpy integer, or a float with no
# fraction), 0 the blank; anything else raises ValueError.
_Tile = Union[int, float, np.integer[Any], np.floating[Any]]
# One board: a string in any layout `eight` reads ("1 2 3 4 5 6 7 8 x",
# "12345678x", "1 2 3/4 5 6/7 8 x") or a sequence of tiles. A 1-D array is
# one board too, a 2-D array (n, cells) or 3-D array (n, rows, cols) a batch:
# their types do not tell them apart, so an array's answers are typed Any.
_Board = Union[str, Sequence[_Tile]]

class _SupportsArray(Protocol):
    def __array__(self, *args: Any, **kwargs: Any) -> npt.NDArray[Any]: ...

# An array: numpy's, or what numpy reads as one by its values (a pandas
# DataFrame or Series, an xarray DataArray). Other objects (a dict, a set, a
# generator) raise TypeError.
_Array = Union[npt.NDArray[Any], _SupportsArray]

# What stops a search once set: a threading.Event, a Dask distributed.Event.
class _Event(Protocol):
    def is_set(self) -> bool: ...
# A batch given as a sequence: of strings, sequences of tiles, or 1-D arrays.
_Batch = Sequence[Union[str, Sequence[_Tile], _Array]]
_Goal = Union[_Board, _Array]
_Path = Union[str, PathLike[str]]
_Metric = Literal["stm", "mtm"]
_Notation = Literal["blank", "tile", "tile-runs"]

__version__: str

class DataError(OSError):
    """The data a shape needs is missing or wrong; the message names the
    `eight-gen` command that makes it."""

@overload
def solve(  # type: ignore[overload-overlap]
    boards: str,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    notation: _Notation = "blank",
    metric: _Metric = "stm",
) -> Optional[str]: ...
@overload
def solve(
    boards: _Batch,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    notation: _Notation = "blank",
    metric: _Metric = "stm",
) -> list[Optional[str]]: ...
@overload
def solve(
    boards: Sequence[_Tile],
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    notation: _Notation = "blank",
    metric: _Metric = "stm",
) -> Optional[str]: ...
@overload
def solve(
    boards: _Array,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    notation: _Notation = "blank",
    metric: _Metric = "stm",
) -> Any:
    """The shortest moves to the goal, the lexicographically smallest of
    them: a str ("" at the goal) or None when the board cannot reach it; a
    list of those for a batch. notation: "blank" (u d l r), "tile" (U D L R,
    where the moved tile goes) or "tile-runs" (R2U2LDLD). metric: "stm"
    (each tile slid a move) or "mtm" (a run of tiles slid at once a move;
    the letters stay one per cell the blank passes)."""

@overload
def length(  # type: ignore[overload-overlap]
    boards: str,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> int: ...
@overload
def length(
    boards: _Batch,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> npt.NDArray[np.int16]: ...
@overload
def length(
    boards: Sequence[_Tile],
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> int: ...
@overload
def length(
    boards: _Array,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> Any:
    """The number of moves of the shortest answer, counted in `metric`: an
    int (-1 when the board cannot reach the goal), or an int16 array for a
    batch."""

def judge(
    board: _Goal,
    moves: str,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> str:
    """The verdict of `eight --judge` (counted in `metric`) on moves someone found (blank letters,
    one word, "" or "-" for none): "optimal", "longer by K", "not at goal",
    "illegal move I" (I counted in `metric` too: with "mtm", a run of equal
    letters is one move) or "unsolvable"."""

class _Analysis(TypedDict):
    verdict: str
    distances: List[int]
    lost: Optional[int]
    worse: List[int]

def analyse(
    board: _Goal,
    moves: str,
    *,
    goal: Optional[_Goal] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> _Analysis:
    """The analysis of `eight --analyse --json` on moves someone found, read as `judge` reads
    them: the verdict, the distance to the goal of the board and after each move (each run with
    "mtm"), the moves lost and the numbers of the moves that brought the goal no closer (from 1);
    no distances, no worse moves and `lost` None where a move is illegal or the board cannot
    reach the goal."""

def random(
    n: int,
    *,
    shape: Optional[str] = None,
    seed: Optional[int] = None,
    depth: Optional[int] = None,
    walk: Optional[int] = None,
    goal: Optional[_Goal] = None,
    data: Optional[_Path] = None,
    metric: _Metric = "stm",
) -> npt.NDArray[np.uint8]:
    """n random boards, shape (n, cells), 0 the blank: drawn uniformly from
    the boards that can reach the goal, or with depth from those exactly that
    many moves away (counted in `metric`), or with walk at the end of a walk
    of that many moves that never undoes one (any shape); the same boards as
    `eight --random n --seed S`. MemoryError, before anything is drawn, if n
    boards cannot be allocated."""

def generate(
    shape: str,
    *,
    blank: Optional[int] = None,
    metric: _Metric = "stm",
    partition: Optional[str] = None,
    data: Optional[_Path] = None,
    progress: Optional[Callable[[str, int, int], object]] = None,
) -> str:
    """Makes the data `shape` needs, as `eight-gen` makes it (the same
    bytes), into the data folder (data=, else $EIGHT_DATA or the user's data
    folder): a table for 10 and 12 cells, pattern databases for 14 to 25
    (groups of `partition`, such as "7-8", in the single-tile metric),
    toward goals with the blank at `blank` (else the last cell). Written
    whole, its proof recorded. progress(part, done, total) hears how far it
    has come. Returns the file's path; ValueError for a shape built in or a
    bad blank or partition."""

class Solver:
    """A solver toward one goal (else each shape's usual goal), counting in
    one metric, from one data folder: its data loaded once, when it is made
    if its goal or shape is given (DataError there if it is missing), else at
    the first board of each shape. Boards are read in its shape. Its methods
    are the module's functions with its goal, shape, metric and data; with
    ``timeout`` (seconds), a search still running then is stopped and
    TimeoutError raised; with ``stop`` (a threading.Event, a Dask
    distributed.Event: anything with is_set()), the call stops once it is
    set and raises concurrent.futures.CancelledError. Ctrl-C stops any call
    within a fraction of a second."""

    def __init__(
        self,
        *,
        goal: Optional[_Goal] = None,
        shape: Optional[str] = None,
        metric: _Metric = "stm",
        data: Optional[_Path] = None,
    ) -> None: ...
    @property
    def goal(self) -> Optional[str]:
        """The goal, if one was given (or told by shape)."""
    @property
    def shape(self) -> Optional[str]:
        """The shape boards are read in, if one was given (or told by goal)."""
    @property
    def metric(self) -> _Metric:
        """How moves are counted."""
    @overload
    def solve(self, boards: str, *, notation: _Notation = "blank", timeout: Optional[float] = None, stop: Optional[_Event] = None) -> Optional[str]: ...  # type: ignore[overload-overlap]
    @overload
    def solve(self, boards: _Batch, *, notation: _Notation = "blank", timeout: Optional[float] = None, stop: Optional[_Event] = None) -> list[Optional[str]]: ...
    @overload
    def solve(self, boards: Sequence[_Tile], *, notation: _Notation = "blank", timeout: Optional[float] = None, stop: Optional[_Event] = None) -> Optional[str]: ...
    @overload
    def solve(self, boards: _Array, *, notation: _Notation = "blank", timeout: Optional[float] = None, stop: Optional[_Event] = None) -> Any: ...
    @overload
    def length(self, boards: str, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> int: ...  # type: ignore[overload-overlap]
    @overload
    def length(self, boards: _Batch, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> npt.NDArray[np.int16]: ...
    @overload
    def length(self, boards: Sequence[_Tile], *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> int: ...
    @overload
    def length(self, boards: _Array, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> Any: ...
    def judge(self, board: _Goal, moves: str, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> str: ...
    def analyse(self, board: _Goal, moves: str, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> _Analysis: ...
    def random(
        self, n: int, *, seed: Optional[int] = None, depth: Optional[int] = None, walk: Optional[int] = None
    ) -> npt.NDArray[np.uint8]: ...
    def cut(
        self, board: _Goal, bound: int, *, nodes: int = 0, at_least: int = 64
    ) -> Optional[tuple[list[tuple[str, int]], int, int]]:
        """One bound of the search of board cut into subtrees for other
        processes or machines: (tasks, inside, over), each task (moves,
        before); None if the board cannot reach the goal. Searched in order
        with search_subtree, the first subtree with an answer gives the
        answer, and the nodes are nodes, its before and those of the
        subtrees up to it; with none, the bound's nodes are inside and every
        subtree's, the next bound the smallest over. See
        python/examples/dask_search.py."""
    def search_subtree(
        self,
        board: _Goal,
        moves: str,
        bound: int,
        *,
        nodes: int = 0,
        timeout: Optional[float] = None,
        stop: Optional[_Event] = None,
    ) -> tuple[Optional[str], int, int]:
        """The subtree of bound below the blank's letters moves (a task of
        cut) searched: (answer or None, the smallest bound over, nodes).
        Once stop is set (asked every 50 ms), the search stops and
        concurrent.futures.CancelledError is raised."""
    def strengthen(self, *, timeout: Optional[float] = None, stop: Optional[_Event] = None) -> bool:
        """Makes the solver's multi-tile searches stronger for the calls after
        it (on 4x4, databases of six tiles a group: 115 MB, about 15 s);
        False where there is nothing to make. The answers are the same."""
