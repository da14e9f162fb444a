"""A table's short code: six characters to read out or type on a phone, from an alphabet without
look-alikes (no 0/O, no 1/I/L), matched whatever the case."""

from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6


def new_code() -> str:
    """A fresh random code (31⁶ ≈ 887 million of them; the database refuses a duplicate).

    >>> code = new_code()
    >>> len(code) == LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def parse_code(text: str) -> str | None:
    """The code as stored (upper case, spaces and dashes dropped), or None if it cannot be one.

    >>> parse_code(" k7m-2pq ")
    'K7M2PQ'
    >>> parse_code("K7M2P0") is None  # a zero is never part of a code
    True
    """
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != LENGTH or not set(code) <= set(ALPHABET):
        return None
    return code
