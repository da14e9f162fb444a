"""`tictactoe bot TABLE_URL -- COMMAND…`: seat a CodinGame-protocol program at a web table.

Takes the table's free seat over the HTTP API, follows the table on its WebSocket, and on each of
its turns tells the program the opponent's last move and the valid actions, then plays its answer.
One program process per game (that is how arena bots expect to run); with `--games N` it asks
for rematches (the marks swap each game) and plays N games.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from asyncio.subprocess import Process

HELP = "play at a web table with any program that speaks the CodinGame Ultimate protocol"

ANSWER_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table_url", help="the table's link, e.g. http://127.0.0.1:8000/t/abc123")
    parser.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        help="after --: the bot program and its arguments, e.g. -- tictactoe engine --think-ms 90",
    )


def split_command(args: argparse.Namespace) -> tuple[int, list[str]]:
    """The number of games and the bot's command line. Options given after the table link (and
    before `--`) land in the remainder with the command, so they are read here.

    >>> parser = argparse.ArgumentParser()
    >>> add_arguments(parser)
    >>> split_command(parser.parse_args(["http://h/t/a", "--games", "2", "--", "bot", "-v"]))
    (2, ['bot', '-v'])
    >>> split_command(parser.parse_args(["--games", "3", "http://h/t/a", "--", "bot"]))
    (3, ['bot'])
    """
    rest = list(args.command)
    if "--" not in rest:
        return args.games, rest
    cut = rest.index("--")
    options = argparse.ArgumentParser(prog="tictactoe bot", add_help=False)
    options.add_argument("--games", type=int, default=args.games)
    return options.parse_args(rest[:cut]).games, rest[cut + 1 :]


def split_table_url(url: str) -> tuple[str, str]:
    """The site's base URL and the table id of a table link.

    >>> split_table_url("http://127.0.0.1:8000/t/abc123")
    ('http://127.0.0.1:8000', 'abc123')
    >>> split_table_url("https://example.org/play/t/XyZ/")
    ('https://example.org/play', 'XyZ')
    """
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    head, _, table_id = path.rpartition("/t/")
    if parts.scheme not in ("http", "https") or not table_id or "/" in table_id:
        raise ValueError(f"{url!r} is not a table link like http://host/t/<id>")
    return f"{parts.scheme}://{parts.netloc}{head}", table_id


def protocol_turn(table: dict[str, object]) -> str:
    """What the program reads for this turn: the opponent's last move as `row col` (`-1 -1` when
    it moves first), the number of valid actions, and one `row col` per action.

    >>> print(protocol_turn({"last_move": "e5", "legal_moves": ["d4", "f6"]}))
    4 4
    2
    5 3
    3 5
    """
    from tictactoe.engine.protocol_command import row_col_from_cell

    last = table.get("last_move")
    row, col = row_col_from_cell(last) if isinstance(last, str) else (-1, -1)
    legal = table["legal_moves"]
    assert isinstance(legal, list)
    cells = [row_col_from_cell(move) for move in legal]
    return "\n".join([f"{row} {col}", str(len(cells))] + [f"{r} {c}" for r, c in cells])


class BotProgram:
    """The bot's process for one game, spoken to line by line. Like an arena referee, it never
    waits on the bot without a time limit, and it kills the bot when its game ends: bots written
    from CodinGame's starter code (`while (1) { cin >> ...; cout << ...; }`) never exit by
    themselves, and at the end of their input print their last action forever."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.process: Process | None = None

    async def start(self) -> None:
        import asyncio

        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            # Its own process group: a bot started through a shell script dies with its children.
            start_new_session=True,
        )

    async def answer(self, turn: str) -> str:
        import asyncio

        from tictactoe.engine.protocol_command import cell_from_row_col

        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(turn.encode() + b"\n")
            await asyncio.wait_for(process.stdin.drain(), ANSWER_TIMEOUT_S)
            line = await asyncio.wait_for(process.stdout.readline(), ANSWER_TIMEOUT_S)
        except TimeoutError:
            raise RuntimeError(
                f"the bot program did not answer in {ANSWER_TIMEOUT_S:g} s"
            ) from None
        except (BrokenPipeError, ConnectionResetError, ValueError) as error:
            raise RuntimeError(f"the bot program could not be read: {error}") from None
        if not line:
            raise RuntimeError("the bot program ended without answering")
        try:
            row, col = (int(v) for v in line.split()[:2])
            return cell_from_row_col(row, col)
        except ValueError:
            raise RuntimeError(f"the bot program answered {line[:80]!r}, not 'row col'") from None

    async def stop(self) -> None:
        """Kills the bot (and its process group), reads what it still printed and reaps it, all
        within STOP_TIMEOUT_S: a process with an unread, full pipe would otherwise never be
        reaped (asyncio waits for the pipes to close)."""
        import asyncio
        import contextlib
        import os
        import signal

        process = self.process
        self.process = None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        if process.stdin is not None:
            process.stdin.close()

        async def drain_and_reap() -> None:
            if process.stdout is not None:
                while await process.stdout.read(1 << 16):
                    pass
            await process.wait()

        try:
            await asyncio.wait_for(drain_and_reap(), STOP_TIMEOUT_S)
        except TimeoutError:
            # A child that left the group still holds the pipe: give up on it, not on the games.
            print("tictactoe bot: the bot program's output did not close", file=sys.stderr)


def follow_move(table: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """The table after a `moved` frame, or None if the frame does not follow this table's
    version (then the client asks for the whole table with `sync`).

    >>> table = {"version": 3, "moves": ["e5"], "record": "e5", "turn": "o"}
    >>> frame = {"type": "moved", "version": 4, "previous": 3, "move": "e4",
    ...          "changes": {"turn": "x"}}
    >>> follow_move(table, frame)
    {'version': 4, 'moves': ['e5', 'e4'], 'record': 'e5 e4', 'turn': 'x'}
    >>> follow_move(table, {**frame, "previous": 2}) is None
    True
    """
    if table is None or frame.get("previous") != table["version"]:
        return None
    moves = [*table["moves"], frame["move"]]
    followed = {**table, **frame["changes"], "version": frame["version"], "moves": moves}
    followed["record"] = " ".join(moves)
    followed.pop("can_claim_win", None)  # no move leaves a claim standing
    return followed


async def play_at_table(url: str, command: list[str], games: int) -> list[str]:
    """Take the free seat at `url` and play `games` games with `command`; return each game's
    result from the bot's side ("win", "loss" or "draw")."""
    import json

    import httpx
    import websockets

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    base, table_id = split_table_url(url)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        answer = await http.post(f"/api/tables/{table_id}/seats")
        if answer.status_code != 200:
            message = answer.json().get("message", answer.text)
            raise SystemExit(f"tictactoe bot: cannot take a seat ({answer.status_code}: {message})")
        seat = answer.json()["seat"]
        token = answer.json()["token"]
    say(f"seated as {seat} at {url}")
    ws_url = base.replace("http", "ws", 1) + f"/api/tables/{table_id}/ws?token={token}"
    results: list[str] = []
    bot = BotProgram(command)
    playing: int | None = None  # the game number the bot process is playing
    asked: dict[tuple[int, int], str] = {}  # (game, ply) → the bot's answer, asked once
    sent_version = -1  # a frame can repeat a version (presence changes): send a move once
    table: dict[str, Any] | None = None
    try:
        async with websockets.connect(ws_url) as socket:
            async for text in socket:
                message = json.loads(text)
                if message.get("type") == "error":
                    say(f"refused ({message.get('reason')}): {message.get('message')}")
                    continue
                if message.get("type") == "moved":
                    followed = follow_move(table, message)
                    if followed is None:
                        # Frames were missed (or this one is old): ask for the whole table.
                        if table is None or message["version"] > table["version"]:
                            await socket.send(json.dumps({"type": "sync"}))
                        continue
                    table = followed
                elif message.get("type") == "table":
                    table = message["table"]
                    # The server names the seat this socket plays (rematches swap the marks).
                    seat = message.get("seat", seat)
                else:
                    continue
                assert table is not None
                if table["variant"] != "ultimate":
                    raise SystemExit("tictactoe bot: bots play ultimate tables only")
                game = int(table["game"])
                mark = seat
                if table["result"] is not None:
                    if playing == game:
                        await bot.stop()
                        playing = None
                        outcome = (
                            "draw"
                            if table["result"] == "draw"
                            else ("win" if table["result"] == mark else "loss")
                        )
                        results.append(outcome)
                        say(f"game {game}: {outcome} as {mark} ({table['record']})")
                        if len(results) >= games:
                            return results
                        await socket.send(json.dumps({"type": "rematch"}))
                    continue
                if table["turn"] != mark:
                    continue
                if playing != game:
                    await bot.stop()
                    await bot.start()
                    playing = game
                if table["version"] == sent_version:
                    continue
                key = (game, len(table["moves"]))
                if key not in asked:
                    asked[key] = await bot.answer(protocol_turn(table))
                sent_version = table["version"]
                move = {"type": "move", "move": asked[key], "version": table["version"]}
                await socket.send(json.dumps(move))
    finally:
        await bot.stop()
    return results


def run(args: argparse.Namespace) -> int:
    import asyncio

    games, command = split_command(args)
    if not command:
        raise SystemExit("tictactoe bot: give the bot's command after --, e.g. -- tictactoe engine")
    try:
        split_table_url(args.table_url)
    except ValueError as error:
        raise SystemExit(f"tictactoe bot: {error}") from None
    try:
        results = asyncio.run(play_at_table(args.table_url, command, games))
    except RuntimeError as error:
        raise SystemExit(f"tictactoe bot: {error}") from None
    print(" ".join(results))
    return 0
