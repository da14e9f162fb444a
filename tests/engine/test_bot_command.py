"""`tictactoe bot`: a CodinGame-protocol program (our engine) takes the free seat at a web table
and plays a whole game there against a person playing through the HTTP API."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

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


# CodinGame's starter code: `while (1) { cin >> ...; cout << action << endl; }`. At the end of its
# input the reads fail and it prints its last action forever, as fast as the pipe takes it.
STARTER_C = r"""
#include <stdio.h>
int main(void) {
    int opponent_row = 0, opponent_col = 0, count = 0, row = 0, col = 0;
    while (1) {
        scanf("%d%d", &opponent_row, &opponent_col);
        scanf("%d", &count);
        for (int i = 0; i < count; i++) {
            int r, c;
            if (scanf("%d%d", &r, &c) == 2 && i == 0) { row = r; col = c; }
        }
        printf("%d %d\n", row, col);
        fflush(stdout);
    }
}
"""
STARTER_PY = """
import sys
row, col = 0, 0
while True:
    try:
        sys.stdin.readline()
        count = int(sys.stdin.readline())
        actions = [sys.stdin.readline().split() for _ in range(count)]
        row, col = actions[0]
    except (ValueError, IndexError):
        pass  # the end of the input: keep printing the last action, as the C starter does
    print(row, col, flush=True)
"""


def play_two_games(site: str, command: list[str], deadline_s: float) -> tuple[int, str, str]:
    """A person (random moves over the HTTP API) against `tictactoe bot` running `command`, two
    games with a rematch between; the bot command's exit status, output and log."""
    created = httpx.post(
        f"{site}/api/tables", json={"variant": "ultimate", "first": "me", "opponent": "friend"}
    ).json()
    assert created["seat"] == "x"
    headers = {"Authorization": f"Bearer {created['token']}"}
    bot = subprocess.Popen(
        [*BOT, created["url"], "--games", "2", "--", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    rng = random.Random(4)
    table_url = f"{site}/api/tables/{created['id']}"
    mine, game_number = "x", 1  # the person's mark; a rematch swaps it
    try:
        deadline = time.monotonic() + deadline_s
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
        out, err = bot.communicate(timeout=30 if bot.poll() is not None else 1)
    except subprocess.TimeoutExpired:
        bot.kill()
        out, err = bot.communicate()
        return -1, out, err
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    return bot.returncode, out, err


def test_the_bot_plays_two_games_at_a_table_with_a_rematch_between(site: str) -> None:
    returncode, out, err = play_two_games(site, ENGINE, deadline_s=180)
    assert returncode == 0, err
    # Random moves lose to the engine, first as O (the person sat as X) and then as X.
    assert out.split() == ["win", "win"]
    assert "game 1: win as o" in err and "game 2: win as x" in err


@pytest.mark.parametrize("language", ["c", "python"])
def test_a_starter_bot_that_prints_forever_at_the_end_of_its_input_plays_two_games(
    site: str, tmp_path: Path, language: str
) -> None:
    # Arena referees kill the bot when its game ends; waiting for it to exit instead never returns
    # once the unread pipe is full (found with a real arena bot).
    if language == "c":
        compiler = shutil.which("cc") or shutil.which("gcc")
        assert compiler is not None, "a C compiler is needed to build the starter bot"
        (tmp_path / "starter.c").write_text(STARTER_C)
        subprocess.run(
            [compiler, "-O2", "-o", str(tmp_path / "starter"), str(tmp_path / "starter.c")],
            check=True,
        )
        command = [str(tmp_path / "starter")]
    else:
        (tmp_path / "starter.py").write_text(STARTER_PY)
        command = [sys.executable, str(tmp_path / "starter.py")]
    returncode, out, err = play_two_games(site, command, deadline_s=180)
    assert returncode == 0, f"the bot command did not finish two games: {err[-2000:]}"
    results = out.split()
    assert len(results) == 2 and set(results) <= {"win", "loss", "draw"}, out
    assert "game 1:" in err and "game 2:" in err


def test_a_table_link_names_the_site_and_the_table() -> None:
    assert split_table_url("http://localhost:8000/t/a1B2") == ("http://localhost:8000", "a1B2")
    with pytest.raises(ValueError, match="table link"):
        split_table_url("http://localhost:8000/games/ultimate")


def test_the_program_reads_minus_one_when_it_moves_first() -> None:
    turn = protocol_turn({"last_move": None, "legal_moves": ["a9", "i1"]})
    assert turn.splitlines() == ["-1 -1", "2", "0 0", "8 8"]
