"""Group commit: the saves that arrive in the same turn of the event loop (many tables moving in
the same instant) go to the database in one transaction, and each is acknowledged (its caller
resumes) only once that transaction has committed.

A save waits for the loop to run what is ready now (the other sockets' messages read in the
same turn), then all the saves queued meanwhile are written by one `commit_now` call: one
transaction, one commit, one write of each page they share. A save whose caller was cancelled
while it waited is not written (its caller never learns the outcome, so nothing may change).
When the write lock is held elsewhere, each save of the batch takes the waiting path on its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tictactoe.server.storage import StaleVersionError, StorageUnavailableError
from tictactoe.server.storage.writes import TableWrite

# The most saves in one transaction: a longer one holds the loop (and the lock) longer.
MOST_IN_ONE_COMMIT = 200


# Each save's outcome in a committed batch: None (written) or the stale version it met.
CommitNow = Callable[[list[TableWrite]], "list[StaleVersionError | None] | None"]

_LOCK_HELD = object()  # a batch's answer when the write lock was not free


class GroupCommit:
    """Batches saves into shared transactions. `commit_now(saves)` writes them in one transaction
    on the loop without waiting for a lock (None if it is held); `commit_waiting(save)` writes one
    save, waiting for the lock (off the loop)."""

    __slots__ = ("_commit_now", "_commit_waiting", "_pending")

    def __init__(
        self, commit_now: CommitNow, commit_waiting: Callable[[TableWrite], Awaitable[None]]
    ) -> None:
        self._commit_now = commit_now
        self._commit_waiting = commit_waiting
        self._pending: list[tuple[TableWrite, asyncio.Future[object]]] = []

    async def save(self, request: TableWrite) -> None:
        """Returns once `request` is committed; raises `StaleVersionError` (nothing written) or
        `StorageUnavailableError` (nothing of its batch written)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[object] = loop.create_future()
        self._pending.append((request, future))
        if len(self._pending) == 1:
            loop.call_soon(self._flush)
        if await future is _LOCK_HELD:
            await self._commit_waiting(request)

    def _flush(self) -> None:
        batch = [(save, future) for save, future in self._pending if not future.cancelled()]
        self._pending = []
        for start in range(0, len(batch), MOST_IN_ONE_COMMIT):
            self._commit(batch[start : start + MOST_IN_ONE_COMMIT])

    def _commit(self, batch: list[tuple[TableWrite, asyncio.Future[object]]]) -> None:
        try:
            outcomes = self._commit_now([save for save, _ in batch])
        except (StaleVersionError, StorageUnavailableError) as error:
            # Nothing of the batch written: each save says so, with an error of its own.
            for _, future in batch:
                own = type(error)(*error.args)
                own.__cause__ = error.__cause__
                future.set_exception(own)
            return
        except Exception as error:  # a fault of ours: each caller sees it rather than waiting
            for _, future in batch:
                future.set_exception(error)
            return
        if outcomes is None:
            for _, future in batch:
                future.set_result(_LOCK_HELD)
            return
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)
