"""What our layers read from an ASGI scope, and what they leave in it for the layers further in:
the client's address, the cross-site mark of the browser protections, the send-at-once extension
of the lean WebSocket protocol."""

from __future__ import annotations

import ipaddress

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


def address_key(address: str) -> str:
    """What per-address limits count an address as: an IPv6 address as its /64 (one household or
    one server holds a whole /64, so it could take a fresh address for every request), any
    other as itself.

    >>> address_key("2001:db8:1:2:aaaa::7"), address_key("203.0.113.7"), address_key("testclient")
    ('2001:db8:1:2::/64', '203.0.113.7', 'testclient')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)  # an IPv4 client on a dual-stack socket
        return str(ipaddress.IPv6Network((int(parsed) >> 64 << 64, 64)))
    return str(parsed)
