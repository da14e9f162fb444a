"""Engine speed: random Ultimate playouts per second of the kernel, kernel perft, value network
evaluations per second, search iterations (simulations) per second of processor time of `max`,
of `max-2026` (`max` as on 2 December 2026) and of the baseline (`max` before the value
network), nodes per second of the standard solver, and how long `tictactoe engine` takes to
give its first answer from a cold start (Numba cache warm).

    uv run --frozen python bench/engine.py            # about 15 s
    uv run --frozen python bench/engine.py --seconds 1
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import time
from typing import Any

import numpy as np

import tictactoe
from tictactoe.engine import max_2026, warm_up
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine.fast_playout import fast_playout_batch
from tictactoe.engine.perft import perft
from tictactoe.engine.player import MAX_SETTINGS, MAX_VALUE_MIX
from tictactoe.engine.position import ultimate_state
from tictactoe.engine.progress import Progress
from tictactoe.engine.standard_player import StandardSearch


def playouts_per_second(seconds: float, policy: int) -> float:
    """Policy 0 random, 1 informed (`ultimate_kernel`), -1 `max`'s fast informed playout."""
    start = uk.new_state()

    def batch(count: int, seed: int) -> None:
        if policy < 0:
            fast_playout_batch(start, count, seed, int(MAX_SETTINGS.get("style", 0)))
        else:
            uk.playout_batch(start, count, seed, policy)

    batch(100, 1)  # compiled already; this loads it
    done, began, seed = 0, time.perf_counter(), 1
    while time.perf_counter() - began < seconds:
        batch(20_000, seed)
        done += 20_000
        seed += 1
    return done / (time.perf_counter() - began)


def search_iterations_per_second(seconds: float, **settings: Any) -> float:
    """Iterations of one search from `e5 e4` for `seconds` of the wall clock, per second of this
    thread's processor time (what a free core would run; a busy machine gives a search fewer
    processor seconds, not slower ones)."""
    state = ultimate_state(tictactoe.Game.from_record("ultimate", "e5 e4"))
    began, cpu = time.perf_counter(), time.thread_time()
    result = us.search(state, deadline=began + seconds, seed=1, **settings)
    return result.iterations / max(time.thread_time() - cpu, 1e-6)


def evaluations_per_second(seconds: float) -> float:
    from tictactoe.engine import value_net as vn

    net = vn.weights()
    active = np.empty(vn.MAX_ACTIVE, dtype=np.int64)
    sums = np.empty(net.b1.shape[0], dtype=np.int32)
    hidden = np.empty(net.b1.shape[0], dtype=np.float32)
    state = ultimate_state(tictactoe.Game.from_record("ultimate", "e5 e4"))
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(10_000):
            vn.value(state, net.w1, net.b1, net.w2t, net.b2, net.w3, net.b3, active, sums, hidden)
        done += 10_000
    return done / (time.perf_counter() - began)


def first_answer_seconds() -> tuple[float, float]:
    """Start `tictactoe engine` and time its first answer, as an arena would see it: wall time,
    and the processor time the engine used until the game ended (what the answer costs on a free
    core; on a busy machine the wall time also counts waiting for a core)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    engine = subprocess.Popen(
        [sys.executable, "-m", "tictactoe.cli", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    cells = "".join(f"{r} {c}\n" for r in range(9) for c in range(9))
    engine.stdin.write(f"-1 -1\n81\n{cells}")
    engine.stdin.flush()
    engine.stdout.readline()
    took = time.perf_counter() - began
    engine.stdin.close()
    engine.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return took, cpu


def standard_nodes_per_second(size: int, line: int, depth: int) -> tuple[float, int]:
    search = StandardSearch(tictactoe.new_game("standard", size=size, line=line))
    began = time.perf_counter()
    search.scores(depth)
    return search.nodes / (time.perf_counter() - began), search.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"machine: {platform.processor() or platform.machine()}, one core; commit {commit}")
    began = time.perf_counter()
    warm_up()
    print(f"load (or compile) the kernels: {time.perf_counter() - began:.2f} s")
    with Progress("benchmarks", total=10) as progress:
        random_rate = playouts_per_second(args.seconds, policy=0)
        progress.advance()
        informed_rate = playouts_per_second(args.seconds, policy=1)
        progress.advance()
        fast_rate = playouts_per_second(args.seconds, policy=-1)
        progress.advance()
        began = time.perf_counter()
        count = perft(tictactoe.new_game("ultimate"), 8)
        perft_seconds = time.perf_counter() - began
        progress.advance()
        iterations = search_iterations_per_second(
            args.seconds, value_mix=MAX_VALUE_MIX, **MAX_SETTINGS
        )
        frozen = search_iterations_per_second(args.seconds, **max_2026.SETTINGS)
        progress.advance()
        baseline = search_iterations_per_second(args.seconds, solver=us.SOLVER_FIRST)
        progress.advance()
        evaluations = evaluations_per_second(args.seconds)
        progress.advance()
        plain = search_iterations_per_second(
            args.seconds, exploration=0.7, policy=0, solver=False, prior=0
        )
        progress.advance()
        nodes, solved = standard_nodes_per_second(5, 4, 8)
        progress.advance()
        first, first_cpu = min(first_answer_seconds() for _ in range(3))
        progress.advance()
    print(f"random playouts (Ultimate, from the start): {random_rate:,.0f}/s")
    print(f"informed playouts (the baseline's policy):  {informed_rate:,.0f}/s")
    print(f"fast informed playouts (max's policy):      {fast_rate:,.0f}/s")
    print(f"perft ultimate 8 = {count:,} in {perft_seconds:.2f} s")
    print(f"value network: {evaluations:,.0f} evaluations/s")
    print(
        f"max search (MCTS + exact solver, value {MAX_VALUE_MIX} + fast playouts,"
        f" {MAX_SETTINGS}): {iterations:,.0f} iterations/s of processor time"
    )
    print(f"max-2026 (max as on 2 December 2026, frozen): {frozen:,.0f} iterations/s")
    print(f"baseline (max before the value network): {baseline:,.0f} iterations/s")
    print(f"plain UCT (the ladder's baseline, random playouts): {plain:,.0f} iterations/s")
    print(f"standard 5x5 line 4 alpha-beta, depth 8: {nodes:,.0f} nodes/s ({solved:,} nodes)")
    print(
        f"tictactoe engine, first answer from a cold start (best of 3): {first * 1000:.0f} ms"
        f" ({first_cpu * 1000:.0f} ms of processor time)"
    )


if __name__ == "__main__":
    main()
