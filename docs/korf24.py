"""Korf and Felner's fifty 24-puzzle instances, solved by `eight` with a
time cap each: a table of what was answered, checked against the optimal
lengths the file gives.

    eight-gen --shape 5x5        # the 6-6-6-6 databases, once (about 3 min)
    python3 docs/korf24.py PATH/TO/eight [--cap 600] [--only 38,1,2] [--data DIR]

Each instance runs alone, `eight --verbose` toward Korf's goal `x 1 2 ... 24`,
in a process of its own killed at the cap. The table says, an instance a
row: its optimal length in the file, eight's answer's length (checked), the
positions eight searched (every bound, up to the answer), the positions it
generated (each searched position's next positions, within the bound or
over it: the nodes Korf and Felner count), Korf and Felner's own count
where `../shared/data/README.md` gives it, the time, and the positions a
second (`--verbose` tells them of a search past a second). An instance
stopped at the cap says the bound it was searching and the positions
searched before it.
"""

import argparse
import os
import re
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "..", "..", "shared", "data", "korf24.txt")
GOAL = "x " + " ".join(str(t) for t in range(1, 25))
# `--verbose`'s last word of a search: its bound, positions, seconds and
# positions generated; and, past a second, each bound as it starts.
ENDED = re.compile(r"answered in (\d+) moves: (\d+) positions in ([\d.]+) s .*, (\d+) generated")
BOUND = re.compile(r"searching (\d+) moves or more, (\d+) positions in ([\d.]+) s")
# Korf and Felner's nodes generated (AI 134, 2002), as the data's README
# gives them.
KORF_FELNER = {
    1: 2.0e9, 2: 2.1e11, 3: 2.1e10, 4: 1.1e10, 5: 2.9e9, 6: 1.0e11, 7: 1.1e11,
    8: 1.2e11, 9: 1.8e12, 10: 1.5e12, 38: 3.8e7, 50: 4.2e12,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("eight")
    parser.add_argument("--cap", type=float, default=600, help="seconds an instance may take")
    parser.add_argument("--only", help="instances to run, by number in the file: 38,1,2")
    parser.add_argument("--data", help="the data folder (else eight's own)")
    parser.add_argument("--file", default=FILE)
    args = parser.parse_args()
    with open(args.file) as lines:
        instances = [line.split() for line in lines if line.strip()]
    chosen = range(1, len(instances) + 1)
    if args.only:
        chosen = [int(n) for n in args.only.split(",")]
    env = dict(os.environ)
    if args.data:
        env["EIGHT_DATA"] = args.data
    print(
        "| Korf–Felner # | optimal | eight | positions | generated | Korf and Felner's generated "
        "| time | positions a second |"
    )
    print("|---|---|---|---|---|---|---|---|")
    stopped = []
    for number in chosen:
        fields = instances[number - 1]
        board = " ".join("x" if t == "0" else t for t in fields[:25])
        optimal = int(fields[25])
        theirs = scientific(KORF_FELNER[number]) if number in KORF_FELNER else ""
        command = [args.eight, "--verbose", "--shape", "5x5", "--goal", GOAL]
        started = time.monotonic()
        child = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            out, err = child.communicate(board + "\n", timeout=args.cap)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            bounds = [(int(b), int(p), float(t)) for b, p, t in BOUND.findall(err)]
            reached, projected, rate = "", "", ""
            if bounds:
                bound, positions, seconds = bounds[-1]
                reached = f" (in the bound of {bound}, after {positions:,} positions)"
                rate = f"{positions / seconds / 1e6:.1f} million"
                projected = project(bounds, optimal)
                stopped.append((number, bounds))
            print(
                f"| {number} | {optimal} | over {args.cap:.0f} s{reached} | {projected} | "
                f"| {theirs} | | {rate} |",
                flush=True,
            )
            continue
        seconds = time.monotonic() - started
        answer = out.strip()
        if child.returncode != 0 or not re.fullmatch(r"[udlr]+", answer):
            raise SystemExit(f"instance {number}: no answer ({answer!r}): {err.strip()}")
        if len(answer) != optimal:
            raise SystemExit(f"instance {number}: {len(answer)} moves, the file says {optimal}")
        ended = ENDED.findall(err)
        positions = int(ended[-1][1]) if ended else None
        generated = f"{int(ended[-1][3]):,}" if ended else ""
        rate = f"{positions / seconds / 1e6:.1f} million" if positions else ""
        shown = f"{positions:,}" if positions else "(under a second: not told)"
        print(
            f"| {number} | {optimal} | {len(answer)} | {shown} | {generated} | {theirs} "
            f"| {seconds:.1f} s | {rate} |",
            flush=True,
        )
    if stopped:
        print()
        print("Positions searched before each bound, of the instances stopped at the cap:")
        print()
        for number, bounds in stopped:
            told = ", ".join(f"{b}: {p:,}" for b, p, _ in bounds)
            print(f"- #{number}: {told}")


def project(bounds, optimal):
    """The positions and time to the answer of a search stopped in a
    bound, from `bounds` (each bound started: its moves, the positions
    before it, the seconds): each bound to come takes the last two whole
    bounds' ratio times the one before, and the answer's bound is searched
    from none of it to all of it. Empty without two whole bounds."""
    if len(bounds) < 3:
        return ""
    widths = [(b, later[1] - p) for (b, p, _), later in zip(bounds, bounds[1:])]
    (b1, w1), (b2, w2) = widths[-2], widths[-1]
    step = b2 - b1
    ratio = w2 / w1
    low = bounds[-1][1]
    width = w2
    for _ in range(bounds[-1][0], optimal, step):
        width *= ratio
        low += width
    high = low + width * ratio
    rate = bounds[-1][1] / bounds[-1][2]
    return (
        f"projected {scientific(low)} to {scientific(high)} ({ratio:.1f} times a bound), "
        f"{duration(low / rate)} to {duration(high / rate)}"
    )


def scientific(number):
    mantissa, exponent = f"{number:.1e}".split("e")
    return f"{mantissa} * 10^{int(exponent)}"


def duration(seconds):
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    main()
