"""One board's search spread over a Dask cluster: each bound of the search is
cut into subtrees (``eight.Solver.cut``) that the workers search
(``eight.Solver.search_subtree``), each on one core. Read in order, the first
subtree with an answer gives the answer and the nodes of the search in one
process, whatever the cluster. Every worker reads its data as the program
does (the data folder, or ``data=``)."""

import time
import uuid
from concurrent.futures import CancelledError

from dask.distributed import Client, Event, LocalCluster, get_worker

import eight


def solver(shape, goal, metric, data):
    """The solver of a worker (or of this process), made once."""
    try:
        kept = get_worker().__dict__.setdefault("eight_solvers", {})
    except ValueError:  # not on a worker
        kept = globals().setdefault("_SOLVERS", {})
    key = (shape, goal, metric, data)
    if key not in kept:
        kept[key] = eight.Solver(shape=shape, goal=goal, metric=metric, data=data)
    return kept[key]


class Stop:
    """The stop of a search's tasks: set once the search's Dask event
    ``running`` no longer is (cleared, the scheduler forgets it), asked of
    the scheduler once a second at most however often the search asks (a
    task of a second or less never asks)."""

    def __init__(self, running):
        self.running, self.asked, self.set = Event(running), time.monotonic(), False

    def is_set(self):
        if not self.set and time.monotonic() - self.asked >= 1.0:
            self.asked, self.set = time.monotonic(), not self.running.is_set()
        return self.set


def subtree(how, board, moves, bound, nodes, running):
    """One subtree searched on a worker: ``(answer, over, nodes)``; ``None``
    once the search no longer needs it: it stops then, which a cancelled
    task running on a thread would not."""
    try:
        return solver(*how).search_subtree(board, moves, bound, nodes=nodes, stop=Stop(running))
    except CancelledError:
        return None  # read by no one: its future is cancelled


def search(board, *, shape, goal=None, metric="stm", data=None, tasks=None, here=500_000):
    """The shortest answer of ``board`` (the blank's letters, ``None`` if it
    cannot reach the goal) and the nodes searched, each bound's subtrees
    searched on the cluster of the current client: at least ``tasks`` of
    them a bound (by default one for each million nodes of the bound
    before, from 8 to 64 for each of the cluster's threads: a task costs
    the cluster milliseconds, and a bound's answer may lie in one large
    subtree, which a finer cut shares out). A bound takes several times the
    nodes of the one before it; after a bound of fewer than ``here`` nodes,
    the next is searched here in one piece, as the cluster would search it
    in more time than that."""
    client = Client.current()
    how = (shape, goal, metric, data)
    threads = sum(client.nthreads().values())
    local = solver(*how)
    # Bound 0 is below every estimate: its cut searches nothing, and gives
    # the first bound with a node to search.
    cut = local.cut(board, 0)
    if cut is None:
        return None, 0
    bound, nodes, last = cut[2], 0, 0
    running = Event(f"eight-search-{uuid.uuid4().hex}")
    running.set()
    try:
        while True:
            if last < here:
                found, over, count = local.search_subtree(board, "", bound, nodes=nodes)
                if found is not None:
                    return found, nodes + count
            else:
                at_least = tasks or min(max(last // 1_000_000, 8 * threads), 64 * threads)
                subtrees, inside, over = local.cut(board, bound, nodes=nodes, at_least=at_least)
                futures = [
                    client.submit(subtree, how, board, moves, bound, nodes, running.name, pure=False)
                    for moves, _ in subtrees
                ]
                done = 0
                try:
                    for (_, before), future in zip(subtrees, futures):
                        found, next_over, count = future.result()
                        done += count
                        if found is not None:
                            return found, nodes + before + done
                        over = min(over, next_over)
                finally:
                    client.cancel(futures)  # those after an answer are not needed
                count = inside + done
            bound, nodes, last = over, nodes + count, count
    finally:
        running.clear()  # and those already running stop within a second


if __name__ == "__main__":
    # Korf's 15-puzzle instance 1 (57 moves), over the built-in databases.
    board = "14 13 15 7 11 12 9 5 6 x 2 1 4 8 10 3"
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        moves, nodes = search(board, shape="4x4", goal="x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15")
    print(len(moves), moves, nodes)
