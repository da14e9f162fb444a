"""The site's HTML pages: the home page (start a table), the table page and one page per game.

Pages are server-rendered shells; the table page's board is drawn by `static/table.js` from the
table the WebSocket sends. Everything a page says goes through gettext (see `templating`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from tictactoe.server.identity import (
    TableNotFoundError,
    client_hash,
    tables_of,
    viewer_seat,
    viewer_table,
)
from tictactoe.server.table import Refused
from tictactoe.server.tables import TableOptions
from tictactoe.server.templating import render

router = APIRouter(include_in_schema=False)

VARIANTS = ("standard", "ultimate")
SIZES = (3, 4, 5)
FIRSTS = ("me", "friend", "random")
OPPONENTS = ("friend", "computer")
LEVELS = ("easy", "medium", "hard", "max")
DEFAULT_LINE = {3: 3, 4: 4, 5: 4}


@dataclass(frozen=True)
class TableForm:
    """The home page form's choices, preselected from the query string (links from game pages)."""

    variant: str = "standard"
    size: int = 3
    line: int = 3
    first: str = "me"
    opponent: str = "friend"
    level: str = "medium"

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
        return cls(
            variant=variant if variant in VARIANTS else cls.variant,
            size=size,
            line=line,
            first=first if first in FIRSTS else cls.first,
            opponent=opponent if opponent in OPPONENTS else cls.opponent,
            level=level if level in LEVELS else cls.level,
        )


def _int(text: str | None, allowed: tuple[int, ...], default: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        return default
    return value if value in allowed else default


@router.get("/")
async def home(request: Request) -> Response:
    form = TableForm.from_query(dict(request.query_params))
    return render(request, "home.html", {"form": form})


@router.post("/tables")
async def create_table_without_javascript(request: Request) -> Response:
    """The home form's fallback when scripts don't run: create the table, then open it."""
    # A plain urlencoded body: parsing it here spares a multipart dependency for six fields.
    fields = parse_qs((await request.body()).decode("utf-8", "replace"))
    form = TableForm.from_query({key: values[-1] for key, values in fields.items()})
    options = TableOptions(
        variant=form.variant,
        size=form.size if form.variant == "standard" else None,
        line=form.line if form.variant == "standard" else None,
        first=form.first,
        opponent=form.opponent,
        level=form.level if form.opponent == "computer" else None,
    )
    try:
        table, _mark, _token = await tables_of(request).create(options, client_hash(request))
    except Refused:
        return render(request, "home.html", {"form": form, "form_error": True}, status_code=422)
    return RedirectResponse(f"/t/{table.id}", status_code=303)


@router.get("/t/{table_id}")
async def table_page(request: Request, table_id: str) -> Response:
    try:
        seat = await viewer_seat(request, table_id)
        table = await viewer_table(request, table_id)
    except TableNotFoundError:
        return render(request, "not_found.html", status_code=404)
    context = {"table_id": table_id, "table": table, "seat": seat, "share_url": table["url"]}
    return render(request, "table.html", context)


@router.get("/games/standard")
async def standard_rules(request: Request) -> Response:
    return render(request, "game_standard.html")


@router.get("/games/ultimate")
async def ultimate_rules(request: Request) -> Response:
    return render(request, "game_ultimate.html")
