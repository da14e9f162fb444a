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
    # The computer's analysis (reviews, the analysis board) has processes of its own, and at most
    # `analysis_queue` positions waiting for them; beyond that, 503 at once.
    analysis_workers: int = 1
    analysis_think_ms: int = 80
    analysis_queue: int = 8
    # The absolute base of table links (e.g. "https://ttt.example"); None: taken from the request.
    public_url: str | None = None
    # Frames queued for one slow socket before it is dropped (every frame is a full state anyway).
    max_queued_frames: int = 64
    # Tables kept in memory; beyond this, those without sockets are dropped (and reloaded from
    # storage when next used), oldest use first.
    max_open_tables: int = 10_000
    # -- scale-out and hardening (README "Scale-out") --
    # Proxies (IP addresses, or "*") whose X-Forwarded-For/-Proto are believed: behind one, the
    # client's address (for rate limits) and https (for Secure cookies) come from those headers.
    trusted_proxies: tuple[str, ...] = ()
    # Origins besides the site's own whose pages may open the WebSocket (e.g. "https://ttt.example").
    allowed_origins: tuple[str, ...] = ()
    # Serve Prometheus metrics at /metrics (TICTACTOE_METRICS=1); off: 404.
    metrics: bool = False
    # Largest HTTP request body accepted (413 beyond).
    max_body_bytes: int = 16 * 1024
    # `tictactoe serve`: a connection must send a request's headers within this many seconds
    # (408 and closed otherwise), and at most this many connections are open (503 beyond).
    header_timeout_seconds: float = 10.0
    max_connections: int = 4096
    # Per client address (see ops/address_caps.py): connections open, and connections whose
    # request is unfinished (headers or body still coming); 503 beyond. Far above a household's.
    max_connections_per_address: int = 256
    max_unfinished_per_address: int = 64
    # Rate limits as (per second sustained, burst): per client address for moves (and the other
    # actions), table creation and joins (taking a seat, opening a socket); per socket for messages.
    # Over a limit: 429 with Retry-After (HTTP) or an error frame with status 429 (WebSocket).
    move_rate: tuple[float, int] = (20.0, 120)
    create_rate: tuple[float, int] = (2.0, 60)
    join_rate: tuple[float, int] = (5.0, 60)
    socket_message_rate: tuple[float, int] = (20.0, 60)
    # The computer's analysis (the analysis board's evaluation, a game's analysis) per address.
    analysis_rate: tuple[float, int] = (1.0, 20)
    # Looking a table up by its short code (`/j/…`), per address: codes are short, so guessing
    # them must be slow.
    code_rate: tuple[float, int] = (0.2, 20)
    # Addresses without per-address limits: this host (tests, benchmarks). A proxy on this host
    # must be listed in trusted_proxies, so that clients are told apart by their real address.
    rate_limit_exempt: tuple[str, ...] = ("127.0.0.1", "::1")
