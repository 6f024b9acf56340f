"""Exact, instant sliding-puzzle answers: the shortest moves, and of those the
lexicographically smallest (d < l < r < u, where the blank goes), for every
rectangular board of up to 16 cells."""

from os import PathLike
from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

# A board: a string in any layout `eight` reads ("1 2 3 4 5 6 7 8 x",
# "12345678x", "1 2 3/4 5 6/7 8 x"), a sequence of ints with 0 the blank, or a
# 1-D array of them. A tile is a whole number (an int, a numpy integer, or a
# float with no fraction); anything else raises ValueError.
_Board = Union[str, Sequence[int], npt.NDArray[np.integer]]
# A batch: a sequence of boards, a 2-D array (n, cells) or a 3-D array
# (n, rows, cols) of small ints.
_Boards = Union[Sequence[_Board], npt.NDArray[np.integer]]
_Path = Union[str, PathLike[str]]

__version__: str

class DataError(OSError):
    """The data a shape needs is missing or wrong; the message names the
    `eight-gen` command that makes it."""

def solve(
    boards: Union[_Board, _Boards],
    *,
    goal: Optional[_Board] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    notation: str = "blank",
    metric: str = "stm",
) -> Union[Optional[str], list[Optional[str]]]:
    """The shortest moves to the goal, the lexicographically smallest of
    them: a str ("" at the goal) or None when the board cannot reach it; a
    list of those for a batch. notation: "blank" (u d l r), "tile" (U D L R,
    where the moved tile goes) or "tile-runs" (R2U2LDLD). metric: "stm"
    (each tile slid a move) or "mtm" (a run of tiles slid at once a move;
    the letters stay one per cell the blank passes)."""

def length(
    boards: Union[_Board, _Boards],
    *,
    goal: Optional[_Board] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: str = "stm",
) -> Union[int, npt.NDArray[np.int16]]:
    """The number of moves of the shortest answer, counted in `metric`: an
    int (-1 when the board cannot reach the goal), or an int16 array for a
    batch."""

def judge(
    board: _Board,
    moves: str,
    *,
    goal: Optional[_Board] = None,
    shape: Optional[str] = None,
    data: Optional[_Path] = None,
    metric: str = "stm",
) -> str:
    """The verdict of `eight --judge` (counted in `metric`) on moves someone found (blank letters,
    one word, "" or "-" for none): "optimal", "longer by K", "not at goal",
    "illegal move I" (I counted in `metric` too: with "mtm", a run of equal
    letters is one move) or "unsolvable"."""

def random(
    n: int,
    *,
    shape: Optional[str] = None,
    seed: Optional[int] = None,
    depth: Optional[int] = None,
    goal: Optional[_Board] = None,
    data: Optional[_Path] = None,
    metric: str = "stm",
) -> npt.NDArray[np.uint8]:
    """n random boards, shape (n, cells), 0 the blank: drawn uniformly from
    the boards that can reach the goal, or with depth from those exactly that
    many moves away (counted in `metric`); the same boards as
    `eight --random n --seed S`. MemoryError, before anything is drawn, if n
    boards cannot be allocated."""
