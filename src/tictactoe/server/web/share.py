"""Ways to pass a table on besides its link: its short code (`/j/{code}`, and the home page's
field) and a QR code of the link, drawn on the server as SVG (no outside request, no script)."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from tictactoe.server.table.codes import parse_code
from tictactoe.server.web.identity import site_base_url, tables_of
from tictactoe.server.web.templating import render

router = APIRouter(tags=["pages"])


@router.get("/j", include_in_schema=False)
async def join_by_typed_code(request: Request, code: str = "") -> Response:
    """The home page's code field (a plain GET form, so it works without scripts)."""
    return await _join(request, code)


@router.get("/j/{code}", summary="Open a table by its short code")
async def join_by_code(request: Request, code: str) -> Response:
    """Redirects to the table with this code (any case; spaces and dashes ignored), else 404."""
    return await _join(request, code)


async def _join(request: Request, text: str) -> Response:
    code = parse_code(text)
    table_id = None if code is None else await tables_of(request).storage.find_table_by_code(code)
    if table_id is None:
        context = {"code_not_found": text[:12]}
        return render(request, "not_found.html", context, status_code=404)
    return RedirectResponse(f"/t/{table_id}", status_code=303)


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
