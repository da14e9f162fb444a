"""How a table's frame travels through pub/sub to the processes holding its sockets: an envelope,
one line of header, then the frame.

A frame is encoded once per change, not once per socket. The header says what each socket needs
to know to pass it on without reading the JSON: the table's `version` (a relay passes on nothing
older than what it sent), the `kind`, and who plays x and who plays o (the first 16 hex digits
of each member's seat token hash). Two kinds:

- `f`, a frame sent as is to every socket (`moved`, `reaction`); its `mark` (or `-`) names the
  side whose sockets get it first: after a move, the player waiting for it.
- `t`, the whole table: each socket gets `{"type":"table","seat":…,…}` with its viewer's own
  `seat` (a teammate's is their side) and, for the side in `mark`, `can_claim_win`. The body is
  the rest of that frame (`"events":[…],"table":{…}}`), so a viewer's frame is its head and
  the body, with no JSON read or edited on the way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.events import Event
from tictactoe.server.table.messages import MessageId, Seat, event_json
from tictactoe.server.table.seats import members

KEY = 16  # hex digits of a seat token hash in the header: 64 bits tell the people apart

Kind = Literal["t", "f"]


@dataclass(frozen=True, slots=True)
class Envelope:
    """A decoded envelope: see the module's docstring."""

    version: int
    kind: Kind
    mark: Literal["x", "o"] | None
    x_keys: tuple[str, ...]
    o_keys: tuple[str, ...]
    body: str

    def seat_of(self, person: str | None) -> Seat:
        """The seat a person (seat token hash; None: a spectator) has in this frame."""
        if person is None:
            return "spectator"
        key = person[:KEY]
        if key in self.x_keys:
            return "x"
        if key in self.o_keys:
            return "o"
        return "spectator"

    def frame_for(self, person: str | None, id: MessageId | None = None) -> str:
        """The frame as this person should get it (`id`: the message it answers, if any).

        >>> envelope = decode(encode(table_body((), '{"version":5}'), 5, ["a" * 64], ["b" * 64],
        ...                          claimant="o"))
        >>> envelope.frame_for("b" * 64)
        '{"type":"table","seat":"o","can_claim_win":true,"events":[],"table":{"version":5}}'
        >>> envelope.frame_for(None, id=3)
        '{"type":"table","id":3,"seat":"spectator","events":[],"table":{"version":5}}'
        """
        if self.kind == "f":
            return self.body
        seat = self.seat_of(person)
        return table_head(seat, seat == self.mark, id) + self.body


_HEADS = {
    (seat, claim): '{"type":"table","seat":"'
    + seat
    + '"'
    + (',"can_claim_win":true,' if claim else ",")
    for seat in ("x", "o", "spectator")
    for claim in (False, True)
}


def table_head(seat: Seat, can_claim: bool, id: MessageId | None = None) -> str:
    """The start of a viewer's `table` frame, up to its body."""
    if id is None:
        return _HEADS[seat, can_claim]
    return '{"type":"table","id":' + compact_json(id) + _HEADS[seat, can_claim][15:]


def table_body(events: Iterable[Event], table_json: str) -> str:
    """The part of a `table` frame every viewer shares: its events and the table's JSON."""
    return (
        '"events":'
        + compact_json([event_json(event) for event in events])
        + ',"table":'
        + table_json
        + "}"
    )


def encode(
    body: str,
    version: int,
    x_people: Sequence[str | None],
    o_people: Sequence[str | None],
    *,
    claimant: Literal["x", "o"] | None = None,
    first: Literal["x", "o"] | None = None,
    kind: Kind = "t",
) -> str:
    """The envelope of a frame at `version`: a `table` frame's body (`kind` `t`, where
    `claimant` may claim the win), or any other frame, sent as is (`kind` `f`, to the sockets
    of `first` first).

    >>> encode('{"type":"pong"}', 3, ["a" * 64], [], first="x", kind="f")
    '3 f x aaaaaaaaaaaaaaaa -\\n{"type":"pong"}'
    """
    mark = claimant if kind == "t" else first
    return f"{version} {kind} {mark or '-'} {_keys(x_people)} {_keys(o_people)}\n{body}"


def people(record: TableRecord) -> tuple[list[str | None], list[str | None]]:
    """The seat token hashes of who plays x, and of who plays o (an envelope names them)."""
    x, o = members(record, "x"), members(record, "o")
    return [member.token_hash for member in x], [member.token_hash for member in o]


def _keys(people: Sequence[str | None]) -> str:
    return ",".join(person[:KEY] for person in people if person) or "-"


def decode(envelope: str) -> Envelope:
    """The envelope `encode` made.

    >>> decode(encode("{}", 7, ["a" * 64, None], ["b" * 64, "c" * 64], kind="f"))
    Envelope(version=7, kind='f', mark=None, x_keys=('aaaaaaaaaaaaaaaa',), \
o_keys=('bbbbbbbbbbbbbbbb', 'cccccccccccccccc'), body='{}')
    """
    header, _, body = envelope.partition("\n")
    version, kind, mark, x_keys, o_keys = header.split(" ")
    return Envelope(
        int(version),
        "t" if kind == "t" else "f",
        "x" if mark == "x" else "o" if mark == "o" else None,
        () if x_keys == "-" else tuple(x_keys.split(",")),
        () if o_keys == "-" else tuple(o_keys.split(",")),
        body,
    )
