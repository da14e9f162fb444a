"""Structured logs: one JSON object per line (time, level, logger, process, message, and the
request's fields for access lines), for `tictactoe serve --log-format json` (the default in
scale-out, where lines from many processes meet in one log store). Seat tokens are never logged.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from typing import Any
from urllib.parse import unquote_plus

_QUERY = re.compile(r"\?([^\s\"'#]*)")
_SEPARATORS = re.compile(r"([&;])")
# Outside a query (a message that quotes one without its "?"): the plain name, in any case.
_SECRET_ANYWHERE = re.compile(r"(token=)[^&;\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    """The text with the value of every query parameter whose name, once percent-decoded, says
    `token` (in any case) hidden: the server decodes `tok%65n=` to `token=` and takes it.

    >>> redact('"WebSocket /api/tables/abc/ws?token=s3cr3t&x=1" [accepted]')
    '"WebSocket /api/tables/abc/ws?token=***&x=1" [accepted]'
    >>> redact("GET /api/tables/abc/ws?x=1&Tok%65n=s3cr3t HTTP/1.1")
    'GET /api/tables/abc/ws?x=1&Tok%65n=*** HTTP/1.1'
    """
    return _SECRET_ANYWHERE.sub(r"\1***", _QUERY.sub(_redacted_query, text))


def _redacted_query(found: re.Match[str]) -> str:
    parts = _SEPARATORS.split(found.group(1))
    for index, part in enumerate(parts):
        name, equals, _value = part.partition("=")
        if equals and "token" in _decoded(name).lower():
            parts[index] = f"{name}=***"
    return "?" + "".join(parts)


def _decoded(name: str) -> str:
    # Decoded until it stops changing: `%2565` is `%65` is `e`.
    for _ in range(5):
        plain = unquote_plus(name)
        if plain == name:
            break
        name = plain
    return name


class JSONFormatter(logging.Formatter):
    """Formats a record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": os.getpid(),
            "message": redact(record.getMessage()),
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            # uvicorn's access line: client, method, path, HTTP version, status.
            client, method, path, _version, status = args
            entry.update(client=client, method=method, path=redact(str(path)), status=status)
        if record.exc_info:
            entry["error"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """uvicorn's plain lines, without seat tokens."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def log_config(json_lines: bool, level: str = "info") -> dict[str, Any]:
    """The `logging.config.dictConfig` for uvicorn and the site: JSON lines, or uvicorn's text."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JSONFormatter"}
        if json_lines
        else {"()": f"{__name__}.TextFormatter", "fmt": "%(levelname)s:  %(name)s  %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "tictactoe": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
    }
