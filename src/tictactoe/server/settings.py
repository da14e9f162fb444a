"""What an operator (or a test) can tune about the web site, in one immutable value.

Code and tests build `Settings(...)` with what they choose; `tictactoe serve` reads each field
from `TICTACTOE_<FIELD>` (`Settings.from_environment()`, by pydantic-settings). A tuple is written
with commas (an empty value is an empty tuple), a rate as `per second,burst`; a bad value stops
the server with a message naming the variable.
"""

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, EnvSettingsSource, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///" + str(Path("data") / "tictactoe.db")

# (per second sustained, burst): both more than zero.
Rate = Annotated[tuple[Annotated[float, Field(gt=0)], Annotated[int, Field(gt=0)]], NoDecode]
Names = Annotated[tuple[str, ...], NoDecode]


class Settings(BaseSettings):
    """The site's settings; every field has the embedded default of `tictactoe serve`."""

    model_config = SettingsConfigDict(env_prefix="TICTACTOE_", frozen=True, extra="forbid")

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    # A player disconnected this long on their turn lets the opponent claim the win (Lichess: 60 s).
    claim_after_seconds: float = 60.0
    # Bigger WebSocket messages are refused with an error; the socket stays open.
    max_message_bytes: int = 4096
    # How long the computer thinks per move, and how many processes it may think in.
    computer_think_ms: int = 300
    computer_workers: int = 1
    # The computer's move shows at least this long after its turn began (an instant reply is easy
    # to miss), at every level and on its first move too; 0: at once (benchmarks, fast tests).
    computer_least_think_seconds: float = Field(default=0.6, ge=0, le=5)
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
    trusted_proxies: Names = ()
    # Origins besides the site's own whose pages may open the WebSocket (e.g. "https://ttt.example").
    allowed_origins: Names = ()
    # Serve Prometheus metrics at /metrics (TICTACTOE_METRICS=1); off: 404.
    metrics: bool = False
    # Largest HTTP request body accepted (413 beyond).
    max_body_bytes: int = 16 * 1024
    # `tictactoe serve`: a connection must send a request's headers within this many seconds
    # (408 and closed otherwise), and at most this many connections are open (503 beyond).
    header_timeout_seconds: float = 10.0
    max_connections: int = 4096
    # Per client address (see edge/address_caps.py): connections open, and connections whose
    # request is unfinished (headers or body still coming); 503 beyond. Far above a household's.
    max_connections_per_address: int = 256
    max_unfinished_per_address: int = 64
    # Rate limits as (per second sustained, burst): per client address for moves (and the other
    # actions), table creation and joins (taking a seat, opening a socket); per socket for messages.
    # Over a limit: 429 with Retry-After (HTTP) or an error frame with status 429 (WebSocket).
    move_rate: Rate = (20.0, 120)
    create_rate: Rate = (2.0, 60)
    join_rate: Rate = (5.0, 60)
    socket_message_rate: Rate = (20.0, 60)
    # The computer's analysis (the analysis board's evaluation, a game's analysis) per address.
    analysis_rate: Rate = (1.0, 20)
    # Looking a table up by its short code (`/j/…`), per address: codes are short, so guessing
    # them must be slow.
    code_rate: Rate = (0.2, 20)
    # Addresses without per-address limits: this host (tests, benchmarks). A proxy on this host
    # must be listed in trusted_proxies, so that clients are told apart by their real address.
    rate_limit_exempt: Names = ("127.0.0.1", "::1")

    @field_validator(
        "trusted_proxies",
        "allowed_origins",
        "rate_limit_exempt",
        "move_rate",
        "create_rate",
        "join_rate",
        "socket_message_rate",
        "analysis_rate",
        "code_rate",
        mode="before",
    )
    @classmethod
    def _commas(cls, value: Any) -> Any:
        """`a, b` from the environment is the tuple ("a", "b"); an empty value, ()."""
        if isinstance(value, str):
            return tuple(item.strip() for item in value.split(",") if item.strip())
        return value

    @field_validator("redis_url", "public_url", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if value == "" else value

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: Any, *others: Any, **more: Any
    ) -> Any:
        # Only what the code passes: the environment is read by `from_environment` alone.
        return (init_settings,)

    @classmethod
    def from_environment(cls, **chosen: Any) -> "Settings":
        """The settings from `TICTACTOE_<FIELD>` variables (over the defaults), then `chosen`;
        `BadSetting` names the variable of a bad value.

        >>> import os
        >>> os.environ["TICTACTOE_MOVE_RATE"] = "5, 10"
        >>> os.environ["TICTACTOE_TRUSTED_PROXIES"] = ""
        >>> settings = Settings.from_environment()
        >>> settings.move_rate, settings.trusted_proxies
        ((5.0, 10), ())
        >>> os.environ["TICTACTOE_MOVE_RATE"] = "5"
        >>> try:
        ...     Settings.from_environment()
        ... except BadSetting as error:
        ...     print(error)
        TICTACTOE_MOVE_RATE=5: Field required at 1 (a rate is "per second,burst", e.g. "20,120")
        >>> del os.environ["TICTACTOE_MOVE_RATE"], os.environ["TICTACTOE_TRUSTED_PROXIES"]
        """
        environment = EnvSettingsSource(cls, env_prefix="TICTACTOE_")()
        try:
            return cls(**{**environment, **chosen})
        except ValidationError as error:
            raise BadSetting.of(error, environment) from None


class BadSetting(ValueError):
    """A `TICTACTOE_<FIELD>` variable whose value the settings cannot take."""

    @classmethod
    def of(cls, error: ValidationError, environment: dict[str, Any]) -> "BadSetting":
        first = error.errors()[0]
        field = str(first["loc"][0])
        where = (
            " at " + ".".join(str(part) for part in first["loc"][1:]) if first["loc"][1:] else ""
        )
        hint = ' (a rate is "per second,burst", e.g. "20,120")' if field.endswith("_rate") else ""
        value = environment.get(field, "")
        return cls(f"TICTACTOE_{field.upper()}={value}: {first['msg']}{where}{hint}")
