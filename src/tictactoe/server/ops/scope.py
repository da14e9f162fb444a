"""What our layers read from an ASGI scope, and what they leave in it for the layers further in:
the client's address, the cross-site mark of the browser protections, the send-at-once extension
of the lean WebSocket protocol."""

from __future__ import annotations

from starlette.types import Scope

# Set by the browser protections (`edge.security`) for the identity cookie's middleware, further in.
CROSS_SITE = "tictactoe.cross_site"
# Offered by `edge.websocket_protocol`: `scope["extensions"][SEND_TEXT_NOW](text) -> bool`.
SEND_TEXT_NOW = "tictactoe.send_text_now"


def client_address(scope: Scope) -> str:
    """The client's address (behind trusted proxies: as they say), or "unknown".

    >>> client_address({"client": ("203.0.113.7", 5000)}), client_address({})
    ('203.0.113.7', 'unknown')
    """
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
