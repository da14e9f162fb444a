"""What a table sends through pub/sub: its latest `table` frame, kept in its envelope until the
table changes (or its running clock makes it stale), and the frames published after a change:
the whole table, a small `moved` frame, or a message that is not the table (a reaction)."""

from __future__ import annotations

from typing import Any, Protocol

from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.pubsub import PubSub
from tictactoe.server.storage import MoveRecord, TableRecord
from tictactoe.server.table import view
from tictactoe.server.table.claim import ClaimWindow
from tictactoe.server.table.envelope import decode, encode, people, table_body
from tictactoe.server.table.events import Event
from tictactoe.server.table.messages import MessageId
from tictactoe.server.table.seats import Mark
from tictactoe.server.table.view import moved_frame

# A frame with a running clock is re-encoded when re-sent this much later, so its times are fresh.
_CLOCK_FRAME_FRESH = 0.5


def channel_of(table_id: str) -> str:
    """The pub/sub channel a table's frames are published on."""
    return f"table:{table_id}"


class Table(view.Table, Protocol):
    """What the frames are made from: the table (`actor.Table`) as its view sees it, and more."""

    @property
    def id(self) -> str: ...

    def now(self) -> float: ...

    def view(self) -> dict[str, Any]: ...

    def claim_possible_at(self) -> ClaimWindow | None: ...


class Broadcast:
    """A table's frames: made from the table (its owner), published on its channel."""

    def __init__(self, table: Table, pubsub: PubSub, now: float) -> None:
        self._table = table
        self._pubsub = pubsub
        self._envelope: str | None = None
        self._table_text = ""  # the table's JSON in `_envelope`
        self._envelope_at = now
        # Who is here changed since the last frame (a `moved` frame then carries seats too).
        self.company_changed = False

    def forget(self) -> None:
        """The table changed: the next frame is made afresh."""
        self._envelope, self._table_text = None, ""

    def envelope(self) -> str:
        """The table's latest `table` frame in its envelope (`envelope.py`), without events: what
        a socket gets on connecting and on `sync`."""
        table = self._table
        now = table.now()
        stale = now - self._envelope_at > _CLOCK_FRAME_FRESH and table.clock.running is not None
        if self._envelope is None or stale:
            self._table_text = compact_json(table.view())
            self._envelope = self._table_envelope(())
            self._envelope_at = now
        return self._envelope

    def frame_for(self, person: str | None, id: MessageId | None = None) -> str:
        """The `table` frame as this person (None: a spectator) gets it, answering message `id`."""
        return decode(self.envelope()).frame_for(person, id)

    def _table_envelope(self, events: tuple[Event, ...]) -> str:
        table = self._table
        claim = table.claim_possible_at()
        claimant = claim[0] if claim is not None and claim[1] <= table.now() else None
        body = table_body(events, self._table_text)
        return encode(body, table.record.version, *people(table.record), claimant=claimant)

    async def publish(self, events: tuple[Event, ...] = ()) -> None:
        """Publishes the whole table (every change but a move), with what the change did."""
        cached = self.envelope()
        envelope = self._table_envelope(events) if events else cached
        self.company_changed = False
        await self._pubsub.publish(channel_of(self._table.id), envelope)
        if self._envelope is cached:
            # Sent: an idle table keeps no copy of its ~3 KB frame (nor of the table's JSON).
            self.forget()

    async def publish_move(
        self, move: MoveRecord, before: TableRecord, events: tuple[Event, ...]
    ) -> None:
        """Publishes a move as a small `moved` frame, the same bytes for every socket."""
        table = self._table
        claim = table.claim_possible_at()
        if claim is not None and claim[1] <= table.now():
            # Someone may claim at once (a frame for that player alone): the whole table.
            await self.publish(events)
            return
        # Seats and watchers go in only if who is here changed since the last frame (through
        # another process, in scale-out); the player now to move gets the frame first.
        frame = moved_frame(table, move.move, before, self.company_changed, events)
        self.company_changed = False
        record = table.record
        first: Mark | None = table.game.turn if record.result is None else None  # type: ignore[assignment]
        envelope = encode(frame, record.version, *people(record), first=first, kind="f")
        await self._pubsub.publish(channel_of(table.id), envelope)

    async def say(self, message: dict[str, Any]) -> None:
        """Publishes a message that is not the table (e.g. a reaction). It carries the table's
        version, so relays pass it on like a frame of that version."""
        version = self._table.record.version
        frame = encode(compact_json({**message, "version": version}), version, (), (), kind="f")
        await self._pubsub.publish(channel_of(self._table.id), frame)
