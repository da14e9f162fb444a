"""How long `tictactoe engine` takes to give its first answer, as an arena sees it: from starting
the process to the first line it prints (issue 13: within 1 000 ms, cold Numba cache excepted).
One run first fills the cache; then `--runs` timed runs, each a new process answering the
opening position (`-1 -1` and the 81 valid actions). Prints min / median / max of the wall time,
and of the processor time each run used (on a busy machine the wall time also counts waiting for
a core).

    nice -n 10 uv run --frozen python bench/first_answer.py [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

OPENING = "-1 -1\n81\n" + "".join(f"{r} {c}\n" for r in range(9) for c in range(9))


def first_answer(extra: list[str]) -> tuple[float, float, str]:
    """Wall and processor seconds to the first answer, and the answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    engine = subprocess.Popen(
        [sys.executable, "-m", "tictactoe.cli", "engine", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write(OPENING)
    engine.stdin.flush()
    answer = engine.stdout.readline().strip()
    took = time.perf_counter() - began
    engine.stdin.close()
    engine.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return took, cpu, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--limit-ms", type=float, default=1000.0, help="the arena's first turn")
    parser.add_argument("extra", nargs="*", help="arguments for `tictactoe engine`")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"commit {commit}, load average {os.getloadavg()[0]:.2f} before")
    fill, _, _ = first_answer(args.extra)
    print(f"cache-filling run: {fill * 1000:.0f} ms")
    walls, cpus = [], []
    for _ in range(args.runs):
        wall, cpu, answer = first_answer(args.extra)
        walls.append(wall * 1000)
        cpus.append(cpu * 1000)
        print(f"  {wall * 1000:6.0f} ms wall, {cpu * 1000:6.0f} ms processor: {answer}")
    for name, values in (("wall", walls), ("processor", cpus)):
        low, mid, high = min(values), statistics.median(values), max(values)
        print(f"{name:>9}: min {low:.0f} ms, median {mid:.0f} ms, max {high:.0f} ms")
    print(f"load average {os.getloadavg()[0]:.2f} after")
    return 0 if max(walls) <= args.limit_ms else 1


if __name__ == "__main__":
    sys.exit(main())
