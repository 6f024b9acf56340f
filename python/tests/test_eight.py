"""The Python package against a plain breadth-first search written here, and
against the `eight` program on the same boards."""

import doctest
import itertools
import json
import os
import subprocess
import time
from collections import deque

import mypy.api
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eight

# Where the blank goes, in the order that makes answers lexicographically
# smallest: d < l < r < u.
MOVES = [("d", 1, 0), ("l", 0, -1), ("r", 0, 1), ("u", -1, 0)]


def neighbours(board, rows, cols):
    """(letter, board) for each move of the blank, in letter order."""
    blank = board.index(0)
    row, col = divmod(blank, cols)
    for letter, dr, dc in MOVES:
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < cols:
            cells = list(board)
            cells[blank], cells[r * cols + c] = cells[r * cols + c], 0
            yield letter, tuple(cells)


class Oracle:
    """Every board's distance to the goal, by a plain BFS from the goal; the
    lexicographically smallest shortest answer, by taking the smallest
    letter that goes one step closer."""

    def __init__(self, rows, cols, goal=None):
        self.rows, self.cols = rows, cols
        n = rows * cols
        self.goal = goal or tuple(list(range(1, n)) + [0])
        self.dist = {self.goal: 0}
        queue = deque([self.goal])
        while queue:
            board = queue.popleft()
            for _, nxt in neighbours(board, rows, cols):
                if nxt not in self.dist:
                    self.dist[nxt] = self.dist[board] + 1
                    queue.append(nxt)

    def solve(self, board):
        board = tuple(board)
        if board not in self.dist:
            return None
        path = []
        while self.dist[board]:
            for letter, nxt in neighbours(board, self.rows, self.cols):
                if self.dist.get(nxt) == self.dist[board] - 1:
                    path.append(letter)
                    board = nxt
                    break
        return "".join(path)


@pytest.fixture(scope="module")
def oracle3x3():
    return Oracle(3, 3)


def text(board):
    return " ".join("x" if t == 0 else str(t) for t in board)


def test_every_2x3_board_is_the_oracles_answer():
    oracle = Oracle(2, 3)
    boards = list(itertools.permutations(range(6)))
    answers = eight.solve([text(b) for b in boards], shape="2x3")
    assert answers == [oracle.solve(b) for b in boards]
    lengths = eight.length(np.array(boards, dtype=np.uint8), shape="2x3")
    assert lengths.tolist() == [len(a) if a is not None else -1 for a in answers]


def test_every_3x3_board_has_the_oracles_length(oracle3x3):
    boards = np.array(list(itertools.permutations(range(9))), dtype=np.uint8)
    lengths = eight.length(boards)
    assert lengths.dtype == np.int16 and lengths.shape == (len(boards),)
    expected = [oracle3x3.dist.get(tuple(b), -1) for b in boards.tolist()]
    assert lengths.tolist() == expected
    assert int(lengths.max()) == 31


def test_3x3_answers_are_the_oracles_lexicographically_smallest(oracle3x3):
    boards = eight.random(3000, seed=11)
    # Half of them cannot reach the goal: two tiles of every other swapped.
    for row in boards[::2]:
        a, b = np.flatnonzero(row)[:2]
        row[a], row[b] = row[b], row[a]
    answers = eight.solve(boards)
    assert answers == [oracle3x3.solve(b) for b in boards.tolist()]
    assert None in answers


def test_any_goal_is_the_oracles_answer():
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    oracle = Oracle(3, 3, goal)
    boards = eight.random(500, seed=3, goal=list(goal))
    assert eight.solve(boards, goal="1 2 3 8 x 4 7 6 5") == [
        oracle.solve(b) for b in boards.tolist()
    ]


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(9))))
def test_an_answer_reaches_the_goal_in_its_length(board):
    answer = eight.solve(list(board))
    length = eight.length(list(board))
    if answer is None:
        assert length == -1
        return
    assert len(answer) == length
    assert eight.judge(list(board), answer or "-") == "optimal"


def test_one_board_in_every_form_is_the_same_board():
    forms = [
        "2 3 4 1 5 x 7 6 8",
        "23415x768",
        "2 3 4/1 5 x/7 6 8",
        "2 3 4\n1 5 x\n7 6 8",
        [2, 3, 4, 1, 5, 0, 7, 6, 8],
        (2, 3, 4, 1, 5, 0, 7, 6, 8),
        np.array([2, 3, 4, 1, 5, 0, 7, 6, 8], dtype=np.int64),
    ]
    for form in forms:
        assert eight.solve(form) == "dlurullddrurdllurdr", form
    batch = np.array([[2, 3, 4, 1, 5, 0, 7, 6, 8]] * 3, dtype=np.int32)
    assert eight.solve(batch) == ["dlurullddrurdllurdr"] * 3
    grid = batch.reshape(3, 3, 3)
    assert eight.length(grid).tolist() == [19] * 3
    small = eight.random(5, shape="2x4", seed=1)
    assert small.dtype == np.uint8
    assert eight.solve(small, shape="2x4") == eight.solve([text(b) for b in small.tolist()], shape="2x4")
    assert eight.solve([]) == []
    assert eight.length(np.zeros((0, 9), dtype=np.uint8)).tolist() == []


def test_the_15_puzzle_is_answered_out_of_the_box():
    board = "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15"
    assert eight.solve(board) == "rr"
    assert eight.length([board, board]).tolist() == [2, 2]
    boards = eight.random(5, shape="4x4", seed=2)
    assert boards.shape == (5, 16)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: eight.solve("1 2 3 4 5 6 7 8"), "tile"),
        (lambda: eight.solve("1 2 3 4 5 6 7 8 8"), "8"),
        (lambda: eight.solve([1, 2, 3, 4, 5, 6, 7, 8, 9]), "tile 9"),
        (lambda: eight.solve([1, 2, 3, 4, 5, 6, 7, 0]), "8 cells: give shape="),
        (lambda: eight.solve(["12345678x", "hello"]), "board 1"),
        (lambda: eight.solve(["12345678x", [1, 2]]), "board 1"),
        (lambda: eight.solve(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 1, 3, 4, 5, 6, 7, 8, 0]])), "board 1"),
        (lambda: eight.solve(np.array([[1, 2, 3, 4, 5, 6, 7, 8, -1]])), "board 0: tile -1"),
        (lambda: eight.length(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9]], dtype=np.uint8)), "board 1: tile 9"),
        (lambda: eight.length(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [0, 0, 3, 4, 5, 6, 7, 8, 1]], dtype=np.uint8)), "board 1"),
        (lambda: eight.length(np.zeros((2, 8), dtype=np.uint8)), "8 cells: give shape="),
        (lambda: eight.length(eight.random(3), goal="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"), "board 0: a 3x3 board"),
        (lambda: eight.solve(np.zeros((1, 1, 1, 9), dtype=np.uint8)), "dimensions"),
        (lambda: eight.solve("12345678x", shape="9x9"), "shape"),
        (lambda: eight.solve("12345678x", notation="letters"), "notation"),  # type: ignore[call-overload]
        (lambda: eight.solve("12345678x", goal="1 2 3"), "goal"),
        (lambda: eight.solve(["12345678x", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"], goal="12345678x"), "board 1"),
        (lambda: eight.length(np.zeros((2, 3, 3), dtype=np.uint8), shape="2x4"), "3x3"),
        (lambda: eight.judge("12345678x", "r", goal="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"), "4x4 boards"),
        (lambda: eight.random(3, depth=40), "farthest"),
        (lambda: eight.random(3, shape="4x4", depth=4), "searched"),
    ],
)
def test_bad_input_raises_value_error_naming_what_is_wrong(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_missing_data_raises_data_error_with_the_command_that_makes_it(tmp_path):
    with pytest.raises(eight.DataError, match="eight-gen --shape 3x4"):
        eight.solve("1 2 3 4 5 6 7 8 9 10 11 x", shape="3x4", data=tmp_path)
    assert isinstance(eight.DataError("x"), OSError)
    # The message names the Python call that makes the data, and it does.
    goal = "x 1 2 3 4 5 6 7 8 9"
    folder = repr(str(tmp_path)).replace("'", '"')
    for call, made in [
        (
            lambda: eight.solve("1 2 3 4 5 6 7 8 x 9", shape="2x5", data=tmp_path, goal=goal),
            f'eight.generate("2x5", blank=0, data={folder})',
        ),
        (
            lambda: eight.random(2, shape="2x5", depth=5, data=tmp_path, metric="mtm", goal=goal),
            f'eight.generate("2x5", blank=0, metric="mtm", data={folder})',
        ),
    ]:
        with pytest.raises(eight.DataError) as error:
            call()
        assert str(error.value).endswith("; from Python: " + made), str(error.value)
        eval(made, {"eight": eight})
        assert len(call()) > 0
    assert os.path.exists(tmp_path / "2x5-blank0.table")
    assert os.path.exists(tmp_path / "2x5-mtm-blank0.table")


def test_docstring_examples_are_true():
    for function in [eight.solve, eight.length, eight.judge, eight.analyse, eight.random, eight.Solver, eight.generate]:
        runner = doctest.DocTestRunner()
        for test in doctest.DocTestFinder().find(function, globs={}):
            runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, function.__name__
        assert ">>>" in function.__doc__


def program():
    path = os.environ.get("EIGHT_BIN")
    if not path:
        pytest.fail("EIGHT_BIN names the eight program to compare with (.ci/run sets it)")
    return path


def run(args, stdin):
    done = subprocess.run([program(), *args], input=stdin, capture_output=True, text=True)
    return done.stdout


def test_answers_are_the_programs_in_every_mode():
    boards = eight.random(2000, seed=5)
    lines = "".join(text(b) + "\n" for b in boards.tolist())
    for notation in ["blank", "tile", "tile-runs"]:
        expected = run(["--notation", notation], lines).splitlines()
        assert eight.solve(boards, notation=notation) == expected
    expected = [int(n) for n in run(["--length"], lines).splitlines()]
    assert eight.length(boards).tolist() == expected
    goal = "x 1 2 3 4 5 6 7 8"
    expected = run(["--goal", goal], lines).splitlines()
    assert eight.solve(boards, goal=goal) == [a if a != "unsolvable" else None for a in expected]
    fifteen = eight.random(30, shape="4x4", seed=9, depth=None)
    lines = "".join(text(b) + "\n" for b in fifteen.tolist())
    assert eight.solve(fifteen) == run([], lines).splitlines()
    shape = eight.random(200, shape="2x4", seed=4)
    lines = "".join(text(b) + "\n" for b in shape.tolist())
    assert eight.solve(shape, shape="2x4") == run(["--shape", "2x4"], lines).splitlines()


def test_the_multi_tile_metric_is_the_programs():
    boards = eight.random(2000, seed=6)
    lines = "".join(text(b) + "\n" for b in boards.tolist())
    expected = run(["--metric", "mtm"], lines).splitlines()
    assert eight.solve(boards, metric="mtm") == [a if a != "unsolvable" else None for a in expected]
    expected = [int(n) for n in run(["--metric", "mtm", "--length"], lines).splitlines()]
    assert eight.length(boards, metric="mtm").tolist() == expected
    # A run of letters is one move: every MTM count is at most the STM one.
    assert (eight.length(boards, metric="mtm") <= eight.length(boards)).all()
    cases = [("1 2 3 4 5 6 x 7 8", "rr"), ("1 2 3 4 5 6 x 7 8", "rlrr"), ("1 2 3 4 5 6 x 7 8", "r")]
    expected = run(["--metric", "mtm", "--judge"], "".join(f"{b} {m}\n" for b, m in cases))
    assert [eight.judge(b, m, metric="mtm") for b, m in cases] == expected.splitlines()
    drawn = eight.random(50, seed=3, depth=22, metric="mtm")
    assert set(eight.length(drawn, metric="mtm").tolist()) == {22}
    with pytest.raises(ValueError, match="stm or mtm"):
        eight.length("1 2 3 4 5 6 7 8 x", metric="kings")


def test_verdicts_are_the_programs():
    cases = [
        ("1 2 3 4 5 6 7 x 8", "r"),
        ("1 2 3 4 5 6 7 x 8", "rlr"),
        ("1 2 3 4 5 6 7 x 8", "l"),
        ("1 2 3 4 5 6 7 x 8", "dd"),
        ("2 1 3 4 5 6 7 8 x", "-"),
        ("1 2 3 4 5 6 7 8 x", "-"),
    ]
    expected = run(["--judge"], "".join(f"{b} {m}\n" for b, m in cases)).splitlines()
    assert [eight.judge(b, m) for b, m in cases] == expected


@pytest.mark.parametrize("shape, depth", [("3x3", None), ("3x3", 17), ("2x3", None), ("4x4", None)])
def test_random_boards_are_the_programs(shape, depth):
    args = ["--random", "100", "--seed", "42", "--shape", shape]
    if depth is not None:
        args += ["--depth", str(depth)]
    expected = [
        [0 if t == "x" else int(t) for t in line.replace("/", " ").split()]
        for line in run(args, "").splitlines()
    ]
    assert eight.random(100, shape=shape, seed=42, depth=depth).tolist() == expected


@pytest.mark.parametrize("shape, walk", [("3x3", 12), ("4x4", 30), ("5x5", 20)])
def test_walks_near_the_goal_are_the_programs_on_any_shape(shape, walk):
    args = ["--random", "50", "--seed", "9", "--shape", shape, "--walk", str(walk)]
    expected = [
        [0 if t == "x" else int(t) for t in line.replace("/", " ").split()]
        for line in run(args, "").splitlines()
    ]
    boards = eight.random(50, shape=shape, seed=9, walk=walk)
    assert boards.tolist() == expected
    assert (eight.length(boards, shape=shape) <= walk).all()
    with pytest.raises(ValueError, match="not both"):
        eight.random(1, depth=3, walk=3)


def test_the_dask_recipe_gives_the_programs_answers():
    import runpy

    from dask.distributed import Client, LocalCluster

    recipe = os.path.join(os.path.dirname(__file__), "..", "examples", "dask_lengths.py")
    lengths = runpy.run_path(recipe)["lengths"]
    boards = eight.random(20_000, seed=8)
    fifteen = eight.random(20, shape="4x4", seed=8)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, Client(cluster):
        found = lengths(boards, partitions=6)
        found_fifteen = lengths(fifteen, partitions=4)
    lines = "".join(text(b) + "\n" for b in boards.tolist())
    assert found.tolist() == [int(n) for n in run(["--length"], lines).splitlines()]
    lines = "".join(text(b) + "\n" for b in fifteen.tolist())
    assert found_fifteen.tolist() == [int(n) for n in run(["--length"], lines).splitlines()]


def test_a_search_spread_over_a_dask_cluster_is_the_search_alone():
    import runpy

    from dask.distributed import Client, LocalCluster

    recipe = os.path.join(os.path.dirname(__file__), "..", "examples", "dask_search.py")
    search = runpy.run_path(recipe)["search"]
    # Korf's 15-puzzle instance 1: about 2 s in the multi-tile metric.
    board = "14 13 15 7 11 12 9 5 6 x 2 1 4 8 10 3"
    goal = "x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"

    def alone(metric, at_least):
        """The same search, each subtree searched here in turn."""
        solver = eight.Solver(shape="4x4", goal=goal, metric=metric)
        bound = nodes = 0
        while True:
            subtrees, inside, over = solver.cut(board, bound, nodes=nodes, at_least=at_least)
            done = 0
            for moves, before in subtrees:
                found, next_over, count = solver.search_subtree(board, moves, bound, nodes=nodes)
                done += count
                if found is not None:
                    return found, nodes + before + done
                over = min(over, next_over)
            bound, nodes = over, nodes + inside + done

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        for metric in ["stm", "mtm"]:
            moves, nodes = search(board, shape="4x4", goal=goal, metric=metric)
            assert moves == eight.solve(board, goal=goal, metric=metric)
            assert nodes > 10_000
            assert (moves, nodes) == alone(metric, 1) == alone(metric, 200)
            # Every bound on the cluster, and every bound here.
            assert search(board, shape="4x4", goal=goal, metric=metric, here=0) == (moves, nodes)
            everything = 1 << 62
            assert search(board, shape="4x4", goal=goal, metric=metric, here=everything) == (moves, nodes)
        unsolvable = "14 13 15 7 11 12 9 5 6 x 2 1 4 8 3 10"
        assert search(unsolvable, shape="4x4", goal=goal) == (None, 0)
        # Each search's event, which its tasks ask whether to go on, is
        # gone from the scheduler once the search is over.
        def events(dask_scheduler):
            return len(dask_scheduler.extensions["events"]._events)

        assert client.run_on_scheduler(events) == 0
    solver = eight.Solver(shape="4x4", goal=goal)
    with pytest.raises(ValueError, match="no subtree"):
        solver.search_subtree(board, "uuuu", 40)
    with pytest.raises(ValueError, match="is not u, d, l or r"):
        solver.search_subtree(board, "x", 40)
    with pytest.raises(ValueError, match="from a table"):
        eight.Solver(shape="3x3").cut("12345678x", 0)


def test_the_readmes_dask_recipe_is_the_example_that_runs():
    here = os.path.dirname(__file__)
    with open(os.path.join(here, "..", "..", "README.md")) as readme:
        text = readme.read()
    snippet = text.split("```python\nbag = ", 1)[1].split("```", 1)[0]
    with open(os.path.join(here, "..", "examples", "dask_lengths.py")) as example:
        code = example.read()
    for line in ("bag = " + snippet).strip().splitlines():
        assert line.strip() in code, line


def test_ctrl_c_stops_a_long_batch():
    import _thread
    import threading

    # About 500 CPU-seconds of searching: stopped within a minute, it did
    # not run to its end.
    boards = eight.random(40_000, shape="4x4", seed=1)
    threading.Timer(0.5, _thread.interrupt_main).start()
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        eight.length(boards)
    assert time.perf_counter() - started < 60
    # The module answers as before.
    assert eight.solve("1 2 3 4 5 6 7 x 8") == "r"


def test_data_made_after_a_failure_is_found_by_the_next_call(tmp_path):
    board = "1 2 3 4 5 6 7 8 x 9"
    with pytest.raises(eight.DataError, match="eight-gen --shape 2x5"):
        eight.solve(board, shape="2x5", data=tmp_path)
    generator = os.path.join(os.path.dirname(program()), "eight-gen")
    subprocess.run([generator, "--shape", "2x5", "--out", str(tmp_path)], check=True, capture_output=True)
    assert eight.solve(board, shape="2x5", data=tmp_path) == "r"
    # Kept from call to call, the data answers again, as do other shapes.
    assert eight.length([board, board], shape="2x5", data=tmp_path).tolist() == [1, 1]
    assert eight.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15", data=tmp_path) == "rr"
    assert eight.length(eight.random(20_000, seed=4), data=tmp_path).min() >= 0


def test_the_readmes_python_example_is_true():
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")) as readme:
        text = readme.read()
    example = text.split("```python\n>>> ", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(">>> " + example, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).attempted >= 4
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_the_examples_and_the_tests_type_check(tmp_path):
    # The README's example as a program: its calls, without their answers.
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")) as readme:
        text = readme.read()
    example = text.split("```python\n>>> ", 1)[1].split("```", 1)[0]
    calls = [line[4:] for line in (">>> " + example).splitlines() if line.startswith(">>> ")]
    program = tmp_path / "readme_example.py"
    program.write_text("\n".join(calls) + "\n")
    assert "int(eight.length(boards).max())" in program.read_text()
    here = os.path.dirname(__file__)
    checked = [str(program), here, os.path.join(here, "..", "examples")]
    out, err, status = mypy.api.run(["--no-incremental", "--strict", str(program)])
    assert status == 0, out + err
    out, err, status = mypy.api.run(["--no-incremental", *checked[1:]])
    assert status == 0, out + err


def test_arrays_are_read_in_their_logical_order_whatever_their_memory_order():
    rows = np.array([[(i + 2 * j) % 9 for j in range(9)] for i in range(9)], dtype=np.uint8)
    want = eight.length(rows).tolist()
    assert eight.solve(rows) == [eight.solve(list(row)) for row in rows.tolist()]
    for form in [
        np.asfortranarray(rows),
        np.asfortranarray(rows.astype(np.int64)),
        rows[:, ::-1][:, ::-1],
        rows[::-1][::-1],
        rows.astype(np.int32),
        rows.astype(np.uint16),
        rows.astype(np.float32),
        rows.astype(object),
        np.asfortranarray(rows.reshape(9, 3, 3)),
        rows.reshape(9, 3, 3).transpose(0, 2, 1).copy().transpose(0, 2, 1),
    ]:
        assert eight.length(form).tolist() == want, (form.dtype, form.flags)
    assert eight.length(rows.T).tolist() == eight.length(np.ascontiguousarray(rows.T)).tolist()
    # One board, and a goal, from a view with strides.
    wide = np.array([[2, 9, 3, 9, 4, 9, 1, 9, 5, 9, 0, 9, 7, 9, 6, 9, 8, 9]])
    assert eight.solve(wide[0, ::2]) == "dlurullddrurdllurdr"
    assert eight.solve("12345678x", goal=wide[0, ::2]) == eight.solve("12345678x", goal="23415x768")
    assert eight.judge(wide[0, ::2], "dlurullddrurdllurdr") == "optimal"


@pytest.mark.parametrize(
    "boards, message",
    [
        (np.array([[1, 2, 3, 4, 5, 6, 7, 0.9, 8.99]]), "board 0: 0.9 is not a whole number"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, np.nan]]), "board 1: NaN"),
        (np.array([1.0, 2, 3, 4, 5, 6, 7, 0.5, 8]), "0.5 is not a whole number"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=complex), "found complex128"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype="datetime64[s]"), "found datetime64"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype="timedelta64[s]"), "found timedelta64"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=bool), "found bool"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=np.longdouble), "found float128"),
        (np.array([["1", "2", "3", "4", "5", "6", "7", "8", "0"]]), "found <U1"),
        (
            np.ma.masked_array([[1, 2, 3, 4, 5, 6, 7, 8, 0]] * 2, mask=[[False] * 9, [False, False, True] + [False] * 6]),
            "board 1: a masked value is no tile",
        ),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, "x"]], dtype=object), "board 1: 'x' is not a tile"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, True, 0]], dtype=object), "board 0: True is not a tile"),
        (np.array([[1, 2, 3, 4, 5, 6, 7, 8, np.iinfo(np.uint64).max]], dtype=np.uint64), "board 0: tile 18446744073709551615 is not"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 2**70], "tile 1180591620717411303424 is not on a 3x3 board"),
        ([1, 2, 3, 4, 5, 6, 7, True, 0], "True is not a tile"),
        ([1, 2, 3, 4, 5, 6, 7, 8, "x"], "'x' is not a tile"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 0.5], "0.5 is not a whole number"),
    ],
)
def test_a_tile_that_is_no_whole_number_on_the_board_is_refused(boards, message):
    for call in [eight.solve, eight.length]:
        with pytest.raises(ValueError, match=message):
            call(boards)


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float64, object])
def test_the_first_wrong_row_is_told_whatever_is_wrong_with_it(dtype):
    # Row 1 holds a tile twice; row 3 a value off the board: row 1 is told.
    rows = [[1, 2, 3, 4, 5, 6, 7, 8, 0]] * 5
    rows[1] = [1, 1, 3, 4, 5, 6, 7, 8, 0]
    rows[3] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    for call in [eight.solve, eight.length]:
        with pytest.raises(ValueError, match="^board 1: "):
            call(np.array(rows, dtype=dtype))


def test_whole_numbers_of_any_kind_are_tiles():
    masked = np.ma.masked_array([[1, 2, 3, 4, 5, 6, 7, 0, 8]], mask=False)
    assert eight.solve(masked) == ["r"]
    assert eight.solve(np.array([1.0, 2, 3, 4, 5, 6, 7, 0, 8])) == "r"
    assert eight.solve([1, 2, 3, 4, 5, 6, 7, np.int64(0), 8.0]) == "r"


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.uint64, np.float64])
def test_the_first_bad_board_of_many_is_named_whatever_core_reads_it(dtype):
    # Past 65,536 rows, the rows are read on every core.
    boards = np.tile(np.array([1, 2, 3, 4, 5, 6, 7, 8, 0], dtype), (200_000, 1))
    boards[150_000, 0] = 2
    boards[170_000, 0] = 2
    with pytest.raises(ValueError, match=r"^board 150000: tile 2 written more than once; tile 1 missing"):
        eight.length(boards)
    boards[150_000, 0] = boards[170_000, 0] = 1
    boards[120_000, 3] = 9
    boards[190_000, 3] = 9
    with pytest.raises(ValueError, match=r"^board 120000: tile 9 is not on a 3x3 board"):
        eight.length(boards)
    boards[120_000, 3] = boards[190_000, 3] = 4
    assert (eight.length(boards) == 0).all()


def test_a_solver_answers_as_the_functions_with_its_goal_and_metric():
    boards = eight.random(2_000, seed=5)
    goal = "1 2 3 4 x 5 6 7 8"
    for metric in ["stm", "mtm"]:
        solver = eight.Solver(goal=goal, metric=metric)
        assert (solver.goal, solver.shape, solver.metric) == (goal, "3x3", metric)
        assert solver.solve(boards) == eight.solve(boards, goal=goal, metric=metric)
        assert solver.solve(boards[0], notation="tile") == eight.solve(boards[0], goal=goal, metric=metric, notation="tile")
        assert (solver.length(boards) == eight.length(boards, goal=goal, metric=metric)).all()
        assert solver.judge(boards[1], "dd") == eight.judge(boards[1], "dd", goal=goal, metric=metric)
        assert (solver.random(3, seed=2) == eight.random(3, seed=2, goal=goal)).all()
        assert (solver.random(3, seed=2, depth=9) == eight.random(3, seed=2, depth=9, goal=goal, metric=metric)).all()
    # With no goal, each shape's usual goal, as the functions.
    mixed = ["12345678x", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", "1 2/x 3"]
    assert eight.Solver().solve(mixed) == eight.solve(mixed) == ["", "r", "r"]
    assert repr(eight.Solver(shape="2x4", metric="mtm")) == "eight.Solver(goal='1 2 3 4/5 6 7 x', shape='2x4', metric='mtm')"


def test_a_stronger_solver_answers_as_before(tmp_path):
    # With no data, multi-tile 3x4 boards are searched; a solver made
    # stronger gives the answers of one that is not.
    boards = eight.random(6, seed=8, shape="3x4")
    plain = eight.Solver(shape="3x4", metric="mtm", data=tmp_path)
    strong = eight.Solver(shape="3x4", metric="mtm", data=tmp_path)
    assert strong.strengthen() is True
    assert strong.strengthen(timeout=1) is True  # made once, kept
    assert strong.solve(boards) == plain.solve(boards)
    assert (strong.length(boards) == plain.length(boards)).all()
    # Nothing to make: a table, the single-tile metric.
    assert eight.Solver(shape="3x3", metric="mtm").strengthen() is False
    assert eight.Solver(shape="4x4").strengthen() is False
    with pytest.raises(ValueError, match="no goal or shape"):
        eight.Solver().strengthen()


def test_a_solver_says_at_once_what_data_it_lacks(tmp_path):
    with pytest.raises(eight.DataError, match="eight-gen --shape 3x4"):
        eight.Solver(shape="3x4", data=tmp_path)
    with pytest.raises(ValueError, match="metric"):
        eight.Solver(metric="fast")
    # Boards are read in the goal's shape.
    with pytest.raises(ValueError, match='board 1: 16 tiles on one line: a 3x3 board'):
        eight.Solver(goal="12345678x").solve(["12345678x", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"])
    assert eight.Solver(goal="1 2 3 4/5 6 7 x").solve("1234567x") == ""
    with pytest.raises(ValueError, match="board 1: a 4x4 board, but the goal is a 3x3 board"):
        eight.solve(["12345678x", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"], goal="12345678x")
    # Without a goal or shape, nothing is loaded until a board needs it.
    solver = eight.Solver(data=tmp_path)
    assert solver.length("1 2 3 4 5 6 7 x 8") == 1
    with pytest.raises(eight.DataError, match="eight-gen --shape 3x4"):
        solver.length("1 2 3 4/5 6 7 8/9 10 x 11")


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_data_made_from_python_is_the_generators_and_answers_at_once(tmp_path, metric):
    steps = []
    path = eight.generate("2x5", metric=metric, data=tmp_path, progress=lambda *step: steps.append(step))
    name = "2x5-blank9.table" if metric == "stm" else "2x5-mtm-blank9.table"
    assert path == str(tmp_path / name)
    assert os.path.exists(path + ".proof"), "proven as it was written"
    assert steps and all(done <= total for _, done, total in steps) and steps[-1][1] == steps[-1][2]
    # The same bytes as eight-gen makes.
    made = tmp_path / "by-eight-gen"
    gen = os.path.join(os.path.dirname(program()), "eight-gen")
    args = [gen, "--quiet", "--shape", "2x5", "--metric", metric, "--out", str(made)]
    subprocess.run(args, check=True)
    with open(path, "rb") as ours, open(made / name, "rb") as theirs:
        assert ours.read() == theirs.read()
    boards = eight.random(200, shape="2x5", seed=3)
    text = "".join(" ".join("x" if t == 0 else str(t) for t in b) + "\n" for b in boards.tolist())
    expected = run(["--shape", "2x5", "--metric", metric, "--data", str(tmp_path)], text).splitlines()
    assert eight.solve(boards, shape="2x5", data=tmp_path, metric=metric) == expected


def test_what_cannot_be_generated_is_refused(tmp_path):
    for call, message in [
        (lambda: eight.generate("3x3", data=tmp_path), "built into the package"),
        (lambda: eight.generate("2x5", blank=10, data=tmp_path), "blank=10: a 2x5 board has cells 0 to 9"),
        (lambda: eight.generate("2x5", partition="4-5", data=tmp_path), "partition"),
        (lambda: eight.generate("4x4", partition="7-7", data=tmp_path), "partition"),
        (lambda: eight.generate("9x9", data=tmp_path), "shape"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
    assert os.listdir(tmp_path) == []
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(OSError, match="not a folder"):
        eight.generate("2x5", data=afile)
    # An empty path is no folder (it would be the working folder by chance),
    # and True is no cell.
    with pytest.raises(OSError, match="an empty path, not a folder: give data= a folder"):
        eight.generate("2x5", data="")
    with pytest.raises(TypeError, match="blank=True"):
        eight.generate("2x5", blank=True, data=tmp_path)  # type: ignore[arg-type]
    assert sorted(os.listdir(tmp_path)) == ["afile"]


def test_what_cannot_be_allocated_is_refused_before_it_is_drawn():
    for call in [
        lambda: eight.random(10**12),
        lambda: eight.random(3 * 10**9, shape="4x4"),
        lambda: eight.random(10**12, depth=5),
    ]:
        with pytest.raises(MemoryError, match="ask for fewer"):
            call()
    assert eight.random(2, seed=1).shape == (2, 9)


def test_moves_are_judged_as_the_program_judges_them():
    assert eight.judge("1 2 3 4 5 6 x 7 8", "rrr", metric="mtm") == "illegal move 1"
    assert eight.judge("1 2 3 4 5 6 x 7 8", "rrr") == "illegal move 3"
    out = run(["--judge", "--metric", "mtm"], "1 2 3 4 5 6 x 7 8 rrdd\n1 2 3 4 5 6 7 x 8 r r\n")
    assert out.splitlines() == ["illegal move 2", "illegal move 1"]
    assert eight.judge("1 2 3 4 5 6 x 7 8", "rrdd", metric="mtm") == "illegal move 2"
    assert eight.judge("1 2 3 4 5 6 7 x 8", "r r") == "illegal move 2"
    # Every notation the program writes, spaced as the page writes it.
    board = "2 3 4 1 5 x 7 6 8"
    notations = ["dlurullddrurdllurdr", "URDLDR2U2LDLUR2DLUL", "U R D L D R2 U2 L D L U R2 D L U L", "URDLDR2U2LDLUR2DLULL"]
    out = run(["--judge"], "".join(f"{board} {moves}\n" for moves in notations))
    assert out.splitlines() == ["optimal", "optimal", "optimal", "illegal move 20"]
    assert [eight.judge(board, moves) for moves in notations] == out.splitlines()


@pytest.mark.parametrize("metric", ["stm", "mtm"])
def test_analyses_are_the_programs(metric):
    board = "2 3 4 1 5 x 7 6 8"
    cases = [
        (board, "dlurullddrurdllurdr"),
        (board, "URDLDR2U2LDLUR2DLUL"),
        (board, "lrdlurullddrurdllurdr"),
        (board, "dl"),
        (board, "-"),
        ("1 2 3 4 5 6 7 x 8", "dd"),
        ("2 1 3 4 5 6 7 8 x", "l"),
        ("1 2 3 4 5 6 7 8 x", "-"),
    ]
    out = run(["--analyse", "--json", "--metric", metric], "".join(f"{b} {m}\n" for b, m in cases))
    expected = [
        {"verdict": a["verdict"], "distances": a.get("distances", []), "lost": a.get("lost"), "worse": a.get("worse", [])}
        for a in map(json.loads, out.splitlines())
    ]
    assert [e["verdict"] for e in expected][-3:] == ["illegal move 1", "unsolvable", "optimal"]
    assert [eight.analyse(b, m, metric=metric) for b, m in cases] == expected
    solver = eight.Solver(metric=metric)
    assert [solver.analyse(b, m) for b, m in cases] == expected
    # The analysis agrees with the verdict and the lengths of its boards.
    assert [eight.judge(b, m, metric=metric) for b, m in cases] == [e["verdict"] for e in expected]
    assert expected[2]["distances"][0] == eight.length(board, metric=metric)


def test_a_process_reads_data_remade_under_it(tmp_path):
    board = "1 2 3 4 5 6 7 8 x 9"
    generator = os.path.join(os.path.dirname(program()), "eight-gen")
    make = lambda: subprocess.run(
        [generator, "--quiet", "--shape", "2x5", "--out", str(tmp_path)], check=True
    )
    make()
    assert eight.solve(board, shape="2x5", data=tmp_path) == "r"
    # Remade (a new file renamed over the old), rewritten in place, cut
    # short and made again: each next call answers from the file as it is,
    # and calls that need no file never notice.
    make()
    assert eight.solve(board, shape="2x5", data=tmp_path) == "r"
    assert eight.solve("1 2 3 4 5 6 7 x 8", data=tmp_path) == "r"
    table = tmp_path / "2x5-blank9.table"
    right = table.read_bytes()
    time.sleep(0.03)
    table.write_bytes(right)
    assert eight.length([board] * 3, shape="2x5", data=tmp_path).tolist() == [1, 1, 1]
    with open(table, "r+b") as cut:
        cut.truncate(100)
    with pytest.raises(eight.DataError, match="2x5-blank9.table"):
        eight.solve(board, shape="2x5", data=tmp_path)
    assert eight.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15", data=tmp_path) == "rr"
    make()
    assert eight.solve(board, shape="2x5", data=tmp_path) == "r"


def test_the_stub_names_what_the_module_has():
    import ast

    with open(os.path.join(os.path.dirname(__file__), "..", "eight.pyi")) as stub:
        tree = ast.parse(stub.read())
    named = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            named.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            named.add(node.target.id)
        elif isinstance(node, ast.Assign):
            named.update(target.id for target in node.targets)
    public = lambda names: {name for name in names if not name.startswith("_") or name == "__version__"}
    assert public(named) == public(dir(eight)) - {"eight"}
    assert eight.__version__ == "0.1.0"


def test_messages_name_python_arguments_not_options():
    with pytest.raises(ValueError, match="else shape=") as error:
        eight.solve("1 2 3 4 5 6 7 8 9 10 11 x")
    assert "--" not in str(error.value)


def test_boards_of_25_cells_are_the_programs_near_the_goal_and_refused_far(tmp_path, monkeypatch):
    import random

    # No databases: those made at start answer.
    monkeypatch.setenv("EIGHT_DATA", str(tmp_path))

    rnd = random.Random(25)
    goal = tuple(list(range(1, 25)) + [0])
    boards = []
    for steps in [0, 5, 10, 20, 30]:
        board = goal
        for _ in range(steps):
            board = rnd.choice(list(neighbours(board, 5, 5)))[1]
        boards.append(list(board))
    lines = "".join(text(b) + "\n" for b in boards)
    expected = run([], lines).splitlines()
    assert len(expected) == len(boards) and "invalid" not in expected
    assert eight.solve(boards) == expected
    assert eight.solve([text(b) for b in boards], shape="5x5") == expected
    assert eight.length(boards).tolist() == [len(a) for a in expected]
    # A random board, a hundred moves away or so: too far for the databases
    # made at start, and said so with the command that makes those that
    # answer it, never a wrong answer or a silent hour.
    far = eight.random(1, shape="5x5", seed=1)
    with pytest.raises(Exception, match="eight-gen --shape 5x5"):
        eight.solve(far)


def test_what_numpy_reads_as_an_array_is_read_by_its_values():
    import pandas as pd  # type: ignore[import-untyped]

    boards = eight.random(5, seed=3)
    lengths = eight.length(boards).tolist()
    frame = pd.DataFrame(boards)
    # Iterated, a DataFrame gives its column labels: never read so.
    assert eight.length(frame).tolist() == lengths
    assert eight.solve(frame) == eight.solve(boards)
    assert eight.length(frame.iloc[2]) == lengths[2]
    assert eight.length(pd.Series([text(row) for row in boards])).tolist() == lengths
    assert eight.length([frame.iloc[0], frame.iloc[1]]).tolist() == lengths[:2]
    assert eight.length(boards, goal=pd.Series([1, 2, 3, 4, 5, 6, 7, 8, 0])).tolist() == lengths


@pytest.mark.parametrize(
    "boards, hint",
    [
        ({"board": "12345678x"}, "found dict"),
        ({1, 2, 3, 4, 5, 6, 7, 8, 0}, "found set"),
        ((row for row in eight.random(2, seed=1)), "make it a list first"),
        (iter([1, 2, 3, 4, 5, 6, 7, 8, 0]), "make it a list first"),
        (b"12345678x", "decode it"),
        (["12345678x", {"board": "12345678x"}], "board 1: .*found dict"),
        (["12345678x", 3.5], "board 1: .*found float"),
        (object(), "found object"),
    ],
)
def test_objects_that_are_no_boards_are_refused_with_type_error(boards, hint):
    for call in (eight.solve, eight.length):
        with pytest.raises(TypeError, match=hint):
            call(boards)
    with pytest.raises(TypeError, match="goal: "):
        eight.solve("12345678x", goal={"board": "12345678x"})


def test_the_multi_tile_metric_beyond_16_cells_is_made_and_answers(tmp_path):
    path = eight.generate("3x6", metric="mtm", data=tmp_path)
    assert path == str(tmp_path / "3x6-mtm-5-5-5-2-blank17.pdb")
    boards = eight.random(20, shape="3x6", seed=5, walk=30)
    text = "".join(" ".join("x" if t == 0 else str(t) for t in b) + "\n" for b in boards.tolist())
    expected = run(["--shape", "3x6", "--metric", "mtm", "--data", str(tmp_path)], text).splitlines()
    assert eight.solve(boards, shape="3x6", data=tmp_path, metric="mtm") == expected
    assert all(expected)
    # Without the databases, a near board is answered out of the box.
    assert eight.length("1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 x 17", metric="mtm") == 1


def run_python(code, timeout=120):
    """`code` run by a Python of its own: its exit code, output and errors."""
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def test_ctrl_c_while_the_first_array_is_made_is_a_keyboard_interrupt():
    code, out, err = run_python(
        "import os, signal, threading, eight\n"
        "threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        "    eight.random(30_000_000)\n"
        "    import time; time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    assert "Panic" not in err and "panicked" not in err, err
    assert (code, out) == (0, "interrupted\n"), err


def test_data_cut_short_during_a_call_is_a_data_error_not_a_crash(tmp_path):
    # The 2x7 databases (4 s to make), and random boards enough for several
    # seconds of searching, cut short after 0.7 s: the read past the new end
    # would be SIGBUS.
    eight.generate("2x7", data=tmp_path)
    (database,) = [name for name in os.listdir(tmp_path) if name.endswith(".pdb")]
    code, out, err = run_python(
        "import os, threading, eight\n"
        f"path = {str(tmp_path / database)!r}\n"
        "boards = eight.random(60_000, shape='2x7', seed=1)\n"
        "threading.Timer(0.7, lambda: os.truncate(path, 4096)).start()\n"
        "try:\n"
        f"    eight.length(boards, shape='2x7', data={str(tmp_path)!r})\n"
        "except eight.DataError as error:\n"
        "    print(error)\n"
    )
    assert code == 0, f"exit {code}: {err}"
    assert database in out and "cut short" in out, out


def test_data_made_after_a_stand_in_answered_is_read_by_the_next_call(tmp_path):
    # Without its databases a 2x9 search stands in over small ones made at
    # start, and refuses a far board; made since, they answer it, in the
    # same process, for a Solver and the module's functions alike.
    far = eight.random(1, shape="2x9", seed=1)[0]
    solver = eight.Solver(shape="2x9", data=tmp_path)
    made = f'eight.generate("2x9", blank=17, data={str(tmp_path)!r})'.replace("'", '"')
    with pytest.raises(eight.DataError, match="board 0: this 2x9 board is far from the goal") as error:
        solver.length(far)
    assert str(error.value).endswith("; from Python: " + made), str(error.value)
    with pytest.raises(eight.DataError, match="far from the goal"):
        eight.length(far, shape="2x9", data=tmp_path)
    eight.generate("2x9", data=tmp_path)
    expected = int(run(["--shape", "2x9", "--length", "--data", str(tmp_path)], text(far) + "\n"))
    assert solver.length(far) == expected
    assert eight.length(far, shape="2x9", data=tmp_path) == expected
    # The multi-tile table, wanted for a draw at a depth, likewise.
    goal = "1 2 3 4 5/6 7 8 9 x"
    mtm = eight.Solver(goal=goal, metric="mtm", data=tmp_path)
    with pytest.raises(eight.DataError, match="2x5-mtm-blank9.table"):
        mtm.random(2, depth=5)
    eight.generate("2x5", metric="mtm", data=tmp_path)
    drawn = mtm.random(3, depth=5, seed=1)
    assert eight.length(drawn, shape="2x5", goal=goal, metric="mtm", data=tmp_path).tolist() == [5, 5, 5]


def test_boards_left_unanswered_for_want_of_data_are_named():
    # Near boards are answered over the databases made at start, far ones
    # need larger data: a DataError names the first, with the call that
    # makes the data, and lists them all, so the others can be asked alone.
    near = eight.random(3, shape="2x9", seed=2, walk=6)
    far = eight.random(2, shape="2x9", seed=1)
    boards = np.concatenate([near[:1], far[:1], near[1:], far[1:]])
    with pytest.raises(eight.DataError, match="board 1: this 2x9 board is far") as error:
        eight.length(boards, shape="2x9", data=os.devnull + "-none")
    assert error.value.index == 1
    assert error.value.unanswered == [1, 4]
    answered = np.delete(boards, error.value.unanswered, axis=0)
    assert (eight.length(answered, shape="2x9", data=os.devnull + "-none") <= 6).all()
    # A shape whose data is missing: the board that needs it is named.
    with pytest.raises(eight.DataError, match=r"board 1: .*eight-gen --shape 3x4") as error:
        eight.solve(["12345678x", "1 2 3 4/5 6 7 8/9 10 x 11"], data=os.devnull + "-none")
    assert error.value.unanswered == [1]


def test_ctrl_c_and_a_failing_progress_callback_stop_generate(tmp_path):
    # The 3x4 table takes about 25 s to make: stopped within seconds, with
    # nothing written.
    code, out, err = run_python(
        "import os, signal, threading, time, eight\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "started = time.perf_counter()\n"
        "try:\n"
        f"    eight.generate('3x4', data={str(tmp_path)!r})\n"
        "except KeyboardInterrupt:\n"
        "    print(time.perf_counter() - started)\n"
    )
    assert code == 0, err
    assert float(out) < 5, out
    assert os.listdir(tmp_path) == []

    def progress(part, done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        eight.generate("3x4", data=tmp_path, progress=progress)
    assert os.listdir(tmp_path) == []


def test_ctrl_c_stops_a_batch_of_table_answers():
    # The signal comes from the kernel, as a terminal's Ctrl-C does (a
    # thread of this one would wait for the GIL the reading holds), at a
    # time set before the call: a process started to send it may start
    # late. Its handler is the one of Ctrl-C; no alarm outlives its call
    # (one after the handlers are reset at exit would end the process).
    # The same batch takes from 0.9 to 2.2 s on one machine, as its memory
    # comes: the alarm is set from its quickest of three runs, and the stop
    # allowed a share of its slowest.
    code, out, err = run_python(
        "import signal, time, eight\n"
        "signal.signal(signal.SIGALRM, signal.default_int_handler)\n"
        "boards = eight.random(20_000_000, seed=1)\n"
        "runs = []\n"
        "for _ in range(3):\n"
        "    started = time.perf_counter()\n"
        "    eight.length(boards)\n"
        "    runs.append(time.perf_counter() - started)\n"
        "for share in (0.05, 0.5):\n"
        "    started = time.perf_counter()\n"
        "    signal.setitimer(signal.ITIMER_REAL, share * min(runs))\n"
        "    try:\n"
        "        eight.length(boards)\n"
        "        print('finished')\n"
        "    except KeyboardInterrupt:\n"
        "        print(share, min(runs), max(runs), time.perf_counter() - started)\n"
        "    finally:\n"
        "        signal.setitimer(signal.ITIMER_REAL, 0)\n"
    )
    assert code == 0, err
    # Stopped well before the batch would have ended, whether the signal
    # came while the array was read or while it was answered.
    assert len(out.splitlines()) == 2 and "finished" not in out, out
    for line in out.splitlines():
        share, quickest, slowest, stopped = map(float, line.split())
        assert stopped < share * quickest + 0.3 * slowest, out


# One of the 15-puzzle's farthest boards: many seconds in the multi-tile
# metric with no data made.
FAR_4X4 = "x 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
# Moves that take it to the goal (its shortest single-tile answer): judged
# in the multi-tile metric, they ask for its search.
FAR_4X4_MOVES = "dddrrruulldldrrruululddruldldrrurulurdlulddrullurdlddrrurulllddrrruluulldddrrurd"


def test_ctrl_c_stops_one_long_search():
    # A search looks at no signal itself: the call watches for it and stops
    # the search. The signal comes from the kernel, as a terminal's, with
    # the handler of Ctrl-C.
    code, out, err = run_python(
        "import signal, time, eight\n"
        "signal.signal(signal.SIGALRM, signal.default_int_handler)\n"
        f"far = {FAR_4X4!r}\n"
        "for call in ('solve', 'length', 'judge', 'analyse'):\n"
        "    signal.setitimer(signal.ITIMER_REAL, 0.5)\n"
        "    started = time.perf_counter()\n"
        "    try:\n"
        f"        args = (far, {FAR_4X4_MOVES!r}) if call in ('judge', 'analyse') else (far,)\n"
        "        getattr(eight, call)(*args, metric='mtm')\n"
        "        print('finished')\n"
        "    except KeyboardInterrupt:\n"
        "        print(call, round(time.perf_counter() - started, 3))\n"
        "    finally:\n"
        "        signal.setitimer(signal.ITIMER_REAL, 0)\n"
        "print(eight.solve('1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15', metric='mtm'))\n",
        timeout=120,
    )
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["solve", "length", "judge", "analyse"], out
    # Stopped, not run to its end (tens of seconds).
    assert all(float(line.split()[1]) < 5 for line in lines[:4]), out
    assert lines[4] == "r", out


def test_a_solvers_calls_stop_once_their_event_is_set():
    import concurrent.futures
    import threading

    solver = eight.Solver(shape="4x4", metric="mtm")

    def stopped(call, *args):
        """Whether `call` raised CancelledError once its event was set."""
        event = threading.Event()
        threading.Timer(0.3, event.set).start()
        try:
            call(*args, stop=event)
        except concurrent.futures.CancelledError as err:
            assert "stop event" in str(err)
            return True
        return False

    # Bound 37 of the far board's multi-tile search: seconds (its answer
    # is found late in it); its whole search, tens of seconds.
    assert stopped(solver.search_subtree, FAR_4X4, "", 37)
    assert stopped(solver.solve, FAR_4X4)
    assert stopped(solver.judge, FAR_4X4, FAR_4X4_MOVES)
    assert stopped(solver.analyse, FAR_4X4, FAR_4X4_MOVES)
    assert stopped(solver.length, [FAR_4X4, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"])
    # Set before the call: nothing is searched.
    done = threading.Event()
    done.set()
    with pytest.raises(concurrent.futures.CancelledError):
        solver.search_subtree(FAR_4X4, "", 37, stop=done)
    with pytest.raises(concurrent.futures.CancelledError):
        eight.Solver().length(eight.random(10, seed=1), stop=done)

    class Unreachable:
        def is_set(self):
            raise ConnectionError("the scheduler is gone")

    with pytest.raises(ConnectionError, match="scheduler"):
        solver.search_subtree(FAR_4X4, "", 37, stop=Unreachable())
    # Never set: the answers, as with no event.
    found = solver.search_subtree(FAR_4X4, "", 35, stop=threading.Event())
    assert found == solver.search_subtree(FAR_4X4, "", 35)
    assert found[0] is None and found[1] == 36
    boards = eight.random(1000, seed=2)
    table = eight.Solver()
    assert (table.length(boards, stop=threading.Event()) == table.length(boards)).all()
    assert solver.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", stop=threading.Event()) == "r"


def test_a_solvers_calls_take_a_timeout():
    solver = eight.Solver(shape="4x4", metric="mtm")
    started = time.perf_counter()
    with pytest.raises(TimeoutError, match="timeout=0.3"):
        solver.solve(FAR_4X4, timeout=0.3)
    assert time.perf_counter() - started < 5
    with pytest.raises(TimeoutError):
        solver.length([FAR_4X4], timeout=0.3)
    with pytest.raises(TimeoutError):
        solver.judge(FAR_4X4, FAR_4X4_MOVES, timeout=0.3)
    with pytest.raises(TimeoutError):
        solver.analyse(FAR_4X4, FAR_4X4_MOVES, timeout=0.3)
    # The solver answers again, within its time.
    assert solver.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", timeout=30) == "r"
    assert eight.Solver().length("12345678x", timeout=1) == 0
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="timeout="):
            solver.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", timeout=bad)


def test_shapes_answered_by_their_transposes_databases_are_the_programs(tmp_path):
    # 6x3 and 5x4 are searched over the databases of 3x6 and 4x5 (made at
    # start here, for boards near the goal), seen through a symmetry.
    for shape in ("6x3", "5x4", "3x6"):
        boards = eight.random(6, shape=shape, seed=4, walk=12)
        expected = run(["--shape", shape, "--data", str(tmp_path)], "".join(text(b) + "\n" for b in boards))
        assert eight.solve(boards, shape=shape, data=tmp_path) == expected.split(), shape
        lengths = run(["--shape", shape, "--length", "--data", str(tmp_path)], "".join(text(b) + "\n" for b in boards))
        assert eight.length(boards, shape=shape, data=tmp_path).tolist() == [int(n) for n in lengths.split()]
