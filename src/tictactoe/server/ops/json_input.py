"""Reading the JSON that clients send: Unicode text only, and nesting within bounds, so that no
body or socket message can make a handler fail. JSON can spell a lone surrogate (`"\\ud800"`),
which is no character and cannot be encoded as UTF-8; Python's parser recurses, so a deep enough
array raises RecursionError. Both are refused here (`UnreadableJSONError`), and their readers
answer with a clear 400 before any handler sees them."""

from __future__ import annotations

import json
from typing import Any

# Our bodies and messages are flat objects: a few levels cover every one of them.
MAX_DEPTH = 32


class UnreadableJSONError(ValueError):
    """Valid JSON syntax that is still no value a client may send; the message says why."""


def read_json(text: str | bytes) -> Any:
    """The value of `text`: raises `UnreadableJSONError` for lone surrogates and deep nesting,
    and `ValueError` (json.JSONDecodeError) for what is not JSON at all.

    >>> read_json('{"type": "move", "move": "e5"}')
    {'type': 'move', 'move': 'e5'}
    >>> read_json('{"token": "\\\\ud800"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tictactoe.server.ops.json_input.UnreadableJSONError: the JSON holds a lone surrogate ...
    >>> read_json("[" * 40 + "]" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tictactoe.server.ops.json_input.UnreadableJSONError: the JSON is nested too deeply ...
    """
    if isinstance(text, bytes):
        # As json.loads does: UTF-8, -16 or -32; bytes that are none of them are not JSON.
        text = text.decode(json.detect_encoding(text))
    try:
        value = json.loads(text)
    except RecursionError:
        raise UnreadableJSONError(_TOO_DEEP) from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise UnreadableJSONError(_TOO_DEEP)
    if "\\u" in text and _has_lone_surrogate(value):
        raise UnreadableJSONError(
            'the JSON holds a lone surrogate ("\\ud800"), which is not Unicode text'
        )
    return value


_TOO_DEEP = f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)"


def _depth(value: Any) -> int:
    # Iterative: the value may be nested nearly as deep as the parser's recursion allows.
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
