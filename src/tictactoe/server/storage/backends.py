"""Which storage a database URL means: in memory, SQLite or PostgreSQL."""

from __future__ import annotations

from tictactoe.server.storage import Storage


def open_storage(database_url: str) -> Storage:
    """The storage for a database URL: `memory://`, `sqlite:///path`, `postgresql://...`.

    >>> type(open_storage("memory://")).__name__
    'MemoryStorage'
    """
    if database_url.startswith("memory:"):
        from tictactoe.server.storage.memory import MemoryStorage

        return MemoryStorage()
    from tictactoe.server.storage.sql import SQLStorage

    return SQLStorage(database_url)
