"""Times the Python package against the `eight` program on the same boards, and
against the pure-Python `slidingpuzzle` (PyPI), in one run.

    python python/bench/compare.py PATH/TO/eight [--runs 7]

Needs `pip install ./python slidingpuzzle`. Each figure is the median of the
runs, with the lowest and highest; the ratios are taken run by run.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

import eight


def text(board):
    return " ".join("x" if t == 0 else str(t) for t in board)


def spread(values):
    return f"{statistics.median(values):.4g} ({min(values):.4g}-{max(values):.4g})"


def paired(program, package, runs):
    """Runs `program` and `package` in turn, `runs` times; their seconds and
    the ratio package / program of each pair."""
    a, b = [], []
    for _ in range(runs):
        a.append(program())
        b.append(package())
    return a, b, [y / x for x, y in zip(a, b)]


def timed(work):
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def cli(binary, args, path):
    with open(path, "rb") as stdin:
        subprocess.run([binary, *args], stdin=stdin, stdout=subprocess.DEVNULL, check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("eight")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip-3x3", action="store_true", help="leave out slidingpuzzle's 3x3 boards (145 s)")
    parser.add_argument("--only-million", action="store_true", help="only the million 3x3 boards")
    parser.add_argument("--korf", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "korf100.txt"))
    args = parser.parse_args()
    folder = tempfile.mkdtemp()

    # 1,000,000 random 3x3 boards: eight.length on the array against
    # `eight --length` on the same boards from a file (the whole process).
    boards = eight.random(1_000_000, seed=1)
    path = os.path.join(folder, "boards.txt")
    with open(path, "w") as out:
        out.writelines(text(b) + "\n" for b in boards.tolist())
    found = eight.length(boards)
    expected = subprocess.run([args.eight, "--length"], stdin=open(path, "rb"), capture_output=True, check=True).stdout
    assert found.tolist() == [int(n) for n in expected.split()], "the same lengths"
    a, b, ratio = paired(lambda: timed(lambda: cli(args.eight, ["--length"], path)), lambda: timed(lambda: eight.length(boards)), args.runs)
    print(f"1,000,000 3x3 boards, length: eight --length {spread(a)} s, eight.length {spread(b)} s, ratio {spread(ratio)}", flush=True)

    # The same boards' answers: eight.solve (a list of strings) against
    # `eight` on the file.
    expected = subprocess.run([args.eight], stdin=open(path, "rb"), capture_output=True, check=True, text=True).stdout.splitlines()
    assert eight.solve(boards) == expected, "the same answers"
    a, b, ratio = paired(lambda: timed(lambda: cli(args.eight, [], path)), lambda: timed(lambda: eight.solve(boards)), args.runs)
    print(f"1,000,000 3x3 boards, answers: eight {spread(a)} s, eight.solve {spread(b)} s, ratio {spread(ratio)}", flush=True)
    if args.only_million:
        return

    # Korf's 100 toward the goal with the blank first: eight.solve against
    # `eight --goal`.
    goal = " ".join(str(t) if t else "x" for t in range(16))
    korf = []
    with open(args.korf) as lines:
        for line in lines:
            tiles = line.split()[:16]
            if len(tiles) == 16:
                korf.append([int(t) for t in tiles])
    path = os.path.join(folder, "korf.txt")
    with open(path, "w") as out:
        out.writelines(text(b) + "\n" for b in korf)
    expected = subprocess.run([args.eight, "--goal", goal], stdin=open(path, "rb"), capture_output=True, check=True, text=True).stdout.splitlines()
    assert eight.solve(korf, goal=goal) == expected, "the same answers"
    a, b, ratio = paired(lambda: timed(lambda: cli(args.eight, ["--goal", goal], path)), lambda: timed(lambda: eight.solve(korf, goal=goal)), min(args.runs, 5))
    print(f"Korf's 100, blank-first goal: eight --goal {spread(a)} s, eight.solve {spread(b)} s, ratio {spread(ratio)}", flush=True)

    # slidingpuzzle's A* on the same 1,000 random 3x3 boards, and on the 4x4
    # boards 80 random moves from the goal (none undoing the one before) that
    # it answers within 30 s each.
    import slidingpuzzle as sp

    def theirs(batch, cols):
        lengths = []
        for board in batch:
            grid = np.array(board, dtype=np.int64).reshape(-1, cols)
            lengths.append(len(sp.search(grid, "a*").solution))
        return lengths

    def within(board, seconds):
        """slidingpuzzle's answer's length and its seconds, if it answers
        `board` within `seconds`."""
        import signal

        def give_up(*_):
            raise TimeoutError

        signal.signal(signal.SIGALRM, give_up)
        signal.alarm(seconds)
        try:
            start = time.perf_counter()
            found = len(sp.search(np.array(board, dtype=np.int64).reshape(4, 4), "a*").solution)
            return found, time.perf_counter() - start
        except TimeoutError:
            return None
        finally:
            signal.alarm(0)

    if not args.skip_3x3:
        small = eight.random(1000, seed=2)
        ours = eight.length(small).tolist()
        seconds = timed(lambda: theirs(small.tolist(), 3))
        assert theirs(small[:50].tolist(), 3) == ours[:50], "slidingpuzzle's A* is optimal on these"
        mine = [timed(lambda: eight.solve(small)) for _ in range(args.runs)]
        print(f"1,000 3x3 boards: slidingpuzzle {seconds:.4g} s, eight.solve {spread(mine)} s, ratio {seconds / statistics.median(mine):.4g}", flush=True)

    rng = np.random.default_rng(3)
    scrambled = []
    for _ in range(30):
        board = list(range(1, 16)) + [0]
        blank, before = 15, None
        for _ in range(80):
            r, c = divmod(blank, 4)
            cells = [(r + dr) * 4 + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < 4 and 0 <= c + dc < 4]
            cells = [cell for cell in cells if cell != before]
            cell = cells[rng.integers(len(cells))]
            board[blank], board[cell] = board[cell], 0
            blank, before = cell, blank
        scrambled.append(board)
    # The boards it answers within 30 s each, and its time on them.
    answered = [(board, within(board, 30)) for board in scrambled]
    answered = [(board, found) for board, found in answered if found is not None]
    boards = [board for board, _ in answered]
    assert [length for _, (length, _) in answered] == eight.length(boards).tolist(), "optimal"
    seconds = sum(spent for _, (_, spent) in answered)
    mine = [timed(lambda: eight.solve(boards)) for _ in range(args.runs)]
    print(f"{len(boards)} of 30 4x4 boards 80 random moves from the goal ({statistics.median(eight.length(boards).tolist())} moves, median) that slidingpuzzle answers within 30 s each: slidingpuzzle {seconds:.4g} s, eight.solve {spread(mine)} s, ratio {seconds / statistics.median(mine):.4g}", flush=True)


if __name__ == "__main__":
    main()
