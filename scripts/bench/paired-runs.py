#!/usr/bin/env python3
"""Compares two commands' wall-clock time in pairs: each round runs both back to back (alternating which
goes first) and records B's time over A's; prints the median and quartiles of those ratios. On a VM whose
clock speed changes from phase to phase, a ratio within a pair is far steadier than either command's
medians over a whole run.

usage: scripts/bench/paired-runs.py ROUNDS FILE 'COMMAND A' 'COMMAND B'   ({F} in a command is FILE)
e.g.   scripts/bench/paired-runs.py 21 bench-data/bench-100mb.log \\
           'old/cdlog classify --threads 1 --format jsonl {F}' '.build/release/cdlog classify --threads 1 --format jsonl {F}'
"""
import statistics
import subprocess
import sys
import time


def seconds(command):
    start = time.perf_counter()
    subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main():
    if len(sys.argv) != 5 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__.split("\n\n")[1])
    rounds, path = int(sys.argv[1]), sys.argv[2]
    first, second = (command.replace("{F}", path) for command in sys.argv[3:5])
    ratios = []
    for round_number in range(rounds):
        if round_number % 2 == 0:
            a = seconds(first)
            b = seconds(second)
        else:
            b = seconds(second)
            a = seconds(first)
        ratios.append(b / a)
    ratios.sort()
    quartile = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"B/A time ratio over {rounds} pairs: median {statistics.median(ratios):.3f} "
          f"(quartiles {quartile[0]:.3f}–{quartile[2]:.3f})")


if __name__ == "__main__":
    main()
