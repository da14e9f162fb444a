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

_SECRET_IN_QUERY = re.compile(r"(token=)[^&\s\"']+")


def redact(text: str) -> str:
    """The text with any `token=` query value hidden.

    >>> redact('"WebSocket /api/tables/abc/ws?token=s3cr3t&x=1" [accepted]')
    '"WebSocket /api/tables/abc/ws?token=***&x=1" [accepted]'
    """
    return _SECRET_IN_QUERY.sub(r"\1***", text)


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
            entry["error"] = self.formatException(record.exc_info)
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
