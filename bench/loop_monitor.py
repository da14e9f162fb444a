"""Watches a process's event loop and garbage collector from inside, for bench/server.py.

    python bench/loop_monitor.py OUT.jsonl serve --port 8000 ...   # `tictactoe serve`, watched

A task on the loop asks to wake every `TICK` seconds and notes how late it wakes: the longest
lateness is the longest the loop was kept from running anything (a stall: a full garbage
collection, a slow callback, or, on a crowded machine, the kernel giving the core to another
process). So it also notes the processor time the loop's thread spent meanwhile (`cpu_stall`):
what the process itself kept the loop busy with, whoever else wants the core. `gc.callbacks`
times every collection, by generation, in the thread's processor time. Every `WINDOW` seconds
one JSON line goes to OUT: `{"t": time.monotonic(), "stall": longest lateness (s),
"cpu_stall": (s), "gc_max": [longest pause per generation (s)], "gc_n": [collections per
generation]}`, so that the bench can take the figures of the windows it measured in (the clock
is the machine's monotonic clock, the same in every process).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
from typing import Any, TextIO

TICK = 0.005
WINDOW = 0.5


class LoopMonitor:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.stall = 0.0
        self.cpu_stall = 0.0
        self.gc_max = [0.0, 0.0, 0.0]
        self.gc_n = [0, 0, 0]
        self._gc_started = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
            return
        generation = info["generation"]
        pause = time.thread_time() - self._gc_started
        self.gc_n[generation] += 1
        self.gc_max[generation] = max(self.gc_max[generation], pause)

    async def run(self) -> None:
        flushed = time.monotonic()
        while True:
            expected, cpu = time.monotonic() + TICK, time.thread_time()
            await asyncio.sleep(TICK)
            now = time.monotonic()
            self.stall = max(self.stall, now - expected)
            self.cpu_stall = max(self.cpu_stall, time.thread_time() - cpu)
            if now - flushed >= WINDOW:
                line = {"t": now, "stall": self.stall, "cpu_stall": self.cpu_stall}
                line |= {"gc_max": self.gc_max, "gc_n": self.gc_n}
                self.out.write(json.dumps(line) + "\n")
                self.out.flush()
                flushed = now
                self.stall, self.cpu_stall = 0.0, 0.0
                self.gc_max, self.gc_n = [0.0, 0.0, 0.0], [0, 0, 0]


def start(path: str) -> None:
    """Starts watching the running loop (call from code that runs on it)."""
    monitor = LoopMonitor(open(path, "a"))  # noqa: SIM115  (open for the process's life)
    task = asyncio.get_running_loop().create_task(monitor.run())
    _keep.append(task)


_keep: list[asyncio.Task[None]] = []


def windows(path: str, spans: list[tuple[float, float]]) -> dict[str, float]:
    """The figures of the lines written within `spans` ((start, end) monotonic times)."""
    stall, cpu_stall, gc_max, gc_n = 0.0, 0.0, [0.0, 0.0, 0.0], [0, 0, 0]
    with open(path) as lines:
        for text in lines:
            line = json.loads(text)
            # A line covers the WINDOW before its time.
            if not any(start < line["t"] <= end + WINDOW for start, end in spans):
                continue
            stall = max(stall, line["stall"])
            cpu_stall = max(cpu_stall, line["cpu_stall"])
            for generation in range(3):
                gc_n[generation] += line["gc_n"][generation]
                gc_max[generation] = max(gc_max[generation], line["gc_max"][generation])
    return {
        "stall_ms": 1000 * stall,
        "cpu_stall_ms": 1000 * cpu_stall,
        "gc_young_ms": 1000 * max(gc_max[0], gc_max[1]),
        "gc_full_ms": 1000 * gc_max[2],
        "gc_full_n": gc_n[2],
        "gc_n": sum(gc_n),
    }


def serve_watched(out: str, argv: list[str]) -> int:
    """Runs `tictactoe ARGV` (serve, one process) with the monitor started on its loop."""
    from tictactoe import cli
    from tictactoe.server import serve_command

    build = serve_command.app_from_environment

    def app_from_environment() -> object:
        app = build()
        start(out)  # uvicorn builds the app on its running loop
        return app

    serve_command.app_from_environment = app_from_environment  # type: ignore[assignment]
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(serve_watched(sys.argv[1], sys.argv[2:]))
