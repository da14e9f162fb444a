"""What an operator (or a test) can tune about the web site, in one immutable value."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite:///" + str(Path("data") / "tictactoe.db")


@dataclass(frozen=True)
class Settings:
    """The site's settings; every field has the embedded default of `tictactoe serve`."""

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    # A player disconnected this long on their turn lets the opponent claim the win (Lichess: 60 s).
    claim_after_seconds: float = 60.0
    # Bigger WebSocket messages are refused with an error; the socket stays open.
    max_message_bytes: int = 4096
    # How long the computer thinks per move, and how many processes it may think in.
    computer_think_ms: int = 300
    computer_workers: int = 1
    # The absolute base of table links (e.g. "https://ttt.example"); None: taken from the request.
    public_url: str | None = None
    # Frames queued for one slow socket before it is dropped (every frame is a full state anyway).
    max_queued_frames: int = 64
