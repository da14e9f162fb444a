"""The table page's strings as a script of its own (`GET /strings/{lang}/table.js`), rendered from
the catalogs like the page. Kept out of the page, they are sent compressed (they carry nothing a
visitor typed, so gzip is safe here, unlike on pages) and cached for as long as the build lasts:
the page's `?v=` changes with every deployed commit."""

from __future__ import annotations

import functools
import gzip

from fastapi import APIRouter, Request
from fastapi.responses import Response

from tictactoe.server.web.templating import LANGUAGES, static_version, templates_for

router = APIRouter(include_in_schema=False)

_A_YEAR = 365 * 24 * 3600


@functools.cache
def table_strings_script(language: str) -> bytes:
    """The script that sets `self.pageStrings` for the table page in `language`, UTF-8."""
    template = templates_for(language).env.get_template("table_strings.html")
    return template.render().encode()


@functools.cache
def _compressed(language: str) -> bytes:
    return gzip.compress(table_strings_script(language), mtime=0)


@router.get("/strings/{language}/table.js")
async def table_strings(request: Request, language: str) -> Response:
    if language not in LANGUAGES:
        return Response("not found", status_code=404, media_type="text/plain")
    current = request.query_params.get("v") == static_version()
    headers = {
        "Cache-Control": f"public, max-age={_A_YEAR}, immutable" if current else "no-cache",
        "Vary": "Accept-Encoding",
    }
    body = table_strings_script(language)
    if "gzip" in request.headers.get("accept-encoding", ""):
        body = _compressed(language)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)
