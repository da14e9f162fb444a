"""The processes a benchmark starts and measures: a free port, a server started in a session of
its own and waited for, stopped with all it started; its processor time and memory from /proc;
the file limit raised for many sockets; and the percentile the figures are read at."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import time
from pathlib import Path


def percentile(values: list[float], fraction: float) -> float:
    """The value at `fraction` of the sorted values (NaN for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """The process's processor time so far (user + system), from /proc (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the process for port {port} exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"port {port} did not come up")


def raise_file_limit(wanted: int = 262_144) -> None:
    """Room for tens of thousands of sockets, here and in every process started from here."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), max(hard, wanted)))
    except (ValueError, OSError):  # not allowed to raise the hard limit: take what there is
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def spawn(
    command: list[str], env: dict[str, str] | None = None, log: str | None = None
) -> subprocess.Popen[bytes]:
    """Starts a process in a session of its own; what it prints goes to `log` (or nowhere)."""
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115  (the child's)
    return subprocess.Popen(
        command,
        stdout=output,
        stderr=output,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Ends the process and everything it started (its session): politely, then not."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
