"""The distance after each move of a random walk, asked of `eight serve`.

    eight serve --listen 127.0.0.1:8090 &
    python3 docs/walk_lengths.py http://127.0.0.1:8090 "3 4 13 14 1 9 x 8 2 12 15 7 10 5 11 6" mtm 20 1 [PAUSE]

Asks /api/length of a 4x4 board, then of the board after each of STEPS
random moves (the seed next), and prints each time and their median and
maximum: what the page asks after each move a player makes. With PAUSE,
waits that many seconds after each answer before the next move, as a
player who thinks does.
"""

import json
import random
import sys
import time
import urllib.request


def steps_of(blank, n):
    """The cells the blank at `blank` of an n-by-n board may step to."""
    return [
        blank + step
        for step in (-n, n, -1, 1)
        if 0 <= blank + step < n * n
        and not (step == -1 and blank % n == 0)
        and not (step == 1 and blank % n == n - 1)
    ]


def main():
    url, board, metric, steps = sys.argv[1], sys.argv[2].split(), sys.argv[3], int(sys.argv[4])
    random.seed(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    pause = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0

    def ask(cells):
        body = json.dumps({"board": " ".join(cells), "metric": metric}).encode()
        request = urllib.request.Request(
            url + "/api/length", body, {"content-type": "application/json"}
        )
        started = time.time()
        answer = json.load(urllib.request.urlopen(request))["answers"][0]
        return answer.get("length"), time.time() - started

    n = 4
    distance, seconds = ask(board)
    print(f"start: {distance} moves, {seconds:.3f} s")
    blank = board.index("x")
    times = []
    for _ in range(steps):
        time.sleep(pause)
        to = random.choice(steps_of(blank, n))
        board[blank], board[to] = board[to], board[blank]
        blank = to
        distance, seconds = ask(board)
        times.append(seconds)
        print(f"{distance} moves, {seconds:.3f} s")
    times.sort()
    print(f"median {times[len(times) // 2]:.3f} s, most {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
