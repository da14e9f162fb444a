"""Who is asking: the anonymous browser cookie `ttt_client`, seat tokens, and which seat a viewer
holds at a table. The secrets themselves are made in `table.tokens`.
"""

from __future__ import annotations

from typing import Literal

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tictactoe.server.ops.scope import CROSS_SITE
from tictactoe.server.table.messages import TableFrame
from tictactoe.server.table.tables import Tables
from tictactoe.server.table.tokens import hash_secret, looks_like_secret, new_secret
from tictactoe.server.web.templating import LANGUAGE_COOKIE

CLIENT_COOKIE = "ttt_client"
CLIENT_COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie
# The cookies this site reads; a request's others (other apps on the same host or parent domain,
# consent tools, analytics) are dropped before anything parses the header. Ours are short.
SITE_COOKIES = frozenset({CLIENT_COOKIE, LANGUAGE_COOKIE})
_SITE_COOKIE_MOST = 256

Seat = Literal["x", "o", "spectator"]


class TableNotFoundError(LookupError):
    """There is no table with that id."""


def client_hash(connection: HTTPConnection) -> str | None:
    """The hash of the caller's `ttt_client` cookie, if it has a well-formed one."""
    value = connection.cookies.get(CLIENT_COOKIE)
    return hash_secret(value) if value is not None and looks_like_secret(value) else None


class ClientCookieMiddleware:
    """Gives every HTTP caller without a `ttt_client` cookie a new one (HttpOnly, SameSite=Lax,
    Secure over https), except a cross-site request, which may lack the one it has. The request
    itself already carries the new cookie, so a table created or a seat taken by this very request
    is bound to it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ours = site_cookies(_cookie_header(scope))
        if looks_like_secret(ours.get(CLIENT_COOKIE, "")) or _may_lack_the_cookie(scope):
            await self.app(_with_cookies(scope, ours), receive, send)
            return
        value = new_secret()
        scope = _with_cookies(scope, {**ours, CLIENT_COOKIE: value})
        attributes = f"Path=/; Max-Age={CLIENT_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax"
        if scope.get("scheme") == "https":
            attributes += "; Secure"
        set_cookie = f"{CLIENT_COOKIE}={value}; {attributes}".encode()

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), (b"set-cookie", set_cookie)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _may_lack_the_cookie(scope: Scope) -> bool:
    """A cross-site request (the security middleware says which) comes without the SameSite=Lax
    cookie even when the browser has one: a new cookie would replace it. Only a top-level
    navigation (a link followed from another site) carries it, so only there is its absence
    real."""
    if not scope.get(CROSS_SITE, False):
        return False
    headers = dict(scope.get("headers", []))
    navigating = headers.get(b"sec-fetch-mode") == b"navigate"
    return not (scope["method"] in ("GET", "HEAD") and navigating)


def _cookie_header(scope: Scope) -> str:
    return "; ".join(
        value.decode("latin-1") for name, value in scope.get("headers", []) if name == b"cookie"
    )


def site_cookies(header: str) -> dict[str, str]:
    """This site's cookies in a `Cookie` header, in one linear pass that never unquotes: other
    cookies, however odd (spaces, JSON, quotes, backslashes, megabytes), are skipped, and of two
    cookies with one name the first well-formed one counts (browsers send the most specific
    first; a later one may come from a sibling site).

    >>> site_cookies('prefs={"a": 1}; consent=yes please; lang=de; ttt_client=short; lang=fr')
    {'lang': 'de'}
    """
    found: dict[str, str] = {}
    for chunk in header.split(";"):
        name, equals, value = chunk.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or name not in SITE_COOKIES or name in found:
            continue
        if _well_formed(name, value):
            found[name] = value
    return found


def _well_formed(name: str, value: str) -> bool:
    if len(value) > _SITE_COOKIE_MOST or not value.isascii() or not value.isprintable():
        return False
    return name != CLIENT_COOKIE or looks_like_secret(value)


def _with_cookies(scope: Scope, cookies: dict[str, str]) -> Scope:
    """The scope with a `Cookie` header of only these cookies (what Starlette's parser sees)."""
    scope = dict(scope)
    headers = [header for header in scope["headers"] if header[0] != b"cookie"]
    if cookies:
        line = "; ".join(f"{name}={value}" for name, value in cookies.items())
        headers.append((b"cookie", line.encode("latin-1")))
    scope["headers"] = headers
    return scope


def site_base_url(connection: HTTPConnection) -> str:
    """The address links given to this caller start with: the settings' public URL when set, else
    the one this very request was sent to (its Host header only ever shapes its own answer).

    >>> from starlette.requests import Request
    >>> scope = {"type": "http", "scheme": "http", "server": ("h", 80), "path": "/",
    ...          "headers": [(b"host", b"ttt.example")], "query_string": b""}
    >>> site_base_url(Request(scope))
    'http://ttt.example/'
    """
    app = connection.scope.get("app")
    state = getattr(app, "state", None)
    tables = getattr(state, "tables", None)
    public = tables.settings.public_url if tables is not None else None
    if public:
        return public.rstrip("/") + "/"
    base = str(connection.base_url)
    return base.replace("ws://", "http://", 1).replace("wss://", "https://", 1)


def tables_of(connection: HTTPConnection) -> Tables:
    tables: Tables = connection.app.state.tables
    return tables


async def viewer_seat(request: HTTPConnection, table_id: str) -> Seat:
    """The seat the viewer's browser holds at the table: "x", "o" or "spectator".

    Raises `TableNotFoundError` if there is no such table (the page answers 404).
    """
    table = await tables_of(request).get(table_id)
    if table is None:
        raise TableNotFoundError(table_id)
    mark = table.mark_of(table.person_of_client(client_hash(request)))
    return mark if mark is not None else "spectator"


async def viewer_frame(request: HTTPConnection, table_id: str) -> TableFrame:
    """The `table` frame this viewer would get over the WebSocket on connecting (their `seat`,
    `can_claim_win` when it applies), for a page to render before its socket connects.

    Raises `TableNotFoundError` if there is no such table.
    """
    table = await tables_of(request).get(table_id)
    if table is None:
        raise TableNotFoundError(table_id)
    person = table.person_of_client(client_hash(request))
    mark = table.mark_of(person)
    frame: TableFrame = {
        "type": "table",
        "seat": mark if mark is not None else "spectator",
        "events": [],
        "table": table.view(site_base_url(request)),
    }
    if table.can_claim(person):
        frame["can_claim_win"] = True
    return frame
