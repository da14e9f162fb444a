"""Private PostgreSQL and Redis servers for the tests, and `tictactoe serve` processes on them.

Nothing here touches the machine's own services on 5432/6379: each server gets a temporary
directory and a free port, and `stop()` removes it. PostgreSQL's tools refuse to run as root, so
as root they run as the `postgres` user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


def _postgres_bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise RuntimeError(f"{name} not found: run scripts/setup (installs Debian's postgresql)")
    return found


# Where a test cluster lives if the machine has room in memory: every test database is a copy of
# template1 (hundreds of files), and deleting a session's worth of them from disk took 5-15 s.
MEMORY = Path("/dev/shm")
MEMORY_NEEDED = 2 << 30


def _scratch(durable: bool) -> str | None:
    """A memory-backed folder for a test cluster (`durable` ones, for benchmarks, stay on disk)."""
    with contextlib.suppress(OSError):
        if (
            not durable
            and os.access(MEMORY, os.W_OK)
            and shutil.disk_usage(MEMORY).free >= MEMORY_NEEDED
        ):
            return str(MEMORY)
    return None


class PostgresCluster:
    """A throwaway PostgreSQL cluster (initdb + pg_ctl) with trust auth on 127.0.0.1:`port`;
    `durable=False` (tests) skips fsync, `durable=True` (benchmarks) keeps PostgreSQL's defaults."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.directory = Path(tempfile.mkdtemp(prefix="ttt-pg-", dir=_scratch(durable)))
        self.data = self.directory / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        if self._as_root:
            shutil.chown(self.directory, "postgres", "postgres")
        self._run(
            [
                *(_postgres_bin("initdb"), "-D", str(self.data), "-A", "trust"),
                *("-U", "postgres", "-E", "UTF8", "--no-sync"),
            ]
        )
        self._databases = 0

    def _run(self, command: list[str]) -> None:
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.directory)

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1"
            " -c max_connections=200" + ("" if self.durable else " -c fsync=off")
        )
        self._run(
            [
                *(_postgres_bin("pg_ctl"), "-D", str(self.data), "-o", options),
                *("-l", str(self.directory / "log"), "-w", "start"),
            ]
        )

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run([_postgres_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.directory, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database on the cluster; its URL."""
        self._databases += 1
        name = f"ttt_{os.getpid()}_{self._databases}"
        self.sql(f"CREATE DATABASE {name}")
        return self.url(name)

    def sql(self, statement: str, database: str = "postgres") -> str:
        result = subprocess.run(
            [
                *(_postgres_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port)),
                *("-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1"),
                *("-c", statement),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        return result.stdout


class RedisServer:
    """A throwaway redis-server on 127.0.0.1:`port`, persistence off."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", tempfile.gettempdir()),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


class ServerProcess:
    """`tictactoe serve` in a subprocess on a free port; `kill()` is a SIGKILL."""

    def __init__(
        self,
        database: str,
        redis: str | None,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
    ):
        self.database = database
        self.redis = redis
        self.args = args or []
        self.port = free_port()
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="ttt-serve-", suffix=".log")[1])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(self.port)]
        command += ["--database", self.database]
        if self.redis is not None:
            command += ["--redis", self.redis]
        command += self.args
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log.read_text()[-3000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base + "/healthz", timeout=1) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.1)
        raise TimeoutError(f"server did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when a host dies."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None

    def remove(self) -> None:
        self.stop()
        self.log.unlink(missing_ok=True)


# The `start_server` fixture: `start_server(database_url, redis_url, args=[...], **environment)`.
StartServer = Callable[..., ServerProcess]
