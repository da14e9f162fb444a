"""Per-address limits count an IPv6 client as its /64, and an unlisted proxy on this host is
reported (security review M5)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from tictactoe.server.edge.address_caps import AddressCaps
from tictactoe.server.edge.limits import RateLimitMiddleware
from tictactoe.server.settings import Settings


async def created(request: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 201, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def status_of(limits: RateLimitMiddleware, address: str, headers: list[Any] | None = None) -> int:
    """The status a table creation from `address` gets through the limits."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/tables",
        "client": (address, 5000),
        "headers": headers or [],
    }
    asyncio.run(limits(scope, receive, send))
    return int(sent[0]["status"])


def test_addresses_of_one_ipv6_64_share_one_limit() -> None:
    limits = RateLimitMiddleware(created, Settings(create_rate=(0.001, 2)))  # type: ignore[arg-type]
    one_64 = [f"2001:db8:1:2::{index:x}" for index in range(1, 4)]
    assert [status_of(limits, address) for address in one_64] == [201, 201, 429]
    assert status_of(limits, "2001:db8:1:3::1") == 201  # the next /64 is someone else
    assert [status_of(limits, "203.0.113.7") for _ in range(3)] == [201, 201, 429]
    assert status_of(limits, "203.0.113.8") == 201  # IPv4: each address its own


def test_connections_of_one_ipv6_64_share_one_cap() -> None:
    class Transport:
        def __init__(self, address: str) -> None:
            self.address = address

        def get_extra_info(self, name: str) -> Any:
            return (self.address, 5000, 0, 0)

    caps = AddressCaps(most_connections=2, most_unfinished=2)
    admitted = [caps.admit(Transport(f"2001:db8::{index}")) for index in range(1, 4)]
    assert admitted == [True, True, False]
    assert caps.admit(Transport("2001:db8:0:1::1"))


def test_a_proxy_on_this_host_that_is_not_trusted_is_reported_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = RateLimitMiddleware(created, Settings())  # type: ignore[arg-type]
    forwarded = [(b"x-forwarded-for", b"198.51.100.9")]
    with caplog.at_level(logging.WARNING, logger="tictactoe.server.edge.limits"):
        assert status_of(limits, "127.0.0.1") == 201  # a test on this host: nothing to say
        assert not caplog.records
        for _ in range(3):
            assert status_of(limits, "127.0.0.1", forwarded) == 201
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1 and "TICTACTOE_TRUSTED_PROXIES" in warnings[0]
