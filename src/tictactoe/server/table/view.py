"""What clients see of a table: its JSON (the API's and the WebSocket's `table`), and the envelope
a table's frame travels in through pub/sub.

A frame is encoded once per change and sent as is to every socket. The one per-viewer field,
`can_claim_win`, is added only for the player who may claim, so the envelope carries who that is:
one character (`x`, `o` or `-`), then the first 16 hex digits of the x and of the o player's seat
token hash (or `-` × 16), then the frame.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from tictactoe import Game
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock

MARKS: tuple[Literal["x"], Literal["o"]] = ("x", "o")

_KEY = 16
_NOBODY = "-" * _KEY
_HEADER = 1 + 2 * _KEY


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


def table_json(table: Table, base_url: str) -> dict[str, Any]:
    """The table as JSON (see SERVER_API.md), from its record, its game and who is connected."""
    record, game = table.record, table.game
    over = record.result is not None
    legal = [] if over else game.legal_moves()
    ultimate = record.variant == "ultimate"
    seats: dict[str, Any] = {}
    for mark in MARKS:
        holder = record.x if mark == "x" else record.o
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
            mates = record.x_mates if mark == "x" else record.o_mates
            side = [holder, *mates] if holder.taken else list(mates)
            entry["members"] = [
                {"connected": member.computer or table.person_connected(member.token_hash)}
                for member in side
            ]
        seats[mark] = entry
    return {
        "id": record.id,
        "url": table_url(base_url, record.id),
        "variant": record.variant,
        "size": record.size,
        "line": record.line,
        "opponent": record.opponent,
        "level": record.level,
        "game": record.game_number,
        "record": game.record,
        "start_position": record.start_position,
        "moves": list(game.moves),
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
        "version": record.version,
        "seats": seats,
        "rematch": {"x": record.rematch_x, "o": record.rematch_o},
        "score": {"x": record.score_x, "o": record.score_o, "draws": record.draws},
        "teams": record.teams,
        "teams_open": record.teams_open,
        "takebacks": record.takebacks,
        "takeback_asked_by": record.takeback_by,
        "private": record.private,
        "public": record.public,
        "code": record.code,
        "watchers": table.watchers,
        "draw_offer": record.draw_offer,
        "clock": table.clock.json(),
    }


def encode_envelope(
    frame: str, claimant: str | None, x_person: str | None, o_person: str | None
) -> str:
    """Wraps a frame with who may claim the win and who plays x and o.

    >>> envelope = encode_envelope('{"type":"table","table":{}}', "o", "a" * 64, "b" * 64)
    >>> frame_for_person(envelope, "b" * 64)
    '{"type":"table","table":{"can_claim_win":true}}'
    >>> frame_for_person(envelope, "a" * 64)
    '{"type":"table","table":{}}'
    """
    x_key = x_person[:_KEY] if x_person else _NOBODY
    o_key = o_person[:_KEY] if o_person else _NOBODY
    return (claimant or "-") + x_key + o_key + frame


def decode_envelope(envelope: str) -> tuple[str, str | None]:
    """The frame, and the key of the person who may claim the win (if anyone)."""
    claimant = envelope[0]
    if claimant == "x":
        key: str | None = envelope[1 : 1 + _KEY]
    elif claimant == "o":
        key = envelope[1 + _KEY : _HEADER]
    else:
        key = None
    return envelope[_HEADER:], key


def claim_frame(frame: str) -> str:
    """The frame with `can_claim_win` for the one player who may claim."""
    # The frame is '{"type":"table","table":{...}}': the flag goes last in the table.
    body = frame[:-2]
    return body + (
        ',"can_claim_win":true}}' if not body.endswith("{") else '"can_claim_win":true}}'
    )


def frame_for_person(envelope: str, person: str | None) -> str:
    """The frame as a person (seat token hash; None for a spectator) should get it."""
    frame, claimant_key = decode_envelope(envelope)
    if claimant_key is not None and person is not None and person[:_KEY] == claimant_key:
        return claim_frame(frame)
    return frame
