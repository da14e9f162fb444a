"""An error the server sends to a browser's page is a page in the visitor's language, never raw
JSON: an unknown address, a form posted from another site, the database away. Scripts and bots
(which do not ask for `text/html`) keep the JSON answers the API documents."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from tictactoe.server.web.templating import render

# What the page says for a status; anything else gets the general "that did not work".
KINDS = {403: "cross_site", 404: "not_found", 405: "not_found", 503: "unavailable"}


def wants_a_page(request: Request) -> bool:
    """A browser navigating (a link followed, a form posted), not a script asking for JSON."""
    return "text/html" in request.headers.get("accept", "") and not request.url.path.startswith(
        "/api/"
    )


def error_page(request: Request, status: int) -> Response:
    """The page for `status` (the status is kept, so nothing caches it as a success)."""
    kind = KINDS.get(status, "other")
    response = render(request, "error.html", {"kind": kind}, status_code=status)
    if status == 503:
        response.headers["Retry-After"] = "2"
    return response


def cross_site_page(scope: Scope) -> Response:
    """The refusal of a form another site posted here, as a page."""
    return error_page(Request(scope), 403)
