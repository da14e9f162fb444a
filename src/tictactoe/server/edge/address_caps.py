"""What one client address may hold open in `tictactoe serve`: at most `most_connections`
connections (WebSockets included) and at most `most_unfinished` of them with a request still
unfinished (its headers or body not all sent: a client that opens connections and never finishes
them). A new connection beyond either is answered 503 and closed, so one address can never fill
the server's global connection cap: the others, and the balancer's `/healthz`, are still served.

Addresses exempt from the rate limits, and trusted proxies (all their clients share their address;
the proxy caps them), are not capped. The defaults are far above what a household behind one
address opens (a browser keeps about six connections to a site, plus one socket per table tab).
"""

from __future__ import annotations

import functools
import ipaddress
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tictactoe.server.ops.scope import address_key

_TOO_MANY = b"too many connections from your address"
REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 5\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s"
    % (len(_TOO_MANY), _TOO_MANY)
)


@dataclass
class AddressCaps:
    """The open and unfinished connections of each client address, against their caps."""

    most_connections: int
    most_unfinished: int
    exempt: frozenset[str] = frozenset()
    trust_every_proxy: bool = False
    open: Counter[str] = field(default_factory=Counter)
    unfinished: Counter[str] = field(default_factory=Counter)
    _of: dict[int, str] = field(default_factory=dict)  # id(transport) → its counted address

    def admit(self, transport: Any) -> bool:
        """Counts a new connection; False (not counted) if its address is at a cap."""
        address = _peer(transport)
        if address is None or self.trust_every_proxy or _normal(address) in self.exempt:
            return True
        address = address_key(address)  # an IPv6 client counts as its /64
        if self.open[address] >= self.most_connections:
            return False
        if self.unfinished[address] >= self.most_unfinished:
            return False
        self.open[address] += 1
        self._of[id(transport)] = address
        return True

    def release(self, transport: Any) -> None:
        """The connection closed (whichever protocol held it last); idempotent."""
        address = self._of.pop(id(transport), None)
        if address is not None:
            _down(self.open, address)

    def request_started(self, transport: Any) -> None:
        """The connection waits for a request's headers and body (new, or between requests)."""
        address = self._of.get(id(transport))
        if address is not None:
            self.unfinished[address] += 1

    def request_finished(self, transport: Any) -> None:
        address = self._of.get(id(transport))
        if address is not None:
            _down(self.unfinished, address)


def _down(counter: Counter[str], address: str) -> None:
    counter[address] -= 1
    if counter[address] <= 0:
        del counter[address]


def _peer(transport: Any) -> str | None:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else None


def _normal(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def _listed(name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    text = os.environ.get(name)
    if text is None:
        return default
    return tuple(part.strip() for part in text.split(",") if part.strip())


@functools.cache
def address_caps() -> AddressCaps:
    """This process's caps, from its settings (`TICTACTOE_MAX_CONNECTIONS_PER_ADDRESS`,
    `TICTACTOE_MAX_UNFINISHED_PER_ADDRESS`): uvicorn's workers import the protocols by name, so
    each reads its own environment, as for the header timeout."""
    from tictactoe.server.settings import Settings

    default = Settings(database_url="memory://")
    most = os.environ.get("TICTACTOE_MAX_CONNECTIONS_PER_ADDRESS")
    unfinished = os.environ.get("TICTACTOE_MAX_UNFINISHED_PER_ADDRESS")
    exempt = _listed("TICTACTOE_RATE_LIMIT_EXEMPT", default.rate_limit_exempt)
    proxies = _listed("TICTACTOE_TRUSTED_PROXIES", default.trusted_proxies)
    return AddressCaps(
        most_connections=int(most) if most else default.max_connections_per_address,
        most_unfinished=int(unfinished) if unfinished else default.max_unfinished_per_address,
        exempt=frozenset(_normal(address) for address in (*exempt, *proxies)),
        trust_every_proxy="*" in proxies,
    )
