"""`tictactoe bot`: a CodinGame-protocol program (our engine) takes the free seat at a web table
and plays a whole game there against a person playing through the HTTP API."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from tictactoe.engine.bot_command import protocol_turn, split_table_url

MEMORY = ["--database", "memory://"]
ENGINE = [sys.executable, "-m", "tictactoe.cli", "engine", "--think-ms", "10"]
BOT = [sys.executable, "-m", "tictactoe.cli", "bot"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def site() -> Iterator[str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(port), *MEMORY],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(f"{base}/", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_bot_plays_two_games_at_a_table_with_a_rematch_between(site: str) -> None:
    created = httpx.post(
        f"{site}/api/tables", json={"variant": "ultimate", "first": "me", "opponent": "friend"}
    ).json()
    assert created["seat"] == "x"
    headers = {"Authorization": f"Bearer {created['token']}"}
    bot = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tictactoe.cli",
            "bot",
            created["url"],
            "--games",
            "2",
            "--",
            *ENGINE,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    rng = random.Random(4)
    table_url = f"{site}/api/tables/{created['id']}"
    mine, game_number = "x", 1  # the person's mark; a rematch swaps it
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and bot.poll() is None:
            table = httpx.get(table_url).json()
            if table["game"] != game_number:
                game_number, mine = table["game"], ("o" if mine == "x" else "x")
            if table["result"] is not None:
                if game_number == 1 and not table["rematch"][mine]:
                    httpx.post(f"{table_url}/rematch", headers=headers)
                time.sleep(0.05)
            elif table["turn"] == mine and table["seats"]["o"]["taken"]:
                move = rng.choice(table["legal_moves"])
                answer = httpx.post(
                    f"{table_url}/moves",
                    json={"move": move, "version": table["version"]},
                    headers=headers,
                )
                assert answer.status_code in (200, 409), answer.text
            else:
                time.sleep(0.02)
        out, err = bot.communicate(timeout=30)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, err
    # Random moves lose to the engine, first as O (the person sat as X) and then as X.
    assert out.split() == ["win", "win"]
    assert "game 1: win as o" in err and "game 2: win as x" in err


def test_a_table_link_names_the_site_and_the_table() -> None:
    assert split_table_url("http://localhost:8000/t/a1B2") == ("http://localhost:8000", "a1B2")
    with pytest.raises(ValueError, match="table link"):
        split_table_url("http://localhost:8000/games/ultimate")


def test_the_program_reads_minus_one_when_it_moves_first() -> None:
    turn = protocol_turn({"last_move": None, "legal_moves": ["a9", "i1"]})
    assert turn.splitlines() == ["-1 -1", "2", "0 0", "8 8"]
