"""The shortest answers' lengths of many boards, on a Dask cluster: the boards
are cut into partitions, and each worker answers its own with eight, on all
its cores."""

import dask.bag as db
import numpy as np
from dask.distributed import Client, LocalCluster

import eight


def lengths(boards: np.ndarray, partitions: int) -> np.ndarray:
    """eight.length of every board, answered partition by partition on the
    cluster of the current client, in order."""
    bag = db.from_sequence(np.array_split(boards, partitions), npartitions=partitions)
    return np.concatenate(bag.map(eight.length).compute())


if __name__ == "__main__":
    boards = eight.random(1_000_000, seed=1)
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        found = lengths(boards, partitions=8)
    print(np.bincount(found))  # how many boards at each length, 0 to 31
