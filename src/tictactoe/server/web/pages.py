"""The site's HTML pages: the home page (start a table), the table page and one page per game.

Pages are server-rendered shells; the table page's board is drawn by `static/table.js` from the
table the WebSocket sends. Everything a page says goes through gettext (see `templating`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from tictactoe.engine import LEVELS
from tictactoe.server.ops.scope import client_address
from tictactoe.server.table import lobby
from tictactoe.server.table.commands import Refused, TakeSeat
from tictactoe.server.table.seats import members
from tictactoe.server.table.tables import TableOptions
from tictactoe.server.table.tokens import hash_secret, new_secret
from tictactoe.server.web.identity import (
    TableNotFoundError,
    client_hash,
    tables_of,
    viewer_frame,
)
from tictactoe.server.web.people_api import open_tables_here, play_someone
from tictactoe.server.web.templating import render

router = APIRouter(include_in_schema=False)

VARIANTS = ("standard", "ultimate")
SIZES = (3, 4, 5)
FIRSTS = ("me", "friend", "random")
OPPONENTS = ("friend", "computer", "here")
DEFAULT_LINE = {3: 3, 4: 4, 5: 4}
# The home form's clocks: "minutes+increment", as on most game sites.
CLOCKS = ("none", "1+0", "3+2", "5+3", "10+5")


@dataclass(frozen=True)
class TableForm:
    """The home page form's choices, preselected from the query string (links from game pages)."""

    variant: str = "standard"
    size: int = 3
    line: int = 3
    first: str = "me"
    opponent: str = "friend"
    level: str = "medium"
    teams: bool = False
    teams_closed: bool = False  # teams: nobody joins a side during a game (API: teams_open)
    takebacks: bool = False
    clock: str = "none"
    private: bool = False
    public: bool = False

    @classmethod
    def from_query(cls, query: dict[str, str]) -> TableForm:
        """Keep the query's valid choices, the defaults for the rest.

        >>> query = {"variant": "ultimate", "opponent": "computer", "size": "7"}
        >>> form = TableForm.from_query(query)
        >>> form.variant, form.opponent, form.size
        ('ultimate', 'computer', 3)
        >>> TableForm.from_query({"size": "5"}).line
        4
        """
        variant = query.get("variant", "")
        size = _int(query.get("size"), SIZES, cls.size)
        line = _int(query.get("line"), tuple(n for n in SIZES if n <= size), DEFAULT_LINE[size])
        first = query.get("first", "")
        opponent = query.get("opponent", "")
        level = query.get("level", "")
        clock = query.get("clock", "")
        return cls(
            variant=variant if variant in VARIANTS else cls.variant,
            size=size,
            line=line,
            first=first if first in FIRSTS else cls.first,
            opponent=opponent if opponent in OPPONENTS else cls.opponent,
            level=level if level in LEVELS else cls.level,
            teams=query.get("teams") == "on",
            teams_closed=query.get("teams_closed") == "on",
            takebacks=query.get("takebacks") == "on",
            clock=clock if clock in CLOCKS else cls.clock,
            private=query.get("private") == "on",
            public=query.get("public") == "on",
        )

    def options(self, public: bool | None = None) -> TableOptions:
        """The table these choices ask for (`public` overrides the form's)."""
        minutes, increment = self.clock_minutes_and_increment()
        return TableOptions(
            variant=self.variant,
            size=self.size if self.variant == "standard" else None,
            line=self.line if self.variant == "standard" else None,
            first=self.first,
            opponent=self.opponent,
            level=self.level if self.opponent == "computer" else None,
            teams=self.teams and self.opponent == "friend",
            teams_open=not (self.teams_closed and self.teams),
            takebacks=self.takebacks,
            private=self.private,
            clock_minutes=minutes,
            clock_increment=increment,
            public=(self.public and self.opponent == "friend") if public is None else public,
        )

    def clock_minutes_and_increment(self) -> tuple[float | None, float]:
        """The chosen clock for the API.

        >>> TableForm(clock="3+2").clock_minutes_and_increment()
        (3.0, 2.0)
        >>> TableForm().clock_minutes_and_increment()
        (None, 0.0)
        """
        if self.clock == "none":
            return None, 0.0
        minutes, _, increment = self.clock.partition("+")
        return float(minutes), float(increment)


def _int(text: str | None, allowed: tuple[int, ...], default: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        return default
    return value if value in allowed else default


@router.get("/")
async def home(request: Request) -> Response:
    form = TableForm.from_query(dict(request.query_params))
    return await _home(request, form)


async def _home(request: Request, form: TableForm, **context: object) -> Response:
    status = 422 if context.get("form_error") else 200
    listed = [
        {"id": record.id, **lobby.settings_of(record)} for record in await open_tables_here(request)
    ]
    context = {"form": form, "open_tables": listed, **context}
    return render(request, "home.html", context, status_code=status)


async def _form_of(request: Request) -> TableForm:
    # A plain urlencoded body: parsing it here spares a multipart dependency for a few fields.
    fields = parse_qs((await request.body()).decode("utf-8", "replace"))
    return TableForm.from_query({key: values[-1] for key, values in fields.items()})


@router.post("/tables")
async def create_table_without_javascript(request: Request) -> Response:
    """The home form's fallback when scripts don't run: create the table, then open it."""
    form = await _form_of(request)
    try:
        address = client_address(request.scope)
        table = (
            await tables_of(request).create(form.options(), client_hash(request), address)
        ).table
    except Refused:
        return await _home(request, form, form_error=True)
    return RedirectResponse(f"/t/{table.id}", status_code=303)


@router.post("/quick")
async def play_someone_without_javascript(request: Request) -> Response:
    """ "Play someone now" when scripts don't run: be paired, or open a table and wait there."""
    form = dataclasses.replace(await _form_of(request), opponent="friend", private=False)
    try:
        new, _paired = await play_someone(request, form.options(public=True))
    except Refused:
        return await _home(request, form, form_error=True)
    return RedirectResponse(f"/t/{new.table.id}", status_code=303)


@router.get("/t/{table_id}")
async def table_page(request: Request, table_id: str) -> Response:
    try:
        frame = await viewer_frame(request, table_id)
    except TableNotFoundError:
        return render(request, "not_found.html", status_code=404)
    table, seat = frame["table"], frame["seat"]
    if table["private"] and seat == "spectator":
        # Not the board: only whoever may still join is offered a seat.
        joinable = not all(info["taken"] for info in table["seats"].values()) or (
            table["teams"] and table["result"] is None
        )
        context = {"table_id": table_id, "joinable": joinable}
        return render(request, "private.html", context, status_code=200 if joinable else 409)
    context = {
        "table_id": table_id,
        "table": table,
        "frame": frame,
        "seat": seat,
        "share_url": table["url"],
        "member": await _member_index(request, table_id),
        # The page counts down to "Claim the win" while the opponent is away on their turn.
        "claim_after": request.app.state.settings.claim_after_seconds,
    }
    return render(request, "table.html", context)


async def _member_index(request: Request, table_id: str) -> int | None:
    """Teams: the viewer's place among their side's members (the table JSON lists them in order
    without saying who is who, so only this page knows which one is "you")."""
    table = await tables_of(request).get(table_id)
    if table is None or not table.record.teams:
        return None
    person = table.person_of_client(client_hash(request))
    mark = table.mark_of(person)
    if mark is None:
        return None
    side = [holder.token_hash for holder in members(table.record, mark)]
    return side.index(person) if person in side else None


@router.post("/t/{table_id}/seats")
async def take_seat_without_javascript(request: Request, table_id: str) -> Response:
    """The private page's join button (a plain form): take a seat, then open the table."""
    table = await tables_of(request).get(table_id)
    if table is None:
        return render(request, "not_found.html", status_code=404)
    # Taken meanwhile, or this browser sits here already: the page it redirects to says so.
    with contextlib.suppress(Refused):
        await table.apply(TakeSeat(hash_secret(new_secret()), client_hash(request)), None)
    return RedirectResponse(f"/t/{table_id}", status_code=303)


@router.get("/games/standard")
async def standard_rules(request: Request) -> Response:
    return render(request, "game_standard.html")


@router.get("/games/ultimate")
async def ultimate_rules(request: Request) -> Response:
    return render(request, "game_ultimate.html")
