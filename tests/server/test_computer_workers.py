"""The computer's worker processes end with the server that started them, even when it is killed
outright and cannot shut its pools down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# Starts a move pool, makes it start a worker, prints the worker's pid, then waits to be killed.
SERVER_STAND_IN = """
import os, sys, time
from tictactoe.server.table.computer import _new_pool
pool = _new_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def gone(pid: int) -> bool:
    """Whether `pid` has exited (a zombie left for a non-reaping init counts as exited)."""
    status = Path(f"/proc/{pid}/status")
    try:
        state = next(line for line in status.read_text().splitlines() if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError):
        return True
    return "Z" in state.split()[1]


def test_a_worker_leaves_when_its_server_is_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER_STAND_IN], stdout=subprocess.PIPE, text=True
    )
    worker = None
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert worker != server.pid and not gone(worker)
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        # Not a timing check: the worker looks every second; a minute only bounds a hang.
        deadline = time.monotonic() + 60
        while not gone(worker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert gone(worker), "the worker outlived its killed server"
    finally:
        server.kill()
        server.wait()
        if worker is not None and not gone(worker):
            os.kill(worker, signal.SIGKILL)
