"""One 24-puzzle search spread over a Dask cluster, timed, and its split's
balance measured: what more machines could give. With `--after`, the CPU
the workers spend in the seconds after each search: tasks it no longer
needs, still running.

    eight-gen --shape 5x5        # the 6-6-6-6 databases, once (about 3 min)
    EIGHT_DATA=DIR python3 docs/dask_split.py --only 25 [--workers 1,2] [--tasks 64]
        [--after 5] [--recipe OTHER.py]

For each Korf–Felner instance chosen (`../shared/data/korf24.txt`), toward
Korf's goal `x 1 2 ... 24`: the search on a LocalCluster of each number of
workers (one thread each) by `python/examples/dask_search.py`, its answer's
length checked against the file and its nodes against every other run's;
then the same split searched here, subtree by subtree, each subtree's
nodes kept: for the last bound searched in full and for the answer's
(most of the work), the largest subtree's share, and how much faster N
machines would search the bound at best with that split (its nodes over
N, or its largest subtree, whichever is more).
"""

import argparse
import os
import runpy
import time

import psutil
from dask.distributed import Client, LocalCluster

import eight

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "..", "..", "shared", "data", "korf24.txt")
RECIPE = os.path.join(HERE, "..", "python", "examples", "dask_search.py")
GOAL = "x " + " ".join(str(t) for t in range(1, 25))


def bounds(board, tasks):
    """Each bound of the search, searched here: its subtrees' nodes and the
    nodes of its cut, up to the answer."""
    solver = eight.Solver(shape="5x5", goal=GOAL)
    bound = nodes = 0
    while True:
        subtrees, inside, over = solver.cut(board, bound, nodes=nodes, at_least=tasks)
        counts = []
        for moves, _ in subtrees:
            found, next_over, count = solver.search_subtree(board, moves, bound, nodes=nodes)
            counts.append(count)
            if found is not None:
                yield bound, inside, counts
                return
            over = min(over, next_over)
        yield bound, inside, counts
        bound, nodes = over, nodes + inside + sum(counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", required=True, help="instances by number in the file: 25,40")
    parser.add_argument("--workers", default="1,2", help="clusters to time, by workers; 0: none")
    parser.add_argument("--tasks", type=int, default=None, help="subtrees a bound, at least")
    parser.add_argument(
        "--after", type=float, default=0, help="seconds to watch the workers' CPU after a search"
    )
    parser.add_argument("--recipe", default=RECIPE, help="the recipe to run, if not the package's")
    args = parser.parse_args()
    search = runpy.run_path(args.recipe)["search"]
    with open(FILE) as lines:
        instances = [line.split() for line in lines if line.strip()]
    for number in [int(n) for n in args.only.split(",")]:
        fields = instances[number - 1]
        board = " ".join("x" if t == "0" else t for t in fields[:25])
        optimal = int(fields[25])
        counted = set()
        for workers in [int(n) for n in args.workers.split(",") if int(n) > 0]:
            with LocalCluster(n_workers=workers, threads_per_worker=1) as cluster, Client(cluster):
                started = time.monotonic()
                moves, nodes = search(board, shape="5x5", goal=GOAL, tasks=args.tasks)
                seconds = time.monotonic() - started
                after = ""
                if args.after:
                    # Tasks the search no longer needs, still running.
                    kids = psutil.Process().children(recursive=True)
                    before = sum(kid.cpu_times().user for kid in kids)
                    time.sleep(args.after)
                    spent = sum(kid.cpu_times().user for kid in kids) - before
                    after = f"; the workers' CPU in the {args.after:g} s after: {spent:.2f} s"
            assert len(moves) == optimal, (number, len(moves), optimal)
            counted.add(nodes)
            print(
                f"#{number}: {workers} worker(s), {len(moves)} moves, {nodes:,} nodes, "
                f"{seconds:.1f} s{after}"
            )
        assert len(counted) <= 1, counted
        tasks = args.tasks or 64
        *_, full, last = bounds(board, tasks)
        for (bound, inside, counts), what in [(full, "the last bound in full"), (last, "the answer's")]:
            total = inside + sum(counts)
            largest = max(counts)
            print(
                f"#{number}: {what} ({bound}) in {len(counts)} subtrees searched "
                f"(of at least {tasks}), {total:,} nodes; the largest subtree {largest:,}, "
                f"{largest / total:.1%} of them"
            )
            for machines in [2, 10, 100]:
                best = max(total / machines, largest)
                print(f"  {machines} machines: the bound at best {total / best:.1f} times faster")


if __name__ == "__main__":
    main()
