"""Seat tokens never reach the log: a query's `token` is hidden however its name is written
(percent-escapes, any case), as the server decodes it."""

from __future__ import annotations

import logging
import sys

import pytest

from tictactoe.server.edge.logs import JSONFormatter, TextFormatter, redact

SECRET = "s3cr3tS3cr3tS3cr3tS3cr3t"


@pytest.mark.parametrize(
    "query",
    [
        f"token={SECRET}",
        f"tok%65n={SECRET}",
        f"%74%6F%6B%65%6E={SECRET}",
        f"Token={SECRET}",
        f"TOKEN={SECRET}",
        f"x=1&tok%45N={SECRET}&y=2",
        f"x=1;token={SECRET}",
        f"tok%2565n={SECRET}",  # escaped twice: hidden as well, whatever a later reader decodes
        f"token={SECRET[:6]}%20{SECRET[6:]}",
    ],
)
def test_a_token_in_a_query_is_hidden_however_its_name_is_written(query: str) -> None:
    line = f'127.0.0.1:5000 - "WebSocket /api/tables/abc/ws?{query}" [accepted]'
    assert SECRET not in redact(line) and SECRET[6:] not in redact(line)
    assert "/api/tables/abc/ws?" in redact(line)


def test_other_query_values_are_kept() -> None:
    assert redact("GET /games?variant=ultimate&page=2 HTTP/1.1") == (
        "GET /games?variant=ultimate&page=2 HTTP/1.1"
    )


@pytest.mark.parametrize("formatter", [JSONFormatter(), TextFormatter("%(message)s")])
def test_access_lines_are_redacted_by_both_formats(formatter: logging.Formatter) -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/api/tables/abc/ws?Tok%65n={SECRET}", "1.1", 200),
        None,
    )
    assert SECRET not in formatter.format(record)


@pytest.mark.parametrize("formatter", [JSONFormatter(), TextFormatter("%(message)s")])
def test_a_traceback_is_redacted_by_both_formats(formatter: logging.Formatter) -> None:
    try:
        raise RuntimeError("failed at /api/tables/abc/ws?token=s3cr3t-seat-token")
    except RuntimeError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "it failed", (), None)
        record.exc_info = sys.exc_info()
    line = formatter.format(record)
    assert "RuntimeError" in line and "s3cr3t-seat-token" not in line
