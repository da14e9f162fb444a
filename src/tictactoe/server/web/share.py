"""Ways to pass a table on besides its link: its short code (`/j/{code}`, and the home page's
field) and a QR code of the link, drawn on the server as SVG (no outside request, no script)."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from tictactoe.server.table.codes import parse_code
from tictactoe.server.table.lobby import creator_mark
from tictactoe.server.web.identity import site_base_url, tables_of
from tictactoe.server.web.templating import render

router = APIRouter(tags=["pages"])


@router.get("/j", include_in_schema=False)
async def join_by_typed_code(request: Request, code: str = "") -> Response:
    """The home page's code field (a plain GET form, so it works without scripts)."""
    return await _join(request, code)


@router.get("/j/{code}", summary="Open a table by its short code")
async def join_by_code(request: Request, code: str) -> Response:
    """Redirects to the table with this code (any case; spaces and dashes ignored) while it waits
    for a player; afterwards to where its games are watched (never to a seat, and a private
    table's code then leads nowhere), else 404. Lookups are rate-limited per address."""
    return await _join(request, code)


async def _join(request: Request, text: str) -> Response:
    code = parse_code(text)
    tables = tables_of(request)
    table_id = None if code is None else await tables.storage.find_table_by_code(code)
    table = None if table_id is None else await tables.get(table_id)
    record = None if table is None else table.record
    if record is not None and record.result is None and creator_mark(record) is not None:
        return RedirectResponse(f"/t/{record.id}", status_code=303)  # it waits for a player
    if record is not None and not record.private:
        return RedirectResponse(f"/t/{record.id}/games", status_code=303)  # watch, not sit
    context = {"code_not_found": text[:12]}
    return render(request, "not_found.html", context, status_code=404)


@router.get("/t/{table_id}/qr.svg", summary="A QR code of the table's link")
async def table_qr_code(request: Request, table_id: str) -> Response:
    table = await tables_of(request).get(table_id)
    if table is None:
        return Response("there is no such table", status_code=404, media_type="text/plain")
    svg = qr_svg(table.view(site_base_url(request))["url"])
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


def qr_svg(link: str) -> str:
    """The link as a QR code in SVG, black on white with the quiet zone, scaled by the page.

    >>> qr_svg("http://127.0.0.1:8000/t/abc").startswith("<svg")
    True
    """
    out = io.BytesIO()
    segno.make(link, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, scale=1, border=4, omitsize=True
    )
    return out.getvalue().decode()
