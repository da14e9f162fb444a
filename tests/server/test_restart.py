"""A real restart: `tictactoe serve` killed with SIGKILL mid-game loses no committed move, and the
game goes on after it starts again with the same seat tokens."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(database: Path, port: int, log: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """`tictactoe serve` on the SQLite file `database`; what it prints is piped, or written to
    `log` (a server answering hundreds of requests fills a pipe nobody reads, and then waits)."""
    output = log.open("ab") if log is not None else None
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tictactoe.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{database}",
        ],
        stdout=output or subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        # Generous: a start after SIGKILL recovers the WAL, and both cores may be busy.
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = log.read_bytes() if log is not None else b""
                    said += process.stdout.read() if process.stdout else b""
                    raise AssertionError(f"the server did not start:\n{said.decode()}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        if output is not None:
            output.close()


def test_sigkill_mid_game_loses_no_committed_move(tmp_path: Path) -> None:
    database, port = tmp_path / "tables.db", free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(database, port) as server:
        first_line = server.stdout.readline().decode() if server.stdout else ""
        assert f"http://127.0.0.1:{port}/" in first_line  # the address to open
        created = httpx.post(f"{base}/api/tables", json={"variant": "ultimate"}).json()
        table_url = f"{base}/api/tables/{created['id']}"
        guest = httpx.post(f"{table_url}/seats").json()
        tokens = {created["seat"]: created["token"], guest["seat"]: guest["token"]}
        for move in "e5 e4 d2 a4".split():
            turn = httpx.get(table_url).json()["turn"]
            answer = httpx.post(
                f"{table_url}/moves",
                json={"move": move},
                headers={"Authorization": f"Bearer {tokens[turn]}"},
            )
            assert answer.status_code == 200
        before = answer.json()
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)

    with serve(database, port):
        after = httpx.get(table_url).json()
        assert after["record"] == "e5 e4 d2 a4"
        assert after["version"] == before["version"] and after["turn"] == "x"
        answer = httpx.post(
            f"{table_url}/moves",
            json={"move": "b2", "version": after["version"]},
            headers={"Authorization": f"Bearer {tokens['x']}"},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["record"] == "e5 e4 d2 a4 b2"


def test_the_clock_survives_a_restart_and_a_time_out_while_down_ends_the_game(
    tmp_path: Path,
) -> None:
    database, port = tmp_path / "tables.db", free_port()
    base = f"http://127.0.0.1:{port}"

    def play(table_url: str, token: str, move: str) -> dict[str, object]:
        moved = httpx.post(
            f"{table_url}/moves", json={"move": move}, headers={"Authorization": f"Bearer {token}"}
        )
        assert moved.status_code == 200, moved.text
        table: dict[str, object] = moved.json()
        return table

    def seated(body: dict[str, object]) -> tuple[str, str, str]:
        """A new table with both seats taken: its URL, X's seat token and O's."""
        created = httpx.post(f"{base}/api/tables", json=body)
        assert created.status_code == 201, created.text
        table_url = f"{base}/api/tables/{created.json()['id']}"
        joined = httpx.post(f"{table_url}/seats")
        assert joined.status_code == 200, joined.text
        tokens = {answer.json()["seat"]: answer.json()["token"] for answer in (created, joined)}
        return table_url, tokens["x"], tokens["o"]

    def clocked_table(minutes: float) -> tuple[str, dict[str, object]]:
        """X's clock running: each side has made its first move (free), X is to move."""
        table_url, x, o = seated({"variant": "standard", "clock_minutes": minutes})
        play(table_url, x, "b2")
        return table_url, play(table_url, o, "a1")

    def o_to_move(minutes: float) -> str:
        """A table that starts with O to move (X's b2 already played); once both have made their
        first move here, O is to move again: only O's clock ever runs, so however slowly this
        machine answers, X cannot run out first."""
        body = {"variant": "standard", "clock_minutes": minutes, "position": ".../.x./... o"}
        table_url, x, o = seated(body)
        play(table_url, o, "a1")
        play(table_url, x, "c3")  # each side has moved once: O's clock runs
        return table_url

    with serve(database, port) as server:
        # Three hours (the most a table allows): however long the restart takes on a loaded
        # machine (a minute did run out once, with both cores busy), X's clock cannot.
        long_url, long_before = clocked_table(180.0)
        # 0.6 s: runs out while no process is up (or just before: either way O lost on time).
        short_url = o_to_move(0.01)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        killed_at = time.time()

    with serve(database, port):
        # Measured before asking: the server reads its clock later still, so O has lost at least
        # this much, however slowly the answer comes back on a loaded machine.
        down = time.time() - killed_at
        long_after = httpx.get(long_url).json()
        short_after = httpx.get(short_url).json()
    # X's clock kept running while no process was up, and runs on now; O's is as it was.
    clock_before: dict[str, float] = long_before["clock"]  # type: ignore[assignment]
    assert long_after["clock"]["running"] == "x" and long_after["result"] is None
    assert long_after["clock"]["x"] <= clock_before["x"] - down + 0.05
    assert long_after["clock"]["o"] == clock_before["o"]
    assert short_after["result"] == "x" and short_after["ended_by"] == "time"
    assert short_after["clock"]["o"] == 0
