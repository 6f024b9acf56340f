"""The page's hint after a move, asked of `eight serve`: the distance of a
board (`/api/length`), then its answer (`/api/solve`), as the page asks them.

    eight serve --listen 127.0.0.1:8090 &
    eight --random 8 --seed 11 --shape 4x4 > boards.txt
    python3 docs/hint_timing.py http://127.0.0.1:8090 boards.txt 5

Takes the first four boards of the file, asks the distance of each, then
makes six random steps of the blank from it, asking at each the distance
and then the answer in the multi-tile metric; checks that the answer's
length is the distance and prints each time, and the answers' median,
slowest and sum.
"""

import json
import random
import sys
import time
import urllib.request

from walk_lengths import steps_of


def main():
    url, boards, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    random.seed(seed)

    def ask(path, cells):
        body = json.dumps({"board": " ".join(cells), "metric": "mtm"}).encode()
        request = urllib.request.Request(url + path, body, {"content-type": "application/json"})
        started = time.time()
        answer = json.load(urllib.request.urlopen(request))["answers"][0]
        return answer, time.time() - started

    n = 4
    times = []
    for line in open(boards).read().split("\n")[:4]:
        board = line.split()
        ask("/api/length", board)
        for _ in range(6):
            blank = board.index("x")
            to = random.choice(steps_of(blank, n))
            board[blank], board[to] = board[to], board[blank]
            length, length_seconds = ask("/api/length", board)
            answer, seconds = ask("/api/solve", board)
            assert answer["length"] == length["length"], (answer, length)
            times.append(seconds)
            print(f"length {length['length']} in {length_seconds:.3f} s, answer in {seconds:.3f} s")
    times.sort()
    print(f"answers: median {times[len(times) // 2]:.3f} s, slowest {times[-1]:.3f} s, all {sum(times):.2f} s")


if __name__ == "__main__":
    main()
