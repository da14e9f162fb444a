"""Secrets without accounts: table ids, seat tokens and browser cookies are random (≥ 128 bits),
and only their SHA-256 hashes are stored."""

from __future__ import annotations

import hashlib
import re
import secrets

_SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{22,128}")


def new_secret() -> str:
    """A fresh random secret: 256 bits, URL-safe.

    >>> len(new_secret()), new_secret() != new_secret()
    (43, True)
    """
    return secrets.token_urlsafe(32)


def new_table_id() -> str:
    """A fresh table id: 128 random bits, URL-safe, so links can't be guessed.

    >>> len(new_table_id())
    22
    """
    return secrets.token_urlsafe(16)


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest stored in place of a secret.

    >>> hash_secret("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(secret.encode()).hexdigest()


def looks_like_secret(value: str | None) -> bool:
    """Whether a value could be one of our secrets (ids, tokens, cookies) at all."""
    return value is not None and _SECRET_PATTERN.fullmatch(value) is not None
