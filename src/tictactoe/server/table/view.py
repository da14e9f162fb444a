"""What clients see of a table: its JSON (the API's and the WebSocket's `table`), and the `moved`
frame after a move (the shapes are written down in `messages`; how frames travel, in `envelope`).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from tictactoe import Game
from tictactoe.rules.ultimate import board_of
from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.events import Event
from tictactoe.server.table.messages import MovedFrame, event_json

MARKS: tuple[Literal["x"], Literal["o"]] = ("x", "o")


class Table(Protocol):
    """What the JSON is made from: a table's record and game, who is connected, its clock."""

    @property
    def record(self) -> TableRecord: ...

    @property
    def game(self) -> Game: ...

    @property
    def clock(self) -> Clock: ...

    def is_connected(self, mark: Literal["x", "o"]) -> bool: ...

    def away_since(self, mark: Literal["x", "o"]) -> float | None: ...

    def person_connected(self, person: str | None) -> bool: ...

    @property
    def watchers(self) -> int: ...


def table_url(base_url: str, table_id: str) -> str:
    """The table's link to share.

    >>> table_url("http://127.0.0.1:8000/", "abc")
    'http://127.0.0.1:8000/t/abc'
    """
    return f"{base_url.rstrip('/')}/t/{table_id}"


def seats_json(table: Table) -> dict[str, Any]:
    """The table's `seats`: who sits where and who is connected."""
    record = table.record
    seats: dict[str, Any] = {}
    for mark in MARKS:
        side = record.side(mark)
        holder = side.holder
        entry: dict[str, Any] = {
            "taken": holder.taken,
            "connected": table.is_connected(mark),
            "computer": holder.computer,
        }
        if holder.name is not None:
            entry["name"] = holder.name
        away = table.away_since(mark)
        if away is not None:
            entry["disconnected_since"] = away
        if record.teams:
            # In joining order; who is who stays private (the page knows its own place).
            entry["members"] = [
                {"connected": member.computer or table.person_connected(member.token_hash)}
                for member in side.members
            ]
        seats[mark] = entry
    return seats


def table_json(table: Table, base_url: str) -> dict[str, Any]:
    """The table as JSON (`web.table_bodies.TableView` documents it), from its record, its game
    and who is connected."""
    record = table.record
    return {
        "id": record.id,
        "url": table_url(base_url, record.id),
        "variant": record.variant,
        "size": record.size,
        "line": record.line,
        "opponent": record.opponent,
        "level": record.level,
        "game": record.game_number,
        "record": table.game.record,
        "start_position": record.start_position,
        "moves": list(table.game.moves),
        **move_changes(table),
        "version": record.version,
        "seats": seats_json(table),
        "rematch": {"x": record.x.rematch, "o": record.o.rematch},
        "teams": record.teams,
        "teams_open": record.teams_open,
        "takebacks": record.takebacks,
        "private": record.private,
        "public": record.public,
        "code": record.code,
        "tossed": record.tossed,
    }


def move_changes(table: Table) -> dict[str, Any]:
    """Every field of the table JSON that a move may change, besides `moves`, `record`,
    `version` and `seats` (a `moved` frame carries those its own way)."""
    record, game = table.record, table.game
    over = record.result is not None
    legal = [] if over else game.legal_moves()
    ultimate = record.variant == "ultimate"
    return {
        "last_move": game.last_move,
        "position": game.position(),
        "turn": game.turn,
        "result": record.result,
        "legal_moves": legal,
        "boards": game.boards() if ultimate else None,  # type: ignore[attr-defined]
        "sent_to": None if (over or not ultimate) else game.sent_to,  # type: ignore[attr-defined]
        "sends_to": (
            {move: game.sends_to(move) for move in legal}  # type: ignore[attr-defined]
            if ultimate
            else None
        ),
        "winning_lines": [list(line) for line in game.winning_lines()],
        "ended_by": record.ended_by,
        "score": {"x": record.x.score, "o": record.o.score, "draws": record.draws},
        "takeback_asked_by": record.takeback_by,
        "watchers": table.watchers,
        "draw_offer": record.draw_offer,
        "clock": table.clock.json(),
    }


def moved_frame(
    table: Table,
    move: str,
    before: TableRecord,
    company_changed: bool,
    events: tuple[Event, ...] = (),
) -> str:
    """The frame after a move: the table's new `version`, the `previous` one it follows, the
    `move` (appended to `moves` and `record`), and the `changes`: the fields of the table JSON
    that the move changed, from `before` (the record it was played on), with `seats` and
    `watchers` if `company_changed` (who is here changed since the last frame). Applied to the
    table of version `previous`, it gives the table of `version`; a client at another version
    asks for the table (`sync`). `events` are the move's (`moved`, and `game-over` if it ends).

    Every move changes the position, the turn, the last move and the legal moves (and, in
    Ultimate, where the opponent is sent and where each move would send them); the rest only
    at times: the result with its lines, how it ended and the score when the game ends, a
    pending takeback or draw offer when the move clears it, the clock when there is one, the
    small boards when the move closes one."""
    record = table.record
    changes = move_changes(table)
    unchanged = {"watchers"}  # a move moves no one
    if record.variant != "ultimate":
        unchanged |= {"boards", "sent_to", "sends_to"}
    elif changes["boards"][board_of(move)] is None:
        unchanged.add("boards")  # the move did not close its small board
    if record.result is None:
        unchanged |= {"result", "ended_by", "winning_lines", "score"}
    if before.takeback_by is None and record.takeback_by is None:
        unchanged.add("takeback_asked_by")
    if before.draw_offer is None and record.draw_offer is None:
        unchanged.add("draw_offer")
    if changes["clock"] is None:
        unchanged.add("clock")
    if company_changed:
        unchanged.discard("watchers")
        changes["seats"] = seats_json(table)
    changes = {name: value for name, value in changes.items() if name not in unchanged}
    body: MovedFrame = {
        "type": "moved",
        "version": record.version,
        "previous": before.version,
        "move": move,
        "changes": changes,
        "events": [event_json(event) for event in events],
    }
    return compact_json(body)
